/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a segment keeps of its xrun events, in bounded memory whatever the session's length (issue 34, issue 32
 * item 5): every event is counted; the latest EVENT_KEEP_LATEST and the worst EVENT_KEEP_WORST (by length) in full;
 * each of the rest, once it leaves both, summed into its minute (bucket) and into its culprit's line. Collector
 * thread; its allocation is the collector's, never the RT thread's. */
#ifndef RTJ_EVENTKEEP_H
#define RTJ_EVENTKEEP_H
#include <stddef.h>
#include <stdint.h>

/* One xrun event: a disturbance of the graph (a frame-clock gap, a provider's xrun notification) and every one that
 * follows it before XRUN_EVENT_CLEAN cycles have run clean again (phase.c says why that many). Times on the
 * measurement clock, in ns. */
struct xrun_event {
    int64_t start_ns;              /* when its first disturbed cycle was due (a gap: the first skipped cycle) */
    int64_t end_ns;                /* the entry of its last disturbed cycle (never before start_ns: clamped) */
    uint64_t frame0, frame1;       /* the frame positions of its first and last disturbed cycles */
    uint64_t seq;                  /* 0-based, in its segment (set by event_keep_push) */
    uint32_t skipped;              /* cycles that never ran in it */
    uint32_t notifications;        /* the provider's notifications in it */
    int cpu;                       /* the CPU its first disturbed cycle ran on (rt_record.cpu), -1 unknown */
    int64_t callback_max_ns;       /* the largest callback time of its cycles and of the cycle before it (a
                                    * callback that overran the period made the gap: the culprit engine's DSP rule) */
};

/* 192 latest + 64 worst = 256 listed at most (the 4,096 listed before held the first 8 minutes of a busy session
 * and none after; 384 + 128 until issue 32's memory bound: at 16 frames / 192 kHz every phase of a run filled them
 * in seconds, each with its culprits held by the engine). 192: at this VM's 250 events a second under a compile
 * the latest still reach back ~0.8 s, about when the engine has explained them; one summed before it had waits
 * (EVENT_DEFER_MAX) and is summed to its culprit once explained. With 8 ranked culprits each, about 0.7 MB of a
 * report at most, whatever the session's length; the ring and the heap are 17 KB a segment with events. */
#define EVENT_KEEP_LATEST 192
#define EVENT_KEEP_WORST 64
/* The summary's buckets are a minute wide until there would be more than this many (24 h): then two neighbours are
 * merged and the width doubles, so that a week-long session keeps 1,440 buckets of 8 minutes. */
#define EVENT_SUM_BUCKET_NS 60000000000LL
#define EVENT_SUM_BUCKETS_MAX 1440
/* Culprits summed by name; those past the table are summed as "others". */
#define EVENT_SUM_CULPRITS_MAX 24
#define EVENT_SUM_KIND_MAX 24
#define EVENT_SUM_NAME_MAX 64
/* Events summed before their culprits were known, waiting to be summed to their culprit (the oldest first); one
 * more is named at once, as not known if its culprit is not (the culprit engine counts those:
 * culprits.sampler.forgotten_unexplained). */
#define EVENT_DEFER_MAX 256

/* Names the top culprit of the event that began at start_ns (kind "" when not known) and returns 1; or returns 0
 * when who it was is not known yet (the culprit engine has not come to it: it explains ~0.7 s after an event),
 * unless force is set. Called on the collector thread when an event is summarised, when it leaves the full detail
 * for good, and again for one not named yet (event_keep_push, event_keep_settle) until it is, so that the caller
 * may then release what it holds for it (the culprit engine forgets it: run_culprits_name). */
typedef int (*event_name_fn)(void *arg, int64_t start_ns, int force, char *kind, size_t kind_len, char *name,
                             size_t name_len);

struct event_sum {                 /* events summed: a bucket's, a culprit's */
    uint64_t events, skipped, notifications;
    int64_t length_ns_sum, length_ns_max;
};

