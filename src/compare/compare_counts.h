/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The count measures of compare (xrun events, missed deadlines), tested on their counts per second (issue 19).
 *
 * Events come in bursts: one stall of the machine gives a dozen missed deadlines in one second, then none for a
 * minute. Two tests that look natural are wrong, in opposite directions:
 *  - a Poisson rate test on the total counts treats every event as an independent unit, so two runs of one set-up
 *    whose bursts happened to be of 30 and of 60 events are "different" (p ~ 0.002): it calls noise;
 *  - the same test on the seconds that had any (each second one unit, as compare did before) caps a second at one,
 *    so 0 events against 42 in 6 s (7 in every second) is 0 against 6 seconds, p = 0.03: it misses a disaster.
 * The unit is the second, as for the latency measures (compare_blocks.h), and its value is its count; two runs'
 * seconds are compared by the permutation test of their ranks (stats/perm_test.h). */
#ifndef RTJ_COMPARE_COUNTS_H
#define RTJ_COMPARE_COUNTS_H
#include <jansson.h>
#include <stddef.h>
#include "stats/perm_test.h"

/* count_test() on two phases' timelines (key "xrun_events" or "deadlines_missed"), over the whole seconds a verdict
 * takes (compare_blocks.h, blocks_of()). -ENODATA when either timeline does not count key in every second; then
 * out->na and out->nb say how many whole seconds there were. */
int count_test_phases(const json_t *pa, const json_t *pb, const char *key, struct count_test *out);

#endif
