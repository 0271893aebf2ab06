/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The packaging-test forms on a fixture report (tests/unit/fixture_report.h): thresholds judged per phase
 * (report/thresholds.c) against the figures the fixture document holds, the exit decision, the one-line
 * failures, and the JUnit, TAP, LAVA and KCIDB renderings, including a load name full of <&"'# that every form
 * must escape or replace. The JUnit is checked for its shape by tests/integration/packaging.sh too (Python's
 * XML parser); here for the escaping and the counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixture_report.h"
#include "render/matrix.h"
#include "render/pkgtest.h"
#include "compare/compare.h"
#include "render/render.h"
#include "report/access.h"
#include "report/thresholds.h"
#include "util/utf8.h"

#define NASTY "a<b&c\"d'e#f\\g"

#define CONTAINS(hay, needle) \
    do { \
        if (!strstr((hay), (needle))) \
            fail_msg("missing \"%s\" in:\n%s", (needle), (hay)); \
    } while (0)
#define LACKS(hay, needle) \
    do { \
        if (strstr((hay), (needle))) \
            fail_msg("unexpected \"%s\" in:\n%s", (needle), (hay)); \
    } while (0)

static json_t *studio(void)
{
    return json_pack("{s:s, s:i, s:i}", "name", "studio", "max_xruns", 0, "max_deadlines_missed", 0);
}

/* A report with phases "none" (no xrun) and NASTY (3 xruns), judged with --max-xruns 0, the profile not
 * enforced (no --profile). */
static json_t *judged(const struct report_limits *lim, int strict, int *exceeded)
{
    json_t *d = fx_report("6.1.0-rt", "1000", "full", 2000, 0, 7);
    json_array_append_new(json_object_get(d, "phases"), fx_phase(NASTY, 2000, 0, 8, 3));
    json_t *p = studio();
    json_object_set_new(d, "thresholds", thresholds_object(d, p, strict, lim, lim->max_xruns >= 0 ? lim->max_xruns : 0,
                                                           0, 0, exceeded));
    json_decref(p);
    return d;
}

static char *render(const char *form, const json_t *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    const struct renderer *r = renderer_find(form);
    assert_non_null(r);
    assert_int_equal(r->report(f, d, NULL), 0);
    fclose(f);
    return buf;
}

static void test_judge(void **state)
{
    (void)state;
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = 0;
    int ex = -1;
    json_t *d = judged(&lim, 0, &ex);
    assert_int_equal(ex, 1);
    const json_t *checks = json_object_get(json_object_get(d, "thresholds"), "checks");
    assert_int_equal(json_array_size(checks), 2); /* --max-xruns, and the profile's missed deadlines */
    const json_t *x = json_array_get(checks, 0), *m = json_array_get(checks, 1);
    assert_string_equal(doc_str(x, "id", ""), "xruns");
    assert_true(json_is_true(json_object_get(x, "enforced")));
    assert_string_equal(doc_str(x, "source", ""), "--max-xruns");
    assert_false(json_is_true(json_object_get(m, "enforced")));
    const json_t *p0 = json_array_get(json_object_get(x, "phases"), 0), *p1 = json_array_get(json_object_get(x, "phases"), 1);
    assert_string_equal(doc_str(p1, "phase", ""), NASTY);
    /* The fixture's xruns: 0 and 3 (reported), the figure judged. */
    assert_true(doc_num(p0, "value") == 0 && json_is_true(json_object_get(p0, "pass")));
    assert_true(doc_num(p1, "value") == 3 && json_is_false(json_object_get(p1, "pass")));
    json_decref(d);

    /* --max-xruns 3: the phase with 3 passes (<=), nothing exceeded. */
    lim.max_xruns = 3;
    d = judged(&lim, 0, &ex);
    assert_int_equal(ex, 0);
    json_decref(d);

    /* --min-deadlines-pct, --max-wakeup-p99-us: against the fixture's own stored figures, either side. */
    struct report_limits l2 = REPORT_LIMITS_NONE;
    d = judged(&l2, 0, &ex);
    const json_t *ph = json_object_get(d, "phases");
    double p99a = doc_num(json_object_get(json_array_get(ph, 0), "wakeup_us"), "p99");
    double p99b = doc_num(json_object_get(json_array_get(ph, 1), "wakeup_us"), "p99");
    json_decref(d);
    assert_true(p99a > 40 && p99b > 40);
    l2.min_deadlines_pct = 100; /* the fixture met 100 % */
    l2.max_wakeup_p99_us = (p99a > p99b ? p99a : p99b) + 0.5;
    d = judged(&l2, 0, &ex);
    assert_int_equal(ex, 0);
    const json_t *w = json_array_get(json_object_get(json_object_get(d, "thresholds"), "checks"), 3);
    assert_string_equal(doc_str(w, "id", ""), "wakeup_p99");
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(w, "phases"), 0), "pass")));
    json_decref(d);
    l2.max_wakeup_p99_us = (p99a < p99b ? p99a : p99b) - 0.5;
    d = judged(&l2, 0, &ex);
    assert_int_equal(ex, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *m2 = open_memstream(&buf, &len);
    assert_int_equal(thresholds_print_failures(m2, d, "rtjitter run"), 2);
    fclose(m2);
    CONTAINS(buf, "rtjitter run: threshold exceeded: phase none: wake-up p99 ");
    CONTAINS(buf, "(--max-wakeup-p99-us)\n");
    free(buf);
    json_decref(d);

    /* A phase with no figure fails: nothing showed it within the limit. */
    d = fx_report("6.1.0", "250", "full", 2000, 0, 3);
    json_object_del(json_array_get(json_object_get(d, "phases"), 0), "wakeup_us");
    l2.max_wakeup_p99_us = 1e6;
    json_t *p = studio();
    int n = 0;
    json_t *c = thresholds_judge(d, p, 0, &l2, &n);
    assert_int_equal(n, 1);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(json_array_get(c, 3), "phases"), 0),
                                             "value")));
    json_decref(c);
    json_decref(p);
    json_decref(d);
}

