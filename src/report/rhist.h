/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report's histograms read back (log-linear buckets, <= 1.6 % wide, stored as [lo, hi, count] in µs): the HTML
 * pages' histogram and exceedance plots, compare's whole-run histogram tests (compare/compare_stats.h), and the
 * quantile a report does not store, by the rule of those it does (rhist_midrank(), read only through
 * report/phase_figures.h: phasefig_quantile()). */
#ifndef RTJ_RHIST_H
#define RTJ_RHIST_H
#include <jansson.h>
#include <stddef.h>

/* A histogram read from a report: buckets [lo, hi) in µs, sorted by lo, with counts. */
struct rhist {
    size_t n;
    double *lo, *hi, *count;
    double *cum;            /* cum[i]: sum of count[0..i], for binary search */
    double total;
};

/* From a validated report's histogram array. fold_abs: magnitudes (|jitter|), negative buckets mirrored and
 * merged with the positive ones. An absent or empty array gives an empty histogram. 0 or -ENOMEM. */
int rhist_from_json(const json_t *arr, int fold_abs, struct rhist *h);
void rhist_free(struct rhist *h);
/* Inverse CDF at probability u in [0, 1], linear inside the bucket. NAN when empty. */
double rhist_inverse(const struct rhist *h, double u);
/* The nearest rank of the q-quantile: k = ceil(q n), within [1, n]. */
double rhist_rank(const struct rhist *h, double q);
/* The q-quantile (nearest rank k = ceil(q n), interpolated inside its bucket): the bootstrap's. NAN when empty. */
double rhist_quantile(const struct rhist *h, double q);
/* The q-quantile by the rule the run stores its own by (stats.h: hist_quantile()): the midpoint of the bucket that
 * holds the nearest rank k = ceil(q n), in whole ns (a 1 ns bucket: its value). Of a run's own histogram this is the
 * figure the run stored; the caller clamps it to the stored min and max as the run did. NAN when empty. */
double rhist_midrank(const struct rhist *h, double q);

#endif
