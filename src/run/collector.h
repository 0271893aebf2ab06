/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector thread (normal priority): drains the ring every ~50 ms into per-phase statistics. */
#ifndef RTJ_COLLECTOR_H
#define RTJ_COLLECTOR_H
#include <pthread.h>
#include <stdatomic.h>
#include "stats/phase.h"
#include "stats/ramp.h"
#include "stats/soakhist.h"
#include "culprit/pwgraph.h"
#include "ring.h"

/* A long gap between two consecutive records (any stream), kept so that a stop of rtjitter itself (SIGSTOP,
 * Ctrl-Z: every thread stops) can be measured from the records around it, once the SIGCONT's time is known
 * (run/signals.h). What the record after the gap added to its phase is kept too: what the stop caused. */
#define COLLECTOR_GAP_MIN_NS 100000000LL /* 100 ms: shorter gaps are not kept */
#define COLLECTOR_GAPS 32                 /* the longest this many are kept */
#define COLLECTOR_GAP_TAIL_NS 50000000LL  /* what the records this soon after a gap add is counted as the gap's */
struct collector_gap {
    int64_t before_ns, after_ns;      /* entry times of the records either side (the measurement clock) */
    int phase, measuring;             /* of the record after the gap */
    uint64_t events, skipped, missed; /* xrun events, skipped cycles, missed deadlines its record added */
};

struct collector {
    struct rt_ring *ring;
    size_t ring_high;                /* the most records the ring held at a drain (its high-water mark): how much of
                                      * the ring a run needed (run_stats.ring_high_water) */
    struct phase_stats *phases;      /* nphases, owned by the collector thread until collector_stop() */
    int nphases;
    struct ramp_stats *ramps;        /* nphases DSP ramps (--dsp ramp), or NULL; fed beside phases[] */
    struct soak_stats *soak;         /* --soak: the one phase's linear histogram and windows, or NULL */
    atomic_int soak_tripped;         /* --stop-at-us: 1 once a wake-up went beyond it (soak->trip_* say which) */
    /* The ring's producer's lost records by phase tag (rt_sink.lost_by_tag), or NULL: then a sequence gap goes to
     * the measured record just after it, and a gap at a phase's end, or at the run's end, to nothing. */
    const atomic_uint_fast64_t *lost_by_tag;
    unsigned ntags;
    int lost_settled;                 /* collector_settle_lost has run */
    uint32_t last_xruns;              /* the xrun count carried by the previous record */
    /* Each stream's previous record (its own sequence: the timer backend merges one per CPU into one ring). */
    struct collector_stream {
        int have;
        unsigned tag;                 /* its phase << 1 | measuring */
        uint64_t seq;
    } last[RTREC_MAX_STREAMS];
    uint64_t records_lost;            /* sequence gaps: records lost to a full ring, whole run (a gap after the
                                       * last record that got through is not one: see collector_settle_lost) */
    int last_phase1;                  /* 1 + phase of the last measured record, 0 before any */
    uint64_t last_measured_seq;       /* and its sequence number */
    int settled;                      /* the phases before it are settled (phase_settle): a later one was measured */
    int named_upto;                   /* the settled phases before it have no event waiting for its culprit */
    int64_t named_at_ns;              /* when the collector last named those waiting (about once a second) */
    /* Handing finished phases over (run/run_spill.h): with hand_over set, each phase that is settled and named, its
     * lost records settled too, is handed to the main thread, which writes its detail out and frees it. handed: the
     * phases before it are the main thread's (the collector touches them no more; release/acquire). */
    int hand_over;
    atomic_int handed;
    uint64_t handed_xruns[3];         /* the handed phases' xruns detected, reported and events (the status line) */
    uint64_t handed_late;             /* measured records of a handed phase that came after it: counted, not added */
    atomic_int error;                 /* first -errno met; written by the collector thread only */
    pthread_t thread;
    int running;
    atomic_int stop;
    /* published for the status line (written by the collector only) */
    atomic_uint_fast64_t st_cycles;
    atomic_int_fast64_t st_worst_jitter_ns;
    atomic_uint_fast64_t st_detected;   /* of measured cycles only, like the report's table */
    atomic_uint_fast64_t st_reported;
    atomic_uint_fast64_t st_events;
    uint64_t records_seen;            /* all records, warm-up included */
    int64_t prev_entry_ns;            /* the latest record's entry time (any stream), 0 before any */
    struct collector_gap gaps[COLLECTOR_GAPS]; /* read by the caller after collector_stop() */
    int ngaps;
    struct collector_gap gap;         /* the latest long gap, while records within its tail still come */
    int gap_open;
    int64_t cpu_ns;                   /* the collector thread's own CPU time, read when it ends */
    /* Told once of each CPU a record ran on (the first 64 CPUs; the culprit engine scans the real-time tasks that
     * may run there), on the collector thread; NULL: nobody. */
    void (*on_cpu)(void *arg, int cpu);
    void *on_cpu_arg;
    uint64_t cpus_told;
    int told_open1;                   /* 1 + the phase whose open xrun events were told at its end (phase.h) */
    /* PipeWire's own accounting of its graph (culprit/pwgraph.h, through src_pwprof.h), NULL: none. Its
     * disturbances are folded into our cycles as a provider's xruns are, at their own times: so the records are
     * held (at most COLLECTOR_HOLD_NS, COLLECTOR_HOLD records) until the profiler has told every cycle before
     * them. graph_take: as pwprof_graph_take, on the measurement clock; clock: that clock (for the hold). */
    int (*graph_take)(void *arg, struct pwgraph_dist *out, int max, int64_t *known_ns);
    void *graph_arg;
    clockid_t clock;
    struct rt_record *hold;           /* records popped, not yet accounted: a ring of COLLECTOR_HOLD */
    size_t hold_first, hold_n;
    struct pwgraph_dist *pend;        /* disturbances taken, not yet folded: a ring of COLLECTOR_PEND */
    size_t pend_first, pend_n;
    int64_t graph_known_ns;           /* every disturbance of a cycle before it has been taken */
    int final;                        /* the last drain: everything held is accounted */
    uint64_t graph_xruns;             /* disturbances folded into our cycles */
    uint64_t graph_late;              /* of them, those that came after the records of their time were accounted
                                       * (folded into the next one) */
    uint64_t graph_dropped;           /* those beyond COLLECTOR_PEND: counted, not folded */
};

