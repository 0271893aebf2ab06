/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict tests' fixtures (test_verdict.c, test_verdict_advice.c): the shipped profiles, report documents on
 * the fixture systems (tests/fixtures/sys-*), and what the verdict said. Header-only (static). */
#ifndef RTJ_FIXTURE_VERDICT_H
#define RTJ_FIXTURE_VERDICT_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "verdict/ladder_rule.h"
#include "verdict/profile.h"
#include "render/text.h"
#include "verdict/verdict.h"
#include "sysinfo/sysinfo.h"

static char top[4096];

__attribute__((unused)) static int setup(void **state)
{
    (void)state;
    const char *t = getenv("RTJ_TOP");
    snprintf(top, sizeof(top), "%s", t ? t : ".");
    char dd[4200];
    snprintf(dd, sizeof(dd), "%s/data", top);
    setenv("RTJ_DATADIR", dd, 1);
    return 0;
}

__attribute__((unused)) static json_t *profile(const char *name)
{
    char err[512];
    json_t *p = NULL;
    if (profile_load(name, &p, err, sizeof(err)) < 0)
        fail_msg("profile %s: %s", name, err);
    return p;
}

__attribute__((unused)) static json_t *phase(const char *load, int xruns_reported, int xruns_detected, int missed, double jitter_us,
                     double margin_us)
{
    return json_pack("{s:s, s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i}, s:{s:f, s:f, s:f, s:f}, s:{s:f}, s:f, s:i, "
                     "s:n, s:n}",
                     "load", load, "cycles", 7500, "dropped", 0, "segments_in_phase", 1, "period_frames", 64,
                     "xruns", "reported", xruns_reported, "detected", xruns_detected, "skipped_cycles", 0,
                     "jitter_us", "mean", 0.5, "sd", 4.0, "p99", jitter_us / 2, "abs_max", jitter_us,
                     "margin_us", "min", margin_us,
                     "deadlines_met_pct", 100.0 * (7500 - missed) / 7500, "deadlines_missed", missed,
                     "desired_cpu_pct", "load_error");
}

/* A report document on the fixture system `fixture` (tests/fixtures/sys-*), 64 frames at 48 kHz. */
__attribute__((unused)) static json_t *doc_on(const char *fixture, int frames)
{
    char root[4200];
    snprintf(root, sizeof(root), "%s/tests/fixtures/%s", top, fixture);
    json_t *sys = sysinfo_collect(root);
    assert_non_null(sys);
    json_t *d = json_pack("{s:s, s:b, s:{s:s}, s:o, s:{s:i, s:i, s:f, s:b, s:b, s:f}, s:[]}",
                          "schema", REPORT_SCHEMA, "complete", 1, "tool", "version", "test", "system", sys,
                          "audio", "rate", 48000, "period_frames", frames, "period_us", frames * 1e6 / 48000,
                          "realtime", 1, "mlocked", 1, "dsp_pct", 0.0, "phases");
    assert_non_null(d);
    return d;
}

__attribute__((unused)) static void add_phase(json_t *d, json_t *p)
{
    json_array_append_new(json_object_get(d, "phases"), p);
}

__attribute__((unused)) static const char *vstr(const json_t *d, const char *k)
{
    const char *s = json_string_value(json_object_get(json_object_get(d, "verdict"), k));
    return s ? s : "(null)";
}

__attribute__((unused)) static int has_id(const json_t *d, const char *id)
{
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(json_object_get(d, "verdict"), "advice_ids"), i, v)
        if (strcmp(json_string_value(v), id) == 0)
            return 1;
    return 0;
}

#define CONTAINS(hay, needle) do { \
        if (!strstr((hay), (needle))) fail_msg("\"%s\" not in \"%s\"", (needle), (hay)); \
    } while (0)


#endif
