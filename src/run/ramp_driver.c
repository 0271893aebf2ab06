/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run/ramp_driver.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || (*end && *end != ':') || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int rampdrv_parse_dsp(const char *text, double *pct, double *step_pct, double *step_s, char *err, size_t len)
{
    *pct = 0;
    *step_pct = 0;
    *step_s = 0;
    if (strncmp(text, "ramp", 4) != 0) {
        char *end;
        double v = strtod(text, &end);
        if (end == text || *end || !isfinite(v) || v < 0 || v > DSP_OVERRUN_MAX_PCT) {
            snprintf(err, len, "--dsp: '%.40s' is neither a share of the period (0-95; up to %d: an overrun test) "
                     "nor ramp[:STEP[:SECS]]", text, DSP_OVERRUN_MAX_PCT);
            return -1;
        }
        *pct = v;
        return 0;
    }
    const char *p = text + 4;
    *step_pct = RAMP_DEFAULT_STEP_PCT;
    *step_s = RAMP_DEFAULT_STEP_S;
    if (*p == '\0')
        return 0;
    if (*p != ':' || number(p + 1, 0.5, 50, step_pct) < 0) {
        snprintf(err, len, "--dsp: '%.40s': the ramp's step is 0.5-50 %% of the period (ramp:STEP[:SECS])", text);
        return -1;
    }
    p = strchr(p + 1, ':');
    if (p && (number(p + 1, 0.1, 60, step_s) < 0 || strchr(p + 1, ':'))) {
        snprintf(err, len, "--dsp: '%.40s': a step lasts 0.1-60 s (ramp:STEP:SECS)", text);
        return -1;
    }
    return 0;
}

double rampdrv_max_s(double step_pct, double step_s)
{
    return (floor(100.0 / step_pct + 1e-9) + 1) * step_s;
}

void rampdrv_calibrate(struct rt_dsp_ctl *d, struct dsp_calibration *cal)
{
    dsp_calibrate(cal);
    cal->in_run_note = "not done";
    atomic_store_explicit(&d->units_per_ns, cal->units_per_us / 1000.0, memory_order_release);
}

double rampdrv_units_per_ns(uint64_t idle_cpu_ns, uint64_t idle_cycles, uint64_t burn_cpu_ns, uint64_t burn_cycles,
                         uint64_t burn_units)
{
    if (!idle_cycles || !burn_cycles || !burn_units)
        return 0;
    double work_ns = (double)burn_cpu_ns - (double)burn_cycles * (double)idle_cpu_ns / (double)idle_cycles;
    return work_ns > 0 ? (double)burn_units / work_ns : 0;
}

/* Waits until the RT threads published themselves in the meter and ran a few cycles (at most ~3 s). */
static int wait_meter(const struct rt_meter *m, struct rt_cpu_reading *r, int (*wait)(void *, double), void *ctx)
{
    for (int i = 0; i < 150; i++) {
        rt_cpu_read(m, r);
        if (r->threads && r->cycles >= 4)
            return 0;
        int e = wait(ctx, 0.02);
        if (e)
            return e;
    }
    return 1;
}

