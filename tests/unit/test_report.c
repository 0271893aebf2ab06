/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building a report from a run: the frame's keys in the order rtjitter-report(5) documents
 * (src/cli/manpage_report.c), and every string from outside (label, command line, load name and error, the server's
 * names) kept even when it is not UTF-8 (jansson would have dropped the key: json_string() returns NULL and
 * json_object_set_new() fails). Reading it back: the one accessor, and the one name of a phase. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "report/access.h"
#include "stats/timeline.h"
#include "util/utf8.h"
#include <math.h>

#define REPL "\xef\xbf\xbd" /* U+FFFD, written out here */

static json_t *build(const char *label, const char *command, const char *load, const char *load_error,
                     const char *server_name, struct phase_stats *ps)
{
    static struct phase_result pr;
    pr = (struct phase_result){ .load = load, .duration_s = 1, .measured_s = 1, .measured = 1, .stats = ps,
                                .load_error = load_error };
    struct run_info ri = { .command = command, .label = label, .complete = 1, .phases = &pr, .nphases = 1,
                           .max_xruns = -1, .max_jitter_us = -1 };
    ri.audio.backend = "jack";
    /* What a backend's describe() adds (rtaudio/jack/jack_backend.c keeps outside strings with utf8_json_string) */
    ri.audio.provider = json_pack("{s:o}", "server_name", utf8_json_string(server_name));
    ri.audio.rate_hz = 48000;
    ri.audio.period_frames = 64;
    json_t *doc = report_build(&ri);
    json_decref(ri.audio.provider);
    return doc;
}

/* The document's top-level keys are exactly these, in this order. */
static void assert_keys_in_order(json_t *d, const char *const *keys, size_t n)
{
    size_t i = 0;
    const char *k;
    json_t *v;
    json_object_foreach(d, k, v) {
        assert_true(i < n);
        assert_string_equal(k, keys[i]);
        i++;
    }
    assert_int_equal(i, n);
}

static void test_frame_keys_in_order(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    json_t *d = build("lab", "rtjitter run", "none", NULL, "default", &ps);
    /* rtjitter-report(5), JSON (src/cli/manpage_report.c): the top level, in this order (verdict, thresholds and
     * profile come last, when a judge is given: test_parts_placed_by_the_builder). */
    static const char *const keys[] = { "schema", "tool", "complete", "incomplete_reason", "label", "started",
                                        "finished", "command", "system", "audio", "phases", "warnings",
                                        "run_stats" };
    assert_keys_in_order(d, keys, sizeof(keys) / sizeof(keys[0]));
    assert_string_equal(json_string_value(json_object_get(d, "schema")), "rtjitter.report/1");
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "tool"), "name")), "rtjitter");
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "tool"), "version")), RTJ_VERSION);
    json_decref(d);
    phase_free(&ps);
}

/* The judge report_build calls last: it sees the document with every other part in place. */
static void judge_sees_parts(void *arg, const json_t *doc, struct report_judgement *j)
{
    int *seen = arg;
    *seen = json_is_object(json_object_get(doc, "ladder")) && json_is_object(json_object_get(doc, "loopback")) &&
            json_is_false(json_object_get(doc, "complete"));
    j->thresholds = json_object();
    j->profile = json_string("studio");
    j->verdict = json_pack("{s:s}", "level", "pass");
}

/* Every part a run's other modules produce is placed by the one builder, where the document has always had it: the
 * top level's "run", "loopback", "ladder" after run_stats, the verdict's three keys last; "audio" ends with
 * dsp_calibration, dsp_ramp, privileges; an output lost makes the run incomplete and says so in the warnings. */
