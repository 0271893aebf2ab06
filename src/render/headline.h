/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The headline of a run's report: the answer in one sentence ("128 frames at 48 kHz ran without a dropout under
 * every load", "Dropouts at 64 frames at 48 kHz (under write): try 128 frames"), read from the report's own phases
 * and in step with its verdict's level. The text report and the HTML page open with it. */
#ifndef RTJ_HEADLINE_H
#define RTJ_HEADLINE_H
#include <jansson.h>
#include <stddef.h>

/* The headline of doc (a report document) in buf (len bytes, cut to fit); returns buf. A dropout is an xrun event
 * or a missed deadline of a phase; with none the size "ran without a dropout", with some the next size up (twice
 * the frames, 8192 at most) is the one to try, unless the verdict's profile accepts them. What makes the run no
 * kernel test comes first (no real time, rtjitter stopped, the idle trap where rest held the dropouts), and a size
 * too large for live playing (over the profile's warn_period_ms) says so, with the largest that fits. */
const char *headline_report(const json_t *doc, char *buf, size_t len);

#endif
