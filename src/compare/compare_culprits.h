/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits that came or went between the baseline and each other report, per load (issue 24): read from each
 * phase's "top_culprits" (culprit/culprit.h, REPORT SCHEMA) and matched by kind and name (a pid is not: the same
 * program has another one in the next run). The comparison document's loads[].culprits. */
#ifndef RTJ_COMPARE_CULPRITS_H
#define RTJ_COMPARE_CULPRITS_H
#include <jansson.h>
#include <stddef.h>

/* Load `key` of docs[0] against each of docs[1..n): [{report (its index), sought [baseline, it] (whether each run
 * looked for culprits: its phase has top_culprits), came [{kind, name, events, spikes}] (in it, not in the baseline),
 * went [...] (in the baseline, not in it), stayed [{kind, name, events [before, after], spikes [before, after]}]}],
 * one entry per report whose phase or the baseline's names any culprit (when one of the two did not look, came,
 * went and stayed are empty and "seen" lists what the other named). NULL when no report names any: the load's
 * document is then as it was before culprits. */
json_t *compare_culprits(json_t *const *docs, size_t n, const char *key);

#endif