static void test_junit(void **state)
{
    (void)state;
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = 0;
    int ex;
    json_t *d = judged(&lim, 0, &ex);
    json_object_set_new(d, "label", json_string("lab<1>"));
    char *x = render("junit", d);
    CONTAINS(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rtjitter\" tests=\"6\" "
                "failures=\"1\" errors=\"0\" skipped=\"0\"");
    CONTAINS(x, "rtjitter &#39;lab&lt;1&gt;&#39; on 6.1.0-rt");
    CONTAINS(x, "<property name=\"kernel.release\" value=\"6.1.0-rt\"/>");
    CONTAINS(x, "<property name=\"backend\" value=\"jack\"/>");
    CONTAINS(x, "<testcase name=\"a&lt;b&amp;c&quot;d&#39;e#f\\g: xrun events &lt;= 0\" "
                "classname=\"rtjitter.a&lt;b&amp;c&quot;d&#39;e#f\\g\"");
    CONTAINS(x, "<failure message=\"phase a&lt;b&amp;c&quot;d&#39;e#f\\g: xrun events 3 &lt;= 0 (--max-xruns)\" "
                "type=\"threshold\">");
    CONTAINS(x, "xrun_events: 3\n");
    LACKS(x, NASTY);
    LACKS(x, "<b&");
    free(x);
    /* The profile enforced (--profile): its missed-deadline limit is a test like the others; none missed. */
    json_decref(d);
    d = judged(&lim, 1, &ex);
    x = render("junit", d);
    LACKS(x, "<skipped");
    CONTAINS(x, "failures=\"1\"");
    free(x);
    /* An incomplete run: an error, named. */
    json_object_set_new(d, "complete", json_false());
    json_object_set_new(d, "incomplete_reason", json_string("server <lost>"));
    x = render("junit", d);
    CONTAINS(x, "errors=\"1\"");
    CONTAINS(x, "<error message=\"server &lt;lost&gt;\" type=\"incomplete\"/>");
    free(x);
    /* Text that is not UTF-8 or not allowed in XML is replaced. */
    json_object_set_new(json_object_get(d, "system"), "hostname", json_string("bo\x01x"));
    x = render("junit", d);
    CONTAINS(x, "hostname=\"bo" UTF8_REPLACEMENT "x\"");
    free(x);
    json_decref(d);
}

/* A failed verdict never hides (issue 35): the profile's limit as advice, failed, is a JUnit <failure> of type
 * "advice" (never <skipped>) and a LAVA "fail"; a failed verdict is a failure of its own in both; a figure no
 * threshold judges is a LAVA measurement with "unknown", never "pass". */
