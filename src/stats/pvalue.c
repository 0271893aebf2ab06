/* SPDX-License-Identifier: GPL-2.0-or-later */
/* p-values: Student's t through the incomplete beta function, Holm's adjustment, the exact rate test. See
 * pvalue.h. */
#include "stats/pvalue.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double x, double a, double b)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    double h = d;
    for (int i = 1; i <= 500; i++) {
        double m = i, m2 = 2 * m;
        double num = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
        d = 1 + num * d;
        c = 1 + num / c;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
        d = 1 + num * d;
        c = 1 + num / c;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        double step = d * c;
        h *= step;
        if (fabs(step - 1) < 1e-15)
            break;
    }
    return h;
}

double incomplete_beta(double x, double a, double b)
{
    if (!(a > 0) || !(b > 0) || isnan(x))
        return NAN;
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_cf(x, a, b) / a;
    return 1 - front * beta_cf(1 - x, b, a) / b;
}

double student_t_p2(double t, int df)
{
    if (df < 1 || isnan(t))
        return NAN;
    if (isinf(t))
        return 0;
    double v = df;
    return fmin(1.0, incomplete_beta(v / (v + t * t), v / 2, 0.5));
}

struct pidx {
    double p;
    size_t i;
};

static int pidx_cmp(const void *a, const void *b)
{
    const struct pidx *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p ? 1 : (x->i > y->i) - (x->i < y->i);
}

int holm_adjust(double *p, size_t n)
{
    struct pidx *v = malloc((n ? n : 1) * sizeof(*v));
    if (!v)
        return -ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(p[i]))
            v[m++] = (struct pidx){ p[i], i };
    qsort(v, m, sizeof(*v), pidx_cmp);
    double run = 0;
    for (size_t j = 0; j < m; j++) {
        double a = fmin(1.0, (double)(m - j) * v[j].p);
        run = fmax(run, a);
        p[v[j].i] = run;
    }
    free(v);
    return (int)m;
}

double rate_test_p(double ka, double na, double kb, double nb)
{
    if (!(na > 0) || !(nb > 0) || ka < 0 || kb < 0)
        return NAN;
    double k = ka + kb;
    if (k == 0)
        return 1;
    double p0 = nb / (na + nb);
    if (k > 100000) { /* the binomial sum would be long; the normal approximation is exact enough there */
        double z = (kb - k * p0) / sqrt(k * p0 * (1 - p0));
        return erfc(fabs(z) / M_SQRT2);
    }
    double lp = log(p0), lq = log1p(-p0), base = lgamma(k + 1);
    double ref = base - lgamma(kb + 1) - lgamma(k - kb + 1) + kb * lp + (k - kb) * lq;
    double p = 0;
    for (double i = 0; i <= k; i++) {
        double l = base - lgamma(i + 1) - lgamma(k - i + 1) + i * lp + (k - i) * lq;
        if (l <= ref + 1e-9)
            p += exp(l);
    }
    return fmin(p, 1.0);
}
