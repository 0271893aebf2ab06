/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics of compare: two runs from one distribution are "no clear difference"; a shift of several ms
 * is "worse" (or "better" the other way round); the Mann-Whitney p against exact enumeration and an independent
 * computation, the Hodges-Lehmann shift and the rate test against values worked out by hand; identity
 * differences; the store's latest reports. The fixtures' timelines are the per-second p99s and maxima of the
 * very draws their histograms hold (unit/fixture_report.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compare/compare.h"
#include "compare/compare_blocks.h"
#include "compare/compare_counts.h"
#include "compare/compare_runs.h"
#include "compare/compare_stats.h"
#include "report/rhist.h"
#include "stats/mann_whitney.h"
#include "stats/perm_test.h"
#include "stats/pvalue.h"
#include "report/report_read.h"
#include "report/report_compact.h"
#include "compare/store_sidecar.h"
#include <fcntl.h>
#include "compare/compare_verdict.h"
#include "report/access.h"
#include "util/readfile.h"
#include "render/compare_text.h"
#include "unit/fixture_report.h"

/* The outcome of one verdict of the comparison, by load and metric name ("wakeup p99"). */
static const char *outcome(const json_t *cmp, const char *load, const char *metric)
{
    size_t i, j;
    const json_t *l, *v;
    json_array_foreach(json_object_get(cmp, "loads"), i, l) {
        if (strcmp(json_string_value(json_object_get(l, "load")), load))
            continue;
        json_array_foreach(json_object_get(l, "verdicts"), j, v)
            if (!strcmp(json_string_value(json_object_get(v, "metric")), metric))
                return json_string_value(json_object_get(v, "outcome"));
    }
    return "(missing)";
}

static const json_t *verdict_of(const json_t *cmp, const char *load, const char *metric);

static json_t *compare_two(json_t *a, json_t *b)
{
    json_t *docs[2] = { a, b };
    const char *names[2] = { "a.json", "b.json" };
    json_t *cmp = compare_build(docs, names, 2);
    assert_non_null(cmp);
    return cmp;
}

/* a against b, with more runs of a's set-up (ra) and of b's (rb) beside them, as compare_replicates_beside() gives
 * them: their values per load, each under an id of its own. */
static json_t *compare_with_runs(json_t *a, json_t *b, json_t *const *ra, size_t na, json_t *const *rb, size_t nb)
{
    json_t *docs[2] = { a, b }, *reps[2] = { json_array(), json_array() };
    const char *names[2] = { "a.json", "b.json" }, *ids[2] = { "0:1", "0:2" };
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < (side ? nb : na); i++) {
            char id[32], file[32];
            snprintf(id, sizeof(id), "0:%d%zu", 10 + side, i);
            snprintf(file, sizeof(file), "%c%zu.json", side ? 'b' : 'a', i);
            json_array_append_new(reps[side], json_pack("{s:s, s:s, s:o}", "file", file, "id", id, "values",
                                                        compare_run_values_json(side ? rb[i] : ra[i])));
        }
    json_t *cmp = compare_build_runs(docs, names, ids, (const json_t *const *)reps, 2);
    assert_non_null(cmp);
    json_decref(reps[0]);
    json_decref(reps[1]);
    return cmp;
}

static const char *const decided[] = { "wakeup p99/s", "wakeup max/s", "jitter p99/s", "jitter max/s" };

static void test_same_distribution_no_difference(void **state)
{
    (void)state;
    /* Several seed pairs: not one lucky draw. */
    for (uint64_t s = 1; s <= 4; s++) {
        json_t *a = fx_report("6.1.0", "250", "voluntary", 20000, 0, s);
        json_t *b = fx_report("6.8.0", "1000", "full", 20000, 0, 1000 + s);
        json_t *cmp = compare_two(a, b);
        for (size_t m = 0; m < sizeof(decided) / sizeof(decided[0]); m++) {
            const char *o = outcome(cmp, "none", decided[m]);
            if (strcmp(o, "same"))
                fail_msg("seed %d: %s is \"%s\", expected \"same\"", (int)s, decided[m], o);
        }
        assert_string_equal(outcome(cmp, "none", "xruns"), "same");
        const char *sum = json_string_value(json_array_get(json_object_get(cmp, "summary"), 0));
        assert_non_null(strstr(sum, "better in 0 measures, worse in 0"));
        json_decref(cmp);
        json_decref(a);
        json_decref(b);
    }
}

/* The two compared reports and the two runs beside each of them. */
static void free_pair_runs(json_t *a, json_t *b, json_t **ra, json_t **rb)
{
    for (int i = 0; i < 2; i++) {
        json_decref(ra[i]);
        json_decref(rb[i]);
    }
    json_decref(a);
    json_decref(b);
}

/* A 3 ms later wake-up in every second of b. Alone, the two runs differ, and that is all compare can say of the
 * set-ups: "worse in this pair", the first words of the line, its own outcome, counted apart in the summary, and
 * the line says why (one run a side). With two more runs of each set-up beside them (other seeds, the same 3 ms
 * apart), the set-ups differ across runs too: "worse", and "better" the other way round. */
static void test_shift_of_3ms_is_significant(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "voluntary", 20000, 0, 7);
    json_t *b = fx_report("6.8.0", "1000", "full", 20000, 3000, 8);
    json_t *cmp = compare_two(a, b);
    for (size_t m = 0; m < sizeof(decided) / sizeof(decided[0]); m++) {
        const json_t *v = verdict_of(cmp, "none", decided[m]);
        const char *o = json_string_value(json_object_get(v, "outcome")),
                   *text = json_string_value(json_object_get(v, "text"));
        if (strcmp(o, "worse_in_pair") || strncmp(text, "worse in this pair: ", 20) ||
            !strstr(text, "not yet confirmed across runs: one run a side"))
            fail_msg("alone, %s: %s: %s", decided[m], o, text);
    }
    const char *sum = json_string_value(json_array_get(json_object_get(cmp, "summary"), 0));
    if (!strstr(sum, ": worse in 4 measures in this pair, not yet confirmed across runs: run each set-up twice more") ||
        !strstr(sum, "Across runs: better in 0 measures, worse in 0, no clear difference in 2."))
        fail_msg("summary: %s", sum);
    json_decref(cmp);
    json_t *ra[2] = { fx_report("6.1.0", "250", "voluntary", 20000, 0, 17),
                      fx_report("6.1.0", "250", "voluntary", 20000, 0, 27) };
    json_t *rb[2] = { fx_report("6.8.0", "1000", "full", 20000, 3000, 18),
                      fx_report("6.8.0", "1000", "full", 20000, 3000, 28) };
    cmp = compare_with_runs(a, b, ra, 2, rb, 2);
    for (size_t m = 0; m < sizeof(decided) / sizeof(decided[0]); m++) {
        const json_t *v = verdict_of(cmp, "none", decided[m]);
        const char *o = json_string_value(json_object_get(v, "outcome")),
                   *text = json_string_value(json_object_get(v, "text"));
        if (strcmp(o, "worse") || !strstr(text, "3 runs of the baseline's set-up against 3 of this one"))
            fail_msg("with runs, %s: %s: %s", decided[m], o, text);
        const json_t *runs = json_object_get(v, "runs");
        assert_int_equal(json_integer_value(json_object_get(runs, "df")), 4);
    }
    json_decref(cmp);
    cmp = compare_with_runs(b, a, rb, 2, ra, 2); /* the other way round */
    for (size_t m = 0; m < sizeof(decided) / sizeof(decided[0]); m++)
        assert_string_equal(outcome(cmp, "none", decided[m]), "better");
    json_decref(cmp);
    free_pair_runs(a, b, ra, rb);
}

/* Run-to-run noise: two more runs of each kernel, one of them 5 ms later than the others (a run that landed in a
 * bad state of the machine). The 3 ms between the two runs compared is then within what runs of one set-up do:
 * "no clear difference", and the line says so. */
static void test_run_to_run_noise(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "voluntary", 20000, 0, 7);
    json_t *b = fx_report("6.8.0", "1000", "full", 20000, 3000, 8);
    json_t *ra[2] = { fx_report("6.1.0", "250", "voluntary", 20000, 5000, 9),
                      fx_report("6.1.0", "250", "voluntary", 20000, 0, 10) };
    json_t *rb[2] = { fx_report("6.8.0", "1000", "full", 20000, 0, 11),
                      fx_report("6.8.0", "1000", "full", 20000, 5000, 12) };
    json_t *cmp = compare_with_runs(a, b, ra, 2, rb, 2);
    const char *text = json_string_value(json_object_get(verdict_of(cmp, "none", "wakeup p99/s"), "text"));
    assert_string_equal(outcome(cmp, "none", "wakeup p99/s"), "same");
    if (!strstr(text, "no clear difference: worse in these two runs (") || !strstr(text, "but not beyond run-to-run noise"))
        fail_msg("%s", text);
    assert_int_equal(json_array_size(json_object_get(json_array_get(json_object_get(cmp, "reports"), 0),
                                                     "replicates")), 2);
    json_decref(cmp);
    free_pair_runs(a, b, ra, rb);
}

/* Two runs of one set-up (nothing the tool can see differs), 3 ms apart: the other runs of that set-up beside them
 * give the noise. Quiet ones (0 ms) make the 3 ms a difference; among runs that themselves moved by 0 to 5 ms it is
 * not one. Reports of another set-up (another label, another priority) in the same directory are never taken,
 * nor the compared files themselves; a directory's other JSON files are passed over in silence. */
