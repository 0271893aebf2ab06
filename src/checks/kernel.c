/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of the kernel and how it runs: threaded interrupts, the preemption model, high-resolution timers,
 * real-time throttling, the tick (HZ, NO_HZ) and timer migration. Each judges the kernel part of the identity
 * (sysinfo/kernel.c). */
#include "checks/checks_internal.h"
#include "sysinfo/sysinfo.h"
#include <math.h>
#include <string.h>

static const json_t *kernel(const json_t *sys)
{
    return json_object_get(sys, "kernel");
}

static void eval_threadirqs(const json_t *sys, struct check_result *r)
{
    const json_t *k = kernel(sys), *on = json_object_get(k, "threadirqs");
    const char *preempt = check_str(k, "preempt"), *source = check_str(k, "threadirqs_source");
    const char *cmdline = check_str(k, "cmdline");
    if (preempt && strcmp(preempt, "rt") == 0) {
        check_say(r, CHECK_OK, "PREEMPT_RT kernel: every interrupt handler runs in a thread");
        return;
    }
    if (json_is_true(on)) {
        check_say(r, CHECK_OK, "threadirqs is on (from %s)", source ? source : "?");
        return;
    }
    if (!json_is_false(on)) {
        check_say(r, CHECK_SKIP, "kernel.threadirqs is unknown: /proc/cmdline could not be read");
        return;
    }
    if (source) {
        /* The option was given, but the kernel cannot force interrupt handlers into threads. */
        check_say(r, CHECK_WARN, "threadirqs is on the command line, but has no effect: %s", source);
        check_fix(r, "boot a kernel built with CONFIG_IRQ_FORCED_THREADING=y (every Debian and Ubuntu kernel is)");
    } else {
        check_say(r, CHECK_WARN, "threadirqs is not on the kernel command line: \"%.200s%s\"",
                  cmdline ? cmdline : "", cmdline && strlen(cmdline) > 200 ? "..." : "");
        check_fix(r, "add threadirqs to " GRUB_EDIT "; then " WRAP_CMD("apt install rtirq-init"));
    }
    check_advise(r, "Interrupt handlers run ahead of every thread, the audio thread included: boot with threadirqs "
                 "(add it to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run update-grub) and install "
                 "rtirq (apt install rtirq-init), which raises the sound card's interrupt thread above the others.");
    check_hint(r, "threadirqs and rtirq");
}

const struct check check_threadirqs = {
    .id = "threadirqs",
    .title = "Threaded interrupt handlers (threadirqs)",
    .group = CHECK_KERNEL,
    .reads = "kernel.threadirqs (threadirqs on /proc/cmdline, or forced by PREEMPT_RT)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_threadirqs,
};

static void eval_preempt(const json_t *sys, struct check_result *r)
{
    const json_t *k = kernel(sys);
    const char *p = check_str(k, "preempt"), *source = check_str(k, "preempt_source");
    const char *config = check_str(k, "config_source");
    if (!p || strcmp(p, "unknown") == 0) {
        check_say(r, CHECK_SKIP, "the preemption model is unknown: no kernel config (config_source %s) and no "
                  "PREEMPT word in the kernel version", config ? config : "?");
        return;
    }
    if (strcmp(p, "none") != 0 && strcmp(p, "voluntary") != 0) {
        if (strcmp(p, "full") != 0 && strcmp(p, "lazy") != 0 && strcmp(p, "rt") != 0)
            check_say(r, CHECK_SKIP, "unrecognised preemption model \"%.40s\"", p);
        else if (strcmp(p, "rt") == 0)
            check_say(r, CHECK_OK, "preemption model rt (from %s): a PREEMPT_RT kernel", source ? source : "?");
        else /* rtcqs calls preempt=full real-time: it is not PREEMPT_RT */
            check_say(r, CHECK_OK, "preemption model %s (from %s): fully preemptible, but not PREEMPT_RT", p,
                      source ? source : "?");
        return;
    }
    check_say(r, CHECK_WARN, "preemption model %s (from %s)", p, source ? source : "?");
    if (json_is_true(json_object_get(k, "preempt_dynamic"))) {
        check_fix(r, "add preempt=full to " GRUB_EDIT);
        check_advise(r, "This kernel runs with preempt=%s: long stretches of kernel code cannot be interrupted for "
                     "the audio thread. It was built with PREEMPT_DYNAMIC, so booting it with preempt=full (on the "
                     "kernel command line) makes it fully preemptible without another kernel.", p);
        check_hint(r, "preempt=full");
    } else {
        check_fix(r, "install a lowlatency kernel (Ubuntu: " WRAP_CMD("apt install linux-lowlatency") ") or a "
                  "PREEMPT_RT kernel (Debian: " WRAP_CMD("apt install linux-image-rt-amd64") ") and boot it");
        check_advise(r, "This kernel's preemption model is %s: long stretches of kernel code cannot be interrupted "
                     "for the audio thread. A lowlatency kernel (Ubuntu: linux-lowlatency) or a PREEMPT_RT kernel "
                     "(Debian: linux-image-rt-amd64) is fully preemptible.", p);
        check_hint(r, "a lowlatency kernel");
    }
}

