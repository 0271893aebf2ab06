/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's verdict line (`rtjitter run --soak`): its maximum wake-up against the profile's threshold, and its
 * overflow (wake-ups beyond the linear bins' 10 ms) as a failure of its own. The threshold is the profile's
 * "soak_max_wakeup_pct" of the period when the profile has it, else its "warn_jitter_pct" (the share of the period
 * the profile accepts as timing error: a wake-up later than that is what it would not accept in jitter either).
 * verdict.c places the object under "verdict".soak and starts its summary with the line. Main thread. */
#ifndef RTJ_VERDICT_SOAK_H
#define RTJ_VERDICT_SOAK_H
#include <jansson.h>
#include <stddef.h>

/* {level "pass"|"fail", line, max_us, threshold_us, threshold_pct, threshold_from, overflow, enforced} for doc's
 * soak phase, or NULL when doc has no soak (or out of memory). */
json_t *verdict_soak(const json_t *doc, const json_t *profile, double period_us, int strict);
/* The line of a verdict_soak() object at b + o, followed by a space; returns the new offset. */
size_t verdict_soak_text(const json_t *soak, char *b, size_t n, size_t o);

#endif
