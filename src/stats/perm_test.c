/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counts per second compared by the permutation test of their ranks: see perm_test.h. */
#include "stats/perm_test.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tagged {
    double v;
    size_t i; /* index in the pooled series */
};

static int tagged_cmp(const void *x, const void *y)
{
    const struct tagged *a = x, *b = y;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Twice the mid-rank of every pooled value (a, then b), into score: whole numbers, so that rank sums compare
 * exactly. Ranks run from 1; a tie group over ranks i + 1 .. j has mid-rank (i + 1 + j) / 2. */
static int doubled_midranks(const double *a, size_t na, const double *b, size_t nb, int64_t *score)
{
    size_t n = na + nb;
    struct tagged *t = malloc(n * sizeof(*t));
    if (!t)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++)
        t[i] = (struct tagged){ i < na ? a[i] : b[i - na], i };
    qsort(t, n, sizeof(*t), tagged_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && t[j].v == t[i].v)
            j++;
        for (size_t k = i; k < j; k++)
            score[t[k].i] = (int64_t)(i + 1 + j);
        i = j;
    }
    free(t);
    return 0;
}

/* splitmix64: the random splits are drawn from a fixed seed, so that one pair of reports always gives one p */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* P(|S - mean2| >= |s - mean2|) for S the sum of nb scores chosen at random out of n, s the sum seen, mean2 the
 * mean of S. */
static double exact_p(const int64_t *score, size_t n, size_t nb, int64_t s, int64_t mean2)
{
    int64_t maxsum = 0;
    for (size_t i = 0; i < n; i++)
        maxsum += score[i];
    size_t w = (size_t)maxsum + 1;
    /* ways[j * w + x]: the number of ways to choose j of the scores seen so far with sum x (exact in doubles up
     * to 2^53, and to 16 digits beyond: plenty for a p-value) */
    double *ways = calloc((nb + 1) * w, sizeof(double));
    if (!ways)
        return NAN;
    ways[0] = 1;
    int64_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        seen += score[i];
        size_t top = i + 1 < nb ? i + 1 : nb;
        for (size_t j = top; j >= 1; j--) {
            double *to = ways + j * w, *from = ways + (j - 1) * w;
            for (int64_t x = seen; x >= score[i]; x--)
                to[x] += from[x - score[i]];
        }
    }
    double all = 0, far = 0;
    int64_t d = llabs(s - mean2);
    for (int64_t x = 0; x <= maxsum; x++) {
        double c = ways[nb * w + (size_t)x];
        all += c;
        if (llabs(x - mean2) >= d)
            far += c;
    }
    free(ways);
    return all > 0 ? fmin(1.0, far / all) : NAN;
}

static double drawn_p(const int64_t *score_in, size_t n, size_t nb, int64_t s, int64_t mean2)
{
    int64_t *score = malloc(n * sizeof(int64_t));
    if (!score)
        return NAN;
    memcpy(score, score_in, n * sizeof(int64_t));
    uint64_t seed = 0x5eed0019ULL ^ ((uint64_t)n << 32) ^ (uint64_t)nb;
    int64_t d = llabs(s - mean2);
    long far = 0;
    /* Besag and Clifford's sequential p-value: a split as far as the one seen, COUNTS_STOP_FAR times, ends the
     * drawing, p = that / the splits drawn (a p far above any level tested is known after a few hundred splits;
     * 20000 for every load and count of a 300-phase pair took 52 s of CPU); else p = (1 + as far) / (1 + draws). */
    for (int r = 0; r < COUNTS_DRAWS; r++) {
        int64_t sum = 0;
        for (size_t k = 0; k < nb; k++) { /* the first nb of a partial Fisher-Yates shuffle */
            size_t j = k + (size_t)(next_u64(&seed) % (n - k));
            int64_t t = score[k];
            score[k] = score[j];
            score[j] = t;
            sum += score[k];
        }
        far += llabs(sum - mean2) >= d;
        if (far >= COUNTS_STOP_FAR) {
            free(score);
            return (double)far / (double)(r + 1);
        }
    }
    free(score);
    return (1.0 + (double)far) / (1.0 + COUNTS_DRAWS);
}

double count_rank_perm_p(const double *a, size_t na, const double *b, size_t nb, int *exact)
{
    size_t n = na + nb;
    if (na == 0 || nb == 0)
        return NAN;
    int64_t *score = malloc(n * sizeof(int64_t));
    if (!score || doubled_midranks(a, na, b, nb, score) < 0) {
        free(score);
        return NAN;
    }
    /* The smaller side's rank sum: the two sum to a constant, and each is as far from its mean as the other, so
     * the p is the same, and choosing fewer costs less. */
    size_t from = na < nb ? 0 : na, k = na < nb ? na : nb;
    int64_t s = 0;
    for (size_t i = from; i < from + k; i++)
        s += score[i];
    /* its mean is k (n + 1) / 2: of the doubled sum, k (n + 1), a whole number */
    int64_t mean2 = (int64_t)k * (int64_t)(n + 1);
    int ex = n <= COUNTS_EXACT_MAX;
    double p = ex ? exact_p(score, n, k, s, mean2) : drawn_p(score, n, k, s, mean2);
    if (exact)
        *exact = ex;
    free(score);
    return p;
}

static double half_rate(const double *v, size_t n)
{
    double k = 0;
    for (size_t i = 0; i < n; i++)
        k += v[i];
    return (k + 0.5) / (double)n;
}

int count_test(const double *a, size_t na, const double *b, size_t nb, struct count_test *out)
{
    memset(out, 0, sizeof(*out));
    out->na = na;
    out->nb = nb;
    out->rate_a = out->rate_b = out->p_value = out->half_lo = out->half_hi = NAN;
    if (na == 0 || nb == 0)
        return -EINVAL;
    for (size_t i = 0; i < na + nb; i++) {
        double x = i < na ? a[i] : b[i - na];
        if (!(x >= 0) || !isfinite(x))
            return -EINVAL;
        if (i < na) {
            out->ka += x;
            out->any_a += x > 0;
        } else {
            out->kb += x;
            out->any_b += x > 0;
        }
    }
    out->rate_a = out->ka / (double)na;
    out->rate_b = out->kb / (double)nb;
    if (out->ka + out->kb == 0) {
        out->p_value = 1;
        out->exact = 1;
    } else {
        out->p_value = count_rank_perm_p(a, na, b, nb, &out->exact);
        if (isnan(out->p_value))
            return -ENOMEM;
    }
    if (na >= 2 * COUNTS_HALF_MIN && nb >= 2 * COUNTS_HALF_MIN) {
        size_t ha = na / 2, hb = nb / 2;
        double ra[2] = { half_rate(a, ha), half_rate(a + na - ha, ha) };
        double rb[2] = { half_rate(b, hb), half_rate(b + nb - hb, hb) };
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                double r = rb[j] / ra[i];
                out->half_lo = i + j ? fmin(out->half_lo, r) : r;
                out->half_hi = i + j ? fmax(out->half_hi, r) : r;
            }
    }
    return 0;
}
