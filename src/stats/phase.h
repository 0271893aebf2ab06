/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-phase statistics, built by the collector thread from rt_records.
 * A phase may hold several segments when the buffer size or rate changed during it: statistics never mix
 * two period sizes. */
#ifndef RTJ_PHASE_H
#define RTJ_PHASE_H
#include <stdint.h>
#include <stddef.h>
#include "stats/eventkeep.h"
#include "stats/grid.h"
#include "stats/stats.h"
#include "record.h"

enum { M_PERIOD, M_JITTER, M_WAKEUP, M_CALLBACK, M_MARGIN, M_COUNT };
extern const char *const metric_names[M_COUNT]; /* "period", "jitter", ... */

/* One second of a segment's timeline. Times in ns. */
struct second_stats {
    uint32_t cycles;
    uint32_t xruns_reported;
    uint32_t xruns_detected;
    uint32_t xrun_events;
    uint32_t deadlines_missed;
    int64_t period_max;
    int64_t jitter_abs_max, jitter_abs_p99;
    int64_t wakeup_max, wakeup_p99;
    int64_t callback_max;
    int64_t margin_min;
};

/* struct xrun_event, and what a segment keeps of its events (the latest and the worst in full, the rest summed per
 * minute and per culprit): stats/eventkeep.h. */

/* One wake-up spike: a cycle whose wake-up was above the segment's spike threshold (phase_set_spike_threshold),
 * that is not itself a disturbed cycle of an xrun event (the event carries it). Times on the measurement clock. */
struct wake_spike {
    int64_t t_ns;                  /* when the cycle was due (what its wake-up is measured from) */
    int64_t wakeup_ns;             /* how late it woke: its entry is t_ns + wakeup_ns */
    int64_t callback_ns;           /* its own callback time */
    int64_t callback_max_ns;       /* the larger of its callback and the previous cycle's (for the engine's note) */
    int cpu;                       /* the CPU it ran on, -1 unknown */
};
/* The worst SEGMENT_SPIKES_MAX spikes of a segment (by wake-up) are listed, each explained; the rest are counted
 * (spikes_unlisted). The worst, not the first: at 16 frames / 192 kHz beside a compile a phase makes ~3,000 spikes a
 * second, and the first 512 were its first 0.2 s. A spike that enters once the list is full replaces the least late
 * (the engine forgets that one: PH_SPIKE_DROPPED), so after the first few the list changes rarely (about
 * 128 x ln(n / 128) entries in n spikes). 128: with their culprits they are a bounded part of a run's memory
 * (issue 32, Cost) and of its report, and plenty to rank a phase's culprits by. */
#define SEGMENT_SPIKES_MAX 128

/* What the collector is told as the statistics are made (phase_set_notify): an xrun event once it has closed
 * (XRUN_EVENT_CLEAN clean cycles after its last disturbed one, a newer event, or the phase's end), a spike when its
 * cycle is accounted. The values equal culprit.h's enum culprit_subject (CS_EVENT, CS_SPIKE): stats/ includes
 * nothing of culprit/. */
enum phase_happening { PH_EVENT = 0, PH_SPIKE = 1, PH_EVENT_BEGIN = 2 /* an event has begun (rtjitter watch's first
                                                                         * line; not a culprit subject) */,
                       PH_BUFFER = 3 /* the audio thread's cycles changed size: start_ns = end_ns = the entry of the
                                      * first cycle at the new size, telling its segment; told in the order of the
                                      * cycles, so after every event that began before it (rtjitter watch's
                                      * "buffer changed" line); not a culprit subject */,
                       PH_SPIKE_DROPPED = 4 /* a listed spike (start_ns its t_ns) was pushed out of the list by a
                                             * later, later-waking one: no longer listed, its culprits need not be
                                             * kept */ };
struct phase_stats;
/* start_ns: the event's start_ns or the spike's t_ns; end_ns: the event's end_ns or the spike's entry; cpu and
 * callback_max_ns: the event's or the spike's. Called on the collector thread, from phase_add_cycle(),
 * phase_add_reported_xruns() and phase_finish(); every event (begun, then closed) and every spike as it enters the
 * list, each once; a spike pushed out of the list once more (PH_SPIKE_DROPPED). */
typedef void (*phase_notify_fn)(void *arg, const struct phase_stats *p, enum phase_happening what,
                                int64_t start_ns, int64_t end_ns, int cpu, int64_t callback_max_ns);

