/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two samples compared by rank: the Mann-Whitney test (exact without ties and up to 25 a side), the Hodges-Lehmann
 * shift, and the median by selection. See mann_whitney.h. */
#include "stats/mann_whitney.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The k-th smallest of v[0..n) (v is reordered): Hoare's selection, a middle pivot. */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double p = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        /* [lo, j] <= p <= [i, hi], and what lies between equals p */
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* The median of v[0..n) (the mean of the middle two for an even n), by selection: v is reordered. */
double median_select(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double hi = select_kth(v, n, n / 2);
    if (n % 2)
        return hi;
    /* after the selection, v[0..n/2) holds the smaller half: its largest is the other middle value */
    double lo = v[0];
    for (size_t i = 1; i < n / 2; i++)
        lo = v[i] > lo ? v[i] : lo;
    return (lo + hi) / 2;
}

/* Exact distribution of U (no ties): counts of the arrangements of na a's and nb b's by the number of (a, b)
 * pairs with b above a. Placing the largest value: a b there beats every a, an a there beats none:
 * f(i, j, u) = f(i, j - 1, u - i) + f(i - 1, j, u). Counts reach C(50, 25) ~ 1.3e14 < 2^53: exact in doubles. */
#define MW_EXACT_MAX 25

double mw_exact_p(double u, size_t na, size_t nb)
{
    if (na == 0 || nb == 0 || na > MW_EXACT_MAX || nb > MW_EXACT_MAX)
        return NAN;
    size_t umax = na * nb, w = umax + 1;
    double *prev = calloc((nb + 1) * w, sizeof(double)), *cur = calloc((nb + 1) * w, sizeof(double));
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return NAN;
    }
    /* i = 0: only b's, U = 0 whatever j */
    for (size_t j = 0; j <= nb; j++)
        prev[j * w] = 1;
    for (size_t i = 1; i <= na; i++) {
        memset(cur, 0, (nb + 1) * w * sizeof(double));
        for (size_t j = 0; j <= nb; j++)
            for (size_t x = 0; x <= i * j; x++) {
                double c = prev[j * w + x];
                if (j > 0 && x >= i)
                    c += cur[(j - 1) * w + x - i];
                cur[j * w + x] = c;
            }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    const double *f = prev + nb * w;
    double total = 0, tail = 0, hi = fmax(u, (double)umax - u);
    for (size_t x = 0; x <= umax; x++) {
        total += f[x];
        if ((double)x >= hi - 1e-9)
            tail += f[x];
    }
    free(prev);
    free(cur);
    return fmin(1.0, 2 * tail / total);
}

/* The Hodges-Lehmann shift is the median of the na x nb differences d(i, j) = b[j] - a[i] (as computed in doubles,
 * whose rounding is monotonic: with a and b sorted, d grows along j and falls along i). Its k-th smallest is found
 * without forming them (the matrix stays implicit, as in Monahan's algorithm for the one-sample estimator and
 * Johnson and Mizoguchi's selection in X + Y): each row i keeps the columns [lo[i], hi[i]) still in the running; a
 * pivot, a candidate drawn from a fixed seed, is placed by counting in every row the differences below it and at
 * or below it, one two-pointer sweep of O(na + nb); the rows are then cut to the side the k-th lies on. A drawn
 * pivot halves the candidates in expectation, so O(log(na nb)) sweeps: O((na + nb) log(na nb)) time and O(na + nb)
 * memory, where forming every difference took O(na nb) of both. The pivot only decides how fast: the result is
 * the exact order statistic, the same as sorting every difference (tests/unit/test_compare.c checks it against
 * that). Below HL_SMALL candidates they are gathered and the k-th is selected among them. */
#define HL_SMALL 4096

static double hl_select(const double *a, size_t na, const double *b, size_t nb, size_t k, size_t *lo, size_t *hi,
                        size_t *lt, size_t *le, double *cand)
{
    for (size_t i = 0; i < na; i++) {
        lo[i] = 0;
        hi[i] = nb;
    }
    size_t below = 0; /* differences known to be below the k-th: the columns [0, lo[i]) of every row */
    uint64_t seed = 0x484c0021ULL ^ ((uint64_t)na << 32) ^ (uint64_t)nb ^ ((uint64_t)k << 17);
    for (;;) {
        size_t left = 0;
        for (size_t i = 0; i < na; i++)
            left += hi[i] - lo[i];
        if (left <= HL_SMALL) {
            size_t m = 0;
            for (size_t i = 0; i < na; i++)
                for (size_t j = lo[i]; j < hi[i]; j++)
                    cand[m++] = b[j] - a[i];
            return select_kth(cand, m, k - below);
        }
        /* the pivot: the r-th candidate, r drawn uniformly */
        seed += 0x9e3779b97f4a7c15ULL;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        size_t r = (size_t)((z ^ (z >> 31)) % left), pi = 0;
        while (r >= hi[pi] - lo[pi]) {
            r -= hi[pi] - lo[pi];
            pi++;
        }
        double p = b[lo[pi] + r] - a[pi];
        /* in every row, the differences below p (lt) and at or below it (le): both grow with i (a[i] grows, every
         * difference of the row falls), so one sweep carries the column pointers from row to row */
        size_t jl = 0, je = 0, slt = 0, sle = 0;
        for (size_t i = 0; i < na; i++) {
            while (jl < nb && b[jl] - a[i] < p)
                jl++;
            if (je < jl)
                je = jl;
            while (je < nb && b[je] - a[i] <= p)
                je++;
            lt[i] = jl;
            le[i] = je;
            slt += jl;
            sle += je;
        }
        if (k < slt) { /* the k-th is below p */
            for (size_t i = 0; i < na; i++)
                hi[i] = lt[i] < hi[i] ? (lt[i] > lo[i] ? lt[i] : lo[i]) : hi[i];
        } else if (k >= sle) { /* above p */
            below = 0;
            for (size_t i = 0; i < na; i++) {
                lo[i] = le[i] > lo[i] ? (le[i] < hi[i] ? le[i] : hi[i]) : lo[i];
                below += lo[i];
            }
        } else {
            return p;
        }
    }
}

