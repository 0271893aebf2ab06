/* One fixed-size record per audio cycle: what the RT thread measured, nothing derived.
 * Times are raw readings: t_*_ns on the run's measurement clock (the one jack_get_time() follows),
 * jack_* in the JACK time unit (µs, or ns on PipeWire 1.1.83–1.2.1); the collector converts. */
#ifndef RTJ_RECORD_H
#define RTJ_RECORD_H
#include <stdint.h>

enum rt_record_flags {
    RTREC_MEASURING = 1u << 0, /* phase is past its warm-up: the record counts */
    RTREC_HAS_CYCLE_TIMES = 1u << 1, /* jack_get_cycle_times() succeeded */
    RTREC_DSP = 1u << 2,       /* --dsp work was requested this cycle */
};

struct rt_record {
    int64_t t_entry_ns;       /* clock at callback entry */
    int64_t t_exit_ns;        /* clock at callback exit */
    uint64_t cycle_start;     /* jack current_usecs (JACK time unit): jack2's DLL estimate, kept for reference */
    uint64_t next_start;      /* jack next_usecs: the DLL's predicted next cycle start */
    uint32_t frame_time;      /* jack_last_frame_time(): frames at the start of this cycle */
    uint32_t nframes;         /* buffer size of this cycle */
    uint32_t rate_hz;         /* sample rate in force during this cycle */
    uint32_t phase;           /* phase index set by the orchestrator */
    uint32_t flags;           /* enum rt_record_flags */
    uint32_t dsp_done;        /* DSP work units completed before the deadline */
    uint32_t dsp_req;         /* DSP work units requested */
    uint32_t since_start;     /* jack_frames_since_cycle_start() at entry: the measured cycle start */
    uint32_t xruns;           /* the server's xrun notifications so far (low 32 bits): the collector gives each
                               * one to the cycle that first saw it, so warm-up and phase edges are exact */
    uint32_t pad;
};

#endif