static void test_replicates_beside(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtjt-reps.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    const char *names[8] = { "a.json", "b.json", "r1.json", "r2.json", "r3.json", "other.json", "prio.json",
                             "cmp.json" };
    double shift[8] = { 0, 3000, 0, 0, 0, 0, 0, 0 };
    json_t *d[8];
    for (int i = 0; i < 8; i++) {
        d[i] = fx_report("6.1.0", "250", "full", 20000, shift[i], 40 + (uint64_t)i);
        if (i == 5)
            json_object_set_new(d[i], "label", json_string("another"));
        if (i == 6)
            json_object_set_new(json_object_get(d[i], "audio"), "priority_requested", json_integer(80));
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        if (i == 7) {
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs("{\"schema\": \"rtjitter.compare/1\"}", f);
            fclose(f);
        } else
            assert_int_equal(json_dump_file(d[i], path, 0), 0);
    }
    json_t *reps[2];
    char ids[2][64];
    const char *idp[2] = { ids[0], ids[1] }, *cn[2] = { "a.json", "b.json" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        reps[i] = compare_replicates_beside(path, d[i], 32);
        assert_int_equal(compare_file_id(path, ids[i], sizeof(ids[i])), 0);
        /* b.json (for a), a.json (for b) and r1-r3: one set-up */
        assert_int_equal(json_array_size(reps[i]), 4);
        size_t j;
        const json_t *r;
        json_array_foreach(reps[i], j, r) {
            const char *f = json_string_value(json_object_get(r, "file"));
            if (strstr(f, "other") || strstr(f, "prio") || strstr(f, "cmp") || strstr(f, names[i]))
                fail_msg("%s taken as a run of %s's set-up", f, names[i]);
        }
    }
    json_t *docs[2] = { d[0], d[1] };
    json_t *cmp = compare_build_runs(docs, cn, idp, (const json_t *const *)reps, 2);
    const json_t *v = verdict_of(cmp, "none", "wakeup p99/s");
    const char *text = json_string_value(json_object_get(v, "text"));
    if (strcmp(json_string_value(json_object_get(v, "outcome")), "worse") ||
        !strstr(text, "the two runs against 3 other runs of their one set-up"))
        fail_msg("quiet others: %s", text);
    json_decref(cmp);
    for (int i = 0; i < 2; i++)
        json_decref(reps[i]);
    /* the others moved by 0, 2.5 and 5 ms: 3 ms is within that */
    for (int i = 3; i < 5; i++) {
        json_decref(d[i]);
        d[i] = fx_report("6.1.0", "250", "full", 20000, i == 3 ? 2500 : 5000, 60 + (uint64_t)i);
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        assert_int_equal(json_dump_file(d[i], path, 0), 0);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        reps[i] = compare_replicates_beside(path, d[i], 32);
    }
    cmp = compare_build_runs(docs, cn, idp, (const json_t *const *)reps, 2);
    text = json_string_value(json_object_get(verdict_of(cmp, "none", "wakeup p99/s"), "text"));
    if (strcmp(outcome(cmp, "none", "wakeup p99/s"), "same") || !strstr(text, "not beyond run-to-run noise"))
        fail_msg("noisy others: %s", text);
    json_decref(cmp);
    for (int i = 0; i < 2; i++)
        json_decref(reps[i]);
    for (int i = 0; i < 8; i++)
        json_decref(d[i]);
    char cmd[4400]; /* the reports and their sidecars */
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Student's t against closed forms that do not come from the code: df = 1 is the Cauchy distribution,
 * P(|T| >= t) = 1 - 2 atan(t) / pi; df = 2: 1 - t / sqrt(2 + t^2); and printed tables' t(0.995) for 3, 10 and 30
 * df (5.841, 3.169, 2.750: p = 0.01). The incomplete beta against I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b and
 * I_1/2(a, a) = 1/2. The run-level test on hand-made logs: one set-up, noise runs at e^0 and e^1 (pooled sd
 * sqrt(1/2), 1 df), compared runs e^0 and e^2: t = 2 / (sqrt(1/2) sqrt(2)) = 2; two set-ups {e^0, e^1} and
 * {e^3, e^4}: t = 3 / sqrt(1/2) with 2 df. */
static void test_student_t_and_run_level(void **state)
{
    (void)state;
    for (double t = 0.5; t < 100; t *= 3) {
        assert_float_equal(student_t_p2(t, 1), 1 - 2 * atan(t) / M_PI, 1e-9);
        assert_float_equal(student_t_p2(-t, 2), 1 - t / sqrt(2 + t * t), 1e-9);
    }
    assert_float_equal(student_t_p2(63.657, 1), 0.01, 2e-5);
    assert_float_equal(student_t_p2(5.841, 3), 0.01, 2e-5);
    assert_float_equal(student_t_p2(3.169, 10), 0.01, 2e-5);
    assert_float_equal(student_t_p2(2.750, 30), 0.01, 2e-5);
    assert_true(isnan(student_t_p2(1, 0)));
    for (double x = 0.05; x < 1; x += 0.1) {
        assert_float_equal(incomplete_beta(x, 3.5, 1), pow(x, 3.5), 1e-12);
        assert_float_equal(incomplete_beta(x, 1, 7.25), 1 - pow(1 - x, 7.25), 1e-12);
    }
    assert_float_equal(incomplete_beta(0.5, 40, 40), 0.5, 1e-12);
    double va[RUN_VALUES], vb[RUN_VALUES], noise[2][RUN_VALUES], more_a[1][RUN_VALUES], more_b[1][RUN_VALUES];
    for (int m = 0; m < RUN_VALUES; m++) {
        va[m] = exp(0);
        vb[m] = exp(2);
        noise[0][m] = exp(0);
        noise[1][m] = exp(1);
    }
    struct run_groups g = { .noise = (const double (*)[RUN_VALUES])noise, .nnoise = 2 };
    struct run_level rl;
    assert_int_equal(run_level_test(va, vb, &g, 4, &rl), 0);
    assert_int_equal(rl.df, 1);
    assert_float_equal(rl.t, 2, 1e-12);
    assert_float_equal(rl.p, 1 - 2 * atan(2) / M_PI, 1e-9);
    assert_float_equal(rl.ratio, exp(2), 1e-9);
    for (int m = 0; m < RUN_VALUES; m++) {
        more_a[0][m] = exp(1);
        vb[m] = exp(3);
        more_b[0][m] = exp(4);
    }
    struct run_groups g2 = { .a_more = (const double (*)[RUN_VALUES])more_a, .na_more = 1,
                             .b_more = (const double (*)[RUN_VALUES])more_b, .nb_more = 1 };
    assert_int_equal(run_level_test(va, vb, &g2, 5, &rl), 0);
    assert_int_equal(rl.df, 2);
    double t = 3 / sqrt(0.5);
    assert_float_equal(rl.t, t, 1e-9);
    assert_float_equal(rl.p, 1 - t / sqrt(2 + t * t), 1e-9);
    /* Holm by hand: 0.01 0.04 0.03 0.005 (and a NaN left out): sorted 0.005 0.01 0.03 0.04 become 4 x 0.005 = 0.02,
     * 3 x 0.01 = 0.03, 2 x 0.03 = 0.06, max(0.06, 1 x 0.04) = 0.06 */
    double h[5] = { 0.01, 0.04, NAN, 0.03, 0.005 };
    assert_int_equal(holm_adjust(h, 5), 4);
    assert_float_equal(h[0], 0.03, 1e-12);
    assert_float_equal(h[1], 0.06, 1e-12);
    assert_true(isnan(h[2]));
    assert_float_equal(h[3], 0.06, 1e-12);
    assert_float_equal(h[4], 0.02, 1e-12);
    /* alone: no noise known */
    assert_int_equal(run_level_test(va, vb, NULL, 0, &rl), 0);
    assert_int_equal(rl.df, 0);
    assert_true(isnan(rl.p));
}

/* 300 cycles: not one whole second. Even a shift of 3 ms is not called on no units at all. */
static void test_short_runs_not_compared(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "voluntary", 300, 0, 3);
    json_t *b = fx_report("6.8.0", "1000", "full", 300, 3000, 4);
    json_t *cmp = compare_two(a, b);
    for (size_t m = 0; m < sizeof(decided) / sizeof(decided[0]); m++)
        assert_string_equal(outcome(cmp, "none", decided[m]), "n/a");
    assert_non_null(strstr(json_string_value(json_object_get(verdict_of(cmp, "none", "wakeup p99/s"), "text")),
                           "not compared"));
    json_decref(cmp);
    json_decref(a);
    json_decref(b);
}

/* U of b by brute force: every way of choosing which na of the n ranks belong to a (no ties), counting the
 * assignments whose U is at least as far from the mean as the observed one. Independent of mw_exact_p()'s
 * recurrence. */
static double enumerate_p(const double *a, size_t na, const double *b, size_t nb)
{
    double u_obs = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            u_obs += b[j] > a[i];
    size_t n = na + nb;
    double mean = (double)(na * nb) / 2, far = 0, total = 0;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        if ((size_t)__builtin_popcount(mask) != na)
            continue;
        double u = 0; /* ranks 0..n-1; bit set: an a at that rank. U of b: (a below b) pairs */
        size_t as_below = 0;
        for (size_t r = 0; r < n; r++) {
            if (mask & (1u << r))
                as_below++;
            else
                u += (double)as_below;
        }
        total++;
        far += fabs(u - mean) >= fabs(u_obs - mean) - 1e-9;
    }
    return far / total;
}

