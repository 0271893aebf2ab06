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

int ramp_parse_dsp(const char *text, double *pct, double *step_pct, double *step_s, char *err, size_t len)
{
    *pct = 0;
    *step_pct = 0;
    *step_s = 0;
    if (strncmp(text, "ramp", 4) != 0) {
        char *end;
        double v = strtod(text, &end);
        if (end == text || *end || !isfinite(v) || v < 0 || v > 95) {
            snprintf(err, len, "--dsp: '%.40s' is neither a share of the period (0-95) nor ramp[:STEP[:SECS]]",
                     text);
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

double ramp_max_s(double step_pct, double step_s)
{
    return (floor(100.0 / step_pct + 1e-9) + 1) * step_s;
}

void ramp_calibrate(struct rt_dsp_ctl *d, struct dsp_calibration *cal)
{
    dsp_calibrate(cal);
    atomic_store_explicit(&d->units_per_ns, cal->units_per_us / 1000.0, memory_order_release);
}

int ramp_drive(struct rt_dsp_ctl *d, const struct ramp_stats *rs, double step_pct, double step_s,
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

json_t *ramp_calibration_json(const struct dsp_calibration *cal)
{
    return json_pack("{s:f, s:f, s:i, s:i, s:o, s:f, s:s}", "units_per_us", cal->units_per_us,
                     "median_units_per_us", cal->median_units_per_us, "tries", cal->tries,
                     "units_per_try", cal->units_per_try, "cpu", cal->cpu >= 0 ? json_integer(cal->cpu) : json_null(),
                     "took_ms", cal->took_ms,
                     "method", "the fastest of many short tries of the work unit (a 64-step biquad-like filter) on "
                               "the main thread, timed on CLOCK_MONOTONIC, before the cycles start: what an "
                               "unpreempted real-time thread gets; a cycle's DSP load is its dsp_req over this "
                               "figure and its period");
}
