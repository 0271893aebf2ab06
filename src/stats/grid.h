/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ideal period grid of a provider's frame clock, fitted from (frame position, entry time): when the cycle at a
 * given frame position should have started, on the measurement clock, at ns resolution.
 *
 * Each entry time is late by some amount >= 0 after its ideal start; the grid is the lower envelope of the points.
 * Residuals r = entry - frame * (nominal ns per frame) are taken per block (half a second of cycles); the
 * minima of the last GRID_K blocks give the slope (the median of the slopes between every pair of them, Theil-Sen: the frame clock's drift
 * against the system clock, ppm) and the level (the lowest of them on that slope), so one block in which every cycle
 * was late does not lift the grid, and drift is followed. Before the first block is complete the level is the
 * running minimum. So a wake-up measured against the grid is the lateness beyond the earliest cycles around it: it
 * leaves out the constant part every cycle has (the best case), and keeps everything that varies, at ns resolution.
 * Pure arithmetic on the collector's side; no allocation. */
#ifndef RTJ_GRID_H
#define RTJ_GRID_H
#include <stdint.h>

#define GRID_K 9

struct grid {
    double ns_per_frame;           /* nominal: 1e9 / rate */
    uint32_t block_len;            /* cycles per block */
    int have_base;
    uint64_t f_base;               /* first frame position seen */
    int64_t t_base;                /* and its entry time */
    uint32_t in_block;
    double blk_min_r, blk_min_f;   /* the current block's lowest residual and its frame (relative to f_base) */
    double run_min_r;              /* before the first fit */
    double mf[GRID_K], mr[GRID_K]; /* the last blocks' minima, oldest first */
    int nmin;
    int have_fit;
    double slope, icpt, f_ref;     /* L(f) = icpt + slope * (f - f_ref): residual of the ideal start */
};

/* A fresh grid for cycles of nframes at rate_hz. */
void grid_init(struct grid *g, uint32_t nframes, uint32_t rate_hz);
/* The frame clock jumped: start over (same nframes and rate). */
void grid_reset(struct grid *g);
/* The ideal start of the cycle at frame_pos, from what was observed before; INT64_MIN before any point. */
int64_t grid_start(const struct grid *g, uint64_t frame_pos);
/* Add a cycle's (frame position, entry time). */
void grid_observe(struct grid *g, uint64_t frame_pos, int64_t t_entry_ns);
/* A cycle came before the grid: lower the grid's level so that it lies on it (the lower envelope was too high).
 * Nothing when it is on or above the grid, or before any point. */
void grid_lower(struct grid *g, uint64_t frame_pos, int64_t t_entry_ns);

/* A re-phased frame clock, seen in a provider's own (whole-frame) cycle starts: the residual of each start against
 * the frame clock (start - frames x nominal ns per frame) stays level while the clock keeps its phase, and steps when
 * it re-phases (jack2's dummy driver re-anchors its schedule after an overrun by however late that cycle ended, while
 * its frame clock goes on by one period per cycle). The median of the last STEP_HALF residuals against the median of
 * the STEP_HALF before them: a step of more than the tolerance is a re-phase. Medians, so a few late starts (the
 * driver's own wake-up jitter) are not one; a step is found within STEP_HALF / 2 + 1 cycles. Pure arithmetic. */
#define STEP_HALF 8

struct step_detect {
    double ns_per_frame;
    int64_t tol_ns;                 /* the smallest step taken for a re-phase */
    int have_base;
    uint64_t f_base;
    int64_t t_base;
    int64_t r[2 * STEP_HALF];       /* the last residuals, oldest first */
    int n;
};

/* For cycles at rate_hz: the tolerance is 3 frames, at least 40 µs (whole-frame starts are +/- half a frame). */
void step_init(struct step_detect *d, uint32_t rate_hz);
/* Add a cycle's (frame position, provider's start). 1 when the residuals stepped (a re-phase): the detector then
 * starts over from this cycle. */
int step_observe(struct step_detect *d, uint64_t frame_pos, int64_t start_ns);

#endif
