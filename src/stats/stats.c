/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stats/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int hist_bucket(uint64_t v)
{
    if (v < HIST_LINEAR)
        return (int)v;
    int e = 63 - __builtin_clzll(v); /* >= 7 */
    if (e > HIST_MAX_EXP)
        return HIST_BUCKETS - 1;
    int sub = (int)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
    return HIST_LINEAR + (e - 7) * HIST_SUB + sub;
}

void hist_bucket_edges(int b, uint64_t *lo, uint64_t *hi)
{
    if (b < HIST_LINEAR) {
        *lo = (uint64_t)b;
        *hi = (uint64_t)b + 1;
        return;
    }
    int e = (b - HIST_LINEAR) / HIST_SUB + 7;
    int sub = (b - HIST_LINEAR) % HIST_SUB;
    uint64_t width = (uint64_t)1 << (e - HIST_SUB_BITS);
    *lo = ((uint64_t)1 << e) + (uint64_t)sub * width;
    *hi = *lo + width;
}

int hist_next(const struct histogram *h, struct hist_iter *it, int *neg, int *b, uint64_t *n)
{
    if (h->sparse) {
        if (it->k >= h->nsparse)
            return 0;
        const struct hist_bin *x = &h->sparse[it->k++];
        *neg = x->b < 0, *b = x->b < 0 ? -x->b - 1 : x->b, *n = x->n;
        return 1;
    }
    if (it->stage == 0) { /* the negatives, most negative first */
        it->stage = 1, it->b = HIST_BUCKETS;
    }
    if (it->stage == 1) {
        while (--it->b >= 0)
            if (h->neg[it->b]) {
                *neg = 1, *b = it->b, *n = h->neg[it->b];
                return 1;
            }
        it->stage = 2, it->b = -1;
    }
    while (++it->b < HIST_BUCKETS)
        if (h->pos[it->b]) {
            *neg = 0, *b = it->b, *n = h->pos[it->b];
            return 1;
        }
    it->b = HIST_BUCKETS;
    return 0;
}

/* An array inside an allocation that is no longer read: its whole pages given back to the kernel (they read as zeros
 * again). A run locks its memory (mlockall: a locked page cannot be dropped, EINVAL), so they are unlocked first.
 * Where that fails the array is left as it is: what it holds is what was compacted. */
static void release_pages(void *p, size_t len)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0)
        return;
    uintptr_t mask = ~((uintptr_t)pg - 1);
    uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) & mask, e = ((uintptr_t)p + len) & mask;
    if (a >= e)
        return;
    munlock((void *)a, e - a);
    (void)madvise((void *)a, e - a, MADV_DONTNEED);
}

int hist_compact(struct histogram *h)
{
    if (h->sparse)
        return 0;
    struct hist_iter it = { 0 };
    int neg, b;
    uint64_t c;
    uint32_t n = 0, k = 0;
    while (hist_next(h, &it, &neg, &b, &c))
        n++;
    struct hist_bin *x = malloc((n ? n : 1) * sizeof(*x));
    if (!x)
        return -1;
    it = (struct hist_iter){ 0 };
    while (k < n && hist_next(h, &it, &neg, &b, &c))
        x[k++] = (struct hist_bin){ (int16_t)(neg ? -b - 1 : b), c };
    release_pages(h->pos, sizeof(h->pos));
    release_pages(h->neg, sizeof(h->neg));
    h->sparse = x, h->nsparse = k;
    return 0;
}

void hist_release(struct histogram *h)
{
    free(h->sparse);
    h->sparse = NULL;
    h->nsparse = 0;
    h->total = 0;
}

/* A compacted histogram given a new value: its buckets spread back into the dense arrays first (what they held
 * elsewhere is zero: empty buckets, or pages given back, or kept as they were compacted). */
static void hist_expand(struct histogram *h)
{
    for (uint32_t k = 0; k < h->nsparse; k++) {
        const struct hist_bin *x = &h->sparse[k];
        if (x->b < 0)
            h->neg[-x->b - 1] = x->n;
        else
            h->pos[x->b] = x->n;
    }
    free(h->sparse);
    h->sparse = NULL;
    h->nsparse = 0;
}

void hist_add(struct histogram *h, int64_t v)
{
    if (h->sparse)
        hist_expand(h);
    if (v >= 0)
        h->pos[hist_bucket((uint64_t)v)]++;
    else
        h->neg[hist_bucket(v == INT64_MIN ? (uint64_t)INT64_MAX : (uint64_t)-v)]++;
    h->total++;
}

