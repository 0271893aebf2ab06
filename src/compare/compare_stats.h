/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics on the histograms stored in the reports (log-linear buckets, <= 1.6 % wide; read back by rhist.h).
 * compare's verdicts no longer rest on the histogram tests below: they treat cycles as independent, and two
 * back-to-back runs of one set-up were called different in 7 of 15 measures. The verdicts use the seconds of the
 * timeline (compare_blocks.h) and their counts per second (compare_counts.h); the histograms give HTML's
 * exceedance curves (the table's percentiles are each report's own: report/phase_figures.h). What is here:
 *  - percentiles (p99, p99.9) get a bootstrap confidence interval. The q-quantile of a resample of n values
 *    drawn from the histogram is F^-1(U(k)), U(k) the k-th order statistic of n uniforms, k = ceil(q n), which is
 *    Beta(k, n + 1 - k) distributed: drawing that Beta is drawing a whole resample's quantile, exactly and in
 *    constant time.
 *  - the whole distribution gets a Mann-Whitney rank test computed from the two histograms (values in one bucket
 *    are ties) and its effect size P(B > A).
 *  - counts get an exact conditional binomial test of two Poisson rates (rate_test_p(), stats/pvalue.h).
 * The histogram tests treat the cycles of one run as independent; consecutive cycles are not. */
#ifndef RTJ_COMPARE_STATS_H
#define RTJ_COMPARE_STATS_H
#include <stddef.h>
#include <stdint.h>
#include "report/rhist.h"

struct quantile_diff {
    double a, b;            /* the q-quantile of each */
    double lo, hi;          /* 95 % bootstrap interval of b - a */
    double tail_a, tail_b;  /* cycles above the quantile in each: few means weak evidence */
};
/* Percentile bootstrap with `resamples` draws from a fixed seed: the same inputs give the same interval. */
int quantile_diff_ci(const struct rhist *a, const struct rhist *b, double q, int resamples, uint64_t seed,
                     struct quantile_diff *out);

struct rank_test {
    double p_value;         /* two-sided, normal approximation with tie correction */
    double prob_b_greater;  /* P(B > A) + P(B = A) / 2 */
    double z;
};
int rank_test(const struct rhist *a, const struct rhist *b, struct rank_test *out);

/* Outcome of one metric's comparison. CMP_WEAK: only the histogram tests below (a percentile with few cycles beyond
 * it). CMP_WORSE_PAIR, CMP_BETTER_PAIR ("worse_in_pair", "better_in_pair"): the two runs differ, with no other runs
 * to weigh it against (compare_verdict.c). */
enum cmp_outcome { CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_WEAK, CMP_NA, CMP_WORSE_PAIR, CMP_BETTER_PAIR };
const char *cmp_outcome_name(enum cmp_outcome o);

/* Decide a percentile comparison: lower is better. */
enum cmp_outcome decide_quantile(const struct quantile_diff *d);
/* Decide a rank test: lower is better. */
enum cmp_outcome decide_rank(const struct rank_test *t);
/* The same, when two runs of one kernel were seen to differ by noise_us (quantile) or by an effect of
 * noise_effect (|P(B > A) - 0.5|): a difference must exceed that too. */
enum cmp_outcome decide_quantile_noise(const struct quantile_diff *d, double noise_us);
enum cmp_outcome decide_rank_noise(const struct rank_test *t, double noise_effect);

#endif
