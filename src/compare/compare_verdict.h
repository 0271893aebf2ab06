/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside compare: the verdicts of one load (compare_verdict.c), for compare_build() (compare.c). The figures of a
 * single report they judge, which every table shows, are report/phase_figures.h's (so a table and a verdict name
 * one figure). */
#ifndef RTJ_COMPARE_VERDICT_H
#define RTJ_COMPARE_VERDICT_H
#include <jansson.h>
#include <stddef.h>

/* How many measures of a report came out each way against the baseline. */
struct tally {
    int better, worse, same, na; /* na: not compared (too few seconds, or counts not kept per second) */
    int worse_pair, better_pair;  /* differ in the two runs, with no other runs to weigh it against */
};

/* The median of a phase's whole seconds of timeline key: the figure a per-second verdict and its table row
 * show. NAN when the timeline has none. */
double compare_block_median(const json_t *phase, const char *key);
/* The shift a per-second measure must reach to be called a difference, for a baseline median in µs. */
double compare_block_floor_us(double baseline_median);

/* Verdicts of report number bi's phase pb against the baseline's phase pa of the same load, appended to list
 * and counted in t: one per per-second measure (rank test and shift of the seconds) and one per count (its counts
 * per second, compare_counts.h), each also across runs: g holds the values of the other runs of either set-up
 * (compare_runs.h), or is NULL (no other run: a difference is "worse/better in this pair" at most). */
struct run_groups;
void compare_load_verdicts(const json_t *pa, const json_t *pb, const struct run_groups *g, size_t bi, json_t *list,
                           struct tally *t);

#endif
