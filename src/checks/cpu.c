/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of the CPU: the frequency governor (the identity's cpu part, sysinfo/cpu.c), boost, SMT, idle states
 * and /dev/cpu_dma_latency (the set-up and the process, sysinfo/setup.c and process.c). */
#include "checks/checks_internal.h"
#include "util/shquote.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The governors and how many CPUs run each: "powersave on 8 CPUs", "performance on 2, powersave on 2". */
static void governors_text(const json_t *govs, char *b, size_t n)
{
    const char *name;
    const json_t *count;
    size_t o = 0;
    b[0] = '\0';
    json_object_foreach((json_t *)govs, name, count) {
        int w = snprintf(b + o, o < n ? n - o : 0, "%s%s on %lld CPU%s", o ? ", " : "", name,
                         (long long)json_integer_value(count), json_integer_value(count) == 1 ? "" : "s");
        o += w > 0 ? (size_t)w : 0;
        if (o >= n)
            break;
    }
}

static void eval_governor(const json_t *sys, struct check_result *r)
{
    const json_t *cpu = json_object_get(sys, "cpu");
    const char *g = check_str(cpu, "governor");
    char govs[160];
    if (!g) {
        check_say(r, CHECK_SKIP, "no cpufreq governor (no /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor): "
                  "the kernel does not scale this CPU's frequency, as in most VMs");
        return;
    }
    governors_text(json_object_get(cpu, "governors"), govs, sizeof(govs));
    if (strcmp(g, "performance") == 0) {
        check_say(r, CHECK_OK, "governor performance (%s)", govs[0] ? govs : "every CPU");
        return;
    }
    check_say(r, CHECK_WARN, "governor %s (%s)", g, govs[0] ? govs : "no count per CPU");
    check_fix(r, WRAP_CMD("cpupower frequency-set -g performance") " (" WRAP_CMD("apt install linux-cpupower") "), while you play");
    check_advise(r, "The CPU frequency governor is %s: the CPU slows down between audio cycles and needs time to "
                 "speed up again. Set performance while you play (cpupower frequency-set -g performance).", g);
    check_hint(r, "the performance governor");
}

const struct check check_governor = {
    .id = "governor",
    .title = "The CPU frequency governor (performance)",
    .group = CHECK_CPU,
    .reads = "cpu.governor (/sys/devices/system/cpu/cpuN/cpufreq/scaling_governor)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_governor,
};


static void eval_boost(const json_t *sys, struct check_result *r)
{
    const json_t *b = json_object_get(check_setup(sys), "boost");
    const char *file = check_str(b, "file");
    if (!file) {
        check_say(r, CHECK_SKIP, "no boost control (/sys/devices/system/cpu/cpufreq/boost, /sys/devices/system/cpu/"
                  "intel_pstate/no_turbo): the CPU does not boost, or the kernel does not say");
        return;
    }
    int intel = strstr(file, "no_turbo") != NULL;
    double v = check_num(b, "value");
    if (!json_is_true(json_object_get(b, "on"))) {
        check_say(r, CHECK_OK, "boost is off (%s is %.0f)", file, v);
        return;
    }
    check_say(r, CHECK_WARN, "boost is on (%s is %.0f): the clock rises and falls with load and heat, and each "
              "change can stall the CPU for tens of microseconds", file, v);
    check_fix(r, WRAP_CMD("echo %d | sudo tee %s") " (while you play; TLP: CPU_BOOST_ON_AC=0)", intel ? 1 : 0, shq(file).s);
}

const struct check check_boost = {
    .id = "boost",
    .title = "CPU clock boost",
    .group = CHECK_CPU,
    .reads = "setup.boost (/sys/devices/system/cpu/cpufreq/boost or intel_pstate/no_turbo)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_boost,
};

static void eval_smt(const json_t *sys, struct check_result *r)
{
    const json_t *smt = json_object_get(json_object_get(sys, "cpu"), "smt"), *active = json_object_get(smt,
                                                                                                        "active");
    const char *control = check_str(smt, "control");
    /* The value read, not its truthiness: "0" is a string rtcqs took for "on". */
    if (control && (!strcmp(control, "notsupported") || !strcmp(control, "notimplemented"))) {
        check_say(r, CHECK_OK, "this CPU has no SMT (smt/control is %s)", control);
        return;
    }
    if (!json_is_boolean(active)) {
        check_say(r, CHECK_SKIP, "/sys/devices/system/cpu/smt/active could not be read, nor the CPU topology");
        return;
    }
    if (json_is_false(active)) {
        check_say(r, CHECK_OK, "SMT is off (smt/active 0, control %s)", control ? control : "unknown");
        return;
    }
    check_say(r, CHECK_WARN, "SMT is on (smt/active 1, control %s): two threads share each core, so a busy sibling "
              "slows the audio thread down", control ? control : "unknown");
    check_fix(r, WRAP_CMD("echo off | sudo tee /sys/devices/system/cpu/smt/control") " (to keep it: add nosmt to " GRUB_EDIT ")");
}

const struct check check_smt = {
    .id = "smt",
    .title = "Hyper-threading siblings of the audio core (SMT)",
    .group = CHECK_CPU,
    .reads = "cpu.smt (/sys/devices/system/cpu/smt/active and control)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_smt,
};

/* An idle state slower to leave than this delays the audio thread's wake-up by a noticeable part of a
 * 1.33 ms period (64 frames at 48 kHz). */
#define IDLE_EXIT_MAX_US CHECK_IDLE_EXIT_MAX_US

static void eval_idle_states(const json_t *sys, struct check_result *r)
{
    const json_t *idle = json_object_get(check_setup(sys), "idle"), *states = json_object_get(idle, "states");
    const char *driver = check_str(idle, "driver");
    if (json_array_size(states) == 0) {
        check_say(r, CHECK_SKIP, "no CPU idle states (/sys/devices/system/cpu/cpuN/cpuidle; driver %s)",
                  driver ? driver : "none");
        return;
    }
    size_t i;
    const json_t *st, *deep = NULL, *deepest = NULL;
    json_array_foreach(states, i, st) {
        if (check_num(st, "enabled_cpus") <= 0)
            continue;
        if (!deepest || check_num(st, "latency_us") > check_num(deepest, "latency_us"))
            deepest = st;
        if (check_num(st, "latency_us") > IDLE_EXIT_MAX_US && !deep)
            deep = st;
    }
    if (!deepest) {
        check_say(r, CHECK_OK, "every idle state is disabled (driver %s)", driver ? driver : "?");
        return;
    }
    if (!deep) {
        check_say(r, CHECK_OK, "the deepest idle state in use, %s, takes %.0f µs to leave (driver %s)",
                  check_str(deepest, "name"), check_num(deepest, "latency_us"), driver ? driver : "?");
        return;
    }
    check_say(r, CHECK_WARN, "deep idle states are enabled: %s takes %.0f µs to leave (on %.0f of %.0f CPUs; "
              "deepest %s, %.0f µs; driver %s)", check_str(deep, "name"), check_num(deep, "latency_us"),
              check_num(deep, "enabled_cpus"), check_num(deep, "cpus"), check_str(deepest, "name"),
              check_num(deepest, "latency_us"), driver ? driver : "?");
    check_fix(r, WRAP_CMD("sudo cpupower idle-set -D %d") " while you play (" WRAP_CMD("apt install linux-cpupower") "; it disables the states "
              "slower than %d us to leave), or boot with processor.max_cstate=1 intel_idle.max_cstate=1 (add them "
              "to " GRUB_EDIT ")", IDLE_EXIT_MAX_US, IDLE_EXIT_MAX_US);
}

const struct check check_idle_states = {
    .id = "idle_states",
    .title = "The exit latency of the CPU idle states",
    .group = CHECK_CPU,
    .reads = "setup.idle (/sys/devices/system/cpu/cpuN/cpuidle/stateN/{name,latency,disable})",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_idle_states,
};

static void eval_cpu_dma_latency(const json_t *sys, struct check_result *r)
{
    const json_t *setup = check_setup(sys), *p = check_process(sys);
    const json_t *dma = json_object_get(p, "cpu_dma_latency");
    if (!json_is_true(json_object_get(setup, "cpu_dma_latency"))) {
        check_say(r, CHECK_SKIP, "no /dev/cpu_dma_latency here (or the tree was not read)");
        return;
    }
    if (!json_is_boolean(json_object_get(dma, "writable"))) {
        check_say(r, CHECK_SKIP, "this process was not probed: whether /dev/cpu_dma_latency is writable depends on "
                  "who runs it");
        return;
    }
    const char *user = check_str(p, "user") ? check_str(p, "user") : "this user";
    if (json_is_true(json_object_get(dma, "writable"))) {
        check_say(r, CHECK_OK, "/dev/cpu_dma_latency is writable for %s: audio programs can keep the CPUs out of "
                  "deep idle states while they play", user);
        return;
    }
    check_say(r, CHECK_WARN, "/dev/cpu_dma_latency is not writable for %s (%s): audio programs cannot keep the CPUs "
              "out of deep idle states", user, check_str(dma, "error") ? check_str(dma, "error") : "?");
    check_fix(r, WRAP_CMD("echo 'KERNEL==\"cpu_dma_latency\", GROUP=\"audio\", MODE=\"0660\"' | sudo tee "
                       "/etc/udev/rules.d/99-cpu-dma-latency.rules") ", then "
              WRAP_CMD("sudo udevadm control --reload && sudo udevadm trigger --name-match=cpu_dma_latency"));
}

const struct check check_cpu_dma_latency = {
    .id = "cpu_dma_latency",
    .title = "Write access to /dev/cpu_dma_latency",
    .group = CHECK_CPU,
    .reads = "setup.cpu_dma_latency, process.cpu_dma_latency (/dev/cpu_dma_latency, as this user)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_cpu_dma_latency,
};
