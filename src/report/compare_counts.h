/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The count measures of compare (xrun events, missed deadlines), tested on their counts per second (issue 19).
 *
 * Events come in bursts: one stall of the machine gives a dozen missed deadlines in one second, then none for a
 * minute. Two tests that look natural are wrong, in opposite directions:
 *  - a Poisson rate test on the total counts treats every event as an independent unit, so two runs of one set-up
 *    whose bursts happened to be of 30 and of 60 events are "different" (p ~ 0.002): it calls noise;
 *  - the same test on the seconds that had any (each second one unit, as compare did before) caps a second at one,
 *    so 0 events against 42 in 6 s (7 in every second) is 0 against 6 seconds, p = 0.03: it misses a disaster.
 * The unit is the second, as for the latency measures (compare_blocks.h), and its value is its count. The test is
 * a permutation test of the rank sum of one run's seconds (Mann-Whitney's statistic, ties at their mid-rank): under
 * "one set-up", any split of the pooled seconds into the two runs is as likely as the one seen, whatever the
 * distribution of a second's count, so a burst weighs as one second however many events it holds (its rank), and a
 * second with 7 events still ranks above one with 1. Its null distribution is enumerated exactly, ties and all
 * (the normal approximation of Mann-Whitney is several times too optimistic when most seconds are 0: 3 seconds with
 * events against none of 12 gives 0.08 there, 0.22 exactly), and drawn from seeded random splits beyond
 * COUNTS_EXACT_MAX seconds (reproducible: the same reports give the same p), sequentially: up to COUNTS_DRAWS,
 * stopped at the COUNTS_STOP_FAR-th split as far as the one seen (Besag and Clifford). */
#ifndef RTJ_COMPARE_COUNTS_H
#define RTJ_COMPARE_COUNTS_H
#include <jansson.h>
#include <stddef.h>

/* Up to this many seconds in both runs together the permutation distribution is enumerated; beyond, drawn. */
#define COUNTS_EXACT_MAX 60
#define COUNTS_DRAWS 20000
/* ... stopping as soon as this many splits were as far as the one seen (Besag and Clifford's sequential p-value:
 * p = this / the splits drawn; a p far above any level tested is known after a few hundred) */
#define COUNTS_STOP_FAR 100

struct count_test {
    size_t na, nb;          /* whole seconds of each run (the units) */
    double ka, kb;          /* events in those seconds */
    size_t any_a, any_b;    /* seconds with any */
    double rate_a, rate_b;  /* ka / na, kb / nb: events per second */
    double p_value;         /* two-sided: P(|rank sum - its mean| >= as seen) over the splits of the seconds */
    int exact;              /* 1: enumerated; 0: seeded random splits, up to COUNTS_DRAWS: p = COUNTS_STOP_FAR / the
                             * splits drawn when that many were as far, else (1 + as far) / (1 + COUNTS_DRAWS) */
    /* each run split in two halves of its seconds (time order, an odd middle one left out), (k + 0.5) / seconds:
     * the smallest and largest ratio of a half of b to a half of a; NAN when a run has fewer than 6 seconds */
    double half_lo, half_hi;
};

/* The test on two series of per-second counts (time order; values >= 0). 0, -EINVAL when a side is empty or a
 * value is negative or not finite, -ENOMEM. */
int count_test(const double *a, size_t na, const double *b, size_t nb, struct count_test *out);
/* The same on two phases' timelines (key "xrun_events" or "deadlines_missed"), over the whole seconds a verdict
 * takes (compare_blocks.h, blocks_of()). -ENODATA when either timeline does not count key in every second; then
 * out->na and out->nb say how many whole seconds there were. */
int count_test_phases(const json_t *pa, const json_t *pb, const char *key, struct count_test *out);
/* The two-sided permutation p of the rank sum of b alone (for the unit tests, against enumeration by hand). */
double count_rank_perm_p(const double *a, size_t na, const double *b, size_t nb, int *exact);

#endif
