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

/* The DSP work asked of the RT threads (--dsp PCT, or the ramp of --dsp ramp), shared by every sink of a run and
 * owned by the orchestrator: it writes both fields (units_per_ns before the cycles start, share_ppm whenever the
 * ramp steps); the RT threads only read them. Each cycle turns the share into work units for its own period
 * (record nframes / rate_hz), so a buffer-size change needs no second writer. */
#define RT_DSP_OVERRUN_PPM 950000u /* above this share (95 %), an overrun test: no guard band, no deadline */
#define RT_DSP_MAX_PPM 1200000u    /* 120 %: the largest share (an overrun test) */
struct rt_dsp_ctl {
    atomic_uint share_ppm;             /* share of each period to burn, parts per million; 0: none */
    _Atomic double units_per_ns;       /* the calibration (dsp_calibrate), work units per ns */
};
struct cap_ring;

/* The RT threads' own count of their cycles and DSP work, so that the orchestrator can read each thread's CPU time
 * from /proc/self/task/TID/schedstat (outside the RT path) and know how many cycles and units it covers. One slot
 * per RT thread, claimed in its first (never measured) cycle; each slot has one writer, its thread. Owned (zeroed
 * before the cycles start) by the orchestrator, shared by every sink of a run like the DSP request. */
#define RT_METER_SLOTS 64
struct rt_meter_slot {
    atomic_int tid;                    /* the RT thread's TID, 0 until published (release) */
    atomic_uint_fast64_t begun;        /* cycles whose work began; == ended while the thread is between cycles */
    atomic_uint_fast64_t ended;        /* cycles whose work ended (release after the burn) */
    atomic_uint_fast64_t dsp_units;    /* DSP work units done since the thread started */
};
struct rt_meter {
    atomic_int claimed;                /* slots claimed, may exceed RT_METER_SLOTS (those threads go unmetered) */
    struct rt_meter_slot slot[RT_METER_SLOTS];
};

struct rt_sink {
    struct rt_ring *ring;
    struct cap_ring *cap;              /* loopback (capring.h): where the RT thread pushes what its input received;
                                        * NULL: no loopback. Set by run before open, sized before start */
    clockid_t clock;                   /* the measurement clock, chosen by the backend's open */
    const atomic_uint *phase_tag;      /* phase << 1 | measuring; written by the orchestrator */
    const struct rt_dsp_ctl *dsp;      /* the run's DSP request (NULL: none); a backend with several sinks
                                        * gives each the same pointer, as it does phase_tag */
    struct rt_meter *meter;            /* the run's CPU-time meter (NULL: none); shared the same way */
    int meter_slot1;                   /* 1 + this sink's slot in meter, 0 none: RT thread only */
    atomic_uint_fast64_t cycles;       /* cycles seen (the next record's seq); written by the RT thread only */
    const atomic_uint_fast64_t *xruns; /* the backend's xrun counter, copied into each record; may be NULL */
    /* The records the ring dropped, by the phase tag they carried (phase << 1 | measuring): ntags counters, or
     * NULL. Allocated and zeroed by the owner before the first cycle, written by the ring's producer only (the
     * RT thread in rt_sink_cycle; the timer backend's relay for the run's sink when it has several threads). A
     * sequence gap cannot tell which tags its lost records carried, nor is a gap after the last record that got
     * through ever seen: these counters can, so the records lost at a phase's edges are counted where they
     * belong (collector_settle_lost), read once the producer has stopped. */
    atomic_uint_fast64_t *lost_by_tag;
    unsigned ntags;
    uint16_t stream;                   /* stamped on each record: 0, or the RT thread's index when a backend runs
                                        * several (each with its own sink and ring) */
    /* Read inside the first cycle, published with sched_known (release). */
    atomic_int sched_known;
    atomic_int sched_policy;           /* SCHED_FIFO...; SCHED_RESET_ON_FORK masked off */
    atomic_int sched_priority;
    atomic_int tid;                    /* the RT thread's TID (gettid), for /proc/self/task/TID/stat */
    atomic_int stack_touched;          /* the backend touched the RT stack before the first cycle */
};

/* Not measured, in the RT thread before its first cycle (e.g. jack_set_thread_init_callback): touches the stack
 * the cycles will use. A backend that calls it sets stack_touched. */
void rt_sink_touch_stack(void);

/* RT-safe (runs in the RT thread): no allocation, lock, printf or file I/O; the only system calls are in the
 * first cycle (sched_getscheduler/sched_getparam/gettid, a warm-up cycle that is never measured).
 * r->t_entry_ns must hold the entry time; deadline_ns is when the next cycle starts (for --dsp). A record the full
 * ring drops is counted under its tag in lost_by_tag (when given). */
void rt_sink_cycle(struct rt_sink *s, struct rt_record *r, int64_t deadline_ns);

/* RT-safe: the DSP work of one cycle of nframes at rate_hz, in units, for a share (ppm) and a calibration; and the
 * guard band the burn leaves before the deadline: 1/32 of the period, at least 10 µs. Arithmetic only. */
uint32_t rt_dsp_units(unsigned share_ppm, double units_per_ns, uint32_t nframes, uint32_t rate_hz);
int64_t rt_dsp_guard_ns(uint32_t nframes, uint32_t rate_hz);

/* Orchestrator (non-RT, the one writer of share_ppm): ask for `share` (0..1.2: above 0.95 an overrun test) of each period from the next cycle on.
 * One atomic store. */
void rt_dsp_set_share(struct rt_dsp_ctl *d, double share);

/* The ring's producer (RT-safe: one atomic load and store): one more record of tag lost. Tags past ntags are not
 * counted (none is made: the orchestrator's last tag is nphases << 1). */
static inline void rt_sink_count_lost(struct rt_sink *s, unsigned tag)
{
    if (s->lost_by_tag && tag < s->ntags)
        atomic_store_explicit(&s->lost_by_tag[tag],
                              atomic_load_explicit(&s->lost_by_tag[tag], memory_order_relaxed) + 1,
                              memory_order_release);
}

#endif
