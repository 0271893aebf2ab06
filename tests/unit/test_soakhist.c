/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's linear histogram, maxima per window, per-thread figures and --stop-at-us (stats/soakhist.c), from
 * wake-ups and times this test injects; every expected count, bin and maximum is worked out here by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/soakhist.h"
#include "report/report_soak.h"

#define S 1000000000LL /* ns per second */

static void test_bins_and_overflow(void **state)
{
    (void)state;
    struct soak_stats s;
    assert_int_equal(soak_init(&s, 60, 300, -1), 0);
    /* 0.4 us -> bin 0; 1.0 us -> bin 1; 1.999 us -> bin 1; 9999.999 us -> the last bin; 10 ms and 2 s: overflow */
    const int64_t w[] = { 400, 1000, 1999, 9999999, 10000000, 2 * S, -50 /* early by 50 ns: bin 0 */ };
    for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
        assert_int_equal(soak_add(&s, w[i], 100 * S + (int64_t)i * 1000000, 0, 3), 0);
    assert_int_equal(s.count, 7);
    assert_int_equal(s.bins[0], 2);
    assert_int_equal(s.bins[1], 2);
    assert_int_equal(s.bins[SOAK_RANGE_US - 1], 1);
    assert_int_equal(s.overflow, 2);
    assert_int_equal(s.max_ns, 2 * S);
    assert_int_equal(s.max_at_ns, 5 * 1000000);
    uint64_t sum = s.overflow;
    for (int b = 0; b < SOAK_RANGE_US; b++)
        sum += s.bins[b];
    assert_int_equal(sum, s.count); /* every cycle in exactly one bin or the overflow */
    json_t *o = soak_json(&s, -1);
    json_t *bins = json_object_get(o, "bins");
    assert_int_equal(json_array_size(bins), 3); /* non-empty bins only, ascending: [0,2] [1,2] [9999,1] */
    assert_int_equal(json_integer_value(json_array_get(json_array_get(bins, 2), 0)), 9999);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(bins, 0), 1)), 2);
    assert_int_equal(json_integer_value(json_object_get(o, "overflow")), 2);
    assert_null(json_object_get(o, "stop"));
    json_decref(o);
    soak_free(&s);
}

static void test_windows(void **state)
{
    (void)state;
    struct soak_stats s;
    /* 20 s in windows of 5 s: 4 windows; a cycle at 20.03 s (the wait ended late) belongs to the last */
    assert_int_equal(soak_init(&s, 20, 5, -1), 0);
    assert_int_equal(s.nwin, 4);
    int64_t t0 = 1000 * S;
    static const struct { double at_s; int64_t wake; } c[] = {
        { 0, 10000 }, { 1.5, 70000 }, { 4.999, 20000 },    /* window 0: max 70 us at 1.5 s */
        { 5.0, 15000 }, { 9.0, 14000 },                    /* window 1: max 15 us at 5 s */
        /* window 2: no cycle */
        { 15.2, 30000 }, { 19.9, 12000000 }, { 20.03, 900000 }, /* window 3: 12 ms (overflow) at 19.9 s */
    };
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
        soak_add(&s, c[i].wake, t0 + (int64_t)llround(c[i].at_s * 1e9), i % 2, (int)(i % 2));
    assert_int_equal(s.nwin_used, 4);
    assert_int_equal(s.win[0].max_ns, 70000);
    assert_int_equal(s.win[0].at_ns, 1500000000LL);
    assert_int_equal(s.win[0].cycles, 3);
    assert_int_equal(s.win[1].max_ns, 15000);
    assert_int_equal(s.win[2].max_ns, -1);
    assert_int_equal(s.win[2].cycles, 0);
    assert_int_equal(s.win[3].max_ns, 12000000);
    assert_int_equal(s.win[3].cycles, 3);
    assert_int_equal(s.win[3].overflow, 1);
    json_t *o = soak_json(&s, -1);
    json_t *ws = json_object_get(o, "windows");
    assert_int_equal(json_array_size(ws), 4);
    assert_true(json_is_null(json_object_get(json_array_get(ws, 2), "max_us")));
    assert_true(fabs(json_real_value(json_object_get(json_array_get(ws, 0), "max_us")) - 70.0) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(o, "window_s")) - 5.0) < 1e-9);
    /* per thread: stream 0 had the cycles 0, 2, 4, 6; stream 1 the cycles 1, 3, 5, 7 */
    json_t *th = json_object_get(o, "threads");
    assert_int_equal(json_array_size(th), 2);
    json_t *t0j = json_array_get(th, 0), *t1j = json_array_get(th, 1);
    assert_true(fabs(json_real_value(json_object_get(t0j, "min_us")) - 10.0) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(t0j, "max_us")) - 12000.0) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(t0j, "avg_us")) - (10 + 20 + 14 + 12000) / 4.0) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(t1j, "max_us")) - 900.0) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(t1j, "cpu")), 1);
    json_decref(o);
    soak_free(&s);
    /* a window too short for the run's length is widened: a week in 1 s windows is SOAK_WINDOWS_MAX windows */
    assert_int_equal(soak_init(&s, 604800, 1, -1), 0);
    assert_int_equal(s.nwin, SOAK_WINDOWS_MAX);
    assert_int_equal(s.window_ns, 60 * S);
    soak_free(&s);
}

static void test_stop_at(void **state)
{
    (void)state;
    struct soak_stats s;
    assert_int_equal(soak_init(&s, 60, 300, 500), 0); /* --stop-at-us 500 */
    assert_int_equal(soak_add(&s, 500000, 5 * S, 0, 0), 0);   /* exactly 500 us: not beyond */
    assert_int_equal(soak_add(&s, 20000, 6 * S, 1, 1), 0);
    assert_int_equal(soak_add(&s, 500001, 7 * S, 1, 1), 1);   /* the first beyond: trips */
    assert_int_equal(soak_add(&s, 900000, 8 * S, 0, 0), 0);   /* later ones do not trip again */
    assert_true(s.tripped);
    assert_int_equal(s.trip_wake_ns, 500001);
    assert_int_equal(s.trip_at_ns, 2 * S);
    assert_int_equal(s.trip_cycle, 3);
    assert_int_equal(s.trip_stream, 1);
    json_t *o = soak_json(&s, 500);
    json_t *st = json_object_get(o, "stop");
    assert_true(json_is_true(json_object_get(st, "tripped")));
    assert_true(fabs(json_real_value(json_object_get(st, "wakeup_us")) - 500.001) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(st, "at_s")) - 2.0) < 1e-9);
    json_decref(o);
    soak_free(&s);
}

static void test_window_env(void **state)
{
    (void)state;
    unsetenv("RTJ_SOAK_WINDOW_S");
    assert_true(soak_window_from_env() == SOAK_WINDOW_S);
    setenv("RTJ_SOAK_WINDOW_S", "5", 1);
    assert_true(soak_window_from_env() == 5);
    setenv("RTJ_SOAK_WINDOW_S", "0", 1);
    assert_true(soak_window_from_env() == SOAK_WINDOW_S);
    setenv("RTJ_SOAK_WINDOW_S", "5x", 1);
    assert_true(soak_window_from_env() == SOAK_WINDOW_S);
    unsetenv("RTJ_SOAK_WINDOW_S");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bins_and_overflow),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_stop_at),
        cmocka_unit_test(test_window_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
