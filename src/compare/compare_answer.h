/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside compare: the answer a musician acts on, one per report against the baseline (the document's "answers"):
 * dropouts first (xrun events, then missed deadlines, load by load, in the reports' own counts), lateness as a
 * share of each run's own period only when no dropout moved, and a change of buffer size said as what it is. Built
 * from the verdicts of the loads (compare_verdict.h), which it never overrules: it only orders and words them. */
#ifndef RTJ_COMPARE_ANSWER_H
#define RTJ_COMPARE_ANSWER_H
#include <jansson.h>
#include <stddef.h>

/* The answer of each report i >= 1 of the document's "reports" (each {"period_frames", "period_us", "rate"}) from
 * its "loads" (each {"load", "verdicts"}): a JSON array of n - 1 objects {"report": i, "outcome", "text"}; outcome
 * is one of better, worse, better_in_pair, worse_in_pair, mixed, same, not_compared. */
json_t *compare_answers(const json_t *reports, const json_t *loads, size_t n);

#endif