static void test_failed_verdict(void **state)
{
    (void)state;
    struct report_limits lim = REPORT_LIMITS_NONE; /* no limit of the user's: only the profile's, as advice */
    int ex;
    json_t *d = judged(&lim, 0, &ex);
    json_object_set_new(json_array_get(json_object_get(d, "phases"), 1), "deadlines_missed", json_integer(2));
    json_t *p = studio();
    json_object_set_new(d, "thresholds", thresholds_object(d, p, 0, &lim, 0, 0, 0, &ex));
    json_decref(p);
    assert_int_equal(ex, 0); /* the exit status counts none of it */
    json_object_set_new(d, "verdict", json_pack("{s:s, s:s, s:[s]}", "level", "fail", "summary",
                                                "Dropouts <under load>", "advice", "use 128 frames"));
    char *x = render("junit", d);
    LACKS(x, "<skipped");
    /* run complete, verdict, and per phase: the profile's xruns and missed deadlines (2 x 2) */
    CONTAINS(x, "tests=\"6\" failures=\"3\" errors=\"0\" skipped=\"0\"");
    CONTAINS(x, "<testcase name=\"verdict\" classname=\"rtjitter.run\" time=\"0\">\n      <failure "
                "message=\"Dropouts &lt;under load&gt;\" type=\"verdict\">use 128 frames\n</failure>");
    CONTAINS(x, "missed deadlines 2 &lt;= 0 (profile studio (advice only)): the exit status did not count it "
                "(give --profile to enforce it)\" type=\"advice\">");
    CONTAINS(x, "xrun events 3 &lt;= 0 (profile studio (advice only)): the exit status");
    free(x);
    char *l = render("lava", d);
    CONTAINS(l, "\nlava-test-case verdict --result fail\n");
    CONTAINS(l, "\nlava-test-case a_b_c_d_e_f_g-deadlines_missed --result fail --measurement 2 --units events\n");
    CONTAINS(l, "\nlava-test-case none-deadlines_missed --result pass --measurement 0 --units events\n");
    /* no threshold on the wake-up p99 or |jitter| here: measurements, not judged */
    CONTAINS(l, "\nlava-test-case none-wakeup_p99 --result unknown --measurement ");
    CONTAINS(l, "\nlava-test-case none-jitter_abs_max --result unknown --measurement ");
    LACKS(l, "--result skip");
    for (const char *q = strstr(l, "--result pass"); q; q = strstr(q + 1, "--result pass")) {
        const char *bol = q;
        while (bol > l && bol[-1] != '\n')
            bol--;
        if (strncmp(bol, "lava-test-case run_complete ", 28) && !strstr(bol, "xrun_events") && !strstr(bol, "deadlines_missed"))
            fail_msg("a pass with no threshold behind it: %.80s", bol);
    }
    free(l);
    /* A verdict that warns is no failure in JUnit, "unknown" in LAVA; a pass passes. */
    json_object_set_new(json_object_get(d, "verdict"), "level", json_string("warn"));
    x = render("junit", d);
    CONTAINS(x, "<testcase name=\"verdict\" classname=\"rtjitter.run\" time=\"0\"/>");
    free(x);
    l = render("lava", d);
    CONTAINS(l, "\nlava-test-case verdict --result unknown\n");
    free(l);
    json_decref(d);
}

static void test_tap(void **state)
{
    (void)state;
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = 0;
    int ex;
    json_t *d = judged(&lim, 0, &ex);
    /* The nasty phase misses deadlines too: an advice-only failure, a TODO. */
    json_object_set_new(json_array_get(json_object_get(d, "phases"), 1), "deadlines_missed", json_integer(2));
    json_t *p = studio();
    json_object_set_new(d, "thresholds", thresholds_object(d, p, 0, &lim, 0, 0, 0, &ex));
    json_decref(p);
    char *t = render("tap", d);
    assert_true(strncmp(t, "TAP version 13\n1..5\nok 1 - run complete\n", 40) == 0);
    CONTAINS(t, "\nok 2 - phase none: xrun events 0 <= 0\n");
    CONTAINS(t, "\nok 3 - phase none: missed deadlines 0 <= 0\n");
    CONTAINS(t, "\nnot ok 4 - phase a<b&c\"d'e\\#f\\\\g: xrun events 3 <= 0\n  ---\n");
    CONTAINS(t, "  message: \"phase a<b&c\\\"d'e#f\\\\g: xrun events 3 <= 0 (--max-xruns)\"\n");
    CONTAINS(t, "  severity: fail\n");
    CONTAINS(t, "  found: 3\n  wanted: \"<= 0\"\n");
    CONTAINS(t, "    xrun_events: 3\n");
    CONTAINS(t, "\nnot ok 5 - phase a<b&c\"d'e\\#f\\\\g: missed deadlines 2 <= 0 # TODO ");
    free(t);
    json_decref(d);
}