/* Names the top culprit of p's event that began at start_ns as it is summarised (event_name_fn, eventkeep.h): kind
 * "" when not known; 0 when it is not known yet and force is not set (asked again later). Collector thread, and
 * the main thread's phase_names_settle. */
typedef int (*phase_name_fn)(void *arg, const struct phase_stats *p, int64_t start_ns, int force, char *kind,
                             size_t kind_len, char *name, size_t name_len);

/* The decided part of a segment's timeline (stats/timeline.c). */
struct tl_entry;
struct tl_acc {
    struct tl_entry *e;            /* in order, covering seconds 0 .. secs_base - 1 */
    size_t n, cap;
    uint64_t eventful;             /* eventful seconds decided (not the edges') */
    uint64_t alone_ev;             /* of them, those standing alone */
    int64_t last_ev;               /* the latest eventful second decided, -1 before any */
    int capped;                    /* too many eventful seconds to keep their neighbours alone */
    uint32_t alone_max;            /* the eventful seconds it keeps alone at most (its share of the run's lists,
                                    * struct phase_lists); 0: TL_DETAIL_MAX (stats/timeline.h) */
};

struct segment {
    uint32_t nframes, rate_hz;
    uint64_t cycles;               /* records counted */
    uint64_t deadlines_met;        /* of the m[M_MARGIN].count cycles whose next start was seen */
    uint64_t cycles_due;           /* cycles the frame clock says should have run after the first: frames
                                    * advanced / frames per cycle (skipped ones included) */
    uint64_t xrun_events;          /* cycles on which the provider's counter changed or the frame clock jumped a
                                    * gap: one stall is one event, however many notifications it caused */
    uint64_t last_event_cycle;     /* the cycle (count) of the last disturbed cycle, 0 before any */
    struct event_keep events;      /* every event counted; the latest and the worst kept, the rest summed */
    uint64_t events_told;          /* events notified as closed (phase_notify_fn): those of seq < events_told */
    uint64_t events_begun;         /* events notified as begun (PH_EVENT_BEGIN): those of seq < events_begun */
    int64_t event_cb_pending;      /* the largest callback since the open event's last disturbed cycle: folded
                                    * into it when it goes on, dropped when it closes */
    struct wake_spike *spikes;     /* the worst SEGMENT_SPIKES_MAX spikes, in no order (the report sorts them) */
    size_t nspikes, spikes_cap;
    size_t spike_least;            /* once the list is full: the index of its least late spike */
    uint32_t spikes_max;           /* the spikes it lists at most (its share of the run's lists, struct
                                    * phase_lists); 0: SEGMENT_SPIKES_MAX */
    uint64_t spikes_unlisted;      /* spikes not listed: less late than those listed, or pushed out by a later one */
    int64_t spike_threshold_ns;    /* the threshold in force for this segment (phase_set_spike_threshold) */
    int last_cpu;                  /* the CPU of the latest cycle, -1 unknown */
    int64_t last_cb_ns;            /* the callback time of the latest cycle */
    uint64_t last_frame;           /* the frame position of the latest cycle */
    uint64_t records_lost;         /* records lost to a full ring (sequence gaps): never counted as a gap */
    uint64_t discontinuities;      /* frame clock jumps that time cannot explain (back, or far ahead) */
    uint64_t duplicates;           /* catch-up records with the same frame time as the one before */
    struct grid grid;              /* the frame clock's ideal grid, for records without an exact start */
    uint64_t wake_grid, wake_provider; /* cycles whose wake-up came from the grid / the provider's exact start */
    uint64_t wake_coarse;          /* cycles measured from the provider's whole-frame start instead of the grid:
                                    * the two disagreed by more than half a period (the provider started that
                                    * cycle off its schedule, or its frame clock re-phased) */
    uint64_t wake_reanchored;      /* cycles that came before the fitted grid by more than WAKE_EARLY_TOL_NS, less
                                    * than half a period: the grid was too high, it is lowered to them (their
                                    * wake-up is 0, the earliest cycle's by the grid's definition) */
    uint64_t wake_left_out;        /* cycles that came before their measured start by more than WAKE_EARLY_TOL_NS
                                    * and could not be placed (half a period or more before the grid: a grid
                                    * whole periods off, or a provider's start that is wrong): left out of the
                                    * wake-up figures, never reported negative; the grid is re-anchored to them */
    uint64_t rephases;             /* the frame clock re-phased against real time (jack2's dummy driver after an
                                    * overrun): the grid was fitted anew from there */
    struct step_detect step;       /* re-phases of the frame clock, from the provider's whole-frame starts */
    uint32_t mismatch_run;         /* consecutive cycles whose whole-frame start disagreed with the grid */
    uint64_t dsp_done, dsp_req;
    uint64_t dsp_cut_short;        /* cycles whose --dsp work stopped at the guard band before the deadline */
    uint64_t xruns_detected;       /* frame-clock gaps larger than one period */
    uint64_t skipped_cycles;       /* cycles lost in those gaps */
    uint64_t xruns_reported;       /* server notifications while this segment was current */
    struct metric_stats m[M_COUNT];
    /* timeline (stats/timeline.h): the newest seconds in secs, the older ones decided into tl */
    int64_t t0_ns;                 /* entry time of the first record */
    struct second_stats *secs;     /* the window: secs[0] is second secs_base (from t0_ns) */
    size_t nsecs, secs_cap;        /* nsecs: the segment's seconds so far, all of them; secs_cap: the window's */
    uint64_t secs_base;            /* the seconds before it are in tl */
    struct tl_acc tl;
    int tl_final;                  /* its phase is over: the window decided into tl and freed (timeline_settle) */
    int64_t *buf_jit, *buf_wake;   /* the current second's values, for its p99 */
    size_t buf_n, buf_cap;
    size_t buf_wn;                 /* buf_wake's count: a cycle left out of the wake-up figures is not in it */
    int64_t cur_sec;
    int sec_settled;               /* its current second was closed and its values freed (phase_settle): a cycle
                                    * that still comes for that second is in every figure but the second's p99s */
    uint64_t p99_late;             /* such cycles (none while the backends' records come in time order) */
    /* each stream's previous record, for period and frame deltas (a backend with several RT threads, the
     * timer on several CPUs, gives each its own stream: their records are pooled, their deltas never mixed) */
    struct stream_prev {
        int have;
        int64_t entry_ns;
        uint64_t frame_pos;
        int64_t exit_ns;
        int64_t start_ns;          /* its start: deadlines and margins */
        int64_t wake_ref;          /* what its wake-up was measured from */
    } prev[RTREC_MAX_STREAMS];
    int64_t prev_entry_ns;         /* entry time of the latest record of any stream (the clock window's end) */
};

