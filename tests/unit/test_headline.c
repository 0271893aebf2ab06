/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The headline (render/headline.h): fixture documents whose truth is set here (which load had how many xrun events
 * and missed deadlines, at which size), judged by the real verdict, then the headline read against that truth and
 * that verdict's level; the text report and the HTML page open with it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/headline.h"
#include "render/html.h"
#include "render/text.h"
#include "verdict/verdict.h"
#include "sysinfo/sysinfo.h"
#include "verdict/profile.h"

static char top[4096];

static int setup(void **state)
{
    (void)state;
    const char *t = getenv("RTJ_TOP");
    snprintf(top, sizeof(top), "%s", t ? t : ".");
    char dd[4200];
    snprintf(dd, sizeof(dd), "%s/data", top);
    setenv("RTJ_DATADIR", dd, 1);
    return 0;
}

static json_t *profile(const char *name)
{
    char err[512];
    json_t *p = NULL;
    if (profile_load(name, &p, err, sizeof(err)) < 0)
        fail_msg("profile %s: %s", name, err);
    return p;
}

/* A phase of `frames` at 48 kHz with the given xrun events and missed deadlines (the truth of the fixture). */
static json_t *phase(const char *load, int frames, int events, int missed)
{
    double period_us = frames * 1e6 / 48000;
    return json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i, s:i}, s:{s:f, s:f, s:f, s:f}, "
                     "s:{s:f}, s:f, s:i, s:n, s:n, s:b}",
                     "load", load, "cycles", 7500, "dropped", 0, "segments_in_phase", 1, "period_frames", frames,
                     "rate", 48000, "xruns", "events", events, "reported", events, "detected", events,
                     "skipped_cycles", 0, "jitter_us", "mean", 0.5, "sd", 4.0, "p99", 20.0, "abs_max", 40.0,
                     "margin_us", "min", period_us * 0.8, "deadlines_met_pct", 100.0 * (7500 - missed) / 7500,
                     "deadlines_missed", missed, "desired_cpu_pct", "load_error", "finished", 1);
}

static json_t *doc_at(int frames, int complete)
{
    char root[4200];
    snprintf(root, sizeof(root), "%s/tests/fixtures/sys-lowlatency", top);
    json_t *sys = sysinfo_collect(root);
    assert_non_null(sys);
    json_t *d = json_pack("{s:s, s:b, s:s?, s:{s:s}, s:o, s:{s:i, s:i, s:f, s:b, s:b, s:f}, s:[]}",
                          "schema", REPORT_SCHEMA, "complete", complete, "incomplete_reason",
                          complete ? NULL : "interrupted (SIGINT)", "tool", "version", "test", "system", sys,
                          "audio", "rate", 48000, "period_frames", frames, "period_us", frames * 1e6 / 48000,
                          "realtime", 1, "mlocked", 1, "dsp_pct", 0.0, "phases");
    assert_non_null(d);
    return d;
}

static const char *level(const json_t *d)
{
    return json_string_value(json_object_get(json_object_get(d, "verdict"), "level"));
}

/* No dropout under any load: the size "ran without a dropout under every load", naming them, and the verdict
 * passes; the page and the text open with that sentence. */
static void test_clean(void **state)
{
    (void)state;
    json_t *d = doc_at(128, 1), *p = profile("studio");
    json_array_append_new(json_object_get(d, "phases"), phase("none", 128, 0, 0));
    json_array_append_new(json_object_get(d, "phases"), phase("write", 128, 0, 0));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(level(d), "pass");
    char h[512];
    assert_string_equal(headline_report(d, h, sizeof(h)),
                        "128 frames at 48 kHz ran without a dropout under every load (none, write).");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    text_print_report(f, d);
    fclose(f);
    assert_true(strncmp(buf, h, strlen(h)) == 0);
    free(buf);
    f = open_memstream(&buf, &len);
    html_report(f, d);
    fclose(f);
    /* the page's one heading is the answer; what the page is, a small line above it (issue 35: two stacked
     * titles before) */
    char *hl = strstr(buf, "<h1 class=\"headline\""), *body = strstr(buf, "<body");
    assert_non_null(hl);
    assert_non_null(strstr(hl, "128 frames at 48 kHz ran without a dropout under every load (none, write).</h1>"));
    assert_true(body && hl > body && !strstr(hl + 1, "<h1")); /* the first heading on the page, and the only one */
    char *kick = strstr(buf, "class=\"kicker\"");
    assert_true(kick && kick > body && kick < hl);
    free(buf);
    json_decref(d);
    json_decref(p);
}