static void test_lava(void **state)
{
    (void)state;
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = 0;
    int ex;
    json_t *d = judged(&lim, 1, &ex);
    char *l = render("lava", d);
    CONTAINS(l, "\nlava-test-case run_complete --result pass\n");
    CONTAINS(l, "\nlava-test-case none-xrun_events --result pass --measurement 0 --units events\n");
    CONTAINS(l, "\nlava-test-case a_b_c_d_e_f_g-xrun_events --result fail --measurement 3 --units events\n");
    CONTAINS(l, "\nlava-test-case none-deadlines_met --result unknown --measurement 100 --units %\n"); /* no threshold */
    CONTAINS(l, "\nlava-test-case none-wakeup_p99 --result unknown --measurement "); /* no threshold on it */
    LACKS(l, "<");
    LACKS(l, "'");
    free(l);
    json_decref(d);
}

/* No null anywhere: KCIDB forbids it. */
static void no_null(const json_t *v)
{
    const char *k;
    const json_t *c;
    size_t i;
    assert_false(json_is_null(v));
    if (json_is_object(v))
        json_object_foreach((json_t *)v, k, c) no_null(c);
    if (json_is_array(v))
        json_array_foreach(v, i, c) no_null(c);
}

static const json_t *test_at(const json_t *tests, const char *path)
{
    size_t i;
    const json_t *t;
    json_array_foreach(tests, i, t)
        if (!strcmp(doc_str(t, "path", ""), path))
            return t;
    fail_msg("no test %s", path);
    return NULL;
}

