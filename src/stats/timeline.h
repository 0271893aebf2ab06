/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A segment's per-second timeline, kept small as it is made: a 24 h soak must not grow by a second's figures every
 * second (issue 25: private memory stays flat). The newest seconds stay in the segment's window (struct segment's
 * secs, from secs_base); older ones are decided once, in order, into entries by the rule the report states:
 *
 * - every second of the first and last TL_EDGE_S seconds stands alone;
 * - so does every second within TL_NEAR_S of an eventful one (an xrun, a missed deadline, a wake-up or jitter over
 *   half a period), unless there are so many that they pass TL_DETAIL_MAX: then only the worst eventful seconds
 *   (xrun events first, then missed deadlines, then the largest spike) stand alone, up to TL_DETAIL_MAX, and the
 *   eventful seconds folded are counted;
 * - the rest is folded into entries of up to TL_SPAN_S seconds: counts summed, maxima and p99s the largest.
 *
 * Nothing is lost from the counts. Memory: the window (under 3 x TL_EDGE_S seconds), at most TL_TRIM_AT eventful
 * seconds alone between two trims, and the folded entries: any two folded entries side by side span more than
 * TL_SPAN_S, so they are fewer than 2 per TL_SPAN_S seconds, plus one beside each second alone (about 2 KB an hour).
 * Collector thread (phase.c), and the report once the phase has ended. */
#ifndef RTJ_TIMELINE_H
#define RTJ_TIMELINE_H
#include <stdint.h>
#include <stddef.h>
#include "stats/phase.h"

#define TL_EDGE_S 60
#define TL_NEAR_S 5
#define TL_SPAN_S 60
#define TL_DETAIL_MAX 600 /* 10 minutes of seconds alone at most (issues 32, 34): with 1,500, an hour at 16 frames /
                           * 192 kHz on a busy machine, every second eventful, held ~330 KiB of them (a run's whole
                           * private memory is to stay under 4 MiB) */
/* The eventful seconds alone are trimmed back to TL_DETAIL_MAX when they reach this: a quarter more, not twice as
 * many (a trim sorts ~750 numbers once every ~150 eventful seconds), so a watch with an xrun every second holds at
 * most ~750 x 104 bytes of them and stops growing after ~13 minutes (issue 34). */
#define TL_TRIM_AT (TL_DETAIL_MAX + TL_DETAIL_MAX / 4)

/* How an entry came to be: folded, or alone as an edge second, an eventful second, or an eventful one's neighbour. */
enum tl_kind { TL_FOLDED, TL_EDGE, TL_EVENTFUL, TL_NEAR };

struct tl_entry {
    uint64_t s0;                   /* its first second, from the segment's first cycle */
    uint32_t span;                 /* seconds it covers (1: a second alone, or a single folded second) */
    uint32_t kind;                 /* enum tl_kind */
    double severity;               /* an eventful second's (how bad), for choosing the worst */
    struct second_stats st;        /* its figures: one second's, or the fold of span seconds */
};

/* Decide the seconds of s's window that can no longer change (every one more than TL_EDGE_S + TL_NEAR_S before
 * the current second) into its entries, and drop them from the window. Called by phase.c as a second closes.
 * 0 or -ENOMEM (nothing is lost then: the window only stays longer). */
int timeline_compact(struct segment *s);

/* The whole timeline of a segment whose phase has ended: its entries, then its window's seconds decided as the last
 * ones (the last TL_EDGE_S seconds alone), the eventful seconds alone trimmed to TL_DETAIL_MAX. *out is malloc'd
 * (the caller frees it), *n entries; *folded: the eventful seconds folded into longer entries (0 within the
 * budget). Nothing of s changes. 0 or -ENOMEM. */
int timeline_view(const struct segment *s, struct tl_entry **out, size_t *n, uint64_t *folded);

/* The phase is over (phase_settle): the window's seconds decided for good into the entries as timeline_view would,
 * and the window freed (20 KB a segment at 16 frames / 192 kHz, kept to the run's end before); timeline_view then
 * returns the same. A cycle that still comes (phase.h: sec_settled) is added to its last entry. 0 or -ENOMEM (the
 * window is kept then). */
int timeline_settle(struct segment *s);

/* The eventful seconds a segment's timeline keeps alone at most: its tl.alone_max, or TL_DETAIL_MAX. */
size_t tl_alone_max(const struct tl_acc *a);

/* Folds b into a: counts summed, maxima (and per-second p99s) the largest, the margin's minimum the least. */
void second_merge(struct second_stats *a, const struct second_stats *b);

#endif