/* Dropouts under one load of three (xrun events under one, a missed deadline under another): the headline names
 * those loads, not the clean one, and the next size up; the verdict fails. */
static void test_dropouts(void **state)
{
    (void)state;
    json_t *d = doc_at(64, 1), *p = profile("studio");
    json_array_append_new(json_object_get(d, "phases"), phase("none", 64, 0, 0));
    json_array_append_new(json_object_get(d, "phases"), phase("write", 64, 3, 0));
    json_array_append_new(json_object_get(d, "phases"), phase("compile", 64, 0, 1));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(level(d), "fail");
    char h[512];
    assert_string_equal(headline_report(d, h, sizeof(h)),
                        "Dropouts at 64 frames at 48 kHz (under write, compile): try 128 frames.");
    json_decref(d);
    /* at the largest size there is no larger one to try */
    d = doc_at(8192, 1);
    json_array_append_new(json_object_get(d, "phases"), phase("none", 8192, 1, 0));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(level(d), "fail");
    assert_string_equal(headline_report(d, h, sizeof(h)),
                        "Dropouts at 8192 frames at 48 kHz (under none), and no larger buffer to try.");
    json_decref(d);
    json_decref(p);
}

/* A profile that accepts some xruns (the verdict passes them): the headline counts them and says so, with no
 * size to move to; an interrupted run speaks only of the loads it measured; nothing measured: no answer. */
static void test_accepted_interrupted_empty(void **state)
{
    (void)state;
    json_t *d = doc_at(256, 1), *p = profile("studio");
    json_array_append_new(json_object_get(d, "phases"), phase("none", 256, 0, 0));
    json_array_append_new(json_object_get(d, "phases"), phase("write", 256, 2, 0));
    json_t *lax = json_deep_copy(p);
    json_object_set_new(lax, "max_xruns", json_integer(5));
    verdict_report(d, lax, 0, -1, -1);
    char h[512];
    if (strcmp(level(d), "fail")) {
        assert_non_null(strstr(headline_report(d, h, sizeof(h)), "256 frames at 48 kHz: 2 dropouts (under write), "
                                                                  "within what the studio profile accepts."));
    } else {
        fail_msg("a profile with max_xruns 5 failed 2 xruns: %s", h);
    }
    json_decref(lax);
    json_decref(d);
    d = doc_at(128, 0);
    json_array_append_new(json_object_get(d, "phases"), phase("none", 128, 0, 0));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(level(d), "warn"); /* incomplete: the verdict warns */
    assert_string_equal(headline_report(d, h, sizeof(h)),
                        "128 frames at 48 kHz ran without a dropout under the loads measured before the run stopped "
                        "(none), with a warning: see the verdict.");
    json_decref(d);
    d = doc_at(128, 0);
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(headline_report(d, h, sizeof(h)), "No answer: nothing was measured before the run stopped.");
    json_decref(d);
    json_decref(p);
}

/* Runs that are no kernel test say so first (issue 35): without real time the headline says "Not a kernel test" and
 * advises no size (a larger buffer is not the cure); rtjitter stopped while measuring; the idle trap where the phase
 * at rest holds the dropouts (its p99 set here at 20 times the loaded one's, /dev/cpu_dma_latency not held). */
