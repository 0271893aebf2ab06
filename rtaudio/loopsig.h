/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback reference signal: what rtjitter plays on a loopback output, as a pure function of the frame-clock
 * position. Shared by the RT side (writes it into the output buffer) and the analyzer (src/loopback/, which
 * regenerates it to compare with the capture).
 *
 * The signal: a tone of LOOPSIG_TONE_PERIOD frames per cycle (1 kHz at 48 kHz) at LOOPSIG_TONE_AMP, plus a
 * low-level pseudo-random marker (a hash of the position, uniform in +-LOOPSIG_MARK_AMP) that makes every block
 * unique, so that any block can be located by correlation, even through a real cable. Peak below 0.25 (-12 dBFS).
 * The tone's phase is computed from pos modulo its period, so the value at a position is exactly the same float
 * for every call (bit-exact comparison works through JACK's internal connections). */
#ifndef RTJ_LOOPSIG_H
#define RTJ_LOOPSIG_H
#include <stdint.h>

#define LOOPSIG_TONE_PERIOD 48u
#define LOOPSIG_TONE_AMP 0.18f
#define LOOPSIG_MARK_AMP 0.07f

/* RT-safe: writes the reference signal for frame-clock positions pos .. pos+n-1 into out. A pure function of the
 * position (no state, no init, no allocation): consecutive positions give a phase-continuous signal, so a
 * skipped or repeated block at the output is itself a discontinuity a listener hears. */
void loopsig_fill(float *out, uint64_t pos, unsigned n);

/* RT-safe: the reference signal at one position (what loopsig_fill writes there). */
float loopsig_at(uint64_t pos);

#endif
