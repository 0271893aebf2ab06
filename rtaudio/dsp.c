/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "dsp.h"
#include "rtclock.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* Keeps the compiler from deleting the work. Written by the RT thread only. */
static volatile float dsp_sink;

/* RT-safe (runs in the RT thread). */
float dsp_unit(float x)
{
    float y1 = 0.0f, y2 = 0.0f;
    for (int i = 0; i < 64; i++) {
        float y = 0.2f * x + 0.5f * y1 - 0.25f * y2;
        y2 = y1;
        y1 = y;
        x = y + 1e-3f;
    }
    return y1;
}

/* RT-safe (runs in the RT thread). */
uint32_t dsp_burn(uint32_t units, int64_t deadline_ns, clockid_t clk)
{
    uint32_t done = 0;
    float acc = 1.0f;
    while (done < units) {
        if (rt_now_ns(clk) >= deadline_ns)
            break;
        uint32_t n = units - done < DSP_CHUNK_UNITS ? units - done : DSP_CHUNK_UNITS;
        for (uint32_t i = 0; i < n; i++)
            acc = dsp_unit(acc);
        done += n;
    }
    dsp_sink = acc;
    return done;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double dsp_calibrate(struct dsp_calibration *c)
{
    /* Many short tries (tens of µs each). Their fastest was once the figure in force ("what an unpreempted
     * real-time thread gets"), but a real-time thread's whole burn runs slower than the best of 300 short tries
     * (--dsp 50 burnt 57 % of the period on JACK): the in-run stage measures that speed itself. */
    double rates[DSP_CAL_TRIES];
    int n_ok = 0;
    int64_t start = rt_now_ns(CLOCK_MONOTONIC);
    for (int t = 0; t < DSP_CAL_TRIES; t++) {
        int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
        uint32_t n = dsp_burn(DSP_CAL_UNITS, INT64_MAX, CLOCK_MONOTONIC);
        int64_t dt = rt_now_ns(CLOCK_MONOTONIC) - t0;
        if (dt > 0)
            rates[n_ok++] = (double)n * 1000.0 / (double)dt;
    }
    qsort(rates, (size_t)n_ok, sizeof(rates[0]), cmp_double);
    memset(c, 0, sizeof(*c));
    c->fastest_units_per_us = n_ok ? rates[n_ok - 1] : 0.0;
    c->median_units_per_us = n_ok ? rates[n_ok / 2] : 0.0;
    c->units_per_us = c->median_units_per_us;
    c->tries = n_ok;
    c->units_per_try = DSP_CAL_UNITS;
    c->cpu = sched_getcpu();
    c->took_ms = (double)(rt_now_ns(CLOCK_MONOTONIC) - start) / 1e6;
    return c->units_per_us;
}

double dsp_calibrate_units_per_us(void)
{
    struct dsp_calibration c;
    return dsp_calibrate(&c);
}