static void test_mann_whitney_exact(void **state)
{
    (void)state;
    uint64_t s = 42;
    for (int rep = 0; rep < 40; rep++) {
        size_t na = 2 + (size_t)(fx_uniform(&s) * 7), nb = 2 + (size_t)(fx_uniform(&s) * 7); /* up to 8 + 8 */
        double a[8], b[8], shift = fx_uniform(&s) * 2;
        for (size_t i = 0; i < na; i++)
            a[i] = fx_uniform(&s);
        for (size_t i = 0; i < nb; i++)
            b[i] = fx_uniform(&s) + shift * (rep % 2);
        struct block_test bt;
        assert_int_equal(block_test(a, na, b, nb, &bt), 0);
        assert_true(bt.exact);
        double want = enumerate_p(a, na, b, nb);
        if (fabs(bt.p_value - want) > 1e-12)
            fail_msg("na %zu nb %zu: p %.15g, enumeration %.15g", na, nb, bt.p_value, want);
    }
    /* the extreme: 5 against 5, every b above every a: 2 of C(10, 5) = 252 arrangements are this far out */
    double a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 6, 7, 8, 9, 10 };
    struct block_test bt;
    assert_int_equal(block_test(a, 5, b, 5, &bt), 0);
    assert_true(fabs(bt.p_value - 2.0 / 252) < 1e-12);
    assert_true(bt.u_b == 25 && bt.prob_b_greater == 1 && bt.b_above_median_a == 5);
}

/* With ties and 30 a side: the normal approximation with tie and continuity correction, against the value an
 * independent Python computation gives (textbook formula, ranks by sorting, no code shared:
 * tests/experiments/mw_reference.py prints U_b 601.0, p 0.0256368024, Hodges-Lehmann shift 2.000). */
static void test_mann_whitney_normal_and_shift(void **state)
{
    (void)state;
    double a[30], b[30];
    for (int i = 0; i < 30; i++) {
        a[i] = 20 + (i * 7) % 13;
        b[i] = 23 + (i * 5) % 11;
    }
    struct block_test bt;
    assert_int_equal(block_test(a, 30, b, 30, &bt), 0);
    assert_false(bt.exact);
    assert_true(fabs(bt.u_b - 601.0) < 1e-9);
    if (fabs(bt.p_value - 0.0256368024) > 1e-9)
        fail_msg("p %.10g", bt.p_value);
    assert_true(fabs(bt.shift - 2.0) < 1e-9);
    /* Hodges-Lehmann by hand: {1,2,3} against {4,6,8}: differences 1 2 3 3 4 5 5 6 7, median 4 */
    double x[3] = { 1, 2, 3 }, y[3] = { 4, 6, 8 };
    assert_true(hodges_lehmann_shift(x, 3, y, 3) == 4);
    /* a large case finds a known shift: 3000 against 3000 seconds, b = a + 7 */
    static double big_a[3000], big_b[3000];
    uint64_t s = 7;
    for (int i = 0; i < 3000; i++) {
        big_a[i] = 100 * fx_uniform(&s);
        big_b[i] = big_a[i] + 7;
    }
    assert_true(fabs(hodges_lehmann_shift(big_a, 3000, big_b, 3000) - 7) < 0.5);
    assert_int_equal(block_test(a, 0, b, 30, &bt), -EINVAL);
}

/* The reference for the Hodges-Lehmann shift, written here from its definition and not from compare's code: every
 * difference b[j] - a[i] formed, sorted, and the middle one (the mean of the middle two for an even count). */
static int ref_dcmp(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

static double ref_hl(const double *a, size_t na, const double *b, size_t nb)
{
    size_t n = na * nb, k = 0;
    double *d = malloc(n * sizeof(double));
    assert_non_null(d);
    for (size_t j = 0; j < nb; j++)
        for (size_t i = 0; i < na; i++)
            d[k++] = b[j] - a[i];
    qsort(d, n, sizeof(double), ref_dcmp);
    double m = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    free(d);
    return m;
}

/* compare's shift selects the median among the differences without forming them (O(n log n)): it must equal the
 * reference exactly (the same doubles, ties and all), on every size from 1 a side, on values with many ties, with
 * negative ones, and on a large pair (1500 against 1700 seconds, 2.55 million differences). */
static void test_hodges_lehmann_exact(void **state)
{
    (void)state;
    uint64_t s = 2021;
    static double a[1500], b[1700];
    int cases = 0;
    for (size_t na = 1; na <= 40; na += 3)
        for (size_t nb = 1; nb <= 45; nb += 4)
            for (int kind = 0; kind < 3; kind++) {
                for (size_t i = 0; i < na + nb; i++) {
                    double u = fx_uniform(&s);
                    /* 0: continuous; 1: whole numbers 0..5 (ties everywhere); 2: signed, a few repeated values */
                    double v = kind == 0 ? 1000 * u - 300 : kind == 1 ? floor(6 * u) : (u < 0.3 ? -2.5 : 80 * u - 40);
                    if (i < na)
                        a[i] = v;
                    else
                        b[i - na] = v + (kind == 2 ? 3 : 0);
                }
                double got = hodges_lehmann_shift(a, na, b, nb), want = ref_hl(a, na, b, nb);
                if (!(got == want))
                    fail_msg("%zu x %zu, kind %d: shift %.17g, reference %.17g", na, nb, kind, got, want);
                cases++;
            }
    assert_true(cases > 300);
    for (int kind = 0; kind < 2; kind++) {
        for (size_t i = 0; i < 1500; i++)
            a[i] = kind ? floor(50 * fx_uniform(&s)) : 40 + 300 * fx_uniform(&s) * fx_uniform(&s);
        for (size_t i = 0; i < 1700; i++)
            b[i] = kind ? floor(50 * fx_uniform(&s)) + 2 : 45 + 300 * fx_uniform(&s) * fx_uniform(&s);
        double got = hodges_lehmann_shift(a, 1500, b, 1700), want = ref_hl(a, 1500, b, 1700);
        if (!(got == want))
            fail_msg("1500 x 1700, kind %d: shift %.17g, reference %.17g", kind, got, want);
        /* the halves compare takes too: an odd count of differences */
        got = hodges_lehmann_shift(a, 749, b + 1, 851);
        want = ref_hl(a, 749, b + 1, 851);
        if (!(got == want))
            fail_msg("749 x 851, kind %d: shift %.17g, reference %.17g", kind, got, want);
    }
}

static void test_quantile_ci(void **state)
{
    (void)state;
    json_t *p = fx_phase("none", 50000, 0, 11, 0);
    struct rhist h;
    assert_int_equal(rhist_from_json(json_object_get(json_object_get(p, "histograms"), "wakeup"), 0, &h), 0);
    assert_true(fabs(h.total - 50000) < 0.5);
    /* exponential(10) + 40: median 40 + 10 ln 2 = 46.9 µs, p99 = 40 + 10 ln 100 = 86.1 µs */
    assert_true(fabs(rhist_quantile(&h, 0.5) - 46.9) < 1.0);
    assert_true(fabs(rhist_quantile(&h, 0.99) - 86.1) < 3.0);
    struct quantile_diff d;
    assert_int_equal(quantile_diff_ci(&h, &h, 0.99, 2000, 1, &d), 0);
    assert_true(d.lo < 0 && d.hi > 0);
    assert_true(d.hi - d.lo < 10); /* 500 cycles above p99: a few µs wide */
    assert_int_equal(decide_quantile(&d), CMP_SAME);
    struct rank_test rt;
    assert_int_equal(rank_test(&h, &h, &rt), 0);
    assert_true(rt.p_value > 0.9);
    assert_true(fabs(rt.prob_b_greater - 0.5) < 1e-9);
    rhist_free(&h);
    /* Folding: |jitter| of a symmetric normal(0, 20): median 13.5 µs. */
    assert_int_equal(rhist_from_json(json_object_get(json_object_get(p, "histograms"), "jitter"), 1, &h), 0);
    assert_true(fabs(rhist_quantile(&h, 0.5) - 13.5) < 1.0);
    for (size_t i = 0; i < h.n; i++)
        assert_true(h.lo[i] >= 0 && (i == 0 || h.lo[i] >= h.lo[i - 1]));
    rhist_free(&h);
    /* Empty: NAN, not a crash. */
    json_t *empty = json_array();
    assert_int_equal(rhist_from_json(empty, 0, &h), 0);
    assert_true(isnan(rhist_quantile(&h, 0.5)));
    assert_true(rank_test(&h, &h, &rt) < 0);
    json_decref(empty);
    json_decref(p);
}

static void test_rate_test(void **state)
{
    (void)state;
    assert_true(rate_test_p(0, 10000, 0, 10000) == 1);
    assert_true(rate_test_p(0, 10000, 50, 10000) < 1e-10);
    assert_true(rate_test_p(5, 10000, 6, 10000) > 0.5);
    assert_true(rate_test_p(500000, 1e9, 500000, 1e9) > 0.5); /* the normal branch */
    /* by hand: 0 against 10 events in equal time: the conditional binomial(10, 1/2) puts 2/1024 that far out */
    assert_true(fabs(rate_test_p(0, 12.0, 10, 12.0) - 2.0 / 1024) < 1e-12);
    assert_true(isnan(rate_test_p(1, 0, 1, 10)));
}

static void test_identity_diff_and_warnings(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "voluntary", 1000, 0, 1);
    json_t *b = fx_report("6.8.0", "1000", "full", 1000, 0, 2);
    json_object_set_new(json_object_get(b, "audio"), "rate", json_integer(44100));
    json_t *cmp = compare_two(a, b);
    int hz = 0, preempt = 0, model = 0;
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(cmp, "system_diff"), i, d) {
        const char *k = json_string_value(json_object_get(d, "key"));
        const json_t *v = json_object_get(d, "values");
        if (!strcmp(k, "kernel.hz")) {
            hz = 1;
            assert_string_equal(json_string_value(json_array_get(v, 0)), "250");
            assert_string_equal(json_string_value(json_array_get(v, 1)), "1000");
        }
        preempt |= !strcmp(k, "kernel.preempt");
        model |= !strcmp(k, "cpu.model"); /* the same in both: must not be listed */
    }
    assert_true(hz && preempt && !model);
    const char *w = json_string_value(json_array_get(json_object_get(cmp, "warnings"), 0));
    assert_non_null(w);
    assert_non_null(strstr(w, "not measured under the same setting"));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    /* the defaults (UTF-8, whatever this test's locale), wide: each load's table */
    struct render_opts wo = render_opts_or_default(NULL);
    wo.wide = 1;
    compare_print_text_opts(f, cmp, &wo);
    fclose(f);
    assert_non_null(strstr(text, "kernel.hz"));
    assert_non_null(strstr(text, "250 → 1000"));
    assert_non_null(strstr(text, "voluntary → full"));
    assert_non_null(strstr(text, "written (MB/s)")); /* the load's throughput row */
    free(text);
    json_decref(cmp);
    json_decref(a);
    json_decref(b);
}

