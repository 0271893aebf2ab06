/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thresholds: the limits a run is judged by for its exit status (--max-xruns, --max-jitter-us,
 * --min-deadlines-pct, --max-wakeup-p99-us, and with --profile the profile's FAIL limits), each judged per
 * phase. The result is the report's "thresholds" object; JUnit, TAP, LAVA and KCIDB are rendered from it, so a
 * report read back gives the same pass and fail as the run that made it. Main thread only. */
#ifndef RTJ_THRESHOLDS_H
#define RTJ_THRESHOLDS_H
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/* The user's limits; a negative value is "not given". */
struct report_limits {
    int64_t max_xruns;          /* xrun events per phase */
    double max_jitter_us;       /* worst |jitter| per phase */
    double min_deadlines_pct;   /* deadlines met, % per phase */
    double max_wakeup_p99_us;   /* wake-up p99 per phase */
};
#define REPORT_LIMITS_NONE { -1, -1, -1, -1 }

/* "thresholds".checks: one entry per threshold, in the order the renderers list them:
 *   {id, metric, unit, op ("<=" or ">="), limit, source ("--max-xruns", "profile studio", ...),
 *    enforced (decides the exit status: given by the user, or the profile with --profile),
 *    phases [{phase (display name), load, value (null: no figure), pass}]}
 * A phase without a figure fails: nothing was shown to be within the limit. The profile's own limits
 * (xruns, missed deadlines) are always listed; not enforced without --profile (advice only). Returns the
 * array (NULL when out of memory); *failed gets the number of enforced (phase, threshold) failures. */
json_t *thresholds_judge(const json_t *doc, const json_t *profile, int strict, const struct report_limits *lim,
                         int *failed);

/* The report's "thresholds" object: {profile, max_xruns, max_deadlines_missed (the limits in force),
 * max_jitter_us, min_deadlines_pct, max_wakeup_p99_us (null when not given), strict, exceeded, checks}.
 * *exceeded: an enforced check failed, or profile_failed (strict, and the profile's verdict is FAIL). */
json_t *thresholds_object(const json_t *doc, const json_t *profile, int strict, const struct report_limits *lim,
                          long long max_xruns, long long max_missed, int profile_failed, int *exceeded);

/* One line per enforced failure of doc's "thresholds".checks, on f:
 * "PROG: threshold exceeded: phase burn: xrun events 3, limit <= 0 (--max-xruns)". Returns the count. */
int thresholds_print_failures(FILE *f, const json_t *doc, const char *prog);

/* What a renderer needs of one (phase, threshold) pair. */
enum thresh_outcome { THRESH_PASS, THRESH_FAIL, THRESH_ADVISORY /* failed, but not enforced */ };
enum thresh_outcome thresholds_outcome(const json_t *check, const json_t *phase_entry);
/* "xrun events 3 <= 0", "wake-up p99 20.4 us <= 500 us" (the value "-" when there is none). */
void thresholds_describe(const json_t *check, const json_t *phase_entry, char *buf, size_t len);
/* v with at most prec decimals, the trailing zeros dropped: 99.900 -> 99.9, 3.000 -> 3. */
void thresholds_num_text(double v, int prec, char *buf, size_t len);
/* A figure as the check shows it: counts whole, µs with one decimal, % with three. "-" for null. */
void thresholds_value_text(const json_t *check, const json_t *v, char *buf, size_t len);

#endif