double hodges_lehmann_shift(const double *a_in, size_t na, const double *b_in, size_t nb)
{
    if (na == 0 || nb == 0)
        return NAN;
    double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double));
    size_t *idx = malloc(4 * na * sizeof(size_t));
    double *cand = malloc((HL_SMALL + nb) * sizeof(double));
    double shift = NAN;
    if (!a || !b || !idx || !cand)
        goto out;
    memcpy(a, a_in, na * sizeof(double));
    memcpy(b, b_in, nb * sizeof(double));
    qsort(a, na, sizeof(double), dcmp);
    qsort(b, nb, sizeof(double), dcmp);
    /* the median of n = na nb differences, the middle one of them sorted, or the mean of the middle two */
    size_t n = na * nb, *lo = idx, *hi = idx + na, *lt = idx + 2 * na, *le = idx + 3 * na;
    double m = hl_select(a, na, b, nb, n / 2, lo, hi, lt, le, cand);
    shift = n % 2 ? m : (hl_select(a, na, b, nb, n / 2 - 1, lo, hi, lt, le, cand) + m) / 2;
out:
    free(a);
    free(b);
    free(idx);
    free(cand);
    return shift;
}

struct tagged {
    double v;
    int side; /* 0: a, 1: b */
};

static int tagged_cmp(const void *x, const void *y)
{
    const struct tagged *a = x, *b = y;
    return a->v < b->v ? -1 : a->v > b->v;
}

int block_test(const double *a, size_t na, const double *b, size_t nb, struct block_test *out)
{
    memset(out, 0, sizeof(*out));
    out->median_a = out->median_b = out->shift = out->p_value = out->prob_b_greater = out->u_b = NAN;
    out->na = na;
    out->nb = nb;
    if (na == 0 || nb == 0)
        return -EINVAL;
    size_t n = na + nb;
    struct tagged *t = malloc(n * sizeof(*t));
    double *sa = malloc(na * sizeof(double)), *sb = malloc(nb * sizeof(double));
    if (!t || !sa || !sb) {
        free(t);
        free(sa);
        free(sb);
        return -ENOMEM;
    }
    for (size_t i = 0; i < na; i++)
        t[i] = (struct tagged){ a[i], 0 };
    for (size_t i = 0; i < nb; i++)
        t[na + i] = (struct tagged){ b[i], 1 };
    qsort(t, n, sizeof(*t), tagged_cmp);
    /* Mid-ranks for ties, and the tie term of the variance. */
    double rank_sum_b = 0, ties = 0;
    int any_tie = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double cb = 0;
        for (; j < n && t[j].v == t[i].v; j++)
            cb += t[j].side;
        double g = (double)(j - i);
        rank_sum_b += cb * ((double)i + (g + 1) / 2);
        ties += g * g * g - g;
        any_tie |= g > 1;
        i = j;
    }
    free(t);
    double dna = (double)na, dnb = (double)nb, N = dna + dnb;
    out->u_b = rank_sum_b - dnb * (dnb + 1) / 2;
    out->prob_b_greater = out->u_b / (dna * dnb);
    if (!any_tie && na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX) {
        out->p_value = mw_exact_p(out->u_b, na, nb);
        out->exact = 1;
    } else {
        double mean = dna * dnb / 2, var = dna * dnb / 12 * ((N + 1) - ties / (N * (N - 1)));
        if (!(var > 0)) {
            out->p_value = 1; /* every value equal: nothing to rank */
        } else {
            double diff = fabs(out->u_b - mean) - 0.5; /* continuity correction */
            out->p_value = fmin(1.0, erfc((diff > 0 ? diff : 0) / sqrt(var) / M_SQRT2));
        }
    }
    memcpy(sa, a, na * sizeof(double));
    memcpy(sb, b, nb * sizeof(double));
    out->median_a = median_select(sa, na);
    out->median_b = median_select(sb, nb);
    for (size_t i = 0; i < nb; i++)
        out->b_above_median_a += sb[i] > out->median_a;
    free(sa);
    free(sb);
    out->shift = hodges_lehmann_shift(a, na, b, nb);
    return isnan(out->p_value) || isnan(out->shift) ? -ENOMEM : 0;
}
