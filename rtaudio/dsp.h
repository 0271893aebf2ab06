/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dsp PCT: a calibrated stand-in for plugin work, burnt inside the callback. */
#ifndef RTJ_DSP_H
#define RTJ_DSP_H
#include <stdint.h>
#include <time.h>

#define DSP_CHUNK_UNITS 16   /* units between two looks at the clock */

/* How fast this machine does the work units, and how that was measured (for the report). Two stages: the main
 * thread's short tries before the cycles start (dsp_calibrate: a first figure, to size the second stage's burn),
 * then the RT threads' own speed in CPU time, in the run's conditions (run/ramp_driver.h:
 * rampdrv_calibrate_in_run), which replaces it. */
struct dsp_calibration {
    double units_per_us;      /* the figure in force: the in-run one when there is one, else the median try */
    double fastest_units_per_us; /* the main thread's fastest try: what an unpreempted thread gets in a short try */
    double median_units_per_us; /* its median try */
    int tries;                /* tries of DSP_CAL_UNITS units each */
    int units_per_try;
    int cpu;                  /* CPU the calibrating thread ran on at the end (sched_getcpu), -1 unknown */
    double took_ms;           /* wall time of the main thread's tries */
    /* The in-run stage: the RT threads' DSP units over their CPU time (schedstat) while burning share_pct of each
     * period, less their CPU time per cycle without DSP (overhead_pct of a period) */
    int in_run;               /* 1: done, and units_per_us is its figure */
    double in_run_units_per_us;
    double in_run_share_pct, in_run_overhead_pct, in_run_window_s;
    uint64_t in_run_cycles;
    int in_run_threads;
    const char *in_run_note;  /* why there is no in-run figure, or NULL */
};
#define DSP_CAL_TRIES 300
#define DSP_CAL_UNITS 256

/* Non-RT: measure how many work units this CPU does per µs: DSP_CAL_TRIES short tries (tens of µs each) on the
 * calling thread, CLOCK_MONOTONIC; the fastest and the median. Fills c (units_per_us: the median, a first figure
 * only: a whole burn of a real-time thread runs slower than a short try's best, by 6-14 % seen here); returns
 * c->units_per_us. */
double dsp_calibrate(struct dsp_calibration *c);
/* The same, the figure only. */
double dsp_calibrate_units_per_us(void);

/* RT-safe (runs in the RT thread): do up to `units` units of work, stopping at deadline_ns on clock clk.
 * Returns the units completed. No allocation, lock, or system call. */
uint32_t dsp_burn(uint32_t units, int64_t deadline_ns, clockid_t clk);

/* RT-safe: one unit of arithmetic work on a small state (a biquad-like filter step). */
float dsp_unit(float x);

#endif
