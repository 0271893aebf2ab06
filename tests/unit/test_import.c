/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtjitter import cyclictest (src/report/import_cyclictest.c): cyclictest --json documents written by hand in
 * the shape rt-tests 2.x writes, with their figures worked out here: counts, means, nearest-rank percentiles as
 * the middle of cyclictest's [v, v+1) buckets, the samples past its histogram, ns files (-N), pooled threads,
 * the system identity it knows and the nulls it does not; and every malformed file refused with one line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/import_cyclictest.h"
#include "report/import_tools.h"
#include "report/report_read.h"
#include "util/readfile.h"

static const struct import_info INFO = { "file.json", NULL, "cyclictest", "rtjitter import cyclictest file.json" };

static json_t *imp(const char *text, char *err)
{
    char rel[64];
    struct timespec when;
    return import_cyclictest(text, strlen(text), &INFO, rel, sizeof(rel), &when, err, 256);
}

static double num(const json_t *doc, const char *metric_key)
{
    const json_t *w = json_object_get(json_array_get(json_object_get(doc, "phases"), 0), "wakeup_us");
    const json_t *v = json_object_get(w, metric_key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

#define HEAD "{\"file_version\": 1, \"cmdline:\": \"cyclictest -m -p 80 -i 200 -h 400 --json=x\", " \
             "\"rt_test_version:\": \"2.40\", \"start_time\": \"Mon, 30 Nov 2026 23:42:57 +0100\", " \
             "\"end_time\": \"Mon, 30 Nov 2026 23:43:07 +0100\", \"return_code\": 0, \"sysinfo\": {\"sysname\": " \
             "\"Linux\", \"nodename\": \"studio\", \"release\": \"6.1.0-rt-amd64\", \"version\": \"#1 SMP " \
             "PREEMPT_RT\", \"machine\": \"x86_64\", \"realtime\": 1}, \"num_threads\": 1, \"resolution_in_ns\": 0, "

static void test_one_thread_with_overflow(void **state)
{
    (void)state;
    char err[256] = "", rel[64];
    struct timespec when;
    /* 10 cycles: 10 us x4, 11 us x3, 20 us x2 in the histogram, one sample past it (max 900). */
    const char *t = HEAD "\"thread\": {\"0\": {\"histogram\": {\"10\": 4, \"11\": 3, \"20\": 2}, \"cycles\": 10, "
                    "\"min\": 10, \"max\": 900, \"avg\": 101.3, \"cpu\": 1, \"node\": 0}}}";
    json_t *d = import_cyclictest(t, strlen(t), &INFO, rel, sizeof(rel), &when, err, sizeof(err));
    assert_non_null(d);
    assert_string_equal(rel, "6.1.0-rt-amd64");
    assert_int_equal(when.tv_sec, 1796078577); /* 2026-11-30T22:42:57Z */
    assert_string_equal(json_string_value(json_object_get(d, "started")), "2026-11-30T22:42:57Z");
    assert_string_equal(json_string_value(json_object_get(d, "finished")), "2026-11-30T22:43:07Z");
    assert_int_equal(num(d, "count"), 10);
    assert_true(fabs(num(d, "mean") - 101.3) < 1e-9);
    assert_true(num(d, "min") == 10 && num(d, "max") == 900);
    assert_true(num(d, "p50") == 11.5); /* rank 5: four samples in [10, 11), so the fifth is in [11, 12) */
    assert_true(num(d, "p90") == 20.5); /* rank 9: in [20, 21) */
    assert_true(isnan(num(d, "p99")));  /* rank 10: past the histogram */
    json_decref(d);
}

static void test_percentiles_and_buckets(void **state)
{
    (void)state;
    char err[256] = "";
    /* 100 cycles: 40 at 10, 50 at 11, 9 at 15, 1 past the histogram (max 1000): p50 rank 50 -> 11 us bucket
     * (11.5), p90 rank 90 -> 11.5, p99 rank 99 -> 15.5, p999 rank 100 -> past it: null. */
    const char *t = HEAD "\"thread\": {\"0\": {\"histogram\": {\"10\": 40, \"11\": 50, \"15\": 9}, \"cycles\": 100, "
                    "\"min\": 10, \"max\": 1000, \"avg\": 20.5, \"cpu\": 0}}}";
    json_t *d = imp(t, err);
    assert_non_null(d);
    assert_true(num(d, "p50") == 11.5);
    assert_true(num(d, "p90") == 11.5);
    assert_true(num(d, "p99") == 15.5);
    assert_true(isnan(num(d, "p999")));
    assert_true(isnan(num(d, "sd"))); /* samples past the histogram: their spread is unknown */
    const json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    const json_t *h = json_object_get(json_object_get(p, "histograms"), "wakeup");
    assert_int_equal(json_array_size(h), 4);
    /* cyclictest's own buckets [v, v+1), and the overflow from its -h limit (400) to just past the max */
    assert_true(json_number_value(json_array_get(json_array_get(h, 0), 0)) == 10);
    assert_true(json_number_value(json_array_get(json_array_get(h, 0), 1)) == 11);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(h, 0), 2)), 40);
    assert_true(json_number_value(json_array_get(json_array_get(h, 3), 0)) == 400);
    assert_true(json_number_value(json_array_get(json_array_get(h, 3), 1)) == 1001);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(h, 3), 2)), 1);
    /* what cyclictest does not measure is null, the shape is a report's */
    assert_true(json_is_null(json_object_get(p, "jitter_us")) && json_is_null(json_object_get(p, "margin_us")));
    assert_true(json_is_null(json_object_get(json_object_get(p, "xruns"), "detected")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "audio"), "backend")),
                        "cyclictest-import");
    assert_true(json_object_get(d, "imported") != NULL);
    assert_true(json_number_value(json_object_get(json_object_get(d, "audio"), "period_us")) == 200);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "audio"), "priority_requested")), 80);
    /* the identity: what cyclictest wrote; realtime 1 is a PREEMPT_RT kernel; the rest is unknown */
    const json_t *k = json_object_get(json_object_get(d, "system"), "kernel");
    assert_string_equal(json_string_value(json_object_get(k, "preempt")), "rt");
    assert_true(json_is_null(json_object_get(k, "cmdline")) && json_is_null(json_object_get(k, "hz")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "system"), "hostname")), "studio");
    assert_true(json_is_true(json_object_get(d, "complete")));
    char e2[256];
    assert_int_equal(report_validate(d, e2, sizeof(e2)), 0);
    json_decref(d);
}

