/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dsp PCT: a calibrated stand-in for plugin work, burnt inside the callback. */
#ifndef RTJ_DSP_H
#define RTJ_DSP_H
#include <stdint.h>
#include <time.h>

#define DSP_CHUNK_UNITS 16   /* units between two looks at the clock */

/* Non-RT: measure how many work units this CPU does per µs (best of several tries). */
double dsp_calibrate_units_per_us(void);

/* RT-safe (runs in the RT thread): do up to `units` units of work, stopping at deadline_ns on clock clk.
 * Returns the units completed. No allocation, lock, or system call. */
uint32_t dsp_burn(uint32_t units, int64_t deadline_ns, clockid_t clk);

/* RT-safe: one unit of arithmetic work on a small state (a biquad-like filter step). */
float dsp_unit(float x);

#endif
