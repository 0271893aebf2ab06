/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two samples compared by rank, without JSON: the Mann-Whitney rank test and the Hodges-Lehmann shift (the median
 * of every difference between a value of one sample and a value of the other). compare's verdicts run them on the
 * per-second values of two runs (compare/compare_blocks.h says why seconds, not cycles). */
#ifndef RTJ_MANN_WHITNEY_H
#define RTJ_MANN_WHITNEY_H
#include <stddef.h>

struct block_test {
    size_t na, nb;
    double median_a, median_b;   /* of the per-second values */
    double shift;                /* Hodges-Lehmann: median of (b_j - a_i) over every pair */
    double u_b;                  /* Mann-Whitney U of b: pairs with b > a, ties counted half */
    double prob_b_greater;       /* u_b / (na nb) */
    double p_value;              /* two-sided; exact when there are no ties and na, nb <= 25, else normal
                                  * approximation with tie and continuity correction */
    int exact;
    size_t b_above_median_a;     /* seconds of b above a's median */
};
/* 0, -EINVAL when either side is empty, -ENOMEM. a and b are not changed. */
int block_test(const double *a, size_t na, const double *b, size_t nb, struct block_test *out);

/* The pieces, exposed for the unit tests. */
double mw_exact_p(double u, size_t na, size_t nb);   /* two-sided P(|U - mean| >= |u - mean|), no ties */
double hodges_lehmann_shift(const double *a, size_t na, const double *b, size_t nb);

/* The median of v[0..n) (the mean of the middle two for an even n), by selection: v is reordered. NAN when n is 0. */
double median_select(double *v, size_t n);

#endif
