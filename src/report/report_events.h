/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A segment's xrun events in the report (REPORT SCHEMA: phases[].events, events_unlisted, events_summary): those
 * kept in full (stats/eventkeep.h: the latest and the worst), each with its culprits when the run sought them, and
 * the sums of the rest per minute and per culprit. Main thread, after the measurement. */
#ifndef RTJ_REPORT_EVENTS_H
#define RTJ_REPORT_EVENTS_H
#include <jansson.h>
#include "culprit/culprit.h"
#include "stats/phase.h"

/* [{n (its number in the segment, from 1), t_s, wall, length_ms, cycles, skipped, notifications, cpu?, callback_max_us?, explained?, culprits?}], in time
 * order. */
json_t *report_events_json(const struct segment *s, int64_t wall_off_ns, const struct culprit_results *cul,
                           int phase);
/* The events not listed: summarised ones and those lost to no memory. */
uint64_t report_events_unlisted(const struct segment *s);
/* {total, listed, summarised, lost, kept_latest, kept_worst, bucket_s, per_minute: [{t_s, wall, span_s, events,
 * length_ms_sum, length_ms_max, skipped, notifications}], per_culprit: [{kind, name, events, length_ms_sum,
 * length_ms_max}] or null (no culprits sought)}; per_minute lists the buckets with an event only. */
json_t *report_events_summary_json(const struct segment *s, int64_t wall_off_ns);

#endif
