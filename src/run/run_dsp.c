/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dsp in a run (main thread, never the RT path): the calibration on the RT threads' own CPU time before the first
 * load, each phase's "dsp_share" and each ramp step's measured share, from rt_cpu.h's readings. */
#include "run/run_state.h"
#include <math.h>
#include <stdio.h>

void run_ramp_mark(struct run_state *st, int phase)
{
    if (st->nmarks[phase] < st->marks_cap) {
        rt_cpu_read(&st->meter, &st->marks[(size_t)phase * (size_t)st->marks_cap + (size_t)st->nmarks[phase]]);
        st->nmarks[phase]++;
    }
}

int run_ramp_wait_step(void *ctx, double secs)
{
    struct ramp_wait *w = ctx;
    run_ramp_mark(w->st, w->phase);
    int e = run_wait_phase(w->st, w->phase, secs, w->res, w->total_s);
    w->measured_s = mono_s() - w->t0;
    return e;
}

/* The nominal period the backend runs now, ns (0 unknown). */
static double period_now_ns(struct run_state *st)
{
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    return bs.rate_hz ? (double)bs.period_frames * 1e9 / (double)bs.rate_hz : 0;
}

/* The in-run calibration's wait: a warm-up of the first phase (status line, stop reasons), before its load. */
static int calibration_wait(void *ctx, double secs)
{
    struct run_state *st = ctx;
    return run_wait_phase(st, 0, secs, NULL, st->p->duration_s);
}

/* --dsp: before any load, calibrate the DSP work on the RT threads' own CPU time (rampdrv_calibrate_in_run), then ask
 * for the fixed share (a ramp starts each phase at 0). */
void run_calibrate_in_run(struct run_state *st)
{
    const struct run_plan *p = st->p;
    /* A ramp, and an overrun test (whose burn would miss every deadline of the calibration), calibrate at half. */
    double share = p->dsp_ramp_step_pct > 0 || p->be.dsp_pct > DSP_NORMAL_MAX_PCT ? 50.0 : p->be.dsp_pct;
    int e = rampdrv_calibrate_in_run(&st->dsp, &st->meter, &st->cal, share, period_now_ns(st), calibration_wait, st);
    if (e < 0)
        return; /* the run stops (st->stop_reason) */
    if (e == 0) {
        /* Before any measured record: the collector reads a ramp's figure only for measured records, which the
         * phase tag's store (release, below in run_phases) orders after this. */
        for (int i = 0; st->ramps && i < st->nphases; i++)
            st->ramps[i].units_per_ns = st->cal.units_per_us / 1000.0;
    } else {
        char w[200];
        snprintf(w, sizeof(w), "--dsp: the DSP work is calibrated on the main thread's short tries only: %s",
                 st->cal.in_run_note ? st->cal.in_run_note : "?");
        run_warn(st, w);
    }
    if (p->be.dsp_pct > DSP_NORMAL_MAX_PCT) {
        char w[200];
        snprintf(w, sizeof(w), "--dsp %g is an overrun test: the callback burns %g %% of each period with no guard "
                 "band, so its cycles overrun on purpose", p->be.dsp_pct, p->be.dsp_pct);
        run_warn(st, w);
    }
    rt_dsp_set_share(&st->dsp, p->dsp_ramp_step_pct > 0 ? 0.0 : p->be.dsp_pct / 100.0);
}

/* A phase's "dsp_share": the RT threads' CPU time between two readings over their cycles x the nominal period. */
json_t *run_share_json(struct run_state *st, const struct rt_cpu_reading *a, const struct rt_cpu_reading *b,
                          double requested_pct)
{
    struct rt_cpu_share sh;
    if (rt_cpu_between(a, b, period_now_ns(st), &sh) < 0)
        return NULL;
    json_t *o = rt_cpu_share_json(&sh, requested_pct, a->mono_s, b->mono_s);
    /* Which threads: so that a test can read their schedstat itself, from outside. */
    json_t *tids = json_array();
    int n = atomic_load(&st->meter.claimed);
    for (int i = 0; i < n && i < RT_METER_SLOTS; i++)
        if (atomic_load(&st->meter.slot[i].tid) > 0)
            json_array_append_new(tids, json_integer(atomic_load(&st->meter.slot[i].tid)));
    json_object_set_new(o, "tids", tids);
    if (requested_pct < 0)
        json_object_set_new(o, "requested_pct", json_null()); /* a ramp: each step has its own (dsp_ramp) */
    return o;
}

/* --dsp ramp: each step of a phase's "dsp_ramp" gets what its RT threads' CPU time says (between the readings at
 * its start and at the next step's start): measured_pct, run_delay_pct, mono_window_s. */
void run_ramp_steps_measured(struct run_state *st, int phase, json_t *ramp)
{
    const struct rt_cpu_reading *m = &st->marks[(size_t)phase * (size_t)st->marks_cap];
    double step_pct = st->p->dsp_ramp_step_pct, period_ns = period_now_ns(st);
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(ramp, "steps"), i, s) {
        int k = (int)floor(json_number_value(json_object_get(s, "level_pct")) / step_pct + 0.5);
        struct rt_cpu_share sh;
        if (k < 0 || k + 1 >= st->nmarks[phase] || rt_cpu_between(&m[k], &m[k + 1], period_ns, &sh) < 0)
            continue;
        json_object_set_new(s, "measured_pct", json_real(sh.cpu_pct));
        json_object_set_new(s, "run_delay_pct", json_real(sh.delay_pct));
        json_object_set_new(s, "mono_window_s", json_pack("[f,f]", m[k].mono_s, m[k + 1].mono_s));
    }
}
