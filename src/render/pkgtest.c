/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the packaging-test forms (see pkgtest.h). */
#include "render/pkgtest.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include <math.h>
#include <string.h>

void pkg_phase_figs(const json_t *p, struct phase_figs *f)
{
    const json_t *x = json_object_get(p, "xruns");
    f->measured_s = doc_num(p, "measured_s");
    if (isnan(f->measured_s))
        f->measured_s = doc_num(p, "duration_s");
    f->cycles = doc_num(p, "cycles");
    f->xrun_events = phasefig_xruns(p);
    f->xruns_reported = doc_num(x, "reported");
    f->skipped_cycles = doc_num(x, "skipped_cycles");
    f->met_pct = doc_num(p, "deadlines_met_pct");
    f->missed = doc_num(p, "deadlines_missed");
    f->wakeup_p99_us = doc_num(json_object_get(p, "wakeup_us"), "p99");
    f->wakeup_max_us = doc_num(json_object_get(p, "wakeup_us"), "max");
    f->jitter_abs_max_us = doc_num(json_object_get(p, "jitter_us"), "abs_max");
    f->margin_min_us = doc_num(json_object_get(p, "margin_us"), "min");
}

void pkg_phase_figs_lines(FILE *f, const struct phase_figs *pf, const char *indent)
{
    const struct { const char *name; double v; int prec; } rows[] = {
        { "measured_s", pf->measured_s, 3 }, { "cycles", pf->cycles, 0 },
        { "xrun_events", pf->xrun_events, 0 }, { "xrun_notifications", pf->xruns_reported, 0 },
        { "skipped_cycles", pf->skipped_cycles, 0 }, { "deadlines_met_pct", pf->met_pct, 3 },
        { "deadlines_missed", pf->missed, 0 }, { "wakeup_p99_us", pf->wakeup_p99_us, 1 },
        { "wakeup_max_us", pf->wakeup_max_us, 1 }, { "jitter_abs_max_us", pf->jitter_abs_max_us, 1 },
        { "margin_min_us", pf->margin_min_us, 1 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (!isnan(rows[i].v))
            fprintf(f, "%s%s: %.*f\n", indent, rows[i].name, rows[i].prec, rows[i].v);
}

static void num_prop(const json_t *o, const char *k, const char *name,
                     void (*fn)(const char *, const char *, void *), void *arg)
{
    const json_t *v = json_object_get(o, k);
    char b[64];
    if (json_is_integer(v))
        snprintf(b, sizeof(b), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        snprintf(b, sizeof(b), "%.6g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(b, sizeof(b), "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_string(v))
        snprintf(b, sizeof(b), "%s", json_string_value(v)); /* only short values here; long ones: str_prop */
    else
        return;
    fn(name, b, arg);
}

static void str_prop(const json_t *o, const char *k, const char *name,
                     void (*fn)(const char *, const char *, void *), void *arg)
{
    const char *s = doc_str(o, k, NULL);
    if (s)
        fn(name, s, arg);
}

void pkg_identity(const json_t *doc, void (*fn)(const char *name, const char *value, void *arg), void *arg)
{
    const json_t *sys = json_object_get(doc, "system"), *k = json_object_get(sys, "kernel");
    const json_t *cpu = json_object_get(sys, "cpu"), *a = json_object_get(doc, "audio");
    str_prop(sys, "hostname", "hostname", fn, arg);
    str_prop(k, "release", "kernel.release", fn, arg);
    str_prop(k, "version", "kernel.version", fn, arg);
    str_prop(k, "preempt", "kernel.preempt", fn, arg);
    num_prop(k, "hz", "kernel.hz", fn, arg);
    str_prop(cpu, "model", "cpu.model", fn, arg);
    str_prop(a, "backend", "backend", fn, arg);
    str_prop(a, "provider", "provider", fn, arg);
    str_prop(a, "server", "server", fn, arg);
    num_prop(a, "rate", "rate", fn, arg);
    num_prop(a, "period_frames", "period_frames", fn, arg);
    num_prop(a, "period_us", "period_us", fn, arg);
    num_prop(a, "nperiods", "nperiods", fn, arg);
    num_prop(a, "realtime", "realtime", fn, arg);
    num_prop(a, "dsp_pct", "dsp_pct", fn, arg);
    str_prop(json_object_get(doc, "thresholds"), "profile", "profile", fn, arg);
    str_prop(doc, "label", "label", fn, arg);
    str_prop(json_object_get(doc, "tool"), "version", "tool.version", fn, arg);
    str_prop(doc, "started", "started", fn, arg);
    num_prop(doc, "complete", "complete", fn, arg);
    str_prop(json_object_get(doc, "verdict"), "level", "verdict", fn, arg);
}

size_t pkg_cases(const json_t *doc, pkg_case_fn fn, void *arg)
{
    const json_t *checks = json_object_get(json_object_get(doc, "thresholds"), "checks");
    const json_t *phases = json_object_get(doc, "phases");
    size_t nph = 0, n = 0, i;
    const json_t *c;
    json_array_foreach(checks, i, c)
        if (json_array_size(json_object_get(c, "phases")) > nph)
            nph = json_array_size(json_object_get(c, "phases"));
    for (size_t pi = 0; pi < nph; pi++)
        json_array_foreach(checks, i, c) {
            const json_t *e = json_array_get(json_object_get(c, "phases"), pi);
            if (!e)
                continue;
            if (fn)
                fn(json_array_get(phases, pi), pi, c, e, arg);
            n++;
        }
    return n;
}

void pkg_ident(const char *s, char *buf, size_t len)
{
    size_t k = 0;
    for (; s && s[0] && k + 1 < len; s++) {
        unsigned char c = (unsigned char)*s;
        buf[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                   c == '.' || c == '-' ? (char)c : '_';
    }
    if (len)
        buf[k < len ? k : len - 1] = '\0';
}