static void test_kcidb(void **state)
{
    (void)state;
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = 0;
    int ex;
    json_t *d = judged(&lim, 0, &ex);
    json_array_append_new(json_object_get(d, "phases"), fx_phase("write:mb=32.x", 2000, 0, 9, 0));
    json_object_set_new(json_array_get(json_object_get(d, "phases"), 2), "load_metrics",
                        json_pack("[{s:s, s:f, s:s}]", "name", "write.throughput", "value", 41.5, "unit", "MB/s"));
    json_object_set_new(d, "thresholds", thresholds_object(d, NULL, 0, &lim, 0, 0, 0, &ex));
    char *s = render("kcidb", d);
    json_error_t err;
    json_t *k = json_loads(s, 0, &err);
    assert_non_null(k);
    no_null(k);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(k, "version"), "major")), 5);
    const json_t *co = json_array_get(json_object_get(k, "checkouts"), 0);
    const json_t *b = json_array_get(json_object_get(k, "builds"), 0);
    assert_string_equal(doc_str(co, "origin", ""), "rtjitter");
    assert_null(json_object_get(co, "git_commit_hash")); /* not known without the lab */
    assert_null(json_object_get(b, "valid"));            /* v4's; v5 has none */
    assert_string_equal(doc_str(b, "checkout_id", ""), doc_str(co, "id", "?"));
    const json_t *tests = json_object_get(k, "tests");
    size_t i;
    const json_t *t;
    json_array_foreach(tests, i, t) {
        assert_string_equal(doc_str(t, "build_id", ""), doc_str(b, "id", "?"));
        assert_true(strncmp(doc_str(t, "id", ""), "rtjitter:", 9) == 0);
        /* v5 paths: dot-separated parts of [A-Za-z0-9_-], none empty */
        const char *path = doc_str(t, "path", "");
        assert_int_equal(strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"),
                         strlen(path));
        assert_null(strstr(path, ".."));
        assert_true(path[0] != '.' && path[strlen(path) - 1] != '.');
        const char *st = doc_str(t, "status", "");
        /* a number on every phase test; DONE only with one */
        if (!strcmp(st, "DONE"))
            assert_non_null(json_object_get(t, "number"));
        assert_true(!strcmp(st, "PASS") || !strcmp(st, "FAIL") || !strcmp(st, "DONE") || !strcmp(st, "ERROR"));
    }
    /* The nasty phase: its xruns judged by --max-xruns, FAIL with the count; wake-up p99 unjudged, DONE in s. */
    t = test_at(tests, "rtjitter.a_b_c_d_e_f_g.xrun_events");
    assert_string_equal(doc_str(t, "status", ""), "FAIL");
    assert_true(doc_num(json_object_get(t, "number"), "value") == 3);
    assert_string_equal(doc_str(json_object_get(t, "number"), "unit", ""), "events");
    assert_string_equal(doc_str(json_object_get(t, "misc"), "phase", ""), NASTY);
    assert_true(json_is_true(json_object_get(json_object_get(t, "misc"), "enforced")));
    assert_string_equal(doc_str(test_at(tests, "rtjitter.none.xrun_events"), "status", ""), "PASS");
    t = test_at(tests, "rtjitter.none.wakeup_p99");
    assert_string_equal(doc_str(t, "status", ""), "DONE");
    const json_t *n = json_object_get(t, "number");
    double p99 = doc_num(json_object_get(json_array_get(json_object_get(d, "phases"), 0), "wakeup_us"), "p99");
    assert_true(fabs(doc_num(n, "value") - p99 * 1e-6) < 1e-12);
    assert_string_equal(doc_str(n, "unit", ""), "s");
    assert_string_equal(doc_str(n, "prefix", ""), "metric");
    /* A load with parameters and a dot in its name: one path part; its throughput a number too. */
    t = test_at(tests, "rtjitter.write_mb_32_x.load_write_throughput");
    assert_true(doc_num(json_object_get(t, "number"), "value") == 41.5);
    assert_string_equal(doc_str(json_object_get(t, "number"), "unit", ""), "MB/s");
    /* The verdict (the fixture's: pass). */
    assert_string_equal(doc_str(test_at(tests, "rtjitter.verdict"), "status", ""), "PASS");
    json_decref(k);
    free(s);

    /* The lab's origin and the kernel's commit. */
    struct render_opts o = { .kcidb_origin = "lab_2", .kcidb_git_commit = "0123456789abcdef0123456789abcdef01234567" };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(renderer_find("kcidb")->report(f, d, &o), 0);
    fclose(f);
    k = json_loads(buf, 0, &err);
    assert_non_null(k);
    co = json_array_get(json_object_get(k, "checkouts"), 0);
    assert_string_equal(doc_str(co, "git_commit_hash", ""), o.kcidb_git_commit);
    assert_true(strncmp(doc_str(co, "id", ""), "lab_2:", 6) == 0);
    json_array_foreach(json_object_get(k, "tests"), i, t) assert_string_equal(doc_str(t, "origin", ""), "lab_2");
    json_decref(k);
    free(buf);
    assert_true(kcidb_origin_valid("lab_2") && !kcidb_origin_valid("Lab") && !kcidb_origin_valid("") &&
                !kcidb_origin_valid("a-b"));
    assert_true(!kcidb_commit_valid("0123456789abcdef0123456789abcdef0123456") &&
                !kcidb_commit_valid("0123456789ABCDEF0123456789abcdef01234567"));
    json_decref(d);
}

static void test_table(void **state)
{
    (void)state;
    /* The packaging forms are in the table, as forms of a report only. */
    const char *const forms[] = { "junit", "tap", "lava", "kcidb" };
    for (size_t i = 0; i < 4; i++) {
        const struct renderer *r = renderer_find(forms[i]);
        assert_non_null(r);
        assert_non_null(r->report);
        assert_null(r->compare);
    }
    /* A report without thresholds (an import): only "run complete". */
    json_t *d = fx_report("6.1.0", "250", "full", 200, 0, 3);
    char *t = render("tap", d);
    assert_string_equal(t, "TAP version 13\n1..1\nok 1 - run complete\n");
    free(t);
    json_decref(d);
}

/* Code points of a line (the text form's columns). */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

