/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One fixed-size record per audio cycle: what the RT thread measured, nothing derived, and nothing that belongs
 * to one backend. Times are int64 ns on the run's measurement clock (for JACK, the clock jack_get_time()
 * follows); the frame position is the provider's frame clock, widened to 64 bits by the backend. */
#ifndef RTJ_RECORD_H
#define RTJ_RECORD_H
#include <stdint.h>

enum rt_record_flags {
    RTREC_MEASURING = 1u << 0, /* phase is past its warm-up: the record counts */
    RTREC_HAS_START = 1u << 1, /* start_ns holds the provider's own measured start of this cycle */
    RTREC_DSP = 1u << 2,       /* --dsp work was requested this cycle */
    RTREC_START_COARSE = 1u << 3, /* start_ns is known to whole frames only (JACK): the statistics fit the
                                   * frame clock's grid instead, at ns resolution */
};

struct rt_record {
    uint64_t seq;             /* cycle number, set by rt_sink_cycle(): a gap means records were lost */
    int64_t t_entry_ns;       /* clock at cycle entry (callback entry, wake-up from poll or sleep) */
    int64_t t_exit_ns;        /* clock at cycle exit */
    int64_t start_ns;         /* the provider's measured cycle start (RTREC_HAS_START), else 0 */
    uint64_t frame_pos;       /* frames at the start of this cycle, on the provider's frame clock */
    uint32_t nframes;         /* frames of this cycle (the buffer size in force) */
    uint32_t rate_hz;         /* sample rate in force during this cycle */
    uint32_t phase;           /* phase index set by the orchestrator */
    uint32_t flags;           /* enum rt_record_flags */
    uint32_t dsp_done;        /* DSP work units completed before the deadline */
    uint32_t dsp_req;         /* DSP work units requested */
    uint32_t xruns;           /* the provider's xrun counter so far (low 32 bits): the collector gives each
                               * change to the cycle that first saw it, so warm-up and phase edges are exact */
    int16_t cpu;              /* CPU the cycle ran on (sched_getcpu: vDSO), -1 when unknown */
    uint16_t stream;          /* which RT thread of the backend measured it (set by its sink): the timer
                               * backend runs one per CPU; deltas (period, jitter, margin) never span two */
};

#define RTREC_MAX_STREAMS 256 /* RT threads of one backend whose records are kept apart */

#endif
