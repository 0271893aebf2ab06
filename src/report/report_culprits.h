/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits' places in a report (culprit/culprit.h, REPORT SCHEMA): each event's and spike's ranked culprits as
 * the run's engine gives them (struct culprit_results), the segment's spikes, and each phase's top culprits.
 * report.c's builder calls these; nothing here is placed when the run sought no culprits, but the spikes, which
 * are measured whether or not anything explains them. Main thread, after the measurement. */
#ifndef RTJ_REPORT_CULPRITS_H
#define RTJ_REPORT_CULPRITS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "culprit/culprit.h"
#include "stats/phase.h"

#define TOP_CULPRITS_MAX 8 /* phases[].top_culprits: the first so many */

/* ns of the measurement clock plus wall_off_ns as "2026-12-02T17:22:33.125Z" in buf ("" when it cannot). */
void report_wall(char *buf, size_t len, int64_t ns, int64_t wall_off_ns);
/* Into an event's or a spike's object o: "explained" and "culprits" (ranked) from c for the happening that started
 * at start_ns in phase (the run's phase index); nothing when c is NULL. */
void report_place_culprits(json_t *o, const struct culprit_results *c, enum culprit_subject subj, int phase,
                           int64_t start_ns);
/* The segment's spikes: [{t_s, wall, wakeup_us, callback_us, cpu, explained?, culprits?}]. */
json_t *report_spikes_json(const struct segment *s, int64_t wall_off_ns, const struct culprit_results *c,
                           int phase);
/* A phase's top culprits from its events' and spikes' culprit lists (as placed above): [{kind, name, basis, events,
 * spikes, evidence}], by (kind, name), ranked by events, then spikes, then the happenings it ranked first in; basis
 * "observed" when any of them observed it, else "correlated" when any correlated it, else "none"; evidence the
 * first event's line for it (or the first spike's). */
json_t *report_top_culprits(const json_t *events, const json_t *spikes);

#endif