static int64_t bucket_mid(int b)
{
    uint64_t lo, hi;
    hist_bucket_edges(b, &lo, &hi);
    if (hi - lo == 1)
        return (int64_t)lo;
    return (int64_t)(lo + (hi - lo) / 2);
}

int64_t hist_quantile(const struct histogram *h, double q)
{
    if (h->total == 0)
        return 0;
    if (q < 0)
        q = 0;
    if (q > 1)
        q = 1;
    /* nearest rank: the smallest value with at least ceil(q*n) values at or below it (rank >= 1) */
    uint64_t rank = (uint64_t)ceil(q * (double)h->total);
    if (rank < 1)
        rank = 1;
    uint64_t cum = 0, n;
    struct hist_iter it = { 0 };
    int neg, b;
    while (hist_next(h, &it, &neg, &b, &n)) { /* most negative first */
        cum += n;
        if (cum >= rank)
            return neg ? -bucket_mid(b) : bucket_mid(b);
    }
    return bucket_mid(HIST_BUCKETS - 1);
}

void welford_add(struct welford *w, double x)
{
    w->n++;
    double d = x - w->mean;
    w->mean += d / (double)w->n;
    w->m2 += d * (x - w->mean);
}

double welford_sd(const struct welford *w)
{
    if (w->n < 2)
        return 0.0;
    return sqrt(w->m2 / (double)(w->n - 1));
}

void metric_init(struct metric_stats *m)
{
    memset(m, 0, sizeof(*m));
    metric_init_zeroed(m);
}

void metric_init_zeroed(struct metric_stats *m)
{
    m->min = INT64_MAX;
    m->max = INT64_MIN;
}

void metric_add(struct metric_stats *m, int64_t v)
{
    m->count++;
    if (v < m->min)
        m->min = v;
    if (v > m->max)
        m->max = v;
    int64_t a = v < 0 ? -v : v;
    if (a > m->abs_max)
        m->abs_max = a;
    welford_add(&m->w, (double)v);
    hist_add(&m->hist, v);
}

int64_t metric_quantile(const struct metric_stats *m, double q)
{
    if (m->count == 0)
        return 0;
    int64_t v = hist_quantile(&m->hist, q);
    if (v < m->min)
        v = m->min;
    if (v > m->max)
        v = m->max;
    return v;
}

int64_t metric_abs_quantile(const struct metric_stats *m, double q)
{
    if (m->count == 0)
        return 0;
    uint64_t rank = (uint64_t)ceil(fmin(fmax(q, 0), 1) * (double)m->hist.total), cum = 0;
    if (rank < 1)
        rank = 1;
    int64_t v = bucket_mid(HIST_BUCKETS - 1);
    const struct histogram *h = &m->hist;
    if (h->sparse) { /* by magnitude: the negatives (most negative first) read backwards, merged with the positives */
        uint32_t nneg = 0;
        while (nneg < h->nsparse && h->sparse[nneg].b < 0)
            nneg++;
        uint32_t i = nneg, j = nneg; /* i: negatives left (the next is i - 1), j: the next positive */
        while (i > 0 || j < h->nsparse) {
            int bn = i > 0 ? -h->sparse[i - 1].b - 1 : HIST_BUCKETS;
            int bp = j < h->nsparse ? h->sparse[j].b : HIST_BUCKETS;
            int b = bn < bp ? bn : bp;
            if (bn == b)
                cum += h->sparse[--i].n;
            if (bp == b)
                cum += h->sparse[j++].n;
            if (cum >= rank) {
                v = bucket_mid(b);
                break;
            }
        }
        return v > m->abs_max ? m->abs_max : v;
    }
    for (int b = 0; b < HIST_BUCKETS; b++) {
        cum += h->pos[b] + h->neg[b];
        if (cum >= rank) {
            v = bucket_mid(b);
            break;
        }
    }
    return v > m->abs_max ? m->abs_max : v;
}

int quantile_defined(uint64_t n, double q)
{
    return (double)n * (1.0 - q) >= 1.0 - 1e-9;
}

static void swap64(int64_t *a, int64_t *b)
{
    int64_t t = *a;
    *a = *b;
    *b = t;
}

int64_t select_quantile(int64_t *v, size_t n, double q)
{
    size_t rank = (size_t)ceil(q * (double)n);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    size_t k = rank - 1, lo = 0, hi = n - 1;
    while (lo < hi) { /* Hoare-style quickselect with median-of-three pivot */
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo]) swap64(&v[mid], &v[lo]);
        if (v[hi] < v[lo]) swap64(&v[hi], &v[lo]);
        if (v[hi] < v[mid]) swap64(&v[hi], &v[mid]);
        int64_t pivot = v[mid];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                swap64(&v[i], &v[j]);
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}