static void test_parts_placed_by_the_builder(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    struct phase_result pr = { .load = "none", .duration_s = 1, .measured_s = 1, .measured = 1, .stats = &ps };
    struct run_info ri = { .command = "rtjitter run", .complete = 1, .phases = &pr, .nphases = 1, .max_xruns = -1,
                           .max_jitter_us = -1 };
    ri.audio.backend = "jack";
    int seen = 0;
    json_t *warnings = json_pack("[s]", "first");
    ri.warnings = warnings;
    ri.parts = (struct report_parts){ .run = json_object(), .dsp_calibration = json_integer(1),
                                      .dsp_ramp = json_integer(2), .loopback = json_object(),
                                      .lost_output = "--record: lost", .privileges = json_integer(3),
                                      .ladder = json_object(), .judge = judge_sees_parts, .judge_arg = &seen };
    json_t *d = report_build(&ri);
    static const char *const keys[] = { "schema", "tool", "complete", "incomplete_reason", "label", "started",
                                        "finished", "command", "system", "audio", "phases", "warnings",
                                        "run_stats", "run", "loopback", "ladder", "thresholds", "profile",
                                        "verdict" };
    assert_keys_in_order(d, keys, sizeof(keys) / sizeof(keys[0]));
    assert_int_equal(seen, 1);
    assert_true(json_is_false(json_object_get(d, "complete")));
    assert_string_equal(json_string_value(json_object_get(d, "incomplete_reason")), "--record: lost");
    assert_int_equal(json_array_size(json_object_get(d, "warnings")), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(d, "warnings"), 1)), "--record: lost");
    const char *last3[3] = { NULL, NULL, NULL };
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(d, "audio"), k, v) {
        last3[0] = last3[1];
        last3[1] = last3[2];
        last3[2] = k;
    }
    assert_string_equal(last3[0], "dsp_calibration");
    assert_string_equal(last3[1], "dsp_ramp");
    assert_string_equal(last3[2], "privileges");
    /* the load of each of the report's phases, as report_build lists them */
    int exists = 0;
    assert_string_equal(report_phase_load(&ri, 0, &exists), "none");
    assert_int_equal(exists, 1);
    assert_null(report_phase_load(&ri, 1, &exists));
    assert_int_equal(exists, 0);
    json_decref(d);
    json_decref(warnings);
    phase_free(&ps);
}

static void test_strings_from_outside_survive(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    json_t *d = build("lab\xc0\x80", "rtjitter run --label lab\xc0\x80", "exec:echo \xff", "last line: \xed\xa0\x80",
                      "srv\xf4\x90\x80\x80", &ps);
    assert_string_equal(json_string_value(json_object_get(d, "label")), "lab" REPL REPL);
    assert_string_equal(json_string_value(json_object_get(d, "command")), "rtjitter run --label lab" REPL REPL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "audio"), "server_name")),
                        "srv" REPL REPL REPL REPL);
    const json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    assert_non_null(p);
    assert_string_equal(json_string_value(json_object_get(p, "load")), "exec:echo " REPL);
    assert_string_equal(json_string_value(json_object_get(p, "load_error")), "last line: " REPL REPL REPL);
    /* The whole document can be written and read back. */
    char *s = json_dumps(d, 0);
    assert_non_null(s);
    json_t *back = json_loads(s, 0, NULL);
    assert_non_null(back);
    assert_true(json_equal(back, d));
    json_decref(back);
    free(s);
    json_decref(d);
    /* Absent strings are null, not missing. */
    d = build(NULL, NULL, "none", NULL, NULL, &ps);
    assert_true(json_is_null(json_object_get(d, "label")));
    assert_true(json_is_null(json_object_get(d, "command")));
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(d, "phases"), 0), "load_error")));
    json_decref(d);
    phase_free(&ps);
}

static void test_accessors(void **state)
{
    (void)state;
    json_t *o = json_pack("{s:i, s:f, s:s, s:n, s:b}", "i", 3, "r", 2.5, "s", "text", "z", "t", 1);
    assert_true(doc_num(o, "i") == 3.0);
    assert_true(doc_num(o, "r") == 2.5);
    assert_true(isnan(doc_num(o, "s")));   /* another type */
    assert_true(isnan(doc_num(o, "z")));   /* null */
    assert_true(isnan(doc_num(o, "t")));   /* a boolean is not a number */
    assert_true(isnan(doc_num(o, "none"))); /* absent */
    assert_true(isnan(doc_num(NULL, "i")));
    assert_string_equal(doc_str(o, "s", "d"), "text");
    assert_string_equal(doc_str(o, "i", "d"), "d");
    assert_string_equal(doc_str(o, "z", "d"), "d");
    assert_null(doc_str(o, "none", NULL));
    assert_string_equal(doc_str(json_array_get(o, 0), "s", "?"), "?"); /* not an object */
    json_t *n = doc_number_json(NAN);
    assert_true(json_is_null(n));
    json_decref(n);
    n = doc_number_json(1.5);
    assert_true(json_real_value(n) == 1.5);
    json_decref(n);
    json_decref(o);
}

static void expect_name(const char *load, int segs, int frames, size_t len, const char *want)
{
    json_t *p = json_pack("{s:s, s:i, s:i}", "load", load, "segments_in_phase", segs, "period_frames", frames);
    char buf[PHASE_NAME_LEN];
    assert_true(len <= sizeof(buf));
    doc_phase_name(p, buf, len);
    if (strcmp(buf, want))
        fail_msg("phase name of \"%.40s...\" (%d segments) is \"%s\", expected \"%s\"", load, segs, buf, want);
    json_decref(p);
}

