/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `rtjitter watch` says of the whole session at its end and on SIGUSR1 (issue 34 item 5): its length, its
 * events and events per hour, the longest and when, the worst minute, the top culprits with their share. Counted
 * from the lines watch itself printed (run/watch.c), so that it never says what the lines did not. Main thread. */
#ifndef RTJ_WATCH_SUMMARY_H
#define RTJ_WATCH_SUMMARY_H
#include <stdint.h>
#include <stdio.h>

#define WATCH_TALLY_CULPRITS 32    /* by name; the rest summed as "others" */
#define WATCH_TALLY_MINUTES 8      /* the latest minutes counted while lines come a little out of order */
#define WATCH_TALLY_KEY 112
#define WATCH_TALLY_SIZES 4        /* buffer sizes whose xruns are counted apart (the last: the others); 80 columns */

struct watch_tally {
    double t0_s;                   /* the session's start (CLOCK_MONOTONIC s); 0 before it */
    uint64_t begun, ended;
    double longest_ms;
    int64_t longest_wall_ms;       /* when it began */
    uint64_t longest_n;
    struct { int64_t minute; uint64_t n; } min[WATCH_TALLY_MINUTES]; /* minute: wall ms / 60000 */
    int64_t worst_minute;          /* -1 before any */
    uint64_t worst_minute_n;
    struct { char key[WATCH_TALLY_KEY]; uint64_t n; } cul[WATCH_TALLY_CULPRITS]; /* "name (kind)" */
    int ncul;
    uint64_t others, not_known;
    int unsought;                  /* no culprit sampler (--no-culprits): no culprit was sought, none is summed */
    unsigned buffer_changes;       /* the server's buffer changed this often while watching */
    unsigned frames, rate_hz;      /* the size in force now (0: not known yet) */
    /* the xruns begun at each size (the size of their own cycles), in the order the sizes came; past the last
     * slot, it sums the other sizes (frames 0) */
    struct { unsigned frames, rate_hz; uint64_t n; } size[WATCH_TALLY_SIZES];
    int nsize;
};

void watch_tally_init(struct watch_tally *t, double t0_s);
/* The buffer size in force from now on (the first, or a change). */
void watch_tally_size(struct watch_tally *t, unsigned frames, unsigned rate_hz);
/* An event began at wall_ms (ms since the epoch), at the size in force. */
void watch_tally_begun(struct watch_tally *t, int64_t wall_ms);
/* The same at the size its own cycles ran at (frames 0: the size in force): a change is told up to half a second
 * after the cycles at the new size began, and an event in between is theirs, not the old size's. */
void watch_tally_begun_at(struct watch_tally *t, int64_t wall_ms, unsigned frames, unsigned rate_hz);
/* An event ended: its number, its start, its length, its top culprit's "name (kind)" or NULL (not known). */
void watch_tally_ended(struct watch_tally *t, uint64_t n, int64_t wall_ms, double length_ms, const char *culprit);
/* One more ended event summed under culprit ("name (kind)"); watch_tally_ended's part, and the way an event told
 * "not known" moves to the culprit found later (after t->not_known--). */
void watch_tally_culprit(struct watch_tally *t, const char *culprit);
/* The summary, each line within 80 columns, to f; now_s on CLOCK_MONOTONIC. */
void watch_tally_print(const struct watch_tally *t, FILE *f, double now_s);

#endif
