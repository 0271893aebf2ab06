/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by phase.c (the cycles, the events), phase_lists.c (the lists, naming), phase_spikes.c (the spikes, and
 * telling the collector of events and spikes) and phase_spill.c (a finished phase written out and read back) only.
 * Collector thread, but for phase_spill.c's (stats/phase_spill.h). */
#ifndef RTJ_PHASE_INTERNAL_H
#define RTJ_PHASE_INTERNAL_H
#include "stats/phase.h"

/* The spike threshold of a new segment of nframes at rate_hz (p's, or half its period). */
int64_t phase_spike_threshold(const struct phase_stats *p, uint32_t nframes, uint32_t rate_hz);
/* A counted cycle of s, due at due_ns, that woke wake_ns late: listed (and told) when above the segment's
 * threshold. cb_ns is its callback, cb_prev_ns the previous cycle's of its stream (0 when none). 0 or -ENOMEM. */
int phase_spike_note(struct phase_stats *p, struct segment *s, int64_t due_ns, int64_t wake_ns, int64_t cb_ns,
                     int64_t cb_prev_ns, int cpu);
/* Tells p's notify function of s's events that have closed since it was last told: every one but the newest,
 * and the newest too when XRUN_EVENT_CLEAN cycles have run clean after it or when `ended` (the phase's end). */
void phase_tell_events(struct phase_stats *p, struct segment *s, int ended);

/* A segment and everything it points to, freed. */
void phase_segment_free(struct segment *s);

/* p's namer (phase_set_namer) as eventkeep.h's event_name_fn, arg the phase: phase_lists.c. */
int phase_name_event(void *arg, int64_t start_ns, int force, char *kind, size_t kind_len, char *name,
                     size_t name_len);

/* One stall is one event: a gap or a notification belongs to the event before it until XRUN_EVENT_CLEAN cycles have
 * run clean since that event's last disturbed cycle (jack2 notifies from another thread, a cycle or two late, once
 * per unfinished client and once for the driver; a long stall can come back as a second gap when the graph catches
 * up). The figure comes from tests/experiments/stall_events.sh (its results beside it). */
#define XRUN_EVENT_CLEAN 8

#endif