int rampdrv_calibrate_in_run(struct rt_dsp_ctl *d, const struct rt_meter *m, struct dsp_calibration *cal,
                          double share_pct, double period_ns, int (*wait)(void *ctx, double secs), void *ctx)
{
    /* Each window: 12 periods at least, 0.15 s at least (a 5 ms timer: 30 cycles; 1024 frames at 48 kHz: 12). */
    double window_s = 12 * period_ns / 1e9 > 0.15 ? 12 * period_ns / 1e9 : 0.15;
    struct rt_cpu_reading r0, r1, r2, r3;
    struct rt_cpu_share idle, burn;
    rt_dsp_set_share(d, 0);
    int e = wait_meter(m, &r0, wait, ctx);
    if (e == 1)
        cal->in_run_note = "no RT thread could be metered (no cycle, or /proc/self/task unreadable)";
    if (e)
        return e;
    if ((e = wait(ctx, window_s)))
        return e;
    rt_cpu_read(m, &r1);
    rt_dsp_set_share(d, share_pct / 100.0);
    rt_cpu_read(m, &r2);
    if ((e = wait(ctx, window_s))) {
        rt_dsp_set_share(d, 0);
        return e;
    }
    rt_cpu_read(m, &r3);
    rt_dsp_set_share(d, 0);
    if (rt_cpu_between(&r0, &r1, period_ns, &idle) < 0 || rt_cpu_between(&r2, &r3, period_ns, &burn) < 0) {
        cal->in_run_note = "the RT threads ran no cycle, or changed, during the calibration";
        return 1;
    }
    double upn = rampdrv_units_per_ns(r1.cpu_ns - r0.cpu_ns, idle.cycles, r3.cpu_ns - r2.cpu_ns, burn.cycles,
                                   burn.dsp_units);
    if (!(upn > 0)) {
        cal->in_run_note = "the RT threads did no DSP work, or used no CPU time for it, during the calibration";
        return 1;
    }
    cal->in_run = 1;
    cal->in_run_units_per_us = upn * 1000.0;
    cal->units_per_us = cal->in_run_units_per_us;
    cal->in_run_share_pct = share_pct;
    cal->in_run_overhead_pct = idle.cpu_pct;
    cal->in_run_window_s = window_s;
    cal->in_run_cycles = idle.cycles + burn.cycles;
    cal->in_run_threads = burn.threads;
    atomic_store_explicit(&d->units_per_ns, upn, memory_order_release);
    return 0;
}

int rampdrv_drive(struct rt_dsp_ctl *d, const struct ramp_stats *rs, double step_pct, double step_s,
               int (*wait)(void *ctx, double secs), void *ctx)
{
    int nsteps = (int)floor(100.0 / step_pct + 1e-9) + 1, rc = 0;
    for (int k = 0; k < nsteps && rc == 0; k++) {
        double level = k * step_pct;
        rt_dsp_set_share(d, (level > 100 ? 100 : level) / 100.0);
        rc = wait(ctx, step_s);
        if (ramp_one_pct_seen(rs) >= 0)
            break;
    }
    rt_dsp_set_share(d, 0);
    return rc;
}

json_t *rampdrv_calibration_json(const struct dsp_calibration *cal)
{
    json_t *in_run = cal->in_run
        ? json_pack("{s:f, s:f, s:f, s:f, s:I, s:i}", "units_per_us", cal->in_run_units_per_us, "share_pct",
                    cal->in_run_share_pct, "overhead_pct", cal->in_run_overhead_pct, "window_s",
                    cal->in_run_window_s, "cycles", (json_int_t)cal->in_run_cycles, "threads", cal->in_run_threads)
        : json_null();
    json_t *o = json_pack("{s:f, s:f, s:f, s:i, s:i, s:o, s:f, s:o, s:s}", "units_per_us", cal->units_per_us,
                     "fastest_units_per_us", cal->fastest_units_per_us,
                     "median_units_per_us", cal->median_units_per_us, "tries", cal->tries,
                     "units_per_try", cal->units_per_try, "cpu", cal->cpu >= 0 ? json_integer(cal->cpu) : json_null(),
                     "took_ms", cal->took_ms, "in_run", in_run,
                     "method", cal->in_run
                         ? "in the run: the RT threads' DSP work units over their own CPU time (schedstat, read "
                           "between cycles) while burning in_run.share_pct of each period, less their CPU time per "
                           "cycle without DSP, before the first phase and its load; a cycle's DSP load is its "
                           "dsp_req over this figure and its period: a share of the RT thread's CPU time"
                         : "the median of many short tries of the work unit (a 64-step biquad-like filter) on the "
                           "main thread, timed on CLOCK_MONOTONIC, before the cycles start (the in-run calibration "
                           "could not be made: see in_run_note); a cycle's DSP load is its dsp_req over this "
                           "figure and its period");
    if (!cal->in_run && cal->in_run_note)
        json_object_set_new(o, "in_run_note", json_string(cal->in_run_note));
    return o;
}
