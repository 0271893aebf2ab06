/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `--dsp ramp[:STEP[:SECS]]`: the orchestrator's side of the DSP headroom ramp. It calibrates the DSP work, steps
 * the share the RT threads read (rt_dsp_ctl.share_ppm: the only writer), and says in the report how the
 * calibration was made. The statistics of each step are stats/ramp.c's, fed by the collector. */
#ifndef RTJ_RAMP_DRIVER_H
#define RTJ_RAMP_DRIVER_H
#include <jansson.h>
#include "dsp.h"
#include "rt_sink.h"
#include "stats/ramp.h"
#include "run/rt_cpu.h"

#define RAMP_DEFAULT_STEP_PCT 2.0 /* the default: 2 % of the period per second */
#define RAMP_DEFAULT_STEP_S 1.0

/* --dsp above 95 % is an overrun test (issue 24: a DSP overrun must be named as the culprit of the xruns it
 * causes): the burn then runs its whole share with no guard band and no deadline (rt_sink.c), so above 100 % every
 * cycle overruns the period on purpose, and the report says so (audio.dsp_overrun_test). */
#define DSP_NORMAL_MAX_PCT 95
#define DSP_OVERRUN_MAX_PCT 120

/* Parse the value of --dsp: a number PCT (0..95, a fixed share; up to DSP_OVERRUN_MAX_PCT an overrun test) or ramp[:STEP[:SECS]] (STEP 0.5..50 % of the
 * period, SECS 0.1..60 per step). Fills pct, or step_pct and step_s (0 when not a ramp). 0, or -1 with one line in
 * err. */
int rampdrv_parse_dsp(const char *text, double *pct, double *step_pct, double *step_s, char *err, size_t len);

/* How long one phase's ramp takes at most: every step from 0 to 100 %. */
double rampdrv_max_s(double step_pct, double step_s);

/* Main thread, between the backend's open and start: the first figure (the main thread's short tries), stored
 * for the RT threads. */
void rampdrv_calibrate(struct rt_dsp_ctl *d, struct dsp_calibration *cal);

/* Main thread, once the cycles run and before any load or phase (records of these cycles are warm-up): the
 * calibration in the conditions of the run. The RT threads burn nothing for one window, then share_pct of each
 * period (sized by the first figure) for another; their CPU time over each window (rt_cpu.h: schedstat, read
 * between cycles) gives their CPU time per cycle without DSP and the units they do per ns of their own CPU time:
 *     units_per_ns = units / (cpu_ns - cycles * overhead_ns_per_cycle)
 * That figure is stored for the RT threads and is the one in force from then on; it leaves the share at 0.
 * The asked share of a period is then of the RT thread's CPU time: neither the short tries' best speed nor wall
 * time (the thread's time preempted or waiting is not work). wait(ctx, s) waits as a phase does (non-zero: the
 * run must stop). Returns 0 (calibrated), 1 (the first figure kept; cal->in_run_note says why) or wait's value. */
int rampdrv_calibrate_in_run(struct rt_dsp_ctl *d, const struct rt_meter *m, struct dsp_calibration *cal,
                          double share_pct, double period_ns, int (*wait)(void *ctx, double secs), void *ctx);

/* The arithmetic of rampdrv_calibrate_in_run, from its four readings' deltas: r0..r1 without DSP, r2..r3 burning.
 * Returns units per ns, or 0 when the readings cannot tell (no cycle, no unit, or no CPU time left for them). */
double rampdrv_units_per_ns(uint64_t idle_cpu_ns, uint64_t idle_cycles, uint64_t burn_cpu_ns, uint64_t burn_cycles,
                         uint64_t burn_units);

/* Main thread: one phase's ramp. Share 0, then STEP, 2 STEP ... 100 %, each held for step_s through wait(ctx, s)
 * (which returns non-zero when the run must stop). The ramp ends early once the collector has closed a step with
 * >= 1 % of its cycles failed (the 1 % point is found: every step after it would only add dropouts to the
 * server and time to the run), and the share goes back to 0. Returns the wait's non-zero value, or 0. */
int rampdrv_drive(struct rt_dsp_ctl *d, const struct ramp_stats *rs, double step_pct, double step_s,
               int (*wait)(void *ctx, double secs), void *ctx);

/* The report's "dsp_calibration" object (units per µs, how it was measured, the CPU). */
json_t *rampdrv_calibration_json(const struct dsp_calibration *cal);

#endif
