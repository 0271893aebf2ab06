/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics of compare on stored histograms (read back by report/rhist.c): the bootstrap of a percentile, the
 * rank test, and the decisions. See compare_stats.h for why each test is the one used. */
#include "compare/compare_stats.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers for the bootstrap: splitmix64, seeded, so that results are reproducible ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rng_uniform(uint64_t *s) /* in (0, 1) */
{
    return ((double)(rng_next(s) >> 11) + 0.5) * 0x1.0p-53;
}

static double rng_normal(uint64_t *s)
{
    double u1 = rng_uniform(s), u2 = rng_uniform(s);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Marsaglia and Tsang's method; shape >= 1 here (ranks are whole numbers >= 1). */
static double rng_gamma(uint64_t *s, double shape)
{
    double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = rng_normal(s);
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        double u = rng_uniform(s);
        if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return d * v;
    }
}

static double rng_beta(uint64_t *s, double a, double b)
{
    double x = rng_gamma(s, a), y = rng_gamma(s, b);
    return x / (x + y);
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int quantile_diff_ci(const struct rhist *a, const struct rhist *b, double q, int resamples, uint64_t seed,
                     struct quantile_diff *out)
{
    out->a = rhist_quantile(a, q);
    out->b = rhist_quantile(b, q);
    out->lo = out->hi = NAN;
    out->tail_a = a->total - rhist_rank(a, q);
    out->tail_b = b->total - rhist_rank(b, q);
    if (isnan(out->a) || isnan(out->b) || resamples < 40)
        return -EINVAL;
    double *d = malloc((size_t)resamples * sizeof(double));
    if (!d)
        return -ENOMEM;
    double ka = rhist_rank(a, q), kb = rhist_rank(b, q);
    for (int r = 0; r < resamples; r++) {
        double ua = rng_beta(&seed, ka, a->total + 1 - ka), ub = rng_beta(&seed, kb, b->total + 1 - kb);
        d[r] = rhist_inverse(b, ub) - rhist_inverse(a, ua);
    }
    qsort(d, (size_t)resamples, sizeof(double), dcmp);
    out->lo = d[(int)floor(0.025 * (resamples - 1))];
    out->hi = d[(int)ceil(0.975 * (resamples - 1))];
    free(d);
    return 0;
}

/* ---- Mann-Whitney from two histograms ---- */

struct tagged {
    double mid, ca, cb;
};

static int tagged_cmp(const void *x, const void *y)
{
    const struct tagged *a = x, *b = y;
    return a->mid < b->mid ? -1 : a->mid > b->mid;
}

int rank_test(const struct rhist *a, const struct rhist *b, struct rank_test *out)
{
    out->p_value = NAN;
    out->prob_b_greater = NAN;
    out->z = NAN;
    if (!(a->total > 0) || !(b->total > 0))
        return -EINVAL;
    size_t n = a->n + b->n;
    struct tagged *t = malloc(n * sizeof(*t));
    if (!t)
        return -ENOMEM;
    for (size_t i = 0; i < a->n; i++)
        t[i] = (struct tagged){ (a->lo[i] + a->hi[i]) / 2, a->count[i], 0 };
    for (size_t i = 0; i < b->n; i++)
        t[a->n + i] = (struct tagged){ (b->lo[i] + b->hi[i]) / 2, 0, b->count[i] };
    qsort(t, n, sizeof(*t), tagged_cmp);
    /* Every value in one bucket is a tie: ranks are mid-ranks of the group, and the variance is corrected. */
    double na = a->total, nb = b->total, N = na + nb, below = 0, rank_sum_b = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        double ca = 0, cb = 0;
        size_t j = i;
        for (; j < n && t[j].mid == t[i].mid; j++) {
            ca += t[j].ca;
            cb += t[j].cb;
        }
        double g = ca + cb;
        rank_sum_b += cb * (below + (g + 1) / 2);
        ties += g * g * g - g;
        below += g;
        i = j;
    }
    free(t);
    double u_b = rank_sum_b - nb * (nb + 1) / 2; /* pairs (a, b) with b > a, ties counted half */
    double mean = na * nb / 2;
    double var = na * nb / 12 * ((N + 1) - ties / (N * (N - 1)));
    out->prob_b_greater = u_b / (na * nb);
    if (!(var > 0)) { /* every value in one bucket: nothing to rank */
        out->z = 0;
        out->p_value = 1;
        return 0;
    }
    double diff = fabs(u_b - mean) - 0.5; /* continuity correction */
    out->z = (diff > 0 ? diff : 0) / sqrt(var) * (u_b >= mean ? 1 : -1);
    out->p_value = erfc(fabs(out->z) / M_SQRT2);
    return 0;
}

const char *cmp_outcome_name(enum cmp_outcome o)
{
    static const char *const names[] = { "same", "better", "worse", "weak", "n/a", "worse_in_pair", "better_in_pair" };
    return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "n/a";
}

/* A difference has to clear both: 10 % of the baseline (bucket width is 1.6 %, and a quiet machine moves
 * by more between two runs) and 2 µs (below that, timer and clock noise). */
static double practical_floor(double baseline)
{
    return fmax(2.0, 0.10 * fabs(baseline));
}

/* Fewer cycles than this beyond a percentile make it a statement about a handful of events. */
#define MIN_TAIL 10

enum cmp_outcome decide_quantile(const struct quantile_diff *d)
{
    return decide_quantile_noise(d, 0);
}

enum cmp_outcome decide_quantile_noise(const struct quantile_diff *d, double noise_us)
{
    if (isnan(d->a) || isnan(d->b) || isnan(d->lo) || isnan(d->hi))
        return CMP_NA;
    double diff = d->b - d->a, floor_us = practical_floor(d->a);
    /* Beyond run-to-run noise means farther apart than two runs of one kernel were: strictly. */
    int beyond = fabs(diff) >= floor_us && !(fabs(diff) <= noise_us);
    enum cmp_outcome o = CMP_SAME;
    if (d->lo > 0 && beyond)
        o = CMP_WORSE;
    else if (d->hi < 0 && beyond)
        o = CMP_BETTER;
    if (o != CMP_SAME && (d->tail_a < MIN_TAIL || d->tail_b < MIN_TAIL))
        o = CMP_WEAK;
    return o;
}

enum cmp_outcome decide_rank(const struct rank_test *t)
{
    return decide_rank_noise(t, 0);
}

enum cmp_outcome decide_rank_noise(const struct rank_test *t, double noise_effect)
{
    if (isnan(t->p_value))
        return CMP_NA;
    /* p < 0.001 rather than 0.05: cycles are not independent, so the p-value is optimistic. */
    double effect = fabs(t->prob_b_greater - 0.5);
    if (t->p_value < 0.001 && effect >= 0.06 && !(effect <= noise_effect))
        return t->prob_b_greater > 0.5 ? CMP_WORSE : CMP_BETTER;
    return CMP_SAME;
}
