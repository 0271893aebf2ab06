/* The RT-side measurement sink, shared by every backend: given a record whose backend fields are filled
 * (cycle start, frame time, nframes, rate...), it tags the phase, burns the --dsp work up to the deadline,
 * stamps the exit time and pushes the record. Kept apart from JACK so it can be driven offline (make bench). */
#ifndef RTJ_RT_SINK_H
#define RTJ_RT_SINK_H
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include "record.h"
#include "ring.h"

struct rt_sink {
    struct rt_ring *ring;
    clockid_t clock;
    const atomic_uint *phase_tag; /* phase << 1 | measuring; written by the orchestrator */
    atomic_uint dsp_units;        /* DSP work units per cycle; 0: none */
    atomic_uint_fast64_t cycles;  /* cycles seen; written by the RT thread only */
    const atomic_uint_fast64_t *xruns; /* the backend's xrun counter, copied into each record; may be NULL */
};

/* RT-safe (runs in the RT thread): no allocation, lock, system call, printf or file I/O.
 * r->t_entry_ns must hold the entry time; deadline_ns is when the next cycle starts (for --dsp). */
void rt_sink_cycle(struct rt_sink *s, struct rt_record *r, int64_t deadline_ns);

#endif
