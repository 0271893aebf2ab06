/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A single report's figures, read from a phase of a validated report: the one definition of each that the text and
 * HTML tables, the run page, the verdict, the thresholds and compare's tables and verdicts all use, so that they
 * name one number. */
#ifndef RTJ_PHASE_FIGURES_H
#define RTJ_PHASE_FIGURES_H
#include <jansson.h>

/* The phase of doc whose doc_phase_name() is key ("burn", "compile+write@2"), or NULL: how compare and its page
 * find one load's phase in each report. */
const json_t *phasefig_find(const json_t *doc, const char *key);

/* The q-quantile of a phase's histogram `hist` ("jitter", "wakeup"), of magnitudes when fold (|jitter|), from
 * the buckets stored in the report: the figure the verdicts compare. The report's own jitter_us.p99 is the
 * signed jitter's, which misses early cycles; tables show |jitter| p99 through this. NAN when absent. */
double phasefig_quantile(const json_t *phase, const char *hist, int fold, double q);
/* The nominal period of a phase in µs: from its own period_frames and rate, else the report's audio.period_us
 * (doc may be NULL). NAN when neither is known. */
double phasefig_period_us(const json_t *doc, const json_t *phase);

/* The xruns of a phase: its xrun events (one per stall); in a report from before events were kept, the larger of
 * the reported and the detected (they overlap). NAN when none of them is there. */
double phasefig_xruns(const json_t *phase);

#endif
