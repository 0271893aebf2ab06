/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside compare: the comparison's plain words, one sentence per report against the baseline (its "summary"), from
 * the verdicts of its loads (compare_verdict.h) and their tally. */
#ifndef RTJ_COMPARE_SUMMARY_H
#define RTJ_COMPARE_SUMMARY_H
#include <jansson.h>
#include <stddef.h>

struct tally;
/* The sentence of each report i >= 1 of n (titles[i], the baseline titles[0]) from loads (the document's "loads":
 * each {"load", "verdicts"}) and tallies[i]: a JSON array of n - 1 strings. */
json_t *compare_summary(const json_t *loads, const struct tally *tallies, const char *const *titles, size_t n);

#endif
