/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of how the kernel was booted: CPU isolation (isolcpus, nohz_full) as given and as applied, the CPU
 * vulnerability mitigations, and whether the boot loader's options (Ubuntu's lowlatency set-up among them) are
 * the ones in force. They judge the kernel part of the identity and setup.grub (sysinfo/setup.c). */
#include "checks/checks_internal.h"
#include "sysinfo/sysinfo.h"
#include <stdio.h>
#include <string.h>

static const json_t *kernel(const json_t *sys)
{
    return json_object_get(sys, "kernel");
}

static void eval_isolation(const json_t *sys, struct check_result *r)
{
    const json_t *k = kernel(sys);
    const char *iso = check_str(k, "isolcpus"), *nf = check_str(k, "nohz_full");
    const char *iso_in = check_str(k, "isolated_cpus"), *nf_in = check_str(k, "nohz_full_cpus");
    if (!check_str(k, "cmdline")) {
        check_say(r, CHECK_SKIP, "/proc/cmdline could not be read");
        return;
    }
    if (nf && !(nf_in && nf_in[0])) {
        check_say(r, CHECK_WARN, "nohz_full=%s is on the kernel command line, but no CPU is tickless "
                  "(/sys/devices/system/cpu/nohz_full %s): this kernel was built without NO_HZ_FULL",
                  nf, nf_in ? "is empty" : "is missing");
        check_fix(r, "remove nohz_full=%s from " GRUB_EDIT ", or boot a kernel built with CONFIG_NO_HZ_FULL=y", nf);
        return;
    }
    if (iso && iso_in && !iso_in[0]) {
        check_say(r, CHECK_WARN, "isolcpus=%s is on the kernel command line, but no CPU is isolated "
                  "(/sys/devices/system/cpu/isolated is empty)", iso);
        check_fix(r, "correct isolcpus= in " GRUB_EDIT " (isolcpus=2-3 keeps the scheduler off CPUs 2 and 3)");
        return;
    }
    if (!iso && !nf) {
        check_say(r, CHECK_OK, "no CPU is isolated (no isolcpus= nor nohz_full=): every CPU runs every task");
        return;
    }
    char a[160], b[160];
    snprintf(a, sizeof(a), "isolated CPUs %s%s%s%s", iso_in && iso_in[0] ? iso_in : "none", iso ? " (isolcpus=" : "",
             iso ? iso : "", iso ? ")" : "");
    snprintf(b, sizeof(b), "tickless CPUs %s%s%s%s", nf_in && nf_in[0] ? nf_in : "none", nf ? " (nohz_full=" : "",
             nf ? nf : "", nf ? ")" : "");
    check_say(r, CHECK_OK, "%s, %s", a, b);
}

const struct check check_isolation = {
    .id = "isolation",
    .title = "CPU isolation as booted (isolcpus, nohz_full)",
    .group = CHECK_KERNEL,
    .reads = "kernel.isolcpus, kernel.nohz_full, kernel.isolated_cpus, kernel.nohz_full_cpus (/proc/cmdline, "
             "/sys/devices/system/cpu/isolated and nohz_full)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_isolation,
};

static void eval_mitigations(const json_t *sys, struct check_result *r)
{
    const json_t *m = json_object_get(kernel(sys), "mitigations"), *v = json_object_get(m, "vulnerabilities");
    const char *opt = check_str(m, "cmdline");
    if (!check_str(kernel(sys), "cmdline") && json_object_size(v) == 0) {
        check_say(r, CHECK_SKIP, "neither /proc/cmdline nor /sys/devices/system/cpu/vulnerabilities could be read");
        return;
    }
    size_t mitigated = 0, vulnerable = 0;
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)v, key, val) {
        const char *s = json_string_value(val);
        mitigated += s && strncmp(s, "Mitigation", 10) == 0;
        vulnerable += s && strncmp(s, "Vulnerable", 10) == 0;
    }
    check_say(r, CHECK_OK, "mitigations=%s%s: %zu of %zu CPU vulnerabilities mitigated, %zu left vulnerable "
              "(mitigations=off trades that security for cheaper system calls, rarely for lower latency)",
              opt ? opt : "", opt ? "" : "(not given: the kernel's default)", mitigated, json_object_size(v),
              vulnerable);
}