static void write_file(const char *path, const char *s)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(s, f);
    fclose(f);
}

/* compare's reader packs timelines (report_compact.h): every figure of a comparison equals the one from the whole
 * tree, a damaged timeline is refused with report_read_file()'s message, and the identity read without the phases
 * is the whole report's. */
static void test_compact_reader(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "voluntary", 20000, 0, 7);
    json_t *b = fx_report("6.8.0", "1000", "full", 20000, 3000, 8);
    char *ta = json_dumps(a, 0), *tb = json_dumps(b, 0);
    json_t *ca, *cb, *ia;
    char err[256];
    assert_int_equal(report_read_compact_buffer(ta, strlen(ta), REPORT_PACKED, &ca, err, sizeof(err)), 0);
    assert_int_equal(report_read_compact_buffer(tb, strlen(tb), REPORT_PACKED, &cb, err, sizeof(err)), 0);
    free(ta);
    free(tb);
    size_t n;
    assert_non_null(tl_packed(json_array_get(json_object_get(ca, "phases"), 0), &n));
    assert_int_equal(n, json_array_size(json_object_get(json_array_get(json_object_get(a, "phases"), 0), "timeline")));
    json_t *whole = compare_two(a, b), *packed = compare_two(ca, cb);
    json_object_del(whole, "generated");
    json_object_del(packed, "generated");
    if (!json_equal(json_object_get(whole, "loads"), json_object_get(packed, "loads")) ||
        !json_equal(json_object_get(whole, "summary"), json_object_get(packed, "summary")))
        fail_msg("the comparison of packed timelines differs from the whole reports'");
    json_decref(whole);
    json_decref(packed);
    /* the identity alone */
    char *t = json_dumps(a, 0);
    assert_int_equal(report_read_compact_buffer(t, strlen(t), REPORT_IDENTITY, &ia, err, sizeof(err)), 0);
    free(t);
    assert_int_equal(json_array_size(json_object_get(ia, "phases")), 0);
    json_t *i1 = compare_identity(a), *i2 = compare_identity(ia);
    assert_true(json_equal(i1, i2));
    assert_true(compare_identity_same_setup(i1, i2) && compare_same_setup(a, ia) && !compare_same_setup(a, b));
    json_decref(i1);
    json_decref(i2);
    json_decref(ia);
    /* a damaged timeline entry: the whole reader's message */
    json_t *bad = json_deep_copy(a);
    json_t *e = json_array_get(json_object_get(json_array_get(json_object_get(bad, "phases"), 0), "timeline"), 3);
    json_object_set_new(e, "cycles", json_string("many"));
    t = json_dumps(bad, 0);
    char err2[256];
    json_t *d1, *d2;
    assert_int_equal(report_read_buffer(t, strlen(t), &d1, err, sizeof(err)), -EINVAL);
    assert_int_equal(report_read_compact_buffer(t, strlen(t), REPORT_PACKED, &d2, err2, sizeof(err2)), -EINVAL);
    assert_string_equal(err, err2);
    free(t);
    /* timelines the fast path leaves to jansson, and plain ones: the whole reader's verdict and message, and the same
     * numbers */
    static const char *const tls[] = {
        "[{\"cycles\": 750, \"wakeup_p99_us\": 12.25, \"s\": 0}, {\"cycles\": 750.0, \"wakeup_p99_us\": -0, "
        "\"x\": true, \"y\": null, \"z\": -3.5E-2}]", "[{\"y\": 1e400}]",
        "[{\"cycles\": 01}]", "[{\"cycles\": 1.}]", "[{\"cycles\": -1}]", "[{\"cycles\": 2.5}]",
        "[{\"cycles\": \"7\"}]", "[{\"wakeup_p99_us\": 2e15}]", "[{\"cycles\": 1, \"cycles\": 2}]",
        "[{\"cyc\\u006ces\": 3, \"note\": \"fine\"}]", "[{\"cycles\": true}]", "[{\"s\": 99999999999999999999}]",
        "[{\"wakeup_max_us\": 1.5e-400, \"jitter_abs_max_us\": 123456789.123456789}]", "[1]", "[{}, ]", "[{\"a\": [1]}]",
        "[{\"\u00e9\": 1, \"cycles\": 4}]", "[]",
    };
    for (size_t k = 0; k < sizeof(tls) / sizeof(tls[0]); k++) {
        char doc[512];
        snprintf(doc, sizeof(doc), "{\"schema\": \"rtjitter.report/1\", \"phases\": [{\"load\": \"none\", "
                 "\"timeline\": %s}]}", tls[k]);
        json_t *w = NULL, *c = NULL;
        char ew[256] = "", ec[256] = "";
        int rw = report_read_buffer(doc, strlen(doc), &w, ew, sizeof(ew));
        char *copy = strdup(doc);
        int rc2 = report_read_compact_buffer(copy, strlen(copy), REPORT_PACKED, &c, ec, sizeof(ec));
        free(copy);
        if ((rw < 0) != (rc2 < 0) || (rw < 0 && strcmp(ew, ec) && !strstr(ew, "not valid JSON")))
            fail_msg("timeline %s: whole reader %d \"%s\", compare's %d \"%s\"", tls[k], rw, ew, rc2, ec);
        if (rw == 0) {
            const json_t *tl = json_object_get(json_array_get(json_object_get(w, "phases"), 0), "timeline");
            const unsigned char *pk = tl_packed(json_array_get(json_object_get(c, "phases"), 0), &n);
            assert_non_null(pk);
            assert_int_equal(n, json_array_size(tl));
            static const char *const cols[] = { "s", "cycles", "wakeup_p99_us", "wakeup_max_us",
                                                "jitter_abs_max_us" };
            for (size_t i = 0; i < n; i++)
                for (size_t q = 0; q < sizeof(cols) / sizeof(cols[0]); q++) {
                    double x = doc_num(json_array_get(tl, i), cols[q]), y = tl_value(pk, i, tl_col_of(cols[q]));
                    if (!(x == y || (isnan(x) && isnan(y))) || signbit(x) != signbit(y))
                        fail_msg("timeline %s, entry %zu, %s: %.17g whole, %.17g packed", tls[k], i, cols[q], x, y);
                }
        }
        json_decref(w);
        json_decref(c);
    }
    /* an escaped key is the same key: still packed */
    json_decref(bad);
    const char *esc = "{\"schema\": \"rtjitter.report/1\", \"ph\\u0061ses\": [{\"load\": \"none\", \"time\\u006cine\": "
                      "[{\"cycles\": 10, \"wakeup_p99_us\": 5}]}]}";
    t = strdup(esc);
    assert_int_equal(report_read_compact_buffer(t, strlen(t), REPORT_PACKED, &d2, err2, sizeof(err2)), 0);
    free(t);
    const unsigned char *pk = tl_packed(json_array_get(json_object_get(d2, "phases"), 0), &n);
    assert_non_null(pk);
    assert_int_equal(n, 1);
    assert_true(tl_value(pk, 0, TL_WAKEUP_P99) == 5 && isnan(tl_value(pk, 0, TL_S)));
    json_decref(d2);
    /* no document of a file can bring its own packed timeline: a key with a NUL is refused by the parser */
    t = strdup("{\"schema\": \"rtjitter.report/1\", \"phases\": [{\"\\u0000timeline-packed\": \"xxxxxxxx\"}]}");
    assert_true(report_read_compact_buffer(t, strlen(t), REPORT_PACKED, &d2, err2, sizeof(err2)) < 0);
    free(t);
    json_decref(ca);
    json_decref(cb);
    json_decref(a);
    json_decref(b);
}

/* sidecar_identity() of r1.json; *from: 1 when its sidecar served (the report's text was not read) */
static int sc_identity(int dfd, const char *dir, const struct stat *st, json_t **id, json_t **vals, int *from,
                       char *err)
{
    char *text;
    size_t len;
    int rc = sidecar_identity(dfd, dir, "r1.json", st, id, vals, &text, &len, err, 256);
    *from = rc == 0 && !text;
    free(text);
    return rc;
}

/* The store's sidecars (store_sidecar.h): written on the first look at a directory, used on the next (the report is
 * not read: it is replaced by garbage of the same size and times, and the identity still comes), rebuilt when the
 * report changed, when the sidecar is corrupt or of another version, never followed through a symlink planted at
 * its name; a report read whole keeps its run values there. */
