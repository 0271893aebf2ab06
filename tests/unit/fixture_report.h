/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Synthetic report documents for the reader, compare and HTML tests: histograms filled from a seeded random
 * distribution through the real stats.c buckets, laid out by report.c's own functions. Header-only (static). */
#ifndef RTJ_FIXTURE_REPORT_H
#define RTJ_FIXTURE_REPORT_H
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "report/report.h"
#include "stats/stats.h"

static uint64_t fx_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double fx_uniform(uint64_t *s)
{
    return ((double)(fx_next(s) >> 11) + 0.5) * 0x1.0p-53;
}

static int fx_dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* p99 (nearest rank) and maximum of v[0..n), sorted in place. */
static void fx_p99_max(double *v, int n, double *p99, double *max)
{
    qsort(v, (size_t)n, sizeof(double), fx_dcmp);
    int k = (int)ceil(0.99 * n);
    *p99 = v[(k < 1 ? 1 : k) - 1];
    *max = v[n - 1];
}

#define FX_CYCLES_PER_S 750 /* 64 frames at 48 kHz */

/* One phase of n cycles: wakeup = 40 µs + exponential(10 µs) + shift_us; jitter = normal(0, 20 µs), moved
 * away from zero by shift_us. xruns cycles get an xrun. Its timeline is made as report.c makes one: every 750
 * cycles a second, with that second's own p99 and maximum of the very draws the histograms hold (the last second
 * may be short). */
static json_t *fx_phase(const char *load, int n, double shift_us, uint64_t seed, int xruns)
{
    struct metric_stats *w = malloc(sizeof(*w)), *j = malloc(sizeof(*j));
    metric_init(w);
    metric_init(j);
    uint64_t s = seed;
    json_t *tl = json_array();
    double sw[FX_CYCLES_PER_S], sj[FX_CYCLES_PER_S];
    int in_sec = 0, sec = 0;
    for (int i = 0; i < n; i++) {
        double wake = 40 - 10 * log(fx_uniform(&s)) + shift_us;
        double u1 = fx_uniform(&s), u2 = fx_uniform(&s);
        double jit = 20 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        jit += jit < 0 ? -shift_us : shift_us;
        metric_add(w, (int64_t)(wake * 1000));
        metric_add(j, (int64_t)(jit * 1000));
        sw[in_sec] = (double)(int64_t)(wake * 1000) / 1000.0;
        sj[in_sec] = fabs((double)(int64_t)(jit * 1000) / 1000.0);
        in_sec++;
        if (in_sec == FX_CYCLES_PER_S || i == n - 1) {
            double wp, wm, jp, jm;
            fx_p99_max(sw, in_sec, &wp, &wm);
            fx_p99_max(sj, in_sec, &jp, &jm);
            json_array_append_new(tl, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f}",
                                                "s", sec, "cycles", in_sec, "xruns_reported", sec == 2 ? xruns : 0,
                                                "xruns_detected", 0, "xrun_events", sec == 2 ? xruns : 0,
                                                "deadlines_missed", 0, "jitter_abs_max_us", jm,
                                                "jitter_abs_p99_us", jp, "wakeup_max_us", wm, "wakeup_p99_us", wp,
                                                "callback_max_us", 3.0, "margin_min_us", 1333.3 - wm));
            sec++;
            in_sec = 0;
        }
    }
    json_t *p = json_pack("{s:s, s:f, s:i, s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i}, s:o, s:o, s:f, s:i,"
                          " s:[{s:s, s:f, s:s}], s:n, s:{s:o, s:o}, s:o}",
                          "load", load, "duration_s", (double)n / FX_CYCLES_PER_S, "period_frames", 64, "rate", 48000, "cycles", n,
                          "dropped", 0, "segments_in_phase", 1, "xruns", "reported", xruns, "detected", 0,
                          "skipped_cycles", 0, "jitter_us", report_metric_json(j), "wakeup_us", report_metric_json(w),
                          "deadlines_met_pct", 100.0, "deadlines_missed", 0, "load_metrics", "name", "written",
                          "value", 123.5, "unit", "MB/s", "load_error", "histograms", "jitter",
                          report_hist_json(&j->hist), "wakeup", report_hist_json(&w->hist), "timeline", tl);
    free(w);
    free(j);
    return p;
}

/* A whole report with one "none" phase. */
static json_t *fx_report(const char *release, const char *hz, const char *preempt, int n, double shift_us,
                         uint64_t seed)
{
    return json_pack("{s:s, s:{s:s, s:s}, s:b, s:s, s:s, s:s, s:s, s:{s:s, s:{s:s, s:s, s:s, s:s}, s:{s:s, s:i}},"
                     " s:{s:s, s:s, s:s, s:i, s:i, s:f, s:b}, s:[o], s:[], s:{s:s, s:s, s:[]}}",
                     "schema", "rtjitter.report/1", "tool", "name", "rtjitter", "version", "test", "complete", 1,
                     "label", "test", "started", "2026-01-01T00:00:00Z", "finished", "2026-01-01T00:00:10Z",
                     "command", "rtjitter run", "system", "hostname", "box", "kernel", "release", release, "hz", hz,
                     "preempt", preempt, "version", "#1 SMP", "cpu", "model", "Test CPU", "threads", 4,
                     "audio", "backend", "jack", "provider", "jack2", "server", "private", "rate", 48000,
                     "period_frames", 64, "period_us", 1333.3333, "realtime", 1,
                     "phases", fx_phase("none", n, shift_us, seed, 0), "warnings", "verdict", "level", "pass",
                     "summary", "fine", "advice");
}

#endif