/* No wake-up is reported earlier than its cycle by more than this: the stated resolution of the exact starts
 * (PipeWire's cycle times are whole µs; a timer's deadline is exact). */
#define WAKE_EARLY_TOL_NS 1000

#define PHASE_MAX_SEGMENTS 8

/* What each segment of a phase lists at most: the xrun events kept in full (the latest, the worst), the wake-up
 * spikes, the eventful seconds alone in its timeline. A phase alone lists the whole EVENT_KEEP_LATEST,
 * EVENT_KEEP_WORST, SEGMENT_SPIKES_MAX and TL_DETAIL_MAX; a run of several phases shares them (phase_lists_share):
 * its memory and its report hold one phase's lists whatever the number of phases (issue 32, Cost). */
struct phase_lists {
    uint32_t events_latest, events_worst, spikes, seconds_alone;
};
/* The lists of each of a run's nphases phases: the whole lists divided among them, never below
 * PHASE_LISTS_FLOOR_DIV of the whole (a phase lists at least an eighth of them). */
#define PHASE_LISTS_FLOOR_DIV 8
void phase_lists_share(struct phase_lists *l, int nphases);

struct phase_stats {
    struct segment *seg[PHASE_MAX_SEGMENTS];
    int nseg;
    int cur;                       /* segment of the latest record, -1 before any */
    uint64_t ignored_records;      /* records of a ninth size: counted, not measured */
    uint64_t pending_xruns;        /* reported before the phase's first record */
    struct grid warm;              /* fitted on the phase's warm-up, handed to its first segment of that size */
    struct step_detect warm_step;  /* and the re-phases seen in it (a load starting can make the server overrun) */
    uint32_t warm_nframes, warm_rate;
    uint8_t stream_seg[RTREC_MAX_STREAMS]; /* 1 + the segment of each stream's latest record; 0: none yet */
    /* The margin the latest phase_add_cycle measured (of its stream's previous cycle), so that the DSP ramp
     * (stats/ramp.h) judges each cycle by the same deadline: margin_known is 0 when it measured none. */
    int margin_known;
    int64_t margin_ns;
    int64_t spike_threshold_ns;    /* phase_set_spike_threshold's; 0: half the period of each segment's size */
    struct phase_lists lists;      /* phase_set_lists's: what each new segment lists at most */
    phase_notify_fn notify;        /* phase_set_notify's; NULL: nobody is told */
    void *notify_arg;
    const struct segment *telling; /* while notify runs: the segment whose happening it tells (its size) */
    phase_name_fn namer;           /* phase_set_namer's: names an event as it is summarised; NULL: not named */
    void *namer_arg;
    /* The wake-up the latest phase_add_cycle counted (a soak's linear histogram, stats/soakhist.h, takes it):
     * wake_known is 0 when that cycle has none in the wake-up figures. */
    int wake_known;
    int64_t wake_ns;
    int spilled;                   /* segments written out and freed (stats/phase_spill.h), not yet read back */
};

