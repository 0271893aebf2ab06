/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a gap of the noise probe was (issue 38), from what changed across it (util/noise_counters.h), in one table:
 * the probe thread's own run delay or involuntary switches -> the scheduler (another task ran); the CPU's steal ->
 * the hypervisor; the SMI count -> an SMI; an interrupt or softirq line of that CPU that rose beyond its background
 * (its count in the windows without a gap, scaled to this window: more than two Poisson standard deviations and
 * one; a line is named for no more gaps of a window than its count rose beyond that) -> kernel interrupt work, the
 * line named; none of these -> below the kernel: host, firmware or SMI (nothing
 * the kernel counts rose beyond its usual rate; the tick that ran long at its usual rate is the one kernel cause
 * this cannot tell from it). When the counters around the gap were not read: not known. Pure functions; not
 * RT-safe (the probe's classifier thread). */
#ifndef RTJ_UTIL_NOISE_CLASS_H
#define RTJ_UTIL_NOISE_CLASS_H
#include "util/noise_counters.h"

enum noise_class { NOISE_SCHED, NOISE_IRQ, NOISE_STEAL, NOISE_SMI, NOISE_BELOW, NOISE_UNKNOWN, NOISE_NCLASS };

struct noise_class_info {
    const char *token;                 /* the report's key */
    const char *words;                 /* for people */
};
extern const struct noise_class_info noise_classes[NOISE_NCLASS];

/* One CPU's background: the counts of each line in the windows without a gap, and their length. */
struct noise_bg {
    double quiet_ns;
    double count[NOISE_LINES_MAX];
};
/* Adds the window a -> b (window_ns long, no gap in it) to bg. */
void noise_bg_add(struct noise_bg *bg, const struct noise_counts *a, const struct noise_counts *b, int nlines,
                  int64_t window_ns);

struct noise_why {
    enum noise_class cls;
    int line;                          /* the line named (NOISE_IRQ; struct noise_lines index), else -1 */
    uint64_t line_delta;               /* its count across the window */
};
/* A window's budget: for each line that rose beyond its background (bg NULL: none learnt yet, every count is news),
 * how many of the window's gaps it may be named for, its count beyond the background in whole units; 0 for the
 * others. A line is never named for more gaps than its count rose. */
void noise_budget(const struct noise_counts *a, const struct noise_counts *b, int nlines, const struct noise_bg *bg,
                  int64_t window_ns, uint32_t *budget);
/* How many gaps of the window a -> b the scheduler explains: the probe thread's involuntary switches across it (one
 * gap each: the caller gives them to the window's longest gaps), or 1 when only its run delay rose. */
uint64_t noise_sched_count(const struct noise_counts *a, const struct noise_counts *b);
/* The class of one gap of the window a -> b that the scheduler does not explain: steal, an SMI, else the line with
 * the most budget left (one unit spent); a gap that finds the budget spent is below the kernel. */
void noise_classify_gap(const struct noise_counts *a, const struct noise_counts *b, int nlines, uint32_t *budget,
                        struct noise_why *w);
/* One gap alone in its window (a window of window_ns between a and b): the scheduler when noise_sched_count says
 * so, else noise_budget and noise_classify_gap. */
void noise_classify(const struct noise_counts *a, const struct noise_counts *b, int nlines, const struct noise_bg *bg,
                    int64_t window_ns, struct noise_why *w);

/* What the kernel's trace saw hold the CPU in one gap (with the trace, root: src/culprit's trace source answers
 * through a function the run gives the probe, backend.h's noise_trace): the same split from the CPU's events inside
 * the gap. cls: NOISE_SCHED a task held it (named), NOISE_IRQ a hard IRQ, a softirq or an IRQ's thread (named),
 * NOISE_BELOW the kernel recorded nothing of its own in most of the gap (the probe was its current task, or no event
 * at all: the CPU was taken below the kernel). */
enum noise_holder_kind { NH_NONE, NH_TASK, NH_IRQ, NH_SOFTIRQ };
struct noise_trace_answer {
    int cls;                           /* enum noise_class */
    int kind;                          /* enum noise_holder_kind of the main holder (NH_NONE: below the kernel) */
    int id;                            /* NH_TASK: its pid; NH_IRQ: the line (negative: an x86 vector); NH_SOFTIRQ:
                                        * the vector */
    char name[32];                     /* comm, the IRQ's or softirq's name, "" none */
    int64_t held_ns;                   /* the main holder's time in the gap (below the kernel: the time the trace
                                        * shows the probe itself current) */
};
/* cpu: the gap's; tid: the probe thread that had it (its own time is no holder). 1: answered; 0: the trace has not seen the CPU past the gap's end yet (ask again later); a negative errno: it
 * never will (-ENODATA: most of the gap is before the trace's memory or lost; -ENOENT: no trace). Thread-safe; never
 * called in the real-time loop (the probe's classifier thread asks). */
typedef int (*noise_trace_fn)(void *arg, int cpu, int tid, int64_t t0_ns, int64_t t1_ns,
                              struct noise_trace_answer *out);

#endif
