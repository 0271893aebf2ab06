/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report's histograms read back: see rhist.h. */
#include "report/rhist.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct bucket {
    double lo, hi, count;
};

static int bucket_cmp(const void *a, const void *b)
{
    const struct bucket *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return 0;
}

void rhist_free(struct rhist *h)
{
    free(h->lo);
    free(h->hi);
    free(h->count);
    free(h->cum);
    memset(h, 0, sizeof(*h));
}

int rhist_from_json(const json_t *arr, int fold_abs, struct rhist *h)
{
    memset(h, 0, sizeof(*h));
    size_t n = json_array_size(arr), m = 0;
    if (n == 0)
        return 0;
    struct bucket *b = calloc(n, sizeof(*b));
    if (!b)
        return -ENOMEM;
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e) {
        /* Validated reports only reach here, but skipping what is not a bucket costs nothing. */
        double lo = json_number_value(json_array_get(e, 0)), hi = json_number_value(json_array_get(e, 1));
        double c = json_number_value(json_array_get(e, 2));
        if (json_array_size(e) != 3 || !isfinite(lo) || !isfinite(hi) || !(c > 0) || !isfinite(c) || lo > hi)
            continue;
        if (fold_abs && hi <= 0) {
            double t = lo;
            lo = -hi;
            hi = -t;
        } else if (fold_abs && lo < 0) { /* straddles zero: its magnitudes run from 0 to the larger edge */
            hi = fmax(-lo, hi);
            lo = 0;
        }
        b[m++] = (struct bucket){ lo, hi, c };
    }
    qsort(b, m, sizeof(*b), bucket_cmp);
    /* Merge equal buckets (a folded negative bucket and its positive twin). */
    size_t k = 0;
    for (i = 0; i < m; i++) {
        if (k && b[k - 1].lo == b[i].lo && b[k - 1].hi == b[i].hi)
            b[k - 1].count += b[i].count;
        else
            b[k++] = b[i];
    }
    int rc = 0;
    if (k) {
        h->lo = malloc(k * sizeof(double));
        h->hi = malloc(k * sizeof(double));
        h->count = malloc(k * sizeof(double));
        h->cum = malloc(k * sizeof(double));
        if (!h->lo || !h->hi || !h->count || !h->cum) {
            rhist_free(h);
            rc = -ENOMEM;
            goto out;
        }
        double c = 0;
        for (i = 0; i < k; i++) {
            h->lo[i] = b[i].lo;
            h->hi[i] = b[i].hi;
            h->count[i] = b[i].count;
            c += b[i].count;
            h->cum[i] = c;
        }
        h->n = k;
        h->total = c;
    }
out:
    free(b);
    return rc;
}

double rhist_inverse(const struct rhist *h, double u)
{
    if (h->n == 0 || !(h->total > 0))
        return NAN;
    double target = fmin(fmax(u, 0.0), 1.0) * h->total;
    size_t lo = 0, hi = h->n - 1;
    while (lo < hi) { /* first bucket whose cumulative count reaches target */
        size_t mid = lo + (hi - lo) / 2;
        if (h->cum[mid] >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    double before = h->cum[lo] - h->count[lo];
    double frac = (target - before) / h->count[lo];
    frac = fmin(fmax(frac, 0.0), 1.0);
    return h->lo[lo] + frac * (h->hi[lo] - h->lo[lo]);
}

double rhist_rank(const struct rhist *h, double q)
{
    double k = ceil(q * h->total);
    return fmin(fmax(k, 1.0), h->total);
}

/* stats.c's bucket_mid() of the magnitudes [lo, hi) in ns, from the edges as the report wrote them in µs: whole ns,
 * the half width rounded down. In doubles (exact for whole ns below 2^53), so that a document's absurd edges
 * cannot overflow an integer. */
static double mid_ns(double lo_us, double hi_us)
{
    double lo = round(lo_us * 1000), hi = round(hi_us * 1000);
    return hi - lo <= 1 ? lo : lo + floor((hi - lo) / 2);
}

double rhist_midrank(const struct rhist *h, double q)
{
    if (h->n == 0 || !(h->total > 0))
        return NAN;
    double k = ceil(fmin(fmax(q, 0.0), 1.0) * h->total);
    k = fmax(k, 1.0);
    size_t i = 0;
    while (i + 1 < h->n && h->cum[i] < k)
        i++;
    /* A negative bucket [-hi, -lo) holds the magnitudes [lo, hi): its value is minus their midpoint. */
    if (h->hi[i] <= 0 && h->lo[i] < 0)
        return -mid_ns(-h->hi[i], -h->lo[i]) / 1000.0;
    return mid_ns(h->lo[i], h->hi[i]) / 1000.0;
}

double rhist_quantile(const struct rhist *h, double q)
{
    if (h->n == 0 || !(h->total > 0))
        return NAN;
    return rhist_inverse(h, (rhist_rank(h, q) - 0.5) / h->total);
}