const struct check check_mitigations = {
    .id = "mitigations",
    .title = "CPU vulnerability mitigations",
    .group = CHECK_KERNEL,
    .reads = "kernel.mitigations (mitigations= on /proc/cmdline, /sys/devices/system/cpu/vulnerabilities)",
    .level = CHECK_OK, /* a security choice, not a fault: it says what is in force */
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_mitigations,
};

/* Whether the option word (key or key=value) is in force on cmdline with that value. */
static int in_force(const char *cmdline, const char *word)
{
    char key[128], val[512];
    const char *eq = strchr(word, '=');
    snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - word : (long)strlen(word)), word);
    int r = sysinfo_cmdline_param(cmdline, key, val, sizeof(val));
    if (!eq)
        return r >= 0;
    return r == 1 && strcmp(val, eq + 1) == 0;
}

/* A set-up's name from its file: Ubuntu's lowlatency packages and Ubuntu Studio drop a grub.d file. */
static const char *setup_name(const char *file)
{
    if (strstr(file, "ubuntustudio"))
        return "Ubuntu Studio's set-up";
    if (strstr(file, "lowlatency"))
        return "Ubuntu's lowlatency set-up";
    return NULL;
}

static void eval_boot_setup(const json_t *sys, struct check_result *r)
{
    const json_t *grub = json_object_get(check_setup(sys), "grub");
    const char *cmdline = check_str(kernel(sys), "cmdline");
    if (!json_is_array(grub)) {
        check_say(r, CHECK_SKIP, "no /etc/default/grub: another boot loader, or the tree was not read");
        return;
    }
    if (!cmdline) {
        check_say(r, CHECK_SKIP, "/proc/cmdline could not be read");
        return;
    }
    size_t i;
    const json_t *f;
    const char *named = NULL, *named_file = NULL;
    char missing[300] = "";
    size_t o = 0;
    const char *missing_file = NULL;
    json_array_foreach(grub, i, f) {
        const char *file = check_str(f, "file"), *params = check_str(f, "params");
        if (!file || !params)
            continue;
        if (setup_name(file) && !named) {
            named = setup_name(file);
            named_file = file;
        }
        char buf[2048], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", params);
        for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
            if (!in_force(cmdline, w) && o < sizeof(missing)) {
                int n = snprintf(missing + o, sizeof(missing) - o, "%s%s", o ? " " : "", w);
                o += n > 0 ? (size_t)n : 0;
                if (!missing_file)
                    missing_file = file;
            }
    }
    if (missing[0]) {
        check_say(r, CHECK_WARN, "%s%s%s%s sets %s, but /proc/cmdline does not have it: update-grub was not run "
                  "after the change, or the machine has not been rebooted since", named ? named : "",
                  named ? " (" : "", named ? named_file : missing_file, named ? ")" : "", missing);
        check_fix(r, WRAP_CMD("sudo update-grub") ", then reboot");
        return;
    }
    if (named)
        check_say(r, CHECK_OK, "%s is installed (%s) and its options are in force", named, named_file);
    else
        check_say(r, CHECK_OK, "no lowlatency set-up in /etc/default/grub.d; the options of /etc/default/grub are "
                  "in force");
}

const struct check check_boot_setup = {
    .id = "boot_setup",
    .title = "The boot loader's options against the running kernel (lowlatency set-up)",
    .group = CHECK_KERNEL,
    .reads = "setup.grub (/etc/default/grub, /etc/default/grub.d/*.cfg), kernel.cmdline (/proc/cmdline)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_boot_setup,
};