static void test_sidecars(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtjt-sidecar-XXXXXX", p[4200], sc[4300];
    assert_non_null(mkdtemp(dir));
    json_t *d = fx_report("6.1.0", "250", "full", 2000, 0, 31);
    snprintf(p, sizeof(p), "%s/r1.json", dir);
    assert_int_equal(json_dump_file(d, p, 0), 0);
    snprintf(sc, sizeof(sc), "%s/.r1.json" SIDECAR_SUFFIX, dir);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dfd >= 0);
    struct stat st;
    json_t *id, *vals;
    int from;
    char err[256];
    /* a store made before sidecars: read, and one written */
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(sc_identity(dfd, dir, &st, &id, &vals, &from, err), 0);
    assert_false(from);
    assert_null(vals);
    json_t *want = compare_identity(d);
    assert_true(json_equal(id, want));
    json_decref(id);
    struct stat ss;
    assert_int_equal(lstat(sc, &ss), 0);
    assert_true(S_ISREG(ss.st_mode));
    /* used: the report's bytes are not read (garbage of the same size, its times and inode kept) */
    char *text = json_dumps(d, 0);
    int fd = open(p, O_WRONLY);
    assert_true(fd >= 0);
    char *junk = malloc((size_t)st.st_size);
    memset(junk, 'x', (size_t)st.st_size);
    assert_int_equal(write(fd, junk, (size_t)st.st_size), st.st_size);
    close(fd);
    free(junk);
    struct timespec times[2] = { st.st_atim, st.st_mtim };
    assert_int_equal(utimensat(AT_FDCWD, p, times, 0), 0);
    assert_int_equal(sc_identity(dfd, dir, &st, &id, &vals, &from, err), 0);
    assert_true(from);
    assert_true(json_equal(id, want));
    json_decref(id);
    /* the report changes (another mtime): never trusted, read again: garbage is not a report */
    struct stat st2;
    assert_int_equal(utimensat(AT_FDCWD, p, NULL, 0), 0);
    assert_int_equal(stat(p, &st2), 0);
    assert_true(sc_identity(dfd, dir, &st2, &id, &vals, &from, err) < 0);
    /* a real report again; a corrupt sidecar, then one of another version, then a lying one (another label, the
     * report's stamp): rebuilt, not trusted, each time (the lie holds only while the stamp is the report's) */
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    assert_int_equal(stat(p, &st), 0);
    const char *bad[] = { "{\"schema\": \"rtjitter.sidecar/1\", \"version\": ", "not json at all", "" };
    for (int k = 0; k < 3; k++) {
        f = fopen(sc, "w");
        fputs(bad[k], f);
        fclose(f);
        assert_int_equal(sc_identity(dfd, dir, &st, &id, &vals, &from, err), 0);
        assert_false(from);
        assert_true(json_equal(id, want));
        json_decref(id);
    }
    /* another version */
    json_t *scd = json_load_file(sc, 0, NULL);
    assert_non_null(scd);
    json_object_set_new(scd, "version", json_integer(COMPARE_IDENTITY_VERSION + 1));
    assert_int_equal(json_dump_file(scd, sc, 0), 0);
    assert_int_equal(sc_identity(dfd, dir, &st, &id, &vals, &from, err), 0);
    assert_false(from);
    json_decref(id);
    json_decref(scd);
    /* a symlink planted at the sidecar's name: the file it names is never written; the name becomes a regular file */
    char target[4300];
    snprintf(target, sizeof(target), "%s/victim", dir);
    f = fopen(target, "w");
    fputs("victim", f);
    fclose(f);
    unlink(sc);
    assert_int_equal(symlink(target, sc), 0);
    assert_int_equal(sc_identity(dfd, dir, &st, &id, &vals, &from, err), 0);
    assert_false(from);
    json_decref(id);
    char vb[16] = "";
    f = fopen(target, "r");
    assert_non_null(fgets(vb, sizeof(vb), f));
    fclose(f);
    assert_string_equal(vb, "victim");
    assert_int_equal(lstat(sc, &ss), 0);
    assert_true(S_ISREG(ss.st_mode));
    /* a report of the set-up read whole beside another: its values kept, then served from the sidecar */
    snprintf(p, sizeof(p), "%s/r2.json", dir);
    json_t *d2 = fx_report("6.1.0", "250", "full", 2000, 0, 32);
    assert_int_equal(json_dump_file(d2, p, 0), 0);
    json_t *reps = compare_replicates_beside(p, d2, 32);
    assert_int_equal(json_array_size(reps), 1);
    json_t *v1 = json_incref(json_object_get(json_array_get(reps, 0), "values"));
    json_decref(reps);
    snprintf(p, sizeof(p), "%s/r1.json", dir);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(sc_identity(dfd, dir, &st, &id, &vals, &from, err), 0);
    assert_true(from);
    assert_non_null(vals);
    assert_true(json_equal(vals, v1));
    json_t *v0 = compare_run_values_json(d);
    assert_true(json_equal(v0, v1));
    json_decref(v0);
    json_decref(v1);
    json_decref(vals);
    json_decref(id);
    /* no temporary file left behind */
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -q tmp-", dir);
    assert_true(system(cmd) != 0);
    close(dfd);
    free(text);
    json_decref(want);
    json_decref(d);
    json_decref(d2);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_latest_in_store(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtjt-store-XXXXXX", p[4200];
    assert_non_null(mkdtemp(dir));
    snprintf(p, sizeof(p), "%s/6.8.0", dir);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/6.1.0", dir);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/empty", dir);
    mkdir(p, 0755);
    const char *files[] = { "6.8.0/20260101T000000Z.json", "6.8.0/20260102T000000Z-x.json",
                            "6.8.0/20260103T000000Z.json.tmp-12", "6.1.0/20251201T000000Z.json", "stray.json" };
    /* a real report (the fuzz corpus' smallest): the store walk reads each one */
    char minimal[4096], *doc;
    size_t dlen;
    snprintf(minimal, sizeof(minimal), "%s/tests/fuzz/corpus/minimal.json", getenv("RTJ_TOP") ? getenv("RTJ_TOP") : ".");
    char err[256];
    assert_int_equal(read_regular_file(minimal, 1 << 20, &doc, &dlen, err, sizeof(err)), 0);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
        write_file(p, doc);
    }
    free(doc);
    char **paths;
    size_t n;
    assert_int_equal(compare_latest_in_store(dir, &paths, &n), 0);
    assert_int_equal(n, 2);
    assert_non_null(strstr(paths[0], "6.1.0/20251201T000000Z.json")); /* the older kernel first */
    assert_non_null(strstr(paths[1], "6.8.0/20260102T000000Z-x.json"));
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    /* the other runs of a report's set-up beside it: the one other report of 6.8.0 (not the temporary file) */
    json_t *mdoc;
    snprintf(p, sizeof(p), "%s/6.8.0/20260102T000000Z-x.json", dir);
    assert_int_equal(report_read_file(p, &mdoc, err, sizeof(err)), 0);
    json_t *reps = compare_replicates_beside(p, mdoc, 32);
    assert_int_equal(json_array_size(reps), 1);
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(reps, 0), "file")),
                           "6.8.0/20260101T000000Z.json"));
    json_decref(reps);
    snprintf(p, sizeof(p), "%s/6.1.0/20251201T000000Z.json", dir);
    reps = compare_replicates_beside(p, mdoc, 32);
    assert_int_equal(json_array_size(reps), 0);
    json_decref(reps);
    json_decref(mdoc);
    assert_true(compare_latest_in_store("/nonexistent-store", &paths, &n) < 0);
    char cmd[4300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A file name that is not UTF-8 is shown with U+FFFD, and the report is still in the comparison (the lax check
 * took C0 80 for a character, jansson refused the name, and the report vanished from "reports"). */
static void test_file_names_not_utf8(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "voluntary", 2000, 0, 1), *b = fx_report("6.8.0", "1000", "full", 2000, 0, 2);
    json_t *docs[2] = { a, b };
    const char *names[2] = { "a.json", "c\xc0\x80.json" };
    json_t *cmp = compare_build(docs, names, 2);
    assert_non_null(cmp);
    const json_t *reports = json_object_get(cmp, "reports");
    assert_int_equal(json_array_size(reports), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(reports, 1), "file")),
                        "c\xef\xbf\xbd\xef\xbf\xbd.json");
    char *s = json_dumps(cmp, 0);
    assert_non_null(s);
    free(s);
    json_decref(cmp);
    json_decref(a);
    json_decref(b);
}

/* The cell of a load's table row labelled label, for report column c. */
static const char *cell(const json_t *cmp, const char *load, const char *label, size_t c)
{
    size_t i, j;
    const json_t *l, *r;
    json_array_foreach(json_object_get(cmp, "loads"), i, l) {
        if (strcmp(json_string_value(json_object_get(l, "load")), load))
            continue;
        json_array_foreach(json_object_get(l, "rows"), j, r)
            if (!strcmp(json_string_value(json_object_get(r, "label")), label))
                return json_string_value(json_array_get(json_object_get(r, "cells"), c));
    }
    return "(missing)";
}

static const json_t *verdict_of(const json_t *cmp, const char *load, const char *metric)
{
    size_t i, j;
    const json_t *l, *v;
    json_array_foreach(json_object_get(cmp, "loads"), i, l) {
        if (strcmp(json_string_value(json_object_get(l, "load")), load))
            continue;
        json_array_foreach(json_object_get(l, "verdicts"), j, v)
            if (!strcmp(json_string_value(json_object_get(v, "metric")), metric))
                return v;
    }
    return NULL;
}

/* The table and the verdict talk about one figure: the |jitter| and wakeup percentiles of the table rows are
 * the numbers the verdict lines compare, for both reports. */
