/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two series of per-second counts (events in each second: values >= 0) compared by a permutation test of the rank
 * sum of one series (Mann-Whitney's statistic, ties at their mid-rank), without JSON. Under "one set-up", any split
 * of the pooled seconds into the two runs is as likely as the one seen, whatever the distribution of a second's
 * count, so a burst weighs as one second however many events it holds (its rank), and a second with 7 events still
 * ranks above one with 1. Its null distribution is enumerated exactly, ties and all (the normal approximation of
 * Mann-Whitney is several times too optimistic when most seconds are 0: 3 seconds with events against none of 12
 * gives 0.08 there, 0.22 exactly), and drawn from seeded random splits beyond COUNTS_EXACT_MAX seconds
 * (reproducible: the same series give the same p), sequentially: up to COUNTS_DRAWS, stopped at the
 * COUNTS_STOP_FAR-th split as far as the one seen (Besag and Clifford). Why compare tests counts this way:
 * compare/compare_counts.h. */
#ifndef RTJ_PERM_TEST_H
#define RTJ_PERM_TEST_H
#include <stddef.h>

/* Up to this many seconds in both runs together the permutation distribution is enumerated; beyond, drawn. */
#define COUNTS_EXACT_MAX 60
#define COUNTS_DRAWS 20000
/* ... stopping as soon as this many splits were as far as the one seen (Besag and Clifford's sequential p-value:
 * p = this / the splits drawn; a p far above any level tested is known after a few hundred) */
#define COUNTS_STOP_FAR 100
/* Each run is also split in two halves of its seconds when both have at least twice this many. */
#define COUNTS_HALF_MIN 3

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
/* The two-sided permutation p of the rank sum of b alone (for the unit tests, against enumeration by hand). */
double count_rank_perm_p(const double *a, size_t na, const double *b, size_t nb, int *exact);

#endif