static void test_phase_display_name(void **state)
{
    (void)state;
    expect_name("none", 1, 64, PHASE_NAME_LEN, "none");
    expect_name("compile+write", 2, 128, PHASE_NAME_LEN, "compile+write@128"); /* split by buffer size */
    char load[420], want[420];
    memset(load, 'x', 400);
    load[400] = '\0';
    memset(want, 'x', 300);
    strcpy(want + 300, "@64");
    expect_name(load, 3, 64, PHASE_NAME_LEN, want);            /* 300 bytes of the load, then the size */
    memset(load, 'x', 299);
    strcpy(load + 299, "é and more");
    want[299] = '\0';
    expect_name(load, 1, 64, PHASE_NAME_LEN, want);            /* é would straddle byte 300: left out */
    expect_name("abcdéf", 1, 64, 6, "abcd");                   /* a short buffer never cuts é either */
    json_t *p = json_object(); /* nothing at all */
    char buf[PHASE_NAME_LEN];
    doc_phase_name(p, buf, sizeof(buf));
    assert_string_equal(buf, "?");
    json_decref(p);
}

/* A long run's timeline stays small and adds up: 600 s of 100 ms cycles with one stall at second 300. Every second
 * of the first and last minute and around the stall stands alone; the rest is minutes whose "span_s" cover every
 * second once and whose cycles sum to what was fed. */
static void test_long_timeline_is_compacted(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    const int64_t period = 100000000; /* 4800 frames at 48 kHz */
    int64_t fed = 0;
    for (int64_t k = 0, f = 0; k < 6000; k++, f += 4800) {
        if (k == 3000)
            f += 4800 * 3; /* three cycles skipped: an xrun at second 300 */
        struct rt_record r;
        memset(&r, 0, sizeof(r));
        r.seq = (uint64_t)k;
        r.t_entry_ns = 1000000000LL + (k + (k >= 3000 ? 3 : 0)) * period + 1000;
        r.t_exit_ns = r.t_entry_ns + 5000;
        r.start_ns = r.t_entry_ns - 1000;
        r.frame_pos = (uint64_t)f;
        r.nframes = 4800;
        r.rate_hz = 48000;
        r.flags = RTREC_MEASURING | RTREC_HAS_START;
        assert_int_equal(phase_add(&ps, &r), 0);
        fed++;
    }
    phase_finish(&ps);
    json_t *d = build("long", "rtjitter run", "none", NULL, "default", &ps);
    const json_t *tl = json_object_get(json_array_get(json_object_get(d, "phases"), 0), "timeline");
    size_t nsec = ps.seg[0]->nsecs, covered = 0, singles = 0;
    json_int_t cycles = 0, detected = 0;
    size_t i;
    json_t *e;
    json_array_foreach(tl, i, e) {
        json_int_t s0 = json_integer_value(json_object_get(e, "s"));
        json_t *span = json_object_get(e, "span_s");
        size_t w = span ? (size_t)json_integer_value(span) : 1;
        assert_int_equal((size_t)s0, covered); /* in order, no hole, no overlap */
        covered += w;
        singles += w == 1;
        cycles += json_integer_value(json_object_get(e, "cycles"));
        detected += json_integer_value(json_object_get(e, "xruns_detected"));
        if (w > 1) {
            assert_true(w <= 60);
            assert_true(s0 >= 60 && s0 + (json_int_t)w <= (json_int_t)nsec - 60); /* never in the first/last minute */
            assert_true(s0 + (json_int_t)w <= 295 || s0 >= 306);               /* nor near the stall */
        }
    }
    assert_int_equal(covered, nsec);
    assert_int_equal(cycles, fed);
    assert_int_equal(detected, 1);
    assert_true(json_array_size(tl) < 160 && singles >= 120 + 11);
    json_decref(d);
    phase_free(&ps);
}

/* A phase keeps eight buffer sizes: the records of a ninth are counted, never lost without a word (rule 2): each of
 * the phase's entries says how many (records_unmeasured), and those of the eight sizes are all in the figures. */