static void test_table_and_verdict_one_figure(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "full", 20000, 0, 3), *b = fx_report("6.8.0", "1000", "full", 20000, 40, 4);
    json_t *ra[2] = { fx_report("6.1.0", "250", "full", 20000, 0, 31), fx_report("6.1.0", "250", "full", 20000, 0, 32) };
    json_t *rb[2] = { fx_report("6.8.0", "1000", "full", 20000, 40, 33),
                      fx_report("6.8.0", "1000", "full", 20000, 40, 34) };
    json_t *cmp = compare_with_runs(a, b, ra, 2, rb, 2);
    for (int i = 0; i < 2; i++) {
        json_decref(ra[i]);
        json_decref(rb[i]);
    }
    static const struct { const char *metric, *label, *words; } m[] = {
        { "wakeup p99/s", "wakeup p99/s, median (µs)", "wakeup p99 per second, median " },
        { "wakeup max/s", "wakeup max/s, median (µs)", "wakeup max per second, median " },
        { "jitter p99/s", "|jitter| p99/s, median (µs)", "|jitter| p99 per second, median " },
        { "jitter max/s", "|jitter| max/s, median (µs)", "|jitter| max per second, median " },
    };
    for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
        const json_t *v = verdict_of(cmp, "none", m[k].metric);
        assert_non_null(v);
        char want[128];
        snprintf(want, sizeof(want), "%s%s → %s µs", m[k].words, cell(cmp, "none", m[k].label, 0),
                 cell(cmp, "none", m[k].label, 1));
        const char *text = json_string_value(json_object_get(v, "text"));
        if (strncmp(text, want, strlen(want)))
            fail_msg("the table says \"%s\", the verdict \"%s\"", want, text);
    }
    /* and the summary names them as the tables do */
    const char *sum = json_string_value(json_array_get(json_object_get(cmp, "summary"), 0));
    assert_non_null(strstr(sum, "|jitter| p99/s under none"));
    json_decref(cmp);
    json_decref(a);
    json_decref(b);
}

/* A 3 µs later wakeup on 20000 cycles (27 seconds a side): the seconds' p99s move by 3 µs, below the 10 % / 5 µs
 * a difference must reach (10 % of about 86 µs): "no clear difference", and the line says what decided it. Every
 * verdict line names its test or its floor. */
static void test_every_line_says_why(void **state)
{
    (void)state;
    json_t *a = fx_report("6.1.0", "250", "full", 20000, 0, 5), *b = fx_report("6.8.0", "1000", "full", 20000, 3, 6);
    json_t *cmp = compare_two(a, b);
    const json_t *v = verdict_of(cmp, "none", "wakeup p99/s");
    assert_non_null(v);
    const char *text = json_string_value(json_object_get(v, "text"));
    assert_string_equal(json_string_value(json_object_get(v, "outcome")), "same");
    if (!strstr(text, "no clear difference") || !(strstr(text, "that matters") || strstr(text, "overlap")))
        fail_msg("%s", text);
    static const char *const why[] = { "Mann-Whitney", "Poisson rate test", "none in either run", "not compared" };
    size_t i, j;
    const json_t *l;
    json_array_foreach(json_object_get(cmp, "loads"), i, l)
        json_array_foreach(json_object_get(l, "verdicts"), j, v) {
            text = json_string_value(json_object_get(v, "text"));
            int said = 0;
            for (size_t k = 0; k < sizeof(why) / sizeof(why[0]); k++)
                said |= strstr(text, why[k]) != NULL;
            if (!said)
                fail_msg("no reason in: %s", text);
        }
    json_decref(cmp);
    json_decref(a);
    json_decref(b);
}

/* A phase of 12 seconds made by hand: wake-up p99 of second i = base + jitter from a seed, plus burst_us in the
 * seconds [b0, b1) and rest_us in the others; xrun events and missed deadlines: ev per second in the burst. */
static json_t *hand_phase_rest(double base, double burst_us, double rest_us, int b0, int b1, int ev, uint64_t seed)
{
    json_t *tl = json_array();
    int total = 0;
    for (int i = 0; i < 12; i++) {
        int in = i >= b0 && i < b1;
        double v = base + 10 * fx_uniform(&seed) + (in ? burst_us : rest_us);
        total += in ? ev : 0;
        json_array_append_new(tl, json_pack("{s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f}", "s", i, "cycles", 750,
                                            "xrun_events", in ? ev : 0, "deadlines_missed", in ? ev : 0,
                                            "wakeup_p99_us", v, "wakeup_max_us", 2 * v, "jitter_abs_p99_us", v / 2,
                                            "jitter_abs_max_us", v));
    }
    return json_pack("{s:s, s:f, s:i, s:{s:i}, s:i, s:o}", "load", "none", "measured_s", 12.0, "cycles", 9000,
                     "xruns", "events", total, "deadlines_missed", total, "timeline", tl);
}

static json_t *hand_phase(double base, double burst_us, int b0, int b1, int ev, uint64_t seed)
{
    return hand_phase_rest(base, burst_us, 0, b0, b1, ev, seed);
}

static const char *hand_outcome(json_t *list, const char *metric, const char **text)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v)
        if (!strcmp(json_string_value(json_object_get(v, "metric")), metric)) {
            *text = json_string_value(json_object_get(v, "text"));
            return json_string_value(json_object_get(v, "outcome"));
        }
    *text = "";
    return "(missing)";
}

/* A burst of the machine's other work in the first half of one run (seconds 0-5 of 12 at 1.5 ms, 50 events each;
 * the other seconds 12 µs above the baseline's) is not a difference of set-ups: the rank test is sure, but that
 * run's second half is only 12 µs from the other run, not the 1.5 ms claimed. The same 1.5 ms and 50 events in
 * every second of the run is a difference, and is found. */
static void test_burst_is_drift_steady_is_change(void **state)
{
    (void)state;
    json_t *a = hand_phase(30, 0, 5, 6, 1, 1), *burst = hand_phase_rest(30, 1500, 12, 0, 6, 50, 2);
    json_t *steady = hand_phase(30, 1500, 0, 12, 50, 3);
    json_t *list = json_array();
    struct tally t = { 0 };
    compare_load_verdicts(a, burst, NULL, 1, list, &t);
    const char *text;
    const char *o = hand_outcome(list, "wakeup p99/s", &text);
    if (strcmp(o, "same") || !strstr(text, "not in every half of the runs"))
        fail_msg("burst: %s: %s", o, text);
    o = hand_outcome(list, "xruns", &text);
    if (strcmp(o, "same"))
        fail_msg("burst xruns: %s: %s", o, text);
    o = hand_outcome(list, "deadlines missed", &text);
    if (strcmp(o, "same"))
        fail_msg("burst deadlines: %s: %s", o, text);
    assert_int_equal(t.worse + t.better, 0);
    json_decref(list);
    list = json_array();
    memset(&t, 0, sizeof(t));
    /* two more runs of either set-up, alike: the difference holds across runs too */
    double more_a[2][RUN_VALUES], more_b[2][RUN_VALUES];
    for (int i = 0; i < 2; i++) {
        json_t *x = hand_phase(30, 0, 5, 6, 1, 11 + (uint64_t)i), *y = hand_phase(30, 1500, 0, 12, 50, 21 + (uint64_t)i);
        compare_run_values(x, more_a[i]);
        compare_run_values(y, more_b[i]);
        json_decref(x);
        json_decref(y);
    }
    struct run_groups g = { .a_more = (const double (*)[RUN_VALUES])more_a, .na_more = 2,
                            .b_more = (const double (*)[RUN_VALUES])more_b, .nb_more = 2 };
    compare_load_verdicts(a, steady, &g, 1, list, &t);
    static const char *const all[] = { "wakeup p99/s", "wakeup max/s", "jitter p99/s", "jitter max/s", "xruns",
                                       "deadlines missed" };
    for (size_t k = 0; k < 6; k++) {
        o = hand_outcome(list, all[k], &text);
        if (strcmp(o, "worse"))
            fail_msg("steady %s: %s: %s", all[k], o, text);
    }
    /* the counts are per second: 1 event in 12 s against 50 in each of 12 */
    hand_outcome(list, "xruns", &text);
    if (!strstr(text, "xrun events 1 in 12.0 s → 600 in 12.0 s (per second 0.08 → 50.00, in 1 of 12 and 12 of 12 "
                      "seconds)"))
        fail_msg("steady xruns: %s", text);
    json_decref(list);
    json_decref(a);
    json_decref(burst);
    json_decref(steady);
}

/* A phase of n seconds made by hand from per-second counts: ev[i] xrun events and missed[i] missed deadlines in
 * second i; wake-up p99 of each second 100 µs plus up to 10 µs drawn from the seed (the same on both sides: only
 * the counts differ). The phase's totals are the sums of its seconds. */
static json_t *count_phase(const int *ev, const int *missed, int n, uint64_t seed)
{
    json_t *tl = json_array();
    int ke = 0, km = 0;
    for (int i = 0; i < n; i++) {
        double v = 100 + 10 * fx_uniform(&seed);
        ke += ev[i];
        km += missed[i];
        json_array_append_new(tl, json_pack("{s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f}", "s", i, "cycles", 750,
                                            "xrun_events", ev[i], "deadlines_missed", missed[i], "wakeup_p99_us", v,
                                            "wakeup_max_us", 2 * v, "jitter_abs_p99_us", v / 2,
                                            "jitter_abs_max_us", v));
    }
    return json_pack("{s:s, s:f, s:i, s:i, s:i, s:{s:i}, s:i, s:o}", "load", "none", "measured_s", (double)n,
                     "period_frames", 64, "rate", 48000, "cycles", 750 * n, "xruns", "events", ke,
                     "deadlines_missed", km, "timeline", tl);
}

/* The two-sided permutation p of Mann-Whitney's U, by enumerating every split of the pooled values (n <= 20) and
 * counting pairs: an independent computation of what count_rank_perm_p() gets from rank sums. */