static void test_sd_without_overflow_and_pooled_threads(void **state)
{
    (void)state;
    char err[256] = "";
    /* two threads: {10: 2} and {10: 1, 12: 1}; pooled: 10.5 x3, 12.5 x1; avg exact from cyclictest */
    const char *t = HEAD "\"thread\": {\"0\": {\"histogram\": {\"10\": 2}, \"cycles\": 2, \"min\": 10, \"max\": 10, "
                    "\"avg\": 10.2}, \"1\": {\"histogram\": {\"10\": 1, \"12\": 1}, \"cycles\": 2, \"min\": 10, "
                    "\"max\": 12, \"avg\": 11.1}}}";
    json_t *d = imp(t, err);
    assert_non_null(d);
    assert_int_equal(num(d, "count"), 4);
    assert_true(fabs(num(d, "mean") - (10.2 * 2 + 11.1 * 2) / 4) < 1e-9);
    double m = (10.2 * 2 + 11.1 * 2) / 4, want = sqrt((3 * (10.5 - m) * (10.5 - m) + (12.5 - m) * (12.5 - m)) / 3);
    assert_true(fabs(num(d, "sd") - want) < 1e-9);
    assert_true(num(d, "p50") == 10.5 && num(d, "p99") == 12); /* 12.5 clamped to the exact max */
    const json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    assert_int_equal(json_array_size(json_object_get(json_object_get(p, "histograms"), "wakeup")), 2);
    assert_int_equal(json_array_size(json_object_get(json_object_get(d, "audio"), "threads")), 2);
    assert_true(json_is_null(json_object_get(json_object_get(d, "audio"), "period_us"))); /* two intervals */
    json_decref(d);
}

static void test_nanoseconds_no_histogram_and_failure(void **state)
{
    (void)state;
    char err[256] = "";
    const char *ns = "{\"resolution_in_ns\": 1, \"cmdline:\": \"cyclictest -N -h 50000\", \"thread\": {\"0\": "
                     "{\"histogram\": {\"12160\": 1, \"13000\": 1}, \"cycles\": 2, \"min\": 12160, \"max\": 13000, "
                     "\"avg\": 12580.0}}}";
    json_t *d = imp(ns, err);
    assert_non_null(d);
    assert_true(fabs(num(d, "p50") - 12.1605) < 1e-9);
    assert_true(fabs(num(d, "max") - 13.0) < 1e-9);
    assert_true(json_is_null(json_object_get(d, "started"))); /* no start_time */
    json_decref(d);
    /* without -h cyclictest writes an empty histogram: count, mean and extremes only */
    const char *nh = "{\"return_code\": 3, \"thread\": {\"0\": {\"histogram\": {}, \"cycles\": 5, \"min\": 3, "
                     "\"max\": 9, \"avg\": 4.0}}}";
    d = imp(nh, err);
    assert_non_null(d);
    assert_true(isnan(num(d, "p50")) && num(d, "mean") == 4.0 && num(d, "count") == 5);
    assert_true(json_is_false(json_object_get(d, "complete")));
    assert_string_equal(json_string_value(json_object_get(d, "incomplete_reason")), "cyclictest exited with status 3");
    json_decref(d);
}

