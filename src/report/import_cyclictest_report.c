/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cyclictest import's second half (import_cyclictest_internal.h): the report of what import_cyclictest.c
 * gathered, in a report's shape: the wake-up metric and histogram of the pooled samples, the identity cyclictest
 * wrote, and null for everything it does not measure. */
#include "report/import_cyclictest_internal.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/report_read.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *iso(time_t t)
{
    char buf[32];
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

static json_t *num_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

/* The wake-up metric in µs: count, mean and extremes exact (cyclictest's own), SD and percentiles from the
 * histogram's buckets (nearest rank, the bucket's middle, clamped to min and max). A percentile that falls past
 * the histogram, and the SD when samples are past it, are unknown: null. */
static json_t *wakeup_metric(const struct ct *c)
{
    double u = c->unit_us, mean = c->cycles ? c->sum / (double)c->cycles : NAN;
    double sd = NAN;
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer((json_int_t)c->cycles));
    json_object_set_new(o, "mean", num_or_null(mean * u));
    if (c->have_hist && c->overflow == 0 && c->in_hist > 1) {
        double m2 = 0;
        for (size_t i = 0; i < c->nb; i++) {
            double d = (double)c->b[i].v + 0.5 - mean;
            m2 += d * d * (double)c->b[i].n;
        }
        sd = sqrt(m2 / (double)(c->in_hist - 1)) * u;
    }
    json_object_set_new(o, "sd", num_or_null(sd));
    json_object_set_new(o, "min", num_or_null(c->cycles ? c->min * u : NAN));
    json_object_set_new(o, "max", num_or_null(c->cycles ? c->max * u : NAN));
    json_object_set_new(o, "abs_max", num_or_null(c->cycles ? fmax(fabs(c->min), fabs(c->max)) * u : NAN));
    static const struct { const char *k; double q; } qs[] = {
        { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 }, { "p9999", 0.9999 },
    };
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
        double v = NAN;
        if (c->have_hist && c->cycles) {
            uint64_t rank = (uint64_t)ceil(qs[i].q * (double)c->cycles - 1e-9), acc = 0;
            if (rank < 1)
                rank = 1;
            for (size_t b = 0; b < c->nb && isnan(v); b++) {
                acc += c->b[b].n;
                if (acc >= rank)
                    v = fmin(fmax((double)c->b[b].v + 0.5, c->min), c->max) * u;
            }
        }
        json_object_set_new(o, qs[i].k, num_or_null(v));
    }
    return o;
}

/* The histogram as a report holds it: [lo_us, hi_us, count], ascending; the samples past cyclictest's histogram
 * in one last bucket from its limit to just past the max. */
static json_t *wakeup_hist(const struct ct *c, double limit)
{
    json_t *a = json_array();
    for (size_t i = 0; i < c->nb; i++)
        json_array_append_new(a, json_pack("[f,f,I]", (double)c->b[i].v * c->unit_us,
                                           (double)(c->b[i].v + 1) * c->unit_us, (json_int_t)c->b[i].n));
    if (c->overflow) {
        double lo = fmax(limit, (double)c->top);
        json_array_append_new(a, json_pack("[f,f,I]", fmin(lo, c->max) * c->unit_us, (c->max + 1) * c->unit_us,
                                           (json_int_t)c->overflow));
    }
    return a;
}

static json_t *str_field(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? utf8_json_string(json_string_value(v)) : json_null();
}