static double u_of_split(const double *pool, size_t n, unsigned mask)
{
    double u = 0; /* pairs (x outside the mask, y in it) with y > x, ties half */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (!(mask >> i & 1) && (mask >> j & 1))
                u += pool[j] > pool[i] ? 1 : pool[j] == pool[i] ? 0.5 : 0;
    return u;
}

static double perm_p_by_pairs(const double *a, size_t na, const double *b, size_t nb)
{
    double pool[20];
    size_t n = na + nb;
    memcpy(pool, a, na * sizeof(double));
    memcpy(pool + na, b, nb * sizeof(double));
    double mean = (double)na * (double)nb / 2, far = 0, all = 0;
    double seen = u_of_split(pool, n, ((1u << n) - 1) & ~((1u << na) - 1)); /* b: the last nb */
    for (unsigned mask = 0; mask < 1u << n; mask++)
        if ((size_t)__builtin_popcount(mask) == nb) {
            all++;
            far += fabs(u_of_split(pool, n, mask) - mean) >= fabs(seen - mean) - 1e-9;
        }
    return far / all;
}

/* log C(n, k) */
static double lchoose(double n, double k)
{
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/* The permutation test of the seconds' ranks (compare_counts.h) against enumeration by hand and the hypergeometric
 * law: with only the values 0 and 1, the rank sum is a function of how many 1s fall in b, which is hypergeometric. */
static void test_count_permutation_p(void **state)
{
    (void)state;
    int exact;
    /* 0 events in 6 s against 7 in every second: only the split seen and its mirror are that far out, 2 of C(12,6) */
    double z6[6] = { 0 }, seven[6] = { 7, 7, 7, 7, 7, 7 };
    double p = count_rank_perm_p(z6, 6, seven, 6, &exact);
    assert_true(exact);
    if (fabs(p - 2.0 / 924) > 1e-12)
        fail_msg("0 against 7 a second: p = %.6g, expected 2/924", p);
    /* bursty counts with ties everywhere, against counting pairs over all 12870 splits of 16 seconds */
    double a[8] = { 0, 0, 3, 0, 12, 0, 1, 0 }, b[8] = { 2, 0, 0, 40, 0, 3, 0, 1 };
    double want = perm_p_by_pairs(a, 8, b, 8);
    p = count_rank_perm_p(a, 8, b, 8, &exact);
    if (fabs(p - want) > 1e-12)
        fail_msg("bursty: p = %.9g, enumeration by pairs %.9g", p, want);
    double c[8] = { 0, 1, 0, 0, 2, 0, 0, 1 }, d[8] = { 5, 9, 4, 30, 6, 5, 12, 7 };
    want = perm_p_by_pairs(c, 8, d, 8);
    p = count_rank_perm_p(c, 8, d, 8, &exact);
    if (fabs(p - want) > 1e-12 || !(p < 0.01))
        fail_msg("steady: p = %.9g, enumeration by pairs %.9g", p, want);
    /* 3 seconds with an event, all in b, of 12 a side: 2 C(12,3) / C(24,3) = 0.2174 (the normal approximation of
     * Mann-Whitney gives 0.08) */
    double z12[12] = { 0 }, three[12] = { 1, 1, 1 };
    p = count_rank_perm_p(z12, 12, three, 12, &exact);
    if (fabs(p - 2.0 * 220 / 2024) > 1e-12)
        fail_msg("3 of 12: p = %.9g, expected %.9g", p, 2.0 * 220 / 2024);
    /* beyond COUNTS_EXACT_MAX the splits are drawn: 35 seconds a side, 6 with one event, all in b. Hypergeometric:
     * P(|X - 3| >= 3) = 2 C(35,6) / C(70,6) = 0.02476; drawn until the 100th split as far (about 4000 of them), a
     * relative standard error of a tenth: 0.0025 */
    double z35[35] = { 0 }, six[35] = { 1, 1, 1, 1, 1, 1 };
    p = count_rank_perm_p(z35, 35, six, 35, &exact);
    want = 2 * exp(lchoose(35, 6) - lchoose(70, 6));
    assert_false(exact);
    if (fabs(p - want) > 0.004)
        fail_msg("drawn: p = %.5g, hypergeometric %.5g", p, want);
    assert_true(count_rank_perm_p(z35, 35, six, 35, NULL) == p); /* seeded: the same reports, the same p */
    /* the sequential stop: every split is as far as two runs with no event at all, so the 100th split stops it
     * at p = 1; and no split is as far as 35 seconds of 7 against 35 of none: all 20000 drawn, p = 1 / 20001 */
    double sev35[35];
    for (int i = 0; i < 35; i++)
        sev35[i] = 7;
    assert_true(count_rank_perm_p(z35, 35, z35, 35, &exact) == 1.0);
    assert_false(exact);
    assert_true(fabs(count_rank_perm_p(z35, 35, sev35, 35, NULL) - 1.0 / (1 + COUNTS_DRAWS)) < 1e-15);
}

/* What a musician saw (issue 19), one run before and one after, each alone: 0 -> 42 xrun events in 6 s, 1 -> 183
 * with deadlines met falling, 3 -> 802. The seconds-with-any test before this one could not see the first (0 of 6
 * against 6 of 6 seconds: Poisson p = 2 / 2^6 = 0.031); their counts per second can. Each is "worse in this pair":
 * the first words of its line, its own outcome, counted apart in the summary; and "better in this pair" the other
 * way round. With two more runs of each set-up, alike, it is "worse" across runs. */
static void test_disaster_is_called(void **state)
{
    (void)state;
    assert_true(fabs(rate_test_p(0, 6, 6, 6) - 2.0 / 64) < 1e-12); /* the old unit's p, by hand: not < 0.01 */
    static const int none[6] = { 0 }, seven[6] = { 7, 7, 7, 7, 7, 7 }, one[6] = { 0, 0, 1, 0, 0, 0 },
                     many[6] = { 30, 31, 30, 31, 30, 31 }, three[6] = { 1, 0, 1, 0, 1, 0 },
                     lots[6] = { 133, 134, 133, 134, 134, 134 }, miss_many[6] = { 60, 62, 61, 60, 62, 61 };
    struct {
        const int *ea, *eb, *ma, *mb;
        int ka, kb;
    } cases[] = {
        { none, seven, none, seven, 0, 42 },
        { one, many, one, miss_many, 1, 183 },
        { three, lots, three, miss_many, 3, 802 },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        json_t *pa = count_phase(cases[c].ea, cases[c].ma, 6, 1 + c), *pb = count_phase(cases[c].eb, cases[c].mb, 6,
                                                                                       11 + c);
        for (int way = 0; way < 2; way++) {
            json_t *list = json_array();
            struct tally t = { 0 };
            compare_load_verdicts(way ? pb : pa, way ? pa : pb, NULL, 1, list, &t);
            const char *text, *o = hand_outcome(list, "xruns", &text);
            char head[128];
            snprintf(head, sizeof(head), "%s in this pair: xrun events %d in 6.0 s → %d in 6.0 s", way ? "better" : "worse",
                     way ? cases[c].kb : cases[c].ka, way ? cases[c].ka : cases[c].kb);
            if (strcmp(o, way ? "better_in_pair" : "worse_in_pair") || strncmp(text, head, strlen(head)) ||
                !strstr(text, "not yet confirmed across runs: one run a side"))
                fail_msg("case %zu way %d xruns: %s: %s", c, way, o, text);
            o = hand_outcome(list, "deadlines missed", &text);
            if (strcmp(o, way ? "better_in_pair" : "worse_in_pair"))
                fail_msg("case %zu way %d deadlines: %s: %s", c, way, o, text);
            /* the latencies are of one distribution: no clear difference, and counted apart from the pair's */
            assert_string_equal(hand_outcome(list, "wakeup p99/s", &text), "same");
            assert_int_equal(way ? t.better_pair : t.worse_pair, 2);
            assert_int_equal(t.worse + t.better + (way ? t.worse_pair : t.better_pair), 0);
            assert_int_equal(t.same, 4);
            json_decref(list);
        }
        json_decref(pa);
        json_decref(pb);
    }
    /* The first case as whole reports: the summary says it first and counts it apart; with two more runs of each
     * set-up, alike, it is confirmed. */
    json_t *a = fx_report("6.1.0", "250", "voluntary", 4500, 0, 7), *b = fx_report("6.1.0", "250", "voluntary", 4500, 0, 8);
    json_array_set_new(json_object_get(a, "phases"), 0, count_phase(none, none, 6, 3));
    json_array_set_new(json_object_get(b, "phases"), 0, count_phase(seven, seven, 6, 4));
    json_object_set_new(b, "label", json_string("after"));
    json_t *cmp = compare_two(a, b);
    const char *sum = json_string_value(json_array_get(json_object_get(cmp, "summary"), 0));
    if (!strstr(sum, "(after) against 6.1.0 (test): worse in 2 measures in this pair, not yet confirmed across runs: run each "
                     "set-up twice more, into one directory, and compare again. Worse in this pair: xruns under none, "
                     "deadlines missed under none. Across runs: better in 0 measures, worse in 0, no clear difference "
                     "in 4."))
        fail_msg("summary: %s", sum);
    json_decref(cmp);
    json_t *ra[2], *rb[2];
    for (int i = 0; i < 2; i++) {
        ra[i] = json_deep_copy(a);
        rb[i] = json_deep_copy(b);
        json_array_set_new(json_object_get(ra[i], "phases"), 0, count_phase(none, i ? one : none, 6, 30 + (uint64_t)i));
        json_array_set_new(json_object_get(rb[i], "phases"), 0, count_phase(i ? many : seven, seven, 6, 40 + (uint64_t)i));
    }
    cmp = compare_with_runs(a, b, ra, 2, rb, 2);
    const char *o = outcome(cmp, "none", "xruns");
    if (strcmp(o, "worse"))
        fail_msg("with runs: xruns %s: %s", o, json_string_value(json_object_get(verdict_of(cmp, "none", "xruns"),
                                                                                   "text")));
    json_decref(cmp);
    free_pair_runs(a, b, ra, rb);
}

/* Two runs of one set-up whose events all came in clusters (a stall of the machine: a dozen or more in one second,
 * then none). A Poisson test on the totals treats every event as a unit and calls them different; a second is the
 * unit here, and they are not. */
static void test_bursty_aa_not_called(void **state)
{
    (void)state;
    static const int a1[12] = { 0, 0, 15, 0, 0, 0, 0, 0, 15, 0, 0, 0 }, b1[12] = { 0, 15, 0, 0, 15, 0, 0, 15, 0, 0, 15, 0 };
    static const int a2[12] = { 0, 0, 0, 0, 0, 40, 0, 0, 0, 0, 0, 0 }, b2[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0 };
    static const int a3[12] = { 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 }, b3[12] = { 12, 0, 0, 31, 0, 0, 19, 0, 0, 0, 0, 28 };
    const int *pairs[3][2] = { { a1, b1 }, { a2, b2 }, { a3, b3 } };
    for (int c = 0; c < 3; c++) {
        int ka = 0, kb = 0;
        for (int i = 0; i < 12; i++) {
            ka += pairs[c][0][i];
            kb += pairs[c][1][i];
        }
        if (!(rate_test_p(ka, 12, kb, 12) < 0.01)) /* what a plain Poisson test on the totals would call */
            fail_msg("case %d: the Poisson test does not call %d against %d", c, ka, kb);
        json_t *pa = count_phase(pairs[c][0], pairs[c][0], 12, 50 + (uint64_t)c);
        json_t *pb = count_phase(pairs[c][1], pairs[c][1], 12, 60 + (uint64_t)c);
        json_t *list = json_array();
        struct tally t = { 0 };
        compare_load_verdicts(pa, pb, NULL, 1, list, &t);
        const char *text, *o = hand_outcome(list, "xruns", &text);
        if (strcmp(o, "same") || !strstr(text, "no clear difference"))
            fail_msg("case %d xruns: %s: %s", c, o, text);
        assert_int_equal(t.worse + t.better + t.worse_pair + t.better_pair, 0);
        json_decref(list);
        json_decref(pa);
        json_decref(pb);
    }
}

/* A report whose timeline does not count xrun events per second (an older rtjitter): its total alone cannot tell a
 * burst from a steady rate, so the count is not compared (and says why), even for 0 -> 42. */
static void test_counts_not_per_second(void **state)
{
    (void)state;
    static const int none[6] = { 0 }, seven[6] = { 7, 7, 7, 7, 7, 7 };
    json_t *pa = count_phase(none, none, 6, 80), *pb = count_phase(seven, seven, 6, 81);
    json_t *phases[2] = { pa, pb };
    for (int k = 0; k < 2; k++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(phases[k], "timeline"), i, e)
            json_object_del(e, "xrun_events");
    }
    json_t *list = json_array();
    struct tally t = { 0 };
    compare_load_verdicts(pa, pb, NULL, 1, list, &t);
    const char *text, *o = hand_outcome(list, "xruns", &text);
    if (strcmp(o, "n/a") || !strstr(text, "xrun events 0 in 6.0 s → 42 in 6.0 s: not compared: the timelines do not "
                                          "count them per second"))
        fail_msg("xruns: %s: %s", o, text);
    assert_string_equal(hand_outcome(list, "deadlines missed", &text), "worse_in_pair"); /* still counted */
    assert_int_equal(t.na, 1);
    json_decref(list);
    json_decref(pa);
    json_decref(pb);
}