static void test_matrix(void **state)
{
    (void)state;
    /* 2 kernels x 4 machines, one pair never tested, one pair tested twice (the later report counts). */
    const char *hosts[4] = { "studio", "a-hostname-far-too-long-for-its-column", "b<&>", "d" };
    json_t *docs[8];
    const char *names[8] = { "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7" };
    size_t n = 0;
    for (int k = 0; k < 2; k++)
        for (int h = 0; h < 4; h++) {
            if (k == 0 && h == 3)
                continue;
            json_t *d = fx_report(k ? "6.12.0" : "6.1.0-rt", "1000", "full", 1000, 10.0 * h, (uint64_t)(k * 4 + h));
            json_object_set_new(json_object_get(d, "system"), "hostname", json_string(hosts[h]));
            docs[n++] = d;
        }
    docs[n] = fx_report("6.12.0", "1000", "full", 1000, 0, 99); /* studio again, later, 3 xruns */
    json_array_append_new(json_object_get(docs[n], "phases"), fx_phase("burn", 1000, 0, 5, 3));
    json_object_set_new(json_object_get(docs[n], "system"), "hostname", json_string("studio"));
    n++;
    json_t *m = compare_matrix_build(names, docs, n);
    assert_non_null(m);
    assert_int_equal(json_array_size(json_object_get(m, "kernels")), 2);
    assert_int_equal(json_array_size(json_object_get(m, "machines")), 4);
    assert_int_equal(json_array_size(json_object_get(m, "cells")), 7);
    /* The cell of studio on 6.12.0: the later report's figures (its worst phase), 2 runs. */
    size_t i;
    const json_t *c;
    int seen = 0;
    json_array_foreach(json_object_get(m, "cells"), i, c) {
        if (strcmp(doc_str(c, "kernel", ""), "6.12.0") || json_integer_value(json_object_get(c, "machine")) != 0)
            continue;
        seen = 1;
        assert_int_equal(json_integer_value(json_object_get(c, "runs")), 2);
        assert_string_equal(doc_str(c, "report", ""), "r7");
        assert_true(doc_num(c, "xrun_events") == 3);
        const json_t *ph = json_object_get(docs[7], "phases");
        double a = doc_num(json_object_get(json_array_get(ph, 0), "wakeup_us"), "p99");
        double b = doc_num(json_object_get(json_array_get(ph, 1), "wakeup_us"), "p99");
        assert_true(doc_num(c, "worst_wakeup_p99_us") == (a > b ? a : b));
        /* Over both runs of the pair: the earlier one was clean at 64 frames (safe), the later had 3 xrun events
         * under burn; none's seconds are both runs'. */
        assert_true(doc_num(c, "smallest_safe_period_frames") == 64);
        const json_t *burn = json_object_get(json_object_get(c, "loads"), "burn");
        const json_t *none = json_object_get(json_object_get(c, "loads"), "none");
        /* the fixture's phases have duration_s, no measured_s: the matrix falls back to it */
        double bs = doc_num(json_array_get(ph, 1), "duration_s"), ns = doc_num(json_array_get(ph, 0), "duration_s") +
                    doc_num(json_array_get(json_object_get(docs[3], "phases"), 0), "duration_s");
        assert_true(bs > 0 && ns > 0);
        assert_true(doc_num(burn, "xrun_events") == 3 && fabs(doc_num(burn, "per_hour") - 3 * 3600 / bs) < 1e-6);
        assert_true(fabs(doc_num(none, "measured_s") - ns) < 1e-9 && doc_num(none, "per_hour") == 0);
    }
    assert_true(seen);
    /* Text at 80 columns: every line fits, the long name ends in an ellipsis, 4 machines need two blocks. */
    struct render_opts o = { .width = 80 };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(matrix_text(f, m, &o), 0);
    fclose(f);
    for (char *l = buf, *e; *l; l = e + 1) {
        e = strchr(l, '\n');
        assert_non_null(e);
        if (columns(l, (size_t)(e - l)) > 80)
            fail_msg("line over 80 columns: %.*s", (int)(e - l), l);
    }
    CONTAINS(buf, "a-hostname-far-too-\xe2\x80\xa6");
    LACKS(buf, "far-too-long");
    const char *first = strstr(buf, "\nkernel"), *second = first ? strstr(first + 1, "\nkernel") : NULL;
    assert_non_null(second);
    free(buf);
    /* HTML: names escaped. */
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_int_equal(matrix_html(f, m), 0);
    fclose(f);
    CONTAINS(buf, "b&lt;&amp;&gt;");
    LACKS(buf, "b<&>");
    free(buf);
    json_decref(m);
    for (size_t k = 0; k < n; k++)
        json_decref(docs[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge), cmocka_unit_test(test_junit), cmocka_unit_test(test_failed_verdict),
        cmocka_unit_test(test_tap),
        cmocka_unit_test(test_lava),  cmocka_unit_test(test_kcidb), cmocka_unit_test(test_table),
        cmocka_unit_test(test_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
