/* Inside compare: the verdicts of one load (compare_verdict.c), for compare_build() (compare.c). */
#ifndef RTJ_COMPARE_VERDICT_H
#define RTJ_COMPARE_VERDICT_H
#include <jansson.h>
#include <stddef.h>
#include "report/compare_stats.h"

/* How many measures of a report came out each way against the baseline. */
struct tally {
    int better, worse, same, weak;
};

/* The xruns of a phase: the larger of the reported and the detected (they overlap); NAN when neither is there. */
double compare_xruns(const json_t *phase);
/* Verdicts of report number bi's phase pb against the baseline's phase pa of the same load, appended to list
 * and counted in t. ra, rb: the same load in an earlier run of the baseline's and of this report's kernel
 * (run-to-run noise), or NULL. */
void compare_load_verdicts(const json_t *pa, const json_t *pb, const json_t *ra, const json_t *rb, size_t bi,
                           json_t *list, struct tally *t);

#endif
