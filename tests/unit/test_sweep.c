/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's pure logic: the rule of three against the binomial definition it comes from (checked by
 * (1 - p)^n = 0.05 directly, and against hand figures: 3/n within 0.2 %), the low quantile of a report histogram,
 * the judgement by a profile's thresholds, the skip rules, the bisection order, and the smallest safe size per
 * load and under every load on hand-made grids. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "run/sweep.h"
#include "run/sweep_doc.h"

static void rule_of_three(void **state)
{
    (void)state;
    double n = 45000, p = sweep_zero_bound(n, 0.95);
    /* the definition: seeing 0 events in n cycles has probability 5 % at the bound */
    assert_true(fabs(pow(1 - p, n) - 0.05) < 1e-9);
    /* the figure: 0 xruns in 45,000 cycles -> rate below 6.7e-5 per cycle */
    assert_true(p > 6.6e-5 && p < 6.7e-5);
    assert_true(fabs(p * n / 3 - 1) < 0.002);
    /* one cycle: the bound is 95 % */
    assert_true(fabs(sweep_zero_bound(1, 0.95) - 0.95) < 1e-12);
    /* ten times the cycles, a bound about ten times lower */
    double r = sweep_zero_bound(n, 0.95) / sweep_zero_bound(10 * n, 0.95);
    assert_true(r > 9.99 && r < 10.01);
    assert_true(isnan(sweep_zero_bound(0, 0.95)));
    assert_true(isnan(sweep_zero_bound(100, 1.0)));
}

static void low_quantile(void **state)
{
    (void)state;
    /* 2000 cycles: 1 at -20, 2 at 100, the rest at 1000: 0.1 % is 2 cycles, so the value all but 2 keep is 100 */
    json_t *h = json_loads("[[-20,-19,1],[100,101,2],[1000,1010,1997]]", 0, NULL);
    assert_true(sweep_hist_low_quantile(h, 0.001) == 100);
    json_decref(h);
    h = json_loads("[[-20,-19,3],[100,101,2],[1000,1010,1995]]", 0, NULL);
    assert_true(sweep_hist_low_quantile(h, 0.001) == -20);
    json_decref(h);
    h = json_loads("[]", 0, NULL);
    assert_true(isnan(sweep_hist_low_quantile(h, 0.001)));
    json_decref(h);
}

static void judge(void **state)
{
    (void)state;
    struct sweep_rules r = { .max_xruns = 0, .max_missed = 0, .warn_margin_pct = 10, .pass_margin_pct = 20,
                             .stop_after_fail = 3 };
    struct sweep_figs f = { .cycles = 1000, .period_us = 1000, .events = 0, .missed = 0, .margin_p999_us = 500 };
    int clear;
    assert_int_equal(sweep_judge(&f, &r, &clear), 1);
    assert_int_equal(clear, 1);
    f.margin_p999_us = 150; /* safe, not with margin */
    assert_int_equal(sweep_judge(&f, &r, &clear), 1);
    assert_int_equal(clear, 0);
    f.margin_p999_us = 99; /* under the profile's 10 % */
    assert_int_equal(sweep_judge(&f, &r, &clear), 0);
    assert_int_equal(clear, 0);
    f.margin_p999_us = 500;
    f.events = 2; /* fails, not clearly */
    assert_int_equal(sweep_judge(&f, &r, &clear), 0);
    assert_int_equal(clear, 0);
    f.missed = 1; /* 3: clearly */
    assert_int_equal(sweep_judge(&f, &r, &clear), 0);
    assert_int_equal(clear, 1);
    r.stop_after_fail = 0; /* never clearly */
    assert_int_equal(sweep_judge(&f, &r, &clear), 0);
    assert_int_equal(clear, 0);
    f.cycles = 0; /* nothing measured is never safe */
    f.events = f.missed = 0;
    assert_int_equal(sweep_judge(&f, &r, &clear), 0);
}

static void infer_and_probe(void **state)
{
    (void)state;
    enum sweep_state s[6] = { 0 };
    assert_int_equal(sweep_next_probe(s, 6), 2); /* lower middle of 0..5 */
    s[2] = CELL_SAFE;
    sweep_infer(s, 6, 2, 1, 0);
    for (int i = 3; i < 6; i++)
        assert_int_equal(s[i], CELL_INF_SAFE);
    assert_int_equal(s[0], CELL_OPEN);
    assert_int_equal(sweep_next_probe(s, 6), 0); /* open: 0, 1 */
    s[0] = CELL_UNSAFE;
    sweep_infer(s, 6, 0, 1, 0);
    assert_int_equal(sweep_next_probe(s, 6), 1);
    s[1] = CELL_UNSAFE;
    sweep_infer(s, 6, 1, 0, 0); /* not clear: nothing more */
    assert_int_equal(sweep_next_probe(s, 6), -1);
    assert_int_equal(sweep_smallest_safe(s, 6), 2);
    /* a clear fail skips the smaller sizes; --measure-all skips nothing */
    enum sweep_state t[4] = { 0 };
    t[2] = CELL_UNSAFE;
    sweep_infer(t, 4, 2, 1, 1);
    assert_int_equal(t[0], CELL_OPEN);
    sweep_infer(t, 4, 2, 1, 0);
    assert_int_equal(t[0], CELL_INF_UNSAFE);
    assert_int_equal(t[1], CELL_INF_UNSAFE);
    assert_int_equal(t[3], CELL_OPEN);
}