struct event_sum_culprit {
    char kind[EVENT_SUM_KIND_MAX]; /* "" : not known when it was summarised */
    char name[EVENT_SUM_NAME_MAX];
    struct event_sum sum;
};

struct event_keep {
    struct xrun_event *latest;     /* a ring of EVENT_KEEP_LATEST, allocated with the first event */
    size_t latest_first, nlatest;  /* the oldest's slot; how many */
    struct xrun_event *worst;      /* a min-heap by length of EVENT_KEEP_WORST, of events that left the ring */
    size_t nworst;
    uint64_t total;                /* every event pushed */
    uint64_t summarised;           /* of them, those only in the sums */
    uint64_t lost;                 /* no memory for the ring or a bucket: counted, neither listed nor summed
                                    * (total = listed + summarised + lost) */
    int64_t origin_ns;             /* bucket 0 begins here (the segment's first cycle) */
    int64_t bucket_ns;             /* EVENT_SUM_BUCKET_NS, doubled as the session grows */
    struct event_sum *buckets;     /* [0, nbuckets): by (start - origin) / bucket_ns */
    size_t nbuckets, buckets_cap;
    struct event_sum_culprit culprits[EVENT_SUM_CULPRITS_MAX];
    size_t nculprits;
    struct event_sum culprits_other; /* past the table */
    int named;                     /* a name function was given at least once: the culprit sums mean something */
    struct xrun_event *deferred;   /* summed, their culprit not known yet: [0, ndeferred), the oldest first */
    size_t ndeferred;
    uint32_t keep_latest, keep_worst; /* this segment's share of the run's lists (event_keep_set_lists); 0: the
                                       * whole EVENT_KEEP_LATEST, EVENT_KEEP_WORST */
};

void event_keep_init(struct event_keep *k);
void event_keep_free(struct event_keep *k);
/* Keep at most latest and worst in full (each at least 1, at most EVENT_KEEP_LATEST, EVENT_KEEP_WORST): a run of
 * several phases shares its lists among them (stats/phase.h, struct phase_lists). Before the first push. */
void event_keep_set_lists(struct event_keep *k, uint32_t latest, uint32_t worst);
/* What k keeps in full at most: its latest, its worst. */
size_t event_keep_latest_max(const struct event_keep *k);
size_t event_keep_worst_max(const struct event_keep *k);
/* Counts e (a new event, seq set here) and keeps it among the latest; the one it pushes out of the ring stays if
 * it is among the worst, else it (or the worst it replaced) is summed, named through name (NULL: no culprits
 * sought). origin_ns: where the segment's buckets begin (read with the first event summed). 0, or -ENOMEM (then the
 * event is counted in lost). */
int event_keep_push(struct event_keep *k, const struct xrun_event *e, int64_t origin_ns, event_name_fn name,
                    void *arg);
/* Sums every event still waiting for its culprit to the one it has now, or as not known (force: the culprit
 * engine has stopped). Before the summary is read for the report. */
void event_keep_settle(struct event_keep *k, event_name_fn name, void *arg);
/* Sums the events waiting for their culprit to theirs while it is known (the oldest first), without forcing; frees
 * the waiting list once it is empty. Returns how many still wait. For a segment whose phase is over (no push names
 * them any more): the culprit engine forgets each once named. */
size_t event_keep_name_known(struct event_keep *k, event_name_fn name, void *arg);
/* The newest event (it may still go on: its end, skipped cycles, notifications grow), NULL before any. */
struct xrun_event *event_keep_newest(struct event_keep *k);
/* The event of that sequence number while it is among the latest, else NULL. */
const struct xrun_event *event_keep_seq(const struct event_keep *k, uint64_t seq);
/* The events kept in full (the latest and the worst), in time order, into a new array (*out, freed by the caller;
 * NULL when none). Returns how many, or -ENOMEM. */
long event_keep_list(const struct event_keep *k, struct xrun_event **out);
/* An event's length, never negative. */
int64_t event_length_ns(const struct xrun_event *e);

#endif