#define COLLECTOR_HOLD_NS 500000000LL /* the profiler sends its batches every ~50 ms (0.3.65, measured here) */
#define COLLECTOR_HOLD 16384          /* 0.7 s at 16 frames / 384 kHz */
#define COLLECTOR_PEND 4096

int collector_start(struct collector *c);
/* The collector thread: one record, with graph_xruns of the graph's disturbances folded into it. */
void collector_record(struct collector *c, const struct rt_record *r, uint32_t graph_xruns);
/* collector_graph.c: the hold and the graph's disturbances (graph_take set). Init before the thread starts (0 or
 * -ENOMEM); drain: what the profiler has told, folded into the records it covers; last: waits (300 ms at most) for
 * the profiler to tell the cycles before the last record; free after the thread ended. */
int collector_graph_init(struct collector *c);
void collector_graph_drain(struct collector *c);
void collector_graph_last(struct collector *c);
void collector_graph_free(struct collector *c);
/* Drain what is left, join the thread. Afterwards phases[] may be read by the caller. */
int collector_stop(struct collector *c);
/* Drain once, in the calling thread (used by collector_stop and by offline tests). */
void collector_drain(struct collector *c);
/* Keeps the open gap among gaps[] (collector_stop calls it; an offline caller after its last drain). */
void collector_flush_gap(struct collector *c);
/* With lost_by_tag, once the producer has stopped and the ring is drained (collector_stop calls it; an offline
 * caller after its last drain): each phase's records lost while it measured are the counter of its measured tag.
 * Those no sequence gap between two of its measured records showed (lost at its end, or across its warm-up's
 * edge) are added to the segment of its last record. Once only. */
void collector_settle_lost(struct collector *c);

#endif
