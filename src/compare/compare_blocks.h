/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The units compare's verdicts rest on: the per-second blocks of a phase's timeline, not its cycles. Latency
 * comes in bursts, so consecutive cycles are far from independent (two back-to-back runs of one set-up were
 * called different in 7 of 15 measures when cycles were treated as samples); seconds are close to independent
 * on the time scale of a run. A per-second p99 or maximum is one number per second, and two runs are compared
 * by the Mann-Whitney rank test of their seconds and the Hodges-Lehmann shift (the median of every difference
 * between a second of one run and a second of the other: stats/mann_whitney.h). Counts of rare events (xrun events, missed deadlines)
 * are compared by their counts per second (compare_counts.h). */
#ifndef RTJ_COMPARE_BLOCKS_H
#define RTJ_COMPARE_BLOCKS_H
#include <jansson.h>
#include <stddef.h>

/* report.c keeps every second of a phase's first and last minute, whatever happened in them (TL_EDGE_S). */
#define BLOCKS_EDGE_S 60
/* A phase's per-second values of timeline key (e.g. "wakeup_p99_us"), into a malloc'd array (*out, caller frees;
 * NULL when none). Only whole seconds count: entries with "span_s" > 1 (a long run's compacted minutes, whose
 * p99 is the largest of the minute's seconds) and a last second with fewer than half the phase's usual cycles
 * per second (cut by the phase's end) are left out; so are seconds without cycles or without the value. A
 * stalled second short of cycles elsewhere is kept: it is among the seconds that matter most. In a run longer than
 * two minutes, only the first and last BLOCKS_EDGE_S seconds are taken: the whole seconds report.c keeps between
 * them are those around events, and taking them would over-sample the eventful seconds.
 * Returns how many, or -ENOMEM. */
int blocks_of(const json_t *phase, const char *key, double **out);
/* The median of a phase's per-second values of key (blocks_of()), NAN when there are fewer than min (or none). */
double blocks_median(const json_t *phase, const char *key, int min);
/* The seconds a phase measured: its measured_s, else duration_s, else the timeline's seconds. NAN when none. */
double blocks_measured_s(const json_t *phase);

/* The per-second measures the verdicts decide, in order: name of the verdict ("wakeup p99/s"), timeline key
 * ("wakeup_p99_us") and words ("wakeup p99"). */
struct block_measure {
    const char *metric, *key, *words;
};
extern const struct block_measure compare_block_measures[4];

/* Seconds are close to independent, not exactly: the machine's other work comes and goes over seconds too (a
 * burst of stalls for 7 s in one run of two). So each run is also split in two halves (its first and second half
 * of whole seconds, in time order), and a difference must hold between every half of one run and every half of the
 * other: a replication inside the runs. lo and hi get the smallest and largest of the four Hodges-Lehmann shifts.
 * 0, or -EINVAL with fewer than 2 x BLOCKS_HALF_MIN whole seconds in either run (no halves to tell). */
#define BLOCKS_HALF_MIN 3
int blocks_half_shifts(const json_t *pa, const json_t *pb, const char *key, double *lo, double *hi);
/* The same with each side's values multiplied by sa and sb first (a share of each run's own period). */
int blocks_half_shifts_scaled(const json_t *pa, const json_t *pb, const char *key, double sa, double sb, double *lo,
                              double *hi);

#endif