const struct check check_preempt = {
    .id = "preempt",
    .title = "The kernel's preemption model",
    .group = CHECK_KERNEL,
    .reads = "kernel.preempt (the kernel config; for PREEMPT_DYNAMIC /sys/kernel/debug/sched/preempt or preempt= "
             "on /proc/cmdline)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_preempt,
};

static void eval_high_res_timers(const json_t *sys, struct check_result *r)
{
    const json_t *k = kernel(sys), *on = json_object_get(k, "high_res_timers");
    const char *cmdline = check_str(k, "cmdline");
    char val[16];
    if (json_is_true(on)) {
        check_say(r, CHECK_OK, "high-resolution timers are on (CONFIG_HIGH_RES_TIMERS=y, no highres=off)");
        return;
    }
    if (!json_is_false(on)) {
        check_say(r, CHECK_SKIP, "unknown without the kernel config (config_source %s)",
                  check_str(k, "config_source") ? check_str(k, "config_source") : "?");
        return;
    }
    if (cmdline && sysinfo_cmdline_param(cmdline, "highres", val, sizeof(val)) == 1 && strcmp(val, "off") == 0) {
        check_say(r, CHECK_WARN, "highres=off is on the kernel command line");
        check_fix(r, "remove highres=off from " GRUB_EDIT);
    } else {
        check_say(r, CHECK_WARN, "the kernel was built without high-resolution timers (CONFIG_HIGH_RES_TIMERS "
                  "is %s)", check_str(json_object_get(k, "config"), "CONFIG_HIGH_RES_TIMERS")
                  ? check_str(json_object_get(k, "config"), "CONFIG_HIGH_RES_TIMERS") : "absent");
        check_fix(r, "boot a kernel built with CONFIG_HIGH_RES_TIMERS=y (every Debian and Ubuntu kernel is)");
    }
    check_advise(r, "High-resolution timers are off (highres=off or a kernel without CONFIG_HIGH_RES_TIMERS): "
                 "timers fire only on the tick. Remove highres=off from the kernel command line.");
}

const struct check check_high_res_timers = {
    .id = "high_res_timers",
    .title = "High-resolution timers",
    .group = CHECK_KERNEL,
    .reads = "kernel.high_res_timers (CONFIG_HIGH_RES_TIMERS in the kernel config, highres= on /proc/cmdline)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_high_res_timers,
};

static void eval_rt_throttling(const json_t *sys, struct check_result *r)
{
    const json_t *t = json_object_get(kernel(sys), "rt_throttling"), *on = json_object_get(t, "enabled");
    double runtime = check_num(t, "runtime_us"), period = check_num(t, "period_us");
    if (json_is_false(on)) {
        check_say(r, CHECK_OK, "off: kernel.sched_rt_runtime_us is %.0f", runtime);
        return;
    }
    if (!json_is_true(on)) {
        check_say(r, CHECK_SKIP, "/proc/sys/kernel/sched_rt_runtime_us could not be read");
        return;
    }
    if (isnan(period))
        check_say(r, CHECK_WARN, "on: kernel.sched_rt_runtime_us is %.0f", runtime);
    else
        check_say(r, CHECK_WARN, "on: kernel.sched_rt_runtime_us is %.0f of every %.0f µs", runtime, period);
    check_fix(r, WRAP_CMD("sysctl kernel.sched_rt_runtime_us=-1") " (to keep it: kernel.sched_rt_runtime_us = -1 in "
              "/etc/sysctl.d/90-audio.conf)");
    check_advise(r, "Real-time throttling is on (kernel.sched_rt_runtime_us = %.0f): real-time threads that use "
                 "more than that much of each second are stopped until the next second. A heavy plugin load can "
                 "hit it; sysctl kernel.sched_rt_runtime_us=-1 turns it off (at the risk of a stuck real-time "
                 "thread freezing the machine).", runtime);
}

