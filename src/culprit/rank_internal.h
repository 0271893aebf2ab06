/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by rank.c (the window, the rules of sources, steal, run delay, pressure, the clock, and the order),
 * rank_tasks.c (real-time tasks) and rank_counters.c (the rules of interrupt and softirq counters, and how they
 * read together). The culprit engine's thread only. */
#ifndef RTJ_CULPRIT_RANK_INTERNAL_H
#define RTJ_CULPRIT_RANK_INTERNAL_H
#include "culprit/engine_internal.h"
#include <stdbool.h>
#include <stdint.h>

#define CAND_MAX 64

struct rank_ctx {
    struct culprit_engine *e;
    const struct ce_result *r;
    int i0, i1;                  /* samples in the window: ce_hist_at(i0..i1) */
    int64_t a_ns, b_ns;          /* the window asked */
    int64_t span_ns, hist_ns;    /* the samples' real span; the whole history's */
    bool late;                   /* they span far more than the window: came late, the counters say nothing */
    int64_t period_ns;
    char around[64];             /* "in the 100 ms around the spike" */
    uint64_t cpus[CE_CPUS_MAX / 64];
    int one_cpu;                 /* the single CPU looked at, -1 several, -2 all */
    char where[32];              /* "CPU 2", "the audio CPUs", "all CPUs" */
    int audio_tid, audio_prio;
    struct culprit cand[CAND_MAX];
    int n;
    bool is_ipi[CAND_MAX];       /* the candidate is an IPI line's surge (function call, rescheduling) */
    int ipi;                     /* the candidate of a function-call IPI surge (rule_irqs), -1 none */
    uint64_t ipi_count;          /* its count in the window */
    int64_t run_delay_ns;        /* the audio thread's run delay that rule_run_delay named (0: none) */
    int64_t steal_us;            /* the steal rule_steal named (0: none) */
};

static inline bool has_cpu(const struct rank_ctx *c, int cpu)
{
    if (c->one_cpu == -2)
        return true;
    return cpu >= 0 && cpu < CE_CPUS_MAX && (c->cpus[cpu / 64] >> (cpu % 64) & 1);
}

/* A candidate, its evidence formatted; NULL when CAND_MAX are there already. */
struct culprit *rank_add(struct rank_ctx *c, enum culprit_kind k, enum culprit_basis b, double score,
                         const char *name, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The usual count of a counter over a span like the window's, from the rolling sum minus the window's own; -1 when
 * the history holds nothing outside the window. */
double rank_usual(const struct rank_ctx *c, uint64_t roll, uint64_t in_window);
void rank_fmt_usual(char *b, size_t n, double u);

/* rank_tasks.c: the real-time tasks that ran on the audio CPU (without the trace: those proven to hold the wait's). */
void rank_rule_rt_tasks(struct rank_ctx *c);

/* rank_counters.c: an IRQ line's surge, a softirq's (above the IPIs that carried it), and the softirq that surged
 * most above a bare run delay (not when steal explains the wait). In this order, after rule_run_delay and
 * rule_steal. */
void rank_rule_irqs(struct rank_ctx *c);
void rank_rule_softirqs(struct rank_ctx *c);
void rank_softirq_over_run_delay(struct rank_ctx *c);

#endif
