/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dsp PCT: a calibrated stand-in for plugin work, burnt inside the callback. */
#ifndef RTJ_DSP_H
#define RTJ_DSP_H
#include <stdint.h>
#include <time.h>

#define DSP_CHUNK_UNITS 16   /* units between two looks at the clock */

/* How fast this machine does the work units, and how that was measured (for the report). */
struct dsp_calibration {
    double units_per_us;      /* the fastest try: what an unpreempted real-time thread gets */
    double median_units_per_us; /* the median try: how much the calibrating thread was disturbed */
    int tries;                /* tries of DSP_CAL_UNITS units each */
    int units_per_try;
    int cpu;                  /* CPU the calibrating thread ran on at the end (sched_getcpu), -1 unknown */
    double took_ms;           /* wall time of the whole calibration */
};
#define DSP_CAL_TRIES 300
#define DSP_CAL_UNITS 256

/* Non-RT: measure how many work units this CPU does per µs: DSP_CAL_TRIES short tries (tens of µs each) on the
 * calling thread, CLOCK_MONOTONIC, keeping the fastest. Fills c; returns c->units_per_us. */
double dsp_calibrate(struct dsp_calibration *c);
/* The same, the figure only. */
double dsp_calibrate_units_per_us(void);

/* RT-safe (runs in the RT thread): do up to `units` units of work, stopping at deadline_ns on clock clk.
 * Returns the units completed. No allocation, lock, or system call. */
uint32_t dsp_burn(uint32_t units, int64_t deadline_ns, clockid_t clk);

/* RT-safe: one unit of arithmetic work on a small state (a biquad-like filter step). */
float dsp_unit(float x);

#endif