static void test_bad_files(void **state)
{
    (void)state;
    static const struct { const char *text, *says; } bad[] = {
        { "", "not JSON" },
        { "{\"thread\": {\"0\": {}}", "not JSON" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1}}, \"thread\": {}}", "not JSON" },
        { "[1, 2]", "no \"thread\" object" },
        { "{\"thread\": {}}", "no \"thread\" object" },
        { "{\"thread\": [1]}", "no \"thread\" object" },
        { "{\"thread\": {\"0\": 5}}", "is not an object" },
        { "{\"thread\": {\"0\": {\"cycles\": -1, \"min\": 1, \"max\": 1, \"avg\": 1}}}", "lacks whole" },
        { "{\"thread\": {\"0\": {\"cycles\": 1.5, \"min\": 1, \"max\": 1, \"avg\": 1}}}", "lacks whole" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": \"1\", \"max\": 1, \"avg\": 1}}}", "lacks whole" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1e300, \"avg\": 1}}}", "lacks whole" },
        { "{\"thread\": {\"0\": {\"cycles\": 2, \"min\": 9, \"max\": 3, \"avg\": 5}}}", "contradict" },
        { "{\"thread\": {\"0\": {\"cycles\": 2, \"min\": 1, \"max\": 3, \"avg\": 50}}}", "contradict" },
        { "{\"thread\": {\"0\": {\"cycles\": 0, \"min\": 0, \"max\": 0, \"avg\": 0}}}", "no cycle" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"cpu\": \"x\"}}}", "\"cpu\"" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": [1]}}}",
          "not an object" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": {\"1.5\": 1}}}}",
          "not a whole value" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": {\"-1\": 1}}}}",
          "not a whole value" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": {\"0x1\": 1}}}}",
          "not a whole value" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": {\"1\": -1}}}}",
          "not a whole value" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": {\"1\": 2}}}}",
          "more samples than" },
        { "{\"thread\": {\"0\": {\"cycles\": 5, \"min\": 1, \"max\": 4, \"avg\": 2, \"histogram\": {\"9\": 1}}}}",
          "outside its min" },
        { "{\"resolution_in_ns\": 2, \"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1}}}",
          "resolution_in_ns" },
        { "{\"sysinfo\": 3, \"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1}}}", "sysinfo" },
        { "{\"thread\": {\"0\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1, \"histogram\": {\"1\": 1}}, "
          "\"1\": {\"cycles\": 1, \"min\": 1, \"max\": 1, \"avg\": 1}}}", "some threads have a histogram" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char err[256] = "";
        json_t *d = imp(bad[i].text, err);
        if (d || !strstr(err, bad[i].says) || strchr(err, '\n'))
            fail_msg("case %zu: %s -> '%s' (wanted '%s')", i, bad[i].text, err, bad[i].says);
    }
}

/* The pairs are counted before parsing, and only outside strings: 400,000 ':' inside a string (a command line)
 * and an escaped quote before them count nothing; 400,001 histogram buckets are refused unparsed, one line. */
static void test_pair_limit(void **state)
{
    (void)state;
    size_t n = 400000;
    char *t = malloc(16 * (n + 1) + 4096), err[256] = "";
    assert_non_null(t);
    size_t o = (size_t)sprintf(t, "{\"note\": \"a\\\": ");
    memset(t + o, ':', n);
    o += n;
    o += (size_t)sprintf(t + o, "\", %s\"thread\": {\"0\": {\"histogram\": {\"10\": 4}, \"cycles\": 4, "
                         "\"min\": 10, \"max\": 10, \"avg\": 10.5, \"cpu\": 1, \"node\": 0}}}", &HEAD[1]); /* HEAD without its "{" */
    json_t *d = imp(t, err);
    if (!d)
        fail_msg("colons in a string were counted: '%s'", err);
    json_decref(d);
    o = (size_t)sprintf(t, "%s\"thread\": {\"0\": {\"cycles\": 400001, \"min\": 0, \"max\": 400000, "
                        "\"avg\": 2, \"histogram\": {", HEAD);
    for (size_t i = 0; i <= n; i++)
        o += (size_t)sprintf(t + o, "%s\"%zu\": 1", i ? ", " : "", i);
    strcpy(t + o, "}}}}");
    d = imp(t, err);
    if (d || !strstr(err, "more than 400000 histogram buckets") || strchr(err, '\n'))
        fail_msg("400,001 buckets: '%s'", err);
    json_decref(d);
    free(t);
}

