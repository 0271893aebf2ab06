/* SPDX-License-Identifier: GPL-2.0-or-later */
/* p-values without JSON: Student's t (through the regularized incomplete beta function), Holm's step-down
 * adjustment of a family of p-values, and the exact conditional test of two Poisson rates. compare's verdicts use
 * the first two on the runs of each set-up (compare/compare_runs.h). */
#ifndef RTJ_PVALUE_H
#define RTJ_PVALUE_H
#include <stddef.h>

/* Two-sided p of Student's t with df degrees of freedom: P(|T| >= |t|). NAN for df < 1. */
double student_t_p2(double t, int df);
/* The regularized incomplete beta function I_x(a, b), for the above (and its unit test). */
double incomplete_beta(double x, double a, double b);

/* A comparison judges many measures (6 per load): "no clear difference in every measure" holds only if the chance of
 * a false call over all of them is small, not that of each. Holm's step-down adjustment of p[0..n) in place (NAN
 * entries are left out and stay NAN): sorted ascending, p(j) becomes max over l <= j of min(1, (m - l + 1) p(l)),
 * m the number of p-values. Returns m, or -ENOMEM. */
int holm_adjust(double *p, size_t n);

/* Exact two-sided conditional test that ka events in na cycles and kb in nb come from one rate (no longer compare's
 * verdict on xruns and missed deadlines: events come in bursts, see compare/compare_counts.h). */
double rate_test_p(double ka, double na, double kb, double nb);

#endif
