/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a gap of the noise probe was (see noise_class.h). */
#include "util/noise_class.h"
#include <math.h>

const struct noise_class_info noise_classes[NOISE_NCLASS] = {
    [NOISE_SCHED] = { "scheduler", "the scheduler: another task ran on the CPU" },
    [NOISE_IRQ] = { "interrupt", "kernel interrupt work" },
    [NOISE_STEAL] = { "steal", "the hypervisor: steal time" },
    [NOISE_SMI] = { "smi", "an SMI (system management interrupt)" },
    [NOISE_BELOW] = { "below_kernel", "below the kernel: host, firmware or SMI" },
    [NOISE_UNKNOWN] = { "unknown", "not known: the counters around it were not read" },
};

static uint64_t delta(uint64_t a, uint64_t b)
{
    return b > a ? b - a : 0; /* a counter that went back (a line re-registered) says nothing */
}

void noise_bg_add(struct noise_bg *bg, const struct noise_counts *a, const struct noise_counts *b, int nlines,
                  int64_t window_ns)
{
    const int need = NOISE_OK_IRQ | NOISE_OK_SOFTIRQ;
    if (window_ns <= 0 || (a->ok & need) != need || (b->ok & need) != need)
        return;
    bg->quiet_ns += (double)window_ns;
    for (int l = 0; l < nlines && l < NOISE_LINES_MAX; l++)
        bg->count[l] += (double)delta(a->line[l], b->line[l]);
}

void noise_budget(const struct noise_counts *a, const struct noise_counts *b, int nlines, const struct noise_bg *bg,
                  int64_t window_ns, uint32_t *budget)
{
    const int need = NOISE_OK_IRQ | NOISE_OK_SOFTIRQ;
    int read = ((a->ok & b->ok) & need) == need;
    for (int l = 0; l < nlines && l < NOISE_LINES_MAX; l++) {
        budget[l] = 0;
        uint64_t d = read ? delta(a->line[l], b->line[l]) : 0;
        if (!d)
            continue;
        double expect = bg && bg->quiet_ns > 0 ? bg->count[l] * (double)window_ns / bg->quiet_ns : 0;
        /* Beyond its background: more than two standard deviations of a Poisson count of that mean, and one more. */
        if ((double)d < expect + 2 * sqrt(expect) + 1)
            continue;
        double over = (double)d - expect;
        budget[l] = over >= 1e9 ? 1000000000u : (uint32_t)over;
    }
}

void noise_classify_gap(const struct noise_counts *a, const struct noise_counts *b, int nlines, uint32_t *budget,
                        struct noise_why *w)
{
    w->cls = NOISE_UNKNOWN;
    w->line = -1;
    w->line_delta = 0;
    int both = a->ok & b->ok;
    if ((both & NOISE_OK_STAT) && delta(a->steal_ticks, b->steal_ticks) > 0) {
        w->cls = NOISE_STEAL;
        return;
    }
    if (a->smi >= 0 && b->smi >= 0 && b->smi != a->smi) {
        w->cls = NOISE_SMI;
        return;
    }
    const int need = NOISE_OK_IRQ | NOISE_OK_SOFTIRQ;
    if ((both & need) != need)
        return; /* not read: not known */
    int best = -1;
    for (int l = 0; l < nlines && l < NOISE_LINES_MAX; l++)
        if (budget[l] && (best < 0 || budget[l] > budget[best]))
            best = l;
    if (best >= 0) {
        budget[best]--;
        w->cls = NOISE_IRQ;
        w->line = best;
        w->line_delta = delta(a->line[best], b->line[best]);
    } else if (both & NOISE_OK_STAT) {
        w->cls = NOISE_BELOW; /* nothing the kernel counts rose beyond its usual rate, or its rise is spent */
    }
}

uint64_t noise_sched_count(const struct noise_counts *a, const struct noise_counts *b)
{
    int both = a->ok & b->ok;
    uint64_t n = (both & NOISE_OK_STATUS) ? delta(a->invol_switches, b->invol_switches) : 0;
    if (!n && (both & NOISE_OK_SCHED) && b->run_delay_ns > a->run_delay_ns)
        n = 1; /* it waited runnable (woken late, or preempted in a way not counted as a switch) */
    return n;
}

void noise_classify(const struct noise_counts *a, const struct noise_counts *b, int nlines, const struct noise_bg *bg,
                    int64_t window_ns, struct noise_why *w)
{
    if (noise_sched_count(a, b)) {
        *w = (struct noise_why){ NOISE_SCHED, -1, 0 };
        return;
    }
    uint32_t budget[NOISE_LINES_MAX];
    noise_budget(a, b, nlines, bg, window_ns, budget);
    noise_classify_gap(a, b, nlines, budget, w);
}
