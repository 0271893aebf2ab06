/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One figure, one estimator (issue 36): phasefig_quantile() gives the quantile the report stores, and where a
 * report lacks it, computes it from the stored histogram by the run's own rule, so that it is the value the run
 * would have stored. Known data: values drawn with a fixed seed, signed and of magnitudes, through the same
 * report_metric_json()/report_hist_json() a run writes with. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "report/phase_figures.h"
#include "report/report.h"
#include "stats/stats.h"

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* A phase as a run writes it, of one metric "jitter" (signed values). */
static json_t *phase_of(const struct metric_stats *m)
{
    json_t *p = json_object(), *h = json_object();
    json_object_set_new(p, "jitter_us", report_metric_json(m));
    json_object_set_new(h, "jitter", report_hist_json(&m->hist));
    json_object_set_new(p, "histograms", h);
    return p;
}

/* The JSON's real as it is written (8 significant digits: doc.c) and read back. */
static double as_written(double us)
{
    char b[64];
    snprintf(b, sizeof(b), "%.8g", us);
    return strtod(b, NULL);
}

static void test_fallback_is_the_runs_rule(void **state)
{
    (void)state;
    static const double qs[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
    struct metric_stats *m = malloc(sizeof(*m));
    uint64_t seed = 36;
    for (int trial = 0; trial < 40; trial++) {
        metric_init(m);
        int n = 500 + (int)(rnd(&seed) % 40000);
        for (int i = 0; i < n; i++) {
            /* mostly small, some negative, a tail of spikes up to 50 ms; a few exact (< 128 ns) values */
            int64_t v = (int64_t)(rnd(&seed) % 200000) - 40000;
            if (rnd(&seed) % 100 == 0)
                v = (int64_t)(rnd(&seed) % 50000000);
            if (rnd(&seed) % 50 == 0)
                v = (int64_t)(rnd(&seed) % 128);
            metric_add(m, v);
        }
        json_t *p = phase_of(m);
        json_t *j = json_object_get(p, "jitter_us");
        for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
            static const char *const keys[] = { "p50", "p90", "p99", "p999", "p9999" };
            double stored = phasefig_quantile(p, "jitter", 0, qs[i]);
            double run = quantile_defined(m->count, qs[i]) ? (double)metric_quantile(m, qs[i]) / 1000.0 : NAN;
            assert_true(isnan(run) ? isnan(stored) : stored == run);
            /* without the stored key: from the histogram, the same value (to the 8 digits the JSON keeps) */
            json_t *keep = json_incref(json_object_get(j, keys[i]));
            json_object_del(j, keys[i]);
            int from = 0;
            double fb = phasefig_quantile_from(p, "jitter", 0, qs[i], &from);
            if (isnan(run))
                assert_true(isnan(fb));
            else if (fabs(fb - as_written(run)) > 1e-9 * fabs(run) + 1e-9)
                fail_msg("n %d q %g: run %.6f, from the histogram %.6f", n, qs[i], run, fb);
            else
                assert_int_equal(from, 1);
            json_object_set_new(j, keys[i], keep);
            /* |v|: the stored abs_ keys are absent here, so this is the fallback against metric_abs_quantile() */
            double afb = phasefig_quantile(p, "jitter", 1, qs[i]);
            double arun = quantile_defined(m->count, qs[i]) ? (double)metric_abs_quantile(m, qs[i]) / 1000.0 : NAN;
            if (isnan(arun))
                assert_true(isnan(afb));
            else if (fabs(afb - as_written(arun)) > 1e-9 * fabs(arun) + 1e-9)
                fail_msg("n %d |q| %g: run %.6f, from the histogram %.6f", n, qs[i], arun, afb);
        }
        json_decref(p);
    }
    free(m);
}

/* A stored figure is the figure, whatever the histogram says; a stored null (too few cycles) stays unknown. */
static void test_stored_wins(void **state)
{
    (void)state;
    struct metric_stats *m = malloc(sizeof(*m));
    metric_init(m);
    for (int i = 0; i < 100; i++)
        metric_add(m, 1000 * (i + 1));
    json_t *p = phase_of(m);
    json_t *j = json_object_get(p, "jitter_us");
    assert_true(json_is_null(json_object_get(j, "p999"))); /* 100 values say nothing of p99.9 */
    assert_true(isnan(phasefig_quantile(p, "jitter", 0, 0.999)));
    json_object_set_new(j, "p99", json_real(12.5));
    json_object_set_new(j, "abs_p99", json_real(7.25));
    int from = 1;
    assert_true(phasefig_quantile_from(p, "jitter", 0, 0.99, &from) == 12.5);
    assert_int_equal(from, 0);
    assert_true(phasefig_quantile(p, "jitter", 1, 0.99) == 7.25);
    /* no histogram and no key: unknown */
    assert_true(isnan(phasefig_quantile(p, "wakeup", 0, 0.99)));
    json_decref(p);
    free(m);
}

/* |v| ranks magnitudes: 300 values of -2 ms and 700 of 30 µs: |v| p50 is 30 µs, p70 still 30 µs, p99 2 ms (the
 * exact abs_max, as its bucket's midpoint is clamped to it). */
static void test_abs_quantile(void **state)
{
    (void)state;
    struct metric_stats *m = malloc(sizeof(*m));
    metric_init(m);
    for (int i = 0; i < 300; i++)
        metric_add(m, -2000000);
    for (int i = 0; i < 700; i++)
        metric_add(m, 30000);
    assert_true(labs(metric_abs_quantile(m, 0.5) - 30000) < 300);
    assert_true(labs(metric_abs_quantile(m, 0.7) - 30000) < 300);
    assert_true(labs(metric_abs_quantile(m, 0.71) - 2000000) < 20000);
    assert_int_equal(metric_abs_quantile(m, 0.99), 2000000);
    assert_true(quantile_defined(100, 0.99) && !quantile_defined(99, 0.99) && quantile_defined(1000, 0.999));
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fallback_is_the_runs_rule),
        cmocka_unit_test(test_stored_wins),
        cmocka_unit_test(test_abs_quantile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
