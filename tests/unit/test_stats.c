/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics against exactly known data: histogram percentiles, bucket error bound, Welford vs two-pass. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "stats/stats.h"
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Every bucket from 1 µs to 10 s is at most 1/64 wide relative to its lower edge: midpoint error < 1 %. */
static void test_bucket_relative_error(void **state)
{
    (void)state;
    for (uint64_t v = 1000; v <= 10000000000ULL; v = v * 1.01 + 1) {
        int b = hist_bucket(v);
        uint64_t lo, hi;
        hist_bucket_edges(b, &lo, &hi);
        assert_true(lo <= v && v < hi);
        double mid = (double)lo + (double)(hi - lo) / 2.0;
        assert_true(fabs(mid - (double)v) / (double)v < 0.01);
    }
    /* buckets are contiguous and ordered */
    for (int b = 1; b < HIST_BUCKETS - 1; b++) {
        uint64_t lo0, hi0, lo1, hi1;
        hist_bucket_edges(b - 1, &lo0, &hi0);
        hist_bucket_edges(b, &lo1, &hi1);
        assert_int_equal(hi0, lo1);
    }
}

/* 1..100000 µs, one each: the nearest-rank p-quantile is p*100000 µs exactly; the histogram is within 1 %. */
static void test_percentiles_uniform(void **state)
{
    (void)state;
    struct metric_stats *m = malloc(sizeof(*m));
    metric_init(m);
    for (int64_t i = 1; i <= 100000; i++)
        metric_add(m, i * 1000);
    const double qs[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
        double exact = qs[i] * 100000.0 * 1000.0;
        double got = (double)metric_quantile(m, qs[i]);
        assert_true(fabs(got - exact) / exact < 0.01);
    }
    assert_int_equal(m->min, 1000);
    assert_int_equal(m->max, 100000000);
    assert_int_equal(m->count, 100000);
    assert_int_equal(metric_quantile(m, 1.0), 100000000); /* clamped to the exact max */
    free(m);
}

/* A skewed set: 990 values of 50 µs and 10 of 5 ms. p99 is 50 µs, p99.9 is 5 ms; negative values rank first. */
static void test_percentiles_skewed_and_signed(void **state)
{
    (void)state;
    struct metric_stats *m = malloc(sizeof(*m));
    metric_init(m);
    for (int i = 0; i < 990; i++)
        metric_add(m, 50000);
    for (int i = 0; i < 10; i++)
        metric_add(m, 5000000);
    assert_true(labs(metric_quantile(m, 0.99) - 50000) < 500);
    assert_true(labs(metric_quantile(m, 0.999) - 5000000) < 50000);
    metric_init(m);
    for (int i = 0; i < 300; i++)
        metric_add(m, -2000000); /* -2 ms */
    for (int i = 0; i < 700; i++)
        metric_add(m, 30000);
    assert_true(labs(metric_quantile(m, 0.1) + 2000000) < 20000);
    assert_true(labs(metric_quantile(m, 0.3) + 2000000) < 20000);
    assert_true(labs(metric_quantile(m, 0.31) - 30000) < 300);
    assert_int_equal(m->abs_max, 2000000);
    assert_int_equal(m->min, -2000000);
    free(m);
}

