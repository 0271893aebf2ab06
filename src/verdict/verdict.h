/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/verdict/: plain words for a musician, from a report document, its system identity and a profile of
 * thresholds (profile.h). The verdict judges a document as built, reading it only, and gives its parts
 * ("thresholds", "profile", "verdict": struct report_judgement), which the report's builder places
 * (report_build(), report/report.h, calls verdict_judge last through the run's judge). verdict.c reads the phases
 * and writes the summary and the level, verdict_advice.c the advice, verdict_ramp.c a ramp's verdict,
 * verdict_text.c the sentences' one writer below them. A file here may include report/, checks/, sysinfo/ (an
 * identity's figures: sysinfo_irq_floor()), culprit/culprit.h (the table of culprit kinds) and util/; never
 * render/, compare/ or run/. */
#ifndef RTJ_VERDICT_H
#define RTJ_VERDICT_H
#include <jansson.h>
#include <stdint.h>
#include "report/report.h"

struct report_limits; /* report/thresholds.h */

/* The verdict of doc (read only): "verdict" {level, summary, setting, worst_load, try, advice[], advice_ids[],
 * profile}, "thresholds" and "profile" into j (new references, NULL where out of memory), from its phases and its
 * system identity, judged by profile (a checked profile, see profile.h). lim's max_xruns (>= 0) overrides the
 * profile's; its other limits (>= 0) add their checks ("thresholds".checks, thresholds_judge()).
 * Returns 1 when a threshold the user chose was exceeded: --max-xruns, --max-jitter-us..., or, when strict
 * (--profile given), any FAIL of the profile; 0 otherwise; -1 when out of memory. */
int verdict_judge(const json_t *doc, const json_t *profile, int strict, const struct report_limits *lim,
                  struct report_judgement *j);
/* A document not built by report_build (a fixture, one read back) judged, and the parts placed in it
 * (report_place_judgement()). The same return as verdict_judge. */
int verdict_report(json_t *doc, const json_t *profile, int strict, int64_t max_xruns, double max_jitter_us);
int verdict_report_limits(json_t *doc, const json_t *profile, int strict, const struct report_limits *lim);

#endif
