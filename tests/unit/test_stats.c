/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics against exactly known data: histogram percentiles, bucket error bound, Welford vs two-pass. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "stats/stats.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket_relative_error),
        cmocka_unit_test(test_percentiles_uniform),
        cmocka_unit_test(test_percentiles_skewed_and_signed),
        cmocka_unit_test(test_welford_matches_two_pass),
        cmocka_unit_test(test_select_quantile),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