static void test_welford_matches_two_pass(void **state)
{
    (void)state;
    /* values with a large common offset: the naive sum-of-squares formula loses everything here */
    enum { N = 10000 };
    double *x = malloc(N * sizeof(*x));
    struct welford w = { 0, 0, 0 };
    srand(42);
    for (int i = 0; i < N; i++) {
        x[i] = 1e9 + (rand() % 100000) / 7.0;
        welford_add(&w, x[i]);
    }
    double mean = 0;
    for (int i = 0; i < N; i++)
        mean += x[i];
    mean /= N;
    double ss = 0;
    for (int i = 0; i < N; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    double sd = sqrt(ss / (N - 1));
    assert_true(fabs(w.mean - mean) < 1e-6 * fabs(mean));
    assert_true(fabs(welford_sd(&w) - sd) / sd < 1e-6);
    struct welford one = { 0, 0, 0 };
    welford_add(&one, 5);
    assert_true(welford_sd(&one) == 0.0);
    free(x);
}

static void test_select_quantile(void **state)
{
    (void)state;
    int64_t v[1000];
    for (int i = 0; i < 1000; i++)
        v[i] = (int64_t)((i * 7919) % 1000); /* a permutation of 0..999 */
    assert_int_equal(select_quantile(v, 1000, 0.99), 989);
    assert_int_equal(select_quantile(v, 1000, 0.5), 499);
    assert_int_equal(select_quantile(v, 1000, 1.0), 999);
    int64_t same[5] = { 3, 3, 3, 3, 3 };
    assert_int_equal(select_quantile(same, 5, 0.99), 3);
    int64_t one[1] = { -7 };
    assert_int_equal(select_quantile(one, 1, 0.99), -7);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Pages of [p, p + len) the kernel holds (mincore), whole pages only. */
static size_t resident_pages(const void *p, size_t len)
{
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t mask = ~((uintptr_t)pg - 1);
    uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) & mask, e = ((uintptr_t)p + len) & mask;
    if (e <= a)
        return 0;
    size_t n = (e - a) / (size_t)pg, r = 0;
    unsigned char *v = calloc(n, 1);
    assert_non_null(v);
    assert_int_equal(mincore((void *)a, e - a, v), 0);
    for (size_t i = 0; i < n; i++)
        r += v[i] & 1;
    free(v);
    return r;
}

/* A settled phase's histograms compacted (hist_compact): every quantile, the absolute ones and every non-empty bucket
 * read the same as before, and as the sorted values say (nearest rank, within a bucket's 1 %); the dense arrays' whole
 * pages are no longer resident (mincore, the kernel's word), locked ones too (the first try left them: a run's
 * mlockall made MADV_DONTNEED fail); a value added afterwards lands as in a histogram never compacted. */
static void test_compact_same_answers(void **state)
{
    (void)state;
    enum { N = 20000 };
    struct metric_stats *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
    int64_t *v = malloc(N * sizeof(*v)), *mag = malloc(N * sizeof(*mag));
    assert_true(a && b && v && mag);
    metric_init(a);
    metric_init(b);
    srand(7);
    for (int i = 0; i < N; i++) { /* signed, spread over 50 ns .. 20 ms */
        double x = exp(log(50.0) + (log(2e7) - log(50.0)) * rand() / (double)RAND_MAX);
        v[i] = (int64_t)x * (rand() % 3 == 0 ? -1 : 1);
        mag[i] = v[i] < 0 ? -v[i] : v[i];
        metric_add(a, v[i]);
        metric_add(b, v[i]);
    }
    qsort(v, N, sizeof(*v), cmp_i64);
    qsort(mag, N, sizeof(*mag), cmp_i64);
    assert_true(resident_pages(a->hist.pos, sizeof(a->hist.pos)) > 0);
    /* locked, as a run's memory is (mlockall): a locked page is not dropped unless unlocked first */
    int locked = mlock(a, sizeof(*a)) == 0;
    print_message("# histogram memory %slocked\n", locked ? "" : "not ");
    assert_int_equal(hist_compact(&a->hist), 0);
    assert_non_null(a->hist.sparse);
    assert_int_equal(resident_pages(a->hist.pos, sizeof(a->hist.pos)), 0);
    assert_int_equal(resident_pages(a->hist.neg, sizeof(a->hist.neg)), 0);
    static const double qs[] = { 0, 0.01, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999, 1 };
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
        int64_t x = metric_quantile(a, qs[i]), y = metric_quantile(b, qs[i]);
        int64_t xa = metric_abs_quantile(a, qs[i]), ya = metric_abs_quantile(b, qs[i]);
        size_t rank = (size_t)ceil(qs[i] * N);
        int64_t truth = v[rank ? rank - 1 : 0], truth_abs = mag[rank ? rank - 1 : 0];
        assert_int_equal(x, y);
        assert_int_equal(xa, ya);
        assert_true(llabs(x - truth) <= llabs(truth) / 50 + 1);
        assert_true(llabs(xa - truth_abs) <= truth_abs / 50 + 1);
    }
    struct hist_iter ia = { 0 }, ib = { 0 };
    int na, ba, nb, bb;
    uint64_t ca, cb, total = 0;
    int bins = 0;
    while (hist_next(&a->hist, &ia, &na, &ba, &ca)) {
        assert_int_equal(hist_next(&b->hist, &ib, &nb, &bb, &cb), 1);
        assert_true(na == nb && ba == bb && ca == cb);
        total += ca, bins++;
    }
    assert_int_equal(hist_next(&b->hist, &ib, &nb, &bb, &cb), 0);
    assert_int_equal(total, N);
    assert_true(bins > 100);
    /* a value after it: the buckets spread back, the same as never compacted */
    metric_add(a, -123456);
    metric_add(b, -123456);
    assert_null(a->hist.sparse);
    assert_memory_equal(a->hist.pos, b->hist.pos, sizeof(a->hist.pos));
    assert_memory_equal(a->hist.neg, b->hist.neg, sizeof(a->hist.neg));
    hist_release(&a->hist);
    hist_release(&b->hist);
    if (locked)
        munlock(a, sizeof(*a));
    free(a), free(b), free(v), free(mag);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket_relative_error),
        cmocka_unit_test(test_percentiles_uniform),
        cmocka_unit_test(test_percentiles_skewed_and_signed),
        cmocka_unit_test(test_welford_matches_two_pass),
        cmocka_unit_test(test_select_quantile),
        cmocka_unit_test(test_compact_same_answers),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