/* oslat (rt-tests 2.x --json) and jitterdebugger (results.json), written by hand in their shapes, figures worked
 * out here. oslat's key K holds loops of more than K - 1 and up to K us, its last bucket (-b, 32) the longer ones
 * too; jitterdebugger's are cyclictest's [v, v+1), values of 1000 units and more left out of its histogram. */
static void test_oslat_and_jitterdebugger(void **state)
{
    (void)state;
    char err[256] = "", rel[64];
    struct timespec when;
    /* 10 loops: 1 us x6, 2 us x2, 5 us x1, and one in the last of 8 buckets (-b 8): 8 us or more, max 40. */
    const char *o = "{\"file_version\": 1, \"cmdline:\": \"oslat -D 3 -b 8 -c 1 -f 1 --json=o.json\", "
                    "\"rt_test_version:\": \"2.40\", \"start_time\": \"Thu, 03 Dec 2026 21:16:57 +0000\", "
                    "\"end_time\": \"Thu, 03 Dec 2026 21:17:01 +0000\", \"return_code\": 0, \"sysinfo\": "
                    "{\"sysname\": \"Linux\", \"nodename\": \"vm\", \"release\": \"6.1.0-rt\", \"version\": \"#1\", "
                    "\"machine\": \"x86_64\", \"realtime\": 1}, \"num_threads\": 1, \"thread\": {\"0\": {\"cpu\": 1, "
                    "\"freq\": 2095, \"min\": 1, \"avg\": 5.5, \"max\": 40, \"duration\": 2.997, \"histogram\": "
                    "{\"1\": 6, \"2\": 2, \"5\": 1, \"8\": 1}}}}";
    json_t *d = import_oslat(o, strlen(o), &INFO, rel, sizeof(rel), &when, err, sizeof(err));
    if (!d)
        fail_msg("oslat: %s", err);
    assert_string_equal(rel, "6.1.0-rt");
    assert_int_equal(num(d, "count"), 10);
    assert_true(num(d, "min") == 1 && num(d, "max") == 40 && num(d, "mean") == 5.5);
    assert_true(num(d, "p50") == 1);   /* rank 5 in (0, 1]: the middle 0.5, held to the min 1 */
    assert_true(num(d, "p90") == 4.5); /* rank 9 in (4, 5] */
    assert_true(isnan(num(d, "p99"))); /* rank 10: the last bucket, 8 us or more */
    const json_t *a = json_object_get(d, "audio");
    assert_string_equal(json_string_value(json_object_get(a, "backend")), "oslat-import");
    assert_int_equal(json_integer_value(json_object_get(a, "priority_requested")), 1);
    assert_true(json_is_null(json_object_get(a, "interval_us")));
    const json_t *h = json_object_get(json_object_get(json_array_get(json_object_get(d, "phases"), 0), "histograms"),
                                      "wakeup");
    assert_int_equal(json_array_size(h), 4); /* three buckets and the one past the histogram, from 7 us */
    assert_true(json_number_value(json_array_get(json_array_get(h, 3), 0)) == 7);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(h, 3), 2)), 1);
    json_decref(d);
    /* refused: a key past -b, a bias, 250 ns buckets, cyclictest's file */
    char *t = strdup(o);
    memcpy(strstr(t, "\"8\": 1}"), "\"9\": 1}", 7);
    d = import_oslat(t, strlen(t), &INFO, rel, sizeof(rel), &when, err, sizeof(err));
    assert_null(d);
    assert_non_null(strstr(err, "histogram entry \"9\" is not a whole bucket from 1 to 8"));
    free(t);
    t = strdup(o);
    memcpy(strstr(t, "-c 1"), "-B  ", 4);
    assert_null(import_oslat(t, strlen(t), &INFO, rel, sizeof(rel), &when, err, sizeof(err)));
    assert_non_null(strstr(err, "--bias"));
    memcpy(strstr(t, "-B  "), "-W 5", 4);
    assert_null(import_oslat(t, strlen(t), &INFO, rel, sizeof(rel), &when, err, sizeof(err)));
    assert_non_null(strstr(err, "5 ns wide"));
    free(t);
    const char *ct = HEAD "\"thread\": {\"0\": {\"histogram\": {\"10\": 1}, \"cycles\": 1, \"min\": 10, \"max\": 10, "
                     "\"avg\": 10}}}";
    assert_null(import_oslat(ct, strlen(ct), &INFO, rel, sizeof(rel), &when, err, sizeof(err)));
    assert_non_null(strstr(err, "cyclictest's output, not oslat's"));

    /* jitterdebugger in ns (-N): 5 wake-ups, 900 ns x2 and 950 ns x2 in its histogram, one of 2,000,000 ns past it
     * (its histogram holds values below 1000 units, here ns). */
    const char *j = "{\"version\": 3, \"sysinfo\": {\"sysname\": \"Linux\", \"nodename\": \"board\", \"release\": "
                    "\"6.12.0\", \"version\": \"#1\", \"machine\": \"aarch64\", \"cpus_online\": 2, "
                    "\"resolution_in_ns\": 1}, \"cpu\": {\"0\": {\"histogram\": {\"900\": 2, \"950\": 2}, "
                    "\"count\": 5, \"min\": 900, \"max\": 2000000, \"avg\": 400760}}}";
    d = import_jitterdebugger(j, strlen(j), "BOOT_IMAGE=/vmlinuz threadirqs\n", &INFO, rel, sizeof(rel), &when, err,
                              sizeof(err));
    if (!d)
        fail_msg("jitterdebugger: %s", err);
    assert_string_equal(rel, "6.12.0");
    assert_int_equal(num(d, "count"), 5);
    assert_true(fabs(num(d, "min") - 0.9) < 1e-12 && fabs(num(d, "max") - 2000) < 1e-9);
    assert_true(fabs(num(d, "p50") - 0.9505) < 1e-9); /* rank 3 in [950, 951) ns */
    assert_true(isnan(num(d, "p99")));                /* rank 5: past the histogram */
    const json_t *k = json_object_get(json_object_get(d, "system"), "kernel");
    assert_string_equal(json_string_value(json_object_get(k, "cmdline")), "BOOT_IMAGE=/vmlinuz threadirqs");
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "imported"), "from")), "jitterdebugger");
    json_decref(d);
    const char *jbad = "{\"version\": 3, \"sysinfo\": {\"resolution_in_ns\": 7}, \"cpu\": {\"0\": {}}}";
    assert_null(import_jitterdebugger(jbad, strlen(jbad), NULL, &INFO, rel, sizeof(rel), &when, err, sizeof(err)));
    assert_non_null(strstr(err, "neither 1000 (us) nor 1 (ns)"));
    assert_null(import_jitterdebugger(o, strlen(o), NULL, &INFO, rel, sizeof(rel), &when, err, sizeof(err)));
    assert_non_null(strstr(err, "not jitterdebugger's results.json"));
}

