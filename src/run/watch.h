/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`'s live feed (issue 25): the collector thread notes each xrun event as it begins and once it has
 * closed (phase.h's notify, through run_culprits_happening); the main thread, in the run's wait loop, prints a line
 * for each, the closed ones once their culprit is known (or after WATCH_CULPRIT_WAIT_S without one). Bounded: a
 * fixed queue whose overflow is counted and said, never a wait on the collector. */
#ifndef RTJ_WATCH_H
#define RTJ_WATCH_H
#include "culprit/culprit.h"
#include "run/watch_out.h"
#include "run/watch_summary.h"
#include "stats/phase.h"
#include <pthread.h>

#define WATCH_QUEUE 256
#define WATCH_PENDING 64
#define WATCH_CULPRIT_WAIT_S 2.0
#define WATCH_LATE 64             /* ended events told without a culprit, still asked for it */
#define WATCH_LATE_WAIT_S 20.0    /* for this long after their ended line */

struct watch_feed {
    pthread_mutex_t mu;
    struct watch_note { int what; int64_t start_ns, end_ns; unsigned frames, rate_hz; } q[WATCH_QUEUE];
    unsigned head, tail;           /* under mu: the collector writes tail, the main thread head */
    uint64_t dropped;              /* notes the full queue lost (said at the end) */
    /* main thread only */
    struct watch_out out;
    int64_t wall_off_ns;           /* CLOCK_REALTIME minus the measurement clock */
    uint64_t begun;                /* events begun so far */
    struct watch_pending {         /* closed events waiting for their culprit */
        uint64_t n;
        int64_t start_ns, end_ns;
        double since_s;            /* mono_s() when it closed */
    } pending[WATCH_PENDING];
    int npending;
    struct watch_begun { uint64_t n; int64_t start_ns; } recent[WATCH_PENDING]; /* begun, for their numbers */
    int nrecent;
    struct watch_late { uint64_t n; int64_t start_ns; double since_s; } late[WATCH_LATE]; /* told "not known" */
    int nlate;
    struct watch_tally tally;      /* the session so far, for its summary */
    FILE *summary_to;              /* stdout (text), stderr (waybar: its stdout is JSON lines only) */
    int server_gone;               /* the last run ended because the server went away (not a signal, not hung): watch
                                    * may wait for it to come back (set by run_execute) */
    const char *page;              /* --html FILE: rewritten as a live page while watching (watch_page.c) */
    double page_at_s;              /* when it was last written (mono_s), 0 never */
    int page_error;                /* it could not be written (said once on stderr) */
};

void watch_feed_init(struct watch_feed *f, FILE *out, enum watch_format format, int notify);
/* Collector thread: an event began (PH_EVENT_BEGIN) or closed (PH_EVENT), or the audio thread's cycles changed size
 * (PH_BUFFER: frames and rate are the new size); spikes are not watch's. */
void watch_feed_note(struct watch_feed *f, enum phase_happening what, int64_t start_ns, int64_t end_ns,
                     unsigned frames, unsigned rate_hz);
/* Main thread: the measurement clock's offset to the wall clock (read once the clock is known). */
void watch_feed_clock(struct watch_feed *f, clockid_t clock);
/* Main thread, every wait step: lines for what came; res (NULL: none) names the culprits. final: the session has
 * ended, every pending line is written now. */
void watch_feed_poll(struct watch_feed *f, const struct culprit_results *res, int final);
/* Main thread: the session's summary (run/watch_summary.h), at its end and on SIGUSR1. */
void watch_feed_summary(struct watch_feed *f);
/* Main thread: the server's buffer changed from (frames0, rate0) to (frames1, rate1) while watching, at at_wall_ms
 * (the first cycle at the new size, from a PH_BUFFER note; or now, for a server's next life): a line, and the summary
 * says the size in force and how many changes. */
void watch_feed_buffer(struct watch_feed *f, int64_t at_wall_ms, unsigned frames0, unsigned rate0, unsigned frames1,
                       unsigned rate1);
/* Main thread: the size in force as the cycles run (each life of the server); a size other than the last one's is a
 * change (watch_feed_buffer). */
void watch_feed_size(struct watch_feed *f, unsigned frames, unsigned rate_hz);
/* --html FILE: the live page rewritten when WATCH_PAGE_EVERY_S have passed since the last (watch_page.c). */
void watch_page_update(struct watch_feed *f, double now_s);
void watch_feed_destroy(struct watch_feed *f);

#endif