/* A phase of 12 seconds without events whose per-second wake-up p99 and max are add_us later than count_phase's;
 * with_period 0: the phase does not say its period (nor does its report). */
static json_t *later_phase(double add_us, int with_period, uint64_t seed)
{
    static const int zero[12] = { 0 };
    json_t *p = count_phase(zero, zero, 12, seed);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(p, "timeline"), i, e) {
        json_object_set_new(e, "wakeup_p99_us", json_real(json_real_value(json_object_get(e, "wakeup_p99_us")) + add_us));
        json_object_set_new(e, "wakeup_max_us", json_real(json_real_value(json_object_get(e, "wakeup_max_us")) + add_us));
    }
    if (!with_period) {
        json_object_del(p, "period_frames");
        json_object_del(p, "rate");
    }
    return p;
}

/* What one pair alone may call of a per-second latency: the two runs' own rule (p < 0.01, the floor, every half),
 * and a shift of a tenth of the period (133.3 µs at 64 frames and 48 kHz; 100 µs when the period is unknown) in
 * every half of either run. 50 µs later in every second: the two runs differ, but "no clear difference", and the line
 * says why; 200 µs: "worse in this pair". 120 µs: short of a tenth of this period, beyond the 100 µs of none. */
static void test_pair_bar_latency(void **state)
{
    (void)state;
    struct {
        double add;
        int with_period;
        const char *want;
    } cases[] = { { 50, 1, "same" }, { 200, 1, "worse_in_pair" }, { 120, 1, "same" }, { 120, 0, "worse_in_pair" } };
    /* (the bar is 100 µs when the period is unknown: no "same" case of that kind is short of it here) */
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        json_t *pa = later_phase(0, cases[c].with_period, 70), *pb = later_phase(cases[c].add, cases[c].with_period, 71);
        json_t *list = json_array();
        struct tally t = { 0 };
        compare_load_verdicts(pa, pb, NULL, 1, list, &t);
        const char *text, *o = hand_outcome(list, "wakeup p99/s", &text);
        if (strcmp(o, cases[c].want))
            fail_msg("+%.0f µs (period %s): %s: %s", cases[c].add, cases[c].with_period ? "known" : "unknown", o, text);
        if (!strcmp(o, "same") && !strstr(text, "by less than one pair alone can call (a shift of 133 µs in every half "
                                                 "of either run, a tenth of the period)"))
            fail_msg("+%.0f µs: the line does not say why: %s", cases[c].add, text);
        if (!strcmp(o, "worse_in_pair") && strncmp(text, "worse in this pair: wakeup p99 per second, median ", 50))
            fail_msg("+%.0f µs: %s", cases[c].add, text);
        json_decref(list);
        json_decref(pa);
        json_decref(pb);
    }
}

/* A 300 s phase laid out as report.c lays out a long one: every second of the first and last minute, one entry per
 * minute between, except the seconds around an event at 150 s (145-155, kept per second, 5 ms each). The units are
 * the 120 edge seconds: not the compacted minutes (a minute's largest p99), not the event's neighbours (kept
 * because they were eventful). A cut last second (100 cycles) is left out, a stalled one in the middle is not. */
static void test_long_run_units(void **state)
{
    (void)state;
    json_t *tl = json_array();
    for (int s0 = 0; s0 < 300;) {
        int edge = s0 < 60 || s0 >= 240, near = s0 >= 145 && s0 <= 155;
        int span = edge || near ? 1 : (s0 < 145 ? (145 - s0 < 60 ? 145 - s0 : 60) : (240 - s0 < 60 ? 240 - s0 : 60));
        json_t *e = json_pack("{s:i, s:i, s:f}", "s", s0, "cycles", 750 * span, "wakeup_p99_us",
                              near ? 5000.0 : edge ? 30.0 + s0 % 7 : 900.0);
        if (span > 1)
            json_object_set_new(e, "span_s", json_integer(span));
        if (s0 == 10)
            json_object_set_new(e, "cycles", json_integer(200)); /* stalled, not cut */
        if (s0 == 299)
            json_object_set_new(e, "cycles", json_integer(100)); /* the cut last second */
        json_array_append_new(tl, e);
        s0 += span;
    }
    json_t *p = json_pack("{s:o}", "timeline", tl);
    double *v;
    int n = blocks_of(p, "wakeup_p99_us", &v);
    assert_int_equal(n, 119);
    for (int i = 0; i < n; i++)
        if (v[i] > 40)
            fail_msg("unit %d is %.1f: not an edge second", i, v[i]);
    free(v);
    json_decref(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_distribution_no_difference),
        cmocka_unit_test(test_hodges_lehmann_exact),
        cmocka_unit_test(test_compact_reader),
        cmocka_unit_test(test_sidecars),
        cmocka_unit_test(test_shift_of_3ms_is_significant),
        cmocka_unit_test(test_run_to_run_noise),
        cmocka_unit_test(test_replicates_beside),
        cmocka_unit_test(test_student_t_and_run_level),
        cmocka_unit_test(test_short_runs_not_compared),
        cmocka_unit_test(test_mann_whitney_exact),
        cmocka_unit_test(test_mann_whitney_normal_and_shift),
        cmocka_unit_test(test_burst_is_drift_steady_is_change),
        cmocka_unit_test(test_count_permutation_p),
        cmocka_unit_test(test_disaster_is_called),
        cmocka_unit_test(test_bursty_aa_not_called),
        cmocka_unit_test(test_pair_bar_latency),
        cmocka_unit_test(test_counts_not_per_second),
        cmocka_unit_test(test_long_run_units),
        cmocka_unit_test(test_quantile_ci),
        cmocka_unit_test(test_rate_test),
        cmocka_unit_test(test_identity_diff_and_warnings),
        cmocka_unit_test(test_latest_in_store),
        cmocka_unit_test(test_file_names_not_utf8),
        cmocka_unit_test(test_table_and_verdict_one_figure),
        cmocka_unit_test(test_every_line_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
