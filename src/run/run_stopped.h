/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stop of rtjitter itself (SIGSTOP, Ctrl-Z): every thread stops, the audio cycles too, and the skipped cycles
 * then are the stop's, not the kernel's. SIGCONT tells that it happened and when it ended (run/signals.h); the
 * gap in the records around that moment (run/collector.h) measures how long. Main thread, after collector_stop. */
#ifndef RTJ_RUN_STOPPED_H
#define RTJ_RUN_STOPPED_H
#include "run/collector.h"
#include "loadplan.h"
#include <jansson.h>
#include <stdint.h>

/* The report's "run" object: {stopped: how many times continued, longest_stop_s, stopped_s, stops: [{continued
 * (UTC, ms), t_s (measurement clock), gap_s, load, measuring, skipped_cycles, xrun_events, deadlines_missed}],
 * method}. A SIGCONT with no gap of at least COLLECTOR_GAP_MIN_NS around it (a stop shorter than that, or a
 * SIGCONT without a stop) has gap_s null. wall_off_ns: the wall clock minus the measurement clock. */
json_t *run_stopped_json(const struct collector *c, const struct load_plan *plan, int64_t wall_off_ns);

#endif
