/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One CPU's trace breakdown (tracefs_parse.h) as observed culprits (culprit_engine.h struct culprit_obs), each
 * with its evidence in one line, e.g. "IRQ 145 (iwlwifi) ran 1.2 ms on CPU 2 in the 5.0 ms window (trace)". */
#ifndef RTJ_TRACEFS_OBS_H
#define RTJ_TRACEFS_OBS_H
#include "culprit/culprit_engine.h"
#include "culprit/tracefs_parse.h"

#define TRACE_OBS_MIN_NS 1000  /* the text's resolution (µs): less is not said */

/* The breakdown's interrupt lines, softirq types, threads (a task of kernel priority below 100 as CK_RT_TASK) and
 * exit from idle, largest time first, at most max; returns how many. */
int trace_obs_from_breakdown(const struct trace_breakdown *b, struct culprit_obs *out, int max);

#endif