const struct check check_rt_throttling = {
    .id = "rt_throttling",
    .title = "Real-time throttling (sched_rt_runtime_us)",
    .group = CHECK_KERNEL,
    .reads = "kernel.rt_throttling (/proc/sys/kernel/sched_rt_runtime_us, sched_rt_period_us)",
    .level = CHECK_WARN,
    /* Throttling only stops a real-time thread that used most of a second: a light callback never does. */
    .matters = CHECK_MATTERS_HEAVY_CALLBACK,
    .eval = eval_rt_throttling,
};

/* The tick: 1000 Hz is what lowlatency kernels use; with high-resolution timers and threads woken by the sound
 * card's interrupt it matters little, but 100 Hz leaves the scheduler's decisions 10 ms apart. */
#define HZ_MIN 250

static void eval_hz(const json_t *sys, struct check_result *r)
{
    const json_t *k = kernel(sys);
    double hz = check_num(k, "hz");
    if (isnan(hz)) {
        check_say(r, CHECK_SKIP, "CONFIG_HZ is unknown without the kernel config (config_source %s)",
                  check_str(k, "config_source") ? check_str(k, "config_source") : "?");
        return;
    }
    if (hz >= HZ_MIN) {
        check_say(r, CHECK_OK, "CONFIG_HZ is %.0f%s", hz, hz >= 1000 ? "" : " (lowlatency kernels use 1000; "
                  "with high-resolution timers the tick matters little to an audio thread)");
        return;
    }
    check_say(r, CHECK_WARN, "CONFIG_HZ is %.0f: the scheduler's tick comes every %.0f ms", hz, 1000 / hz);
    check_fix(r, "boot a kernel built with CONFIG_HZ=1000 (Ubuntu: " WRAP_CMD("apt install linux-lowlatency") "; "
              "Debian: " WRAP_CMD("apt install linux-image-rt-amd64") ")");
}

const struct check check_hz = {
    .id = "hz",
    .title = "The timer tick (CONFIG_HZ)",
    .group = CHECK_KERNEL,
    .reads = "kernel.hz (CONFIG_HZ in the kernel config)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_hz,
};

static void eval_nohz(const json_t *sys, struct check_result *r)
{
    const json_t *k = kernel(sys);
    const char *nohz = check_str(k, "nohz"), *full = check_str(k, "nohz_full_cpus");
    if (!nohz) {
        check_say(r, CHECK_SKIP, "the tick mode is unknown without the kernel config (config_source %s)",
                  check_str(k, "config_source") ? check_str(k, "config_source") : "?");
        return;
    }
    if (strcmp(nohz, "full") == 0)
        check_say(r, CHECK_OK, "NO_HZ_FULL: idle CPUs%s stop their tick%s%s", full && full[0] ? " and CPUs " : "",
                  full && full[0] ? full : "", full && full[0] ? " (nohz_full)" : "");
    else if (strcmp(nohz, "idle") == 0)
        check_say(r, CHECK_OK, "NO_HZ_IDLE: idle CPUs stop their tick");
    else
        check_say(r, CHECK_OK, "periodic tick on every CPU (%s): no wake-up from a stopped tick, more power used",
                  check_str(k, "cmdline") && strstr(check_str(k, "cmdline"), "nohz=off") ? "nohz=off" :
                  "CONFIG_HZ_PERIODIC");
}

const struct check check_nohz = {
    .id = "nohz",
    .title = "The tick on idle CPUs (NO_HZ)",
    .group = CHECK_KERNEL,
    .reads = "kernel.nohz, kernel.nohz_full_cpus (CONFIG_NO_HZ_* in the kernel config, nohz= on /proc/cmdline, "
             "/sys/devices/system/cpu/nohz_full)",
    .level = CHECK_OK, /* every mode suits audio: it says which one is in force */
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_nohz,
};

static void eval_timer_migration(const json_t *sys, struct check_result *r)
{
    double tm = check_num(kernel(sys), "timer_migration");
    if (isnan(tm)) {
        check_say(r, CHECK_SKIP, "/proc/sys/kernel/timer_migration could not be read");
        return;
    }
    if (tm == 0)
        check_say(r, CHECK_OK, "kernel.timer_migration is 0: timers stay on the CPU that armed them");
    else
        check_say(r, CHECK_OK, "kernel.timer_migration is %.0f (the default): timers of idle CPUs may move to busy "
                  "ones; " WRAP_CMD("sysctl kernel.timer_migration=0") " keeps them where they were armed (RT tuning guides do)", tm);
}

const struct check check_timer_migration = {
    .id = "timer_migration",
    .title = "Timer migration",
    .group = CHECK_KERNEL,
    .reads = "kernel.timer_migration (/proc/sys/kernel/timer_migration)",
    .level = CHECK_OK, /* either value suits audio: it says which one is in force */
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_timer_migration,
};
