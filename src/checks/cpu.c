/* Checks of the machine: the CPU frequency governor and swappiness. Each judges the cpu and memory parts of
 * the identity (sysinfo/cpu.c). */
#include "checks/checks_internal.h"
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
    check_fix(r, "cpupower frequency-set -g performance (apt install linux-cpupower), while you play");
    check_advise(r, "The CPU frequency governor is %s: the CPU slows down between audio cycles and needs time to "
                 "speed up again. Set performance while you play (cpupower frequency-set -g performance).", g);
    check_hint(r, "the performance governor");
}

const struct check check_governor = {
    .id = "governor",
    .title = "The CPU runs at full speed (performance governor)",
    .reads = "cpu.governor (/sys/devices/system/cpu/cpuN/cpufreq/scaling_governor)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_governor,
};

/* Above this, the kernel swaps out program pages rather than drop file cache: audio programs' pages too. */
#define SWAPPINESS_MAX 10

static void eval_swappiness(const json_t *sys, struct check_result *r)
{
    const json_t *mem = json_object_get(sys, "memory");
    double swappiness = check_num(mem, "swappiness"), swap_mib = check_num(mem, "swap_total_mib");
    if (isnan(swappiness)) {
        check_say(r, CHECK_SKIP, "/proc/sys/vm/swappiness could not be read");
        return;
    }
    if (isnan(swap_mib)) {
        check_say(r, CHECK_SKIP, "vm.swappiness is %.0f, but the swap size is unknown (/proc/meminfo could not be "
                  "read)", swappiness);
        return;
    }
    if (swap_mib <= 0) {
        check_say(r, CHECK_OK, "no swap: nothing can be swapped out (vm.swappiness %.0f)", swappiness);
        return;
    }
    if (swappiness <= SWAPPINESS_MAX) {
        check_say(r, CHECK_OK, "vm.swappiness is %.0f with %.0f MiB of swap", swappiness, swap_mib);
        return;
    }
    check_say(r, CHECK_WARN, "vm.swappiness is %.0f with %.0f MiB of swap", swappiness, swap_mib);
    check_fix(r, "sysctl vm.swappiness=%d (to keep it: vm.swappiness = %d in /etc/sysctl.d/90-audio.conf)",
              SWAPPINESS_MAX, SWAPPINESS_MAX);
    check_advise(r, "vm.swappiness is %.0f with swap in use: pages of the audio programs can be swapped out and "
                 "fault back in mid-cycle. sysctl vm.swappiness=10 keeps them in memory.", swappiness);
}

const struct check check_swappiness = {
    .id = "swappiness",
    .title = "Audio programs stay in memory (swappiness)",
    .reads = "memory.swappiness, memory.swap_total_mib (/proc/sys/vm/swappiness, /proc/meminfo)",
    .level = CHECK_WARN,
    /* Only a run that lost cycles could have lost them to a page fault. */
    .matters = CHECK_MATTERS_FAILURE,
    .eval = eval_swappiness,
};
