/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT-side measurement sink, shared by every backend: given a record whose backend fields are filled
 * (entry time, frame position, nframes, rate, the provider's cycle start...), it numbers it, tags the phase,
 * burns the --dsp work up to the deadline, stamps the exit time and pushes the record. It also reads, once, in
 * the first (never measured) cycle, the scheduling policy the RT thread really got. Kept apart from every
 * provider so it can be driven offline (make bench, tests). */
#ifndef RTJ_RT_SINK_H
#define RTJ_RT_SINK_H
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include "record.h"
#include "ring.h"

struct cap_ring;

struct rt_sink {
    struct rt_ring *ring;
    struct cap_ring *cap;              /* loopback (capring.h): where the RT thread pushes what its input received;
                                        * NULL: no loopback. Set by run before open, sized before start */
    clockid_t clock;                   /* the measurement clock, chosen by the backend's open */
    const atomic_uint *phase_tag;      /* phase << 1 | measuring; written by the orchestrator */
    atomic_uint dsp_units;             /* DSP work units per cycle; 0: none */
    atomic_uint dsp_guard_ns;          /* the burn stops this long before the deadline: 1/32 period, >= 10 µs */
    atomic_uint_fast64_t cycles;       /* cycles seen (the next record's seq); written by the RT thread only */
    const atomic_uint_fast64_t *xruns; /* the backend's xrun counter, copied into each record; may be NULL */
    uint16_t stream;                   /* stamped on each record: 0, or the RT thread's index when a backend runs
                                        * several (each with its own sink and ring) */
    /* Read inside the first cycle, published with sched_known (release). */
    atomic_int sched_known;
    atomic_int sched_policy;           /* SCHED_FIFO...; SCHED_RESET_ON_FORK masked off */
    atomic_int sched_priority;
    atomic_int stack_touched;          /* the backend touched the RT stack before the first cycle */
};

/* Not measured, in the RT thread before its first cycle (e.g. jack_set_thread_init_callback): touches the stack
 * the cycles will use. A backend that calls it sets stack_touched. */
void rt_sink_touch_stack(void);

/* RT-safe (runs in the RT thread): no allocation, lock, printf or file I/O; the only system calls are in the
 * first cycle (sched_getscheduler/sched_getparam, a warm-up cycle that is never measured).
 * r->t_entry_ns must hold the entry time; deadline_ns is when the next cycle starts (for --dsp). */
void rt_sink_cycle(struct rt_sink *s, struct rt_record *r, int64_t deadline_ns);

/* RT-safe (a provider may call it from its RT thread on a buffer-size change): arithmetic and one atomic store.
 * The DSP work per cycle for a period of nframes at rate_hz, from a calibration (units per ns). */
void rt_sink_set_dsp(struct rt_sink *s, double share, double units_per_ns, unsigned nframes, unsigned rate_hz);

#endif
