/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A phase's "soak" object (`run --soak`), from stats/soakhist.h. */
#ifndef RTJ_REPORT_SOAK_H
#define RTJ_REPORT_SOAK_H
#include <jansson.h>
#include "stats/soakhist.h"

/* The report's phases[].soak: {range_us, bin_us, count, overflow, max_us, max_at_s, bins [[us, count] ...]
 * (non-empty only), window_s, windows_planned, windows [{max_us, at_s, cycles, overflow}], threads [{thread, cpu,
 * cycles, min_us, avg_us, max_us}], t0_clock_s, and with stop_us >= 0 stop {stop_at_us, tripped, wakeup_us, at_s,
 * cycle, thread, entry_clock_s}}. Times "at_s" count from the soak's first cycle (t0_clock_s on the clock). */
json_t *soak_json(const struct soak_stats *s, double stop_us);

#endif