/* The system identity: what cyclictest wrote, null for what it does not know. */
static json_t *system_identity(const json_t *sys)
{
    const json_t *rt = json_object_get(sys, "realtime");
    json_t *kernel = json_pack("{s:o, s:o, s:n, s:o, s:n, s:n, s:n, s:n}", "release", str_field(sys, "release"),
        "version", str_field(sys, "version"), "cmdline",
        /* cyclictest's "realtime" is 1 on a PREEMPT_RT kernel; 0 does not say which other model it was. */
        "preempt", json_is_integer(rt) && json_integer_value(rt) == 1 ? json_string("rt") : json_null(),
        "hz", "nohz", "threadirqs", "config_source");
    json_object_set_new(kernel, "sysname", str_field(sys, "sysname"));
    json_t *cpu = json_pack("{s:n, s:n, s:n, s:o}", "model", "threads", "governor", "machine",
                            str_field(sys, "machine"));
    return json_pack("{s:o, s:o, s:o}", "hostname", str_field(sys, "nodename"), "kernel", kernel, "cpu", cpu);
}

/* "imported": where the report came from and what it measures. */
static json_t *imported_object(const json_t *in, const struct import_info *info, const struct ct_run *r)
{
    const char *cmd = r->cmd;
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:s}", "from", r->tool->name,
        "file", utf8_json_string(info->source), "tool_version", str_field(in, "rt_test_version:"),
        "command", cmd ? utf8_json_string(cmd) : json_null(), "file_version",
        json_is_integer(json_object_get(in, "file_version")) ? json_integer(json_integer_value(json_object_get(in, "file_version")))
                                                           : json_null(),
        "measures", r->tool->measures);
}

/* "audio": cyclictest as the provider; its interval as the period when one thread ran at it. */
static json_t *audio_object(const json_t *in, const struct ct *c, const struct ct_run *r)
{
    int one_interval = r->have_interval && r->nthreads == 1;
    json_t *au = json_object();
    char backend[64];
    snprintf(backend, sizeof(backend), "%s-import", r->tool->name);
    json_object_set_new(au, "backend", json_string(backend));
    json_object_set_new(au, "provider", json_string(r->tool->name));
    json_object_set_new(au, "provider_version", str_field(in, "rt_test_version:"));
    json_object_set_new(au, "server", json_null());
    json_object_set_new(au, "server_name", json_null());
    json_object_set_new(au, "driver", json_null());
    json_object_set_new(au, "device", json_null());
    json_object_set_new(au, "nperiods", json_null());
    json_object_set_new(au, "clock", json_null());
    json_object_set_new(au, "rate", json_null());
    json_object_set_new(au, "period_frames", json_null());
    json_object_set_new(au, "period_us", one_interval ? json_real((double)r->interval) : json_null());
    json_object_set_new(au, "interval_us", r->have_interval ? json_integer(r->interval) : json_null());
    json_object_set_new(au, "realtime", json_null());
    json_object_set_new(au, "sched_policy", json_null());
    json_object_set_new(au, "priority", json_null());
    json_object_set_new(au, "priority_requested", r->have_prio ? json_integer(r->prio) : json_null());
    json_object_set_new(au, "mlocked", json_null());
    json_object_set_new(au, "dsp_pct", json_null());
    json_object_set_new(au, "buffer_changes", json_null());
    json_object_set_new(au, "threads", json_incref(c->threads));
    return au;
}

/* The one phase: the wake-up metric and histogram, null for what cyclictest does not measure. */
static json_t *phase_object(const struct ct *c, const struct ct_run *r, const struct import_info *info)
{
    json_t *p = json_object();
    json_object_set_new(p, "load", utf8_json_string(info->load ? info->load : "none"));
    json_object_set_new(p, "duration_s", r->have_t1 ? json_real((double)(r->t1 - r->t0)) : json_null());
    json_object_set_new(p, "measured_s", r->have_t1 ? json_real((double)(r->t1 - r->t0)) : json_null());
    json_object_set_new(p, "period_frames", json_null());
    json_object_set_new(p, "rate", json_null());
    json_object_set_new(p, "period_us", json_null());
    json_object_set_new(p, "cycles", json_integer((json_int_t)c->cycles));
    json_object_set_new(p, "clock_window_s", json_null());
    json_object_set_new(p, "dropped", json_null());
    json_object_set_new(p, "segments_in_phase", json_integer(1));
    json_object_set_new(p, "xruns", json_pack("{s:n, s:n, s:n}", "reported", "detected", "skipped_cycles"));
    json_object_set_new(p, "jitter_us", json_null());
    json_object_set_new(p, "wakeup_us", wakeup_metric(c));
    json_object_set_new(p, "callback_us", json_null());
    json_object_set_new(p, "margin_us", json_null());
    json_object_set_new(p, "deadlines_met_pct", json_null());
    json_object_set_new(p, "deadlines_missed", json_null());
    json_object_set_new(p, "desired_cpu_pct", json_null());
    json_object_set_new(p, "dsp_load", json_null());
    json_object_set_new(p, "load_metrics", json_array());
    json_object_set_new(p, "load_error", json_null());
    json_t *h = json_object();
    if (c->have_hist)
        json_object_set_new(h, "wakeup", wakeup_hist(c, (double)r->hist_limit));
    json_object_set_new(p, "histograms", h);
    json_object_set_new(p, "timeline", json_array());
    return p;
}