void phase_init(struct phase_stats *p);
/* A cycle whose wake-up is above ns is a spike (listed per segment, struct wake_spike); 0 (the default): half the
 * period of the segment's size (phase_spikes.c says why). Call after phase_init, before the first record. */
void phase_set_spike_threshold(struct phase_stats *p, int64_t ns);
/* What each segment lists at most (struct phase_lists; each figure at least 1, at most the whole); the default is
 * the whole lists. After phase_init, before the first record. */
void phase_set_lists(struct phase_stats *p, const struct phase_lists *l);
/* Who is told of closed events and new spikes (phase_notify_fn), with arg; NULL: nobody. After phase_init. */
void phase_set_notify(struct phase_stats *p, phase_notify_fn fn, void *arg);
/* Who names the top culprit of an event as it leaves the full detail for the sums (eventkeep.h); NULL: nobody. */
void phase_set_namer(struct phase_stats *p, phase_name_fn fn, void *arg);
void phase_free(struct phase_stats *p);
/* Account one record. Returns 0 or -ENOMEM. */
int phase_add(struct phase_stats *p, const struct rt_record *r);
/* The same, with what the collector knows from the sequence: new_xruns, the change of the provider's xrun counter
 * first seen on this record (an event on this cycle), and lost, the records missing just before it. */
int phase_add_cycle(struct phase_stats *p, const struct rt_record *r, uint64_t new_xruns, uint64_t lost);
/* A warm-up record of this phase: not measured, but it fits the grid the measured part starts with. */
void phase_observe(struct phase_stats *p, const struct rt_record *r);
/* Attribute n server-reported xruns (one event) to the current segment and second. */
void phase_add_reported_xruns(struct phase_stats *p, uint64_t n);
/* Tell the notify function of each segment's open event now (the phase's measured part has ended, so it is closed):
 * for the collector when the records of the next phase begin, so that an event in a phase's last cycles is explained
 * while the engine's history still holds it, not at the run's end. A disturbance after it (a late notification)
 * still joins the event in the document, but is not told again. phase_finish() does this too. */
void phase_tell_open_events(struct phase_stats *p);
/* Close the current second of every segment (computes its p99), and tell the notify function of each segment's
 * open event (the phase has ended: it is closed). */
void phase_finish(struct phase_stats *p);
/* The phase's measured part is over (a later phase's measured cycle came): each segment's current second is closed
 * and the values kept for its p99 freed (16 frames at 192 kHz: 256 KiB a phase, kept to the run's end before).
 * phase_finish still tells the events. */
void phase_settle(struct phase_stats *p);
/* The events summed before their culprit was known are summed to it now (event_keep_settle): after the namer's
 * source has explained all it will (the culprit engine stopped), before the report reads the summary. */
void phase_names_settle(struct phase_stats *p);
/* The spikes s lists at most: its spikes_max, or SEGMENT_SPIKES_MAX. */
size_t segment_spikes_max(const struct segment *s);
/* The same for those whose culprit is known by now, without forcing (the collector, for a phase that is over, until
 * none waits: the culprit engine explains ~0.7 s after): how many still wait. */
size_t phase_names_known(struct phase_stats *p);
uint64_t phase_cycles(const struct phase_stats *p);

#endif