static void test_ninth_size_is_counted(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    uint64_t seq = 0;
    int64_t t = 1000000000LL;
    for (int size = 0; size < 9; size++)
        for (int k = 0; k < 50 + size; k++) {
            struct rt_record r;
            memset(&r, 0, sizeof(r));
            uint32_t n = 16u << (size % 5);
            r.seq = seq++;
            r.nframes = n;
            r.rate_hz = size < 5 ? 48000 : 96000;
            r.start_ns = t;
            r.t_entry_ns = t + 20000;
            r.t_exit_ns = t + 40000;
            r.frame_pos = (uint64_t)k * n;
            r.flags = RTREC_MEASURING | RTREC_HAS_START;
            assert_int_equal(phase_add(&ps, &r), 0);
            t += 1000000;
        }
    phase_finish(&ps);
    json_t *d = build("sizes", "rtjitter run", "none", NULL, "default", &ps);
    const json_t *ph = json_object_get(d, "phases");
    assert_int_equal(json_array_size(ph), 8);
    json_int_t cycles = 0;
    size_t i;
    json_t *e;
    json_array_foreach(ph, i, e) {
        assert_int_equal(json_integer_value(json_object_get(e, "records_unmeasured")), 58); /* the ninth's */
        cycles += json_integer_value(json_object_get(e, "cycles"));
    }
    assert_int_equal(cycles, 8 * 50 + 28); /* 50 + 51 + ... + 57 */
    json_decref(d);
    phase_free(&ps);
}

/* The worst case of a soak: 24 h in which every second has a wake-up spike over half a period and every tenth an
 * xrun (a busy machine at a small buffer). The timeline keeps the worst seconds alone (every xrun second first), up
 * to its cap, and folds the rest into minutes, saying how many; the counts still add up to what was fed, and the
 * phase's JSON stays under 2.5 MB (8 phases: under 20 MB, against ~200 MB before compaction). 1 s cycles of 48000
 * frames keep the test fast; the timeline is per second whatever the cycle. */
static void test_soak_timeline_is_bounded(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    const int64_t period = 1000000000; /* 48000 frames at 48 kHz */
    const int64_t secs = 86400;
    json_int_t fed = 0, skipped_fed = 0;
    int64_t late = 0;
    for (int64_t k = 0, f = 0; k < secs; k++, f += 48000) {
        int xrun = k % 10 == 5 && k > 60 && k < secs - 60;
        if (xrun) {
            f += 48000; /* one cycle skipped: a frame gap */
            late += period;
            skipped_fed++;
        }
        struct rt_record r;
        memset(&r, 0, sizeof(r));
        r.seq = (uint64_t)k;
        int64_t spike = 600000000 + (k % 97) * 1000; /* wake-up 0.6 s: over half a period, every second */
        r.start_ns = 1000000000LL + k * period + late;
        r.t_entry_ns = r.start_ns + spike;
        r.t_exit_ns = r.t_entry_ns + 5000;
        r.frame_pos = (uint64_t)f;
        r.nframes = 48000;
        r.rate_hz = 48000;
        r.flags = RTREC_MEASURING | RTREC_HAS_START;
        assert_int_equal(phase_add(&ps, &r), 0);
        fed++;
    }
    phase_finish(&ps);
    json_t *d = build("soak", "rtjitter run", "none", NULL, "default", &ps);
    const json_t *ph = json_array_get(json_object_get(d, "phases"), 0);
    const json_t *tl = json_object_get(ph, "timeline");
    json_int_t cycles = 0, detected = 0, alone_xrun = 0;
    size_t i, covered = 0;
    json_t *e;
    json_array_foreach(tl, i, e) {
        json_t *span = json_object_get(e, "span_s");
        size_t w = span ? (size_t)json_integer_value(span) : 1;
        assert_int_equal((size_t)json_integer_value(json_object_get(e, "s")), covered);
        covered += w;
        cycles += json_integer_value(json_object_get(e, "cycles"));
        json_int_t x = json_integer_value(json_object_get(e, "xruns_detected"));
        detected += x;
        alone_xrun += w == 1 && x > 0;
    }
    assert_int_equal(covered, ps.seg[0]->nsecs);
    assert_int_equal(cycles, fed);
    assert_int_equal(detected, skipped_fed);
    assert_int_equal(alone_xrun, TL_DETAIL_MAX);       /* the cap, and every second alone is an xrun second */
    const json_t *td = json_object_get(ph, "timeline_detail");
    assert_non_null(td);
    assert_true(json_integer_value(json_object_get(td, "eventful_seconds_folded")) > 80000);
    char *text = json_dumps(ph, JSON_COMPACT);
    assert_non_null(text);
    size_t len = strlen(text);
    print_message("24 h phase, an event every second: %zu timeline entries, %zu bytes of JSON\n", json_array_size(tl),
                  len);
    assert_true(len < 2500000);
    free(text);
    json_decref(d);
    phase_free(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_timeline_is_compacted),
        cmocka_unit_test(test_soak_timeline_is_bounded),
        cmocka_unit_test(test_frame_keys_in_order),
        cmocka_unit_test(test_parts_placed_by_the_builder),
        cmocka_unit_test(test_strings_from_outside_survive),
        cmocka_unit_test(test_accessors),
        cmocka_unit_test(test_phase_display_name),
        cmocka_unit_test(test_ninth_size_is_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