/* What the reader must know of an import: what is null, a missing or overflowing histogram, pooled threads. */
static json_t *import_warnings(const struct ct *c, const struct ct_run *r)
{
    json_t *w = json_array();
    json_array_append_new(w, json_string(r->tool->first_warning));
    char m[320];
    if (!c->have_hist) {
        snprintf(m, sizeof(m), "no histogram (%s ran without one, or every sample lay past it): only the count, mean, "
                 "min and max of the latency are known", r->tool->name);
        json_array_append_new(w, json_string(m));
    }
    if (c->overflow) {
        char lim[64];
        snprintf(lim, sizeof(lim), r->tool->hist_limit_fmt, r->hist_shown ? r->hist_shown : r->hist_limit);
        snprintf(m, sizeof(m), "%llu of %llu samples lay past %s's histogram (%s): they are one bucket up to the "
                 "max, and a percentile that falls there is null; %s", (unsigned long long)c->overflow,
                 (unsigned long long)c->cycles, r->tool->name, lim, r->tool->hist_advice);
        json_array_append_new(w, json_string(m));
    }
    if (r->nthreads > 1) {
        snprintf(m, sizeof(m), "several %s threads are pooled into one distribution (each is under audio.threads)%s",
                 r->tool->name, r->tool == &ct_tool_cyclictest ? "; without -d 0 each ran at its own interval" : "");
        json_array_append_new(w, json_string(m));
    }
    return w;
}

json_t *import_ct_report(const json_t *in, const struct ct *c, const struct ct_run *r, const struct import_info *info,
                         char *err, size_t errlen)
{
    json_t *doc = doc_begin(REPORT_SCHEMA, 1);
    if (!doc) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char reason[96];
    snprintf(reason, sizeof(reason), "%s exited with status %lld", r->tool->name, r->return_code);
    json_object_set_new(doc, "complete", json_boolean(!r->failed));
    json_object_set_new(doc, "incomplete_reason", r->failed ? json_string(reason) : json_null());
    json_object_set_new(doc, "label", utf8_json_string(info->label));
    json_object_set_new(doc, "started", r->have_t0 ? iso(r->t0) : json_null());
    json_object_set_new(doc, "finished", r->have_t1 ? iso(r->t1) : json_null());
    json_t *system = system_identity(json_object_get(in, "sysinfo"));
    doc_set_origin(doc, info->command, system);
    json_decref(system);
    json_object_set_new(doc, "imported", imported_object(in, info, r));
    json_object_set_new(doc, "audio", audio_object(in, c, r));
    json_object_set_new(doc, "phases", json_pack("[o]", phase_object(c, r, info)));
    json_object_set_new(doc, "warnings", import_warnings(c, r));
    json_object_set_new(doc, "verdict", json_null());
    json_object_set_new(doc, "thresholds", json_null());
    if (report_validate(doc, err, errlen) < 0) { /* a number out of a report's range, say */
        json_decref(doc);
        doc = NULL;
    }
    return doc;
}
