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

/* The q-quantile of a phase's metric ("jitter", "wakeup", ...), of magnitudes when fold (|jitter|: the tables'
 * jitter, since the signed jitter_us.p99 misses early cycles), q one of 0.5 0.9 0.99 0.999 0.9999: the one value of
 * that figure that the text, the page, the verdict, the thresholds and compare all show, and the JSON holds. It is
 * the report's own (METRIC_us.p99, or .abs_p99 when fold), computed once when the run ended; null there (too few
 * cycles) is NAN here. Where the report has no such key (one from before |jitter|'s were kept, an import, a hand-made
 * document) it is computed here, and only here, from the report's stored histogram by the rule the run stores its
 * own by (rhist_midrank(), within the stored min and max), so that it is the figure the run would have stored;
 * *from_hist (may be NULL) says that it was. NAN when neither is there. */
double phasefig_quantile_from(const json_t *phase, const char *metric, int fold, double q, int *from_hist);
double phasefig_quantile(const json_t *phase, const char *metric, int fold, double q);
/* The nominal period of a phase in µs: from its own period_frames and rate, else the report's audio.period_us
 * (doc may be NULL). NAN when neither is known. */
double phasefig_period_us(const json_t *doc, const json_t *phase);

/* The xruns of a phase: its xrun events (one per stall); in a report from before events were kept, the larger of
 * the reported and the detected (they overlap). NAN when none of them is there. */
double phasefig_xruns(const json_t *phase);

#endif