static void test_invalid_first(void **state)
{
    (void)state;
    json_t *d = doc_at(64, 1), *p = profile("studio");
    json_object_set_new(json_object_get(d, "audio"), "realtime", json_false());
    json_array_append_new(json_object_get(d, "phases"), phase("write", 64, 3, 0));
    verdict_report(d, p, 0, -1, -1);
    char h[1024];
    headline_report(d, h, sizeof(h));
    assert_true(!strncmp(h, "Not a kernel test: ", 19));
    assert_null(strstr(h, "try 128"));
    assert_non_null(strstr(h, "Dropouts at 64 frames at 48 kHz (under write)."));
    json_decref(d);

    d = doc_at(128, 1);
    json_array_append_new(json_object_get(d, "phases"), phase("none", 128, 0, 0));
    json_object_set_new(d, "run", json_pack("{s:f, s:[{s:s, s:b, s:f}]}", "stopped_s", 4.0, "stops", "load", "none",
                                            "measuring", 1, "gap_s", 4.0));
    verdict_report(d, p, 0, -1, -1);
    headline_report(d, h, sizeof(h));
    assert_true(!strncmp(h, "Not a whole test: rtjitter itself was stopped (SIGSTOP/Ctrl-Z) for 4.0 s", 70));
    json_decref(d);

    d = doc_at(128, 1);
    json_t *rest = phase("none", 128, 4, 0), *load = phase("burn", 128, 0, 0);
    json_object_set_new(rest, "wakeup_us", json_pack("{s:f, s:f}", "p99", 1000.0, "max", 2000.0));
    json_object_set_new(load, "wakeup_us", json_pack("{s:f, s:f}", "p99", 50.0, "max", 90.0));
    json_array_append_new(json_object_get(d, "phases"), rest);
    json_array_append_new(json_object_get(d, "phases"), load);
    verdict_report(d, p, 0, -1, -1);
    headline_report(d, h, sizeof(h));
    assert_true(!strncmp(h, "Not a kernel test at rest: ", 27));
    assert_non_null(strstr(h, "--dma-latency"));
    /* no CPU idle states (this VM, cpuidle driver none): holding it changes nothing, and the headline says so */
    json_object_set_new(json_object_get(json_object_get(d, "system"), "cpu"), "idle",
                        json_pack("{s:s, s:[]}", "driver", "none", "states"));
    headline_report(d, h, sizeof(h));
    assert_true(!strncmp(h, "Not a kernel test at rest: most dropouts came at rest, while the idle CPUs halted", 80));
    assert_non_null(strstr(h, "--dma-latency changes nothing here"));
    json_decref(d);
    json_decref(p);
}

/* A buffer too large for live playing (PipeWire's default 1024 frames, 21.3 ms) is not a pass: the headline says
 * so first, with the largest power-of-two size within the profile's latency (studio 11 ms: 512; live 5.4 ms: 256). */
static void test_too_large(void **state)
{
    (void)state;
    const char *names[2] = { "studio", "live" };
    const char *want[2] = { "1024 frames at 48 kHz is 21.3 ms a period, too large for live playing (the studio profile "
                            "accepts 11 ms): try 512 frames (10.67 ms). It ran without a dropout under every load.",
                            "1024 frames at 48 kHz is 21.3 ms a period, too large for live playing (the live profile "
                            "accepts 5.4 ms): try 256 frames (5.33 ms). It ran without a dropout under every load." };
    for (int k = 0; k < 2; k++) {
        json_t *d = doc_at(1024, 1), *p = profile(names[k]);
        json_array_append_new(json_object_get(d, "phases"), phase("none", 1024, 0, 0));
        verdict_report(d, p, 0, -1, -1);
        char h[1024];
        assert_string_equal(headline_report(d, h, sizeof(h)), want[k]);
        json_decref(d);
        json_decref(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_dropouts),
        cmocka_unit_test(test_accepted_interrupted_empty),
        cmocka_unit_test(test_invalid_first),
        cmocka_unit_test(test_too_large),
    };
    return cmocka_run_group_tests_name("headline", tests, setup, NULL);
}