/* Every input `make fuzz` ever found against the importer (tests/fuzz-regressions/import-*): each is imported
 * again, and what is accepted must read back as a report. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    const char *top = getenv("RTJ_TOP");
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/tests/fuzz-regressions", top ? top : ".");
    DIR *d = opendir(dir);
    if (!d) {
        assert_int_equal(errno, ENOENT);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "import-", 7) != 0)
            continue;
        char path[8192], err[512], *buf = NULL, rel[64];
        size_t len = 0;
        struct timespec when;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (read_regular_file(path, IMPORT_MAX_BYTES, &buf, &len, err, sizeof(err)) < 0)
            fail_msg("%s: %s", path, err);
        for (int tool = 0; tool < 3; tool++) { /* as the fuzz target: each importer in turn */
            json_t *doc = tool == 0   ? import_cyclictest(buf, len, &INFO, rel, sizeof(rel), &when, err, sizeof(err))
                          : tool == 1 ? import_oslat(buf, len, &INFO, rel, sizeof(rel), &when, err, sizeof(err))
                                      : import_jitterdebugger(buf, len, NULL, &INFO, rel, sizeof(rel), &when, err,
                                                              sizeof(err));
            if (!doc)
                continue;
            char *text = json_dumps(doc, JSON_COMPACT), err2[512];
            json_t *back = NULL;
            assert_non_null(text);
            if (report_read_buffer(text, strlen(text), &back, err2, sizeof(err2)) < 0)
                fail_msg("%s: imported, but its report does not read back: %s", path, err2);
            json_decref(back);
            free(text);
            json_decref(doc);
        }
        free(buf);
    }
    closedir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread_with_overflow),
        cmocka_unit_test(test_percentiles_and_buckets),
        cmocka_unit_test(test_sd_without_overflow_and_pooled_threads),
        cmocka_unit_test(test_nanoseconds_no_histogram_and_failure),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_pair_limit),
        cmocka_unit_test(test_oslat_and_jitterdebugger),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests_name("import_cyclictest", tests, NULL, NULL);
}