static void smallest(void **state)
{
    (void)state;
    /* a safe size under a larger unsafe one is not the answer: the answer is above the largest unsafe */
    enum sweep_state a[5] = { CELL_UNSAFE, CELL_SAFE, CELL_UNSAFE, CELL_SAFE, CELL_INF_SAFE };
    assert_int_equal(sweep_smallest_safe(a, 5), 3);
    enum sweep_state b[3] = { CELL_INF_UNSAFE, CELL_UNSAFE, CELL_UNSAFE };
    assert_int_equal(sweep_smallest_safe(b, 3), -1);
    enum sweep_state c[3] = { CELL_NOT_MEASURED, CELL_SAFE, CELL_OPEN };
    assert_int_equal(sweep_smallest_safe(c, 3), 1);
    /* overall: the largest of the rows' answers; none when a row has none */
    enum sweep_state g[3 * 4] = { CELL_SAFE,   CELL_INF_SAFE, CELL_INF_SAFE, CELL_INF_SAFE,
                                  CELL_UNSAFE, CELL_SAFE,     CELL_INF_SAFE, CELL_INF_SAFE,
                                  CELL_UNSAFE, CELL_UNSAFE,   CELL_SAFE,     CELL_SAFE };
    assert_int_equal(sweep_smallest_overall(g, 3, 4), 2);
    g[11] = CELL_UNSAFE;
    assert_int_equal(sweep_smallest_overall(g, 3, 4), -1);
}

static void lists(void **state)
{
    (void)state;
    int v[SWEEP_MAX_SIZES], n;
    char err[128];
    assert_int_equal(sweep_parse_list("128,64,256", 16, 8192, v, SWEEP_MAX_SIZES, 1, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 3);
    assert_int_equal(v[0], 64);
    assert_int_equal(v[2], 256);
    const char *bad[] = { "", "0", "7", "abc", "64,", ",64", "64,,128", "64,64", "9999", "64 ", "+64", "1e2", NULL };
    for (int i = 0; bad[i]; i++)
        assert_int_equal(sweep_parse_list(bad[i], 16, 8192, v, SWEEP_MAX_SIZES, 1, &n, err, sizeof(err)), -EINVAL);
}

/* A margin below zero is a deadline missed (issue 35): a cell's why says how far past the deadline the slowest
 * cycles ended, never "-0 % of the period". A profile that allows 10 missed deadlines, 5 missed, the slowest 0.1 %
 * of 1000 cycles ending 40 µs late (the histogram's lowest bin, set here). */
static void test_negative_margin_words(void **state)
{
    (void)state;
    struct sweep_rules r = { .max_xruns = 0, .max_missed = 10, .warn_margin_pct = 10, .pass_margin_pct = 20,
                             .stop_after_fail = 3 };
    json_t *ph = json_pack("{s:i, s:f, s:{s:i}, s:i, s:f, s:{s:[[f, f, i], [f, f, i]]}, s:{s:f}}", "cycles", 1000,
                           "measured_s", 2.0, "xruns", "events", 0, "deadlines_missed", 5, "deadlines_met_pct", 99.5,
                           "histograms", "margin", -40.0, -39.0, 5, 500.0, 501.0, 995, "margin_us", "min", -40.0);
    enum sweep_state st;
    int clear;
    json_t *c = sweep_cell_measured(ph, 48000, 64, "none", &r, &st, &clear);
    const char *why = json_string_value(json_object_get(c, "why"));
    assert_int_equal(st, CELL_UNSAFE);
    assert_non_null(why);
    if (!strstr(why, "ended 40 µs past their deadline") || strstr(why, "-0"))
        fail_msg("why: %s", why);
    json_decref(c);
    json_decref(ph);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rule_of_three), cmocka_unit_test(low_quantile), cmocka_unit_test(judge),
        cmocka_unit_test(infer_and_probe), cmocka_unit_test(smallest), cmocka_unit_test(lists),
        cmocka_unit_test(test_negative_margin_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
