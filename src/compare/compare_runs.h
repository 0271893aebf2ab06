/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs as the units of a verdict on set-ups (issue 8, the A/A test). The seconds of one run are close to
 * independent of each other, but not of the run: on a shared or virtual machine a whole run can land in a worse
 * or better state (a load thread placed on the audio CPU or beside it, a neighbour on the host) and stay there for
 * its length. Two back-to-back runs of one set-up on the development VM differed per second, in every second, by
 * up to 40 times in |jitter| p99 (tests/experiments/compare_aa-result-*.txt). Only other runs of a set-up tell
 * such run-to-run noise from a change of set-up, so a verdict needs both:
 *  - the two runs differ in their seconds (compare_blocks.h: rank test, shift, in every half of either run), and
 *  - the set-ups differ across runs: every run of either set-up reduced to one value per measure (the median of
 *    its seconds, on a log scale), and a two-sample t-test on them, with the run-to-run variance pooled over
 *    every group of runs of one set-up.
 * The other runs are those found beside each compared report with the same set-up and label
 * (compare_replicates_beside()). When the two compared runs are themselves of one set-up (nothing the tool can see
 * differs), the sides are the two runs alone and the other runs of that set-up give the noise only. With no
 * other run at all the run-to-run noise is unknown and a difference between the two runs is "worse in this pair" (or
 * better): its own outcome, never a call on the set-ups. */
#ifndef RTJ_COMPARE_RUNS_H
#define RTJ_COMPARE_RUNS_H
#include <jansson.h>
#include <stddef.h>

/* The values of one run and load a set-up verdict uses, in this order: the medians of its seconds' wake-up p99,
 * wake-up max, |jitter| p99, |jitter| max (µs; the per-second measures of compare_block_measures), and the xrun
 * events and missed deadlines per measured second, +0.5/measured seconds (so that runs without any still differ by
 * their length only). NAN where the run cannot give one. */
#define RUN_VALUES 6
/* The store's sidecars keep these values (store_sidecar.h): a change here raises COMPARE_IDENTITY_VERSION
 * (compare.h), or old sidecars go on giving the old values. */
void compare_run_values(const json_t *phase, double v[RUN_VALUES]);
/* The values of every phase of a report: {"<phase display name>": [6 numbers or null], ...}. */
json_t *compare_run_values_json(const json_t *doc);

/* The runs behind one verdict: the compared runs' values and the other runs'. a_more, b_more: more runs of the
 * baseline's and of this report's set-up (when the two set-ups differ); noise: runs of the one set-up both
 * compared runs are of (when they are the same). Each array holds RUN_VALUES per run. */
struct run_groups {
    const double (*a_more)[RUN_VALUES];
    size_t na_more;
    const double (*b_more)[RUN_VALUES];
    size_t nb_more;
    const double (*noise)[RUN_VALUES];
    size_t nnoise;
    /* the family's p of each measure (holm_adjust(), stats/pvalue.h, over every measure of the comparison of this report with the
     * baseline), or NULL: the p a verdict is decided on */
    const double *p_family;
    int family;       /* how many measures that is: the lateness family's (measures 0-3) */
    int family_drops; /* and the dropouts' (measures 4 and 5) */
    /* what each side's per-second latency values (measures 0-3) are multiplied by before they are weighed:
     * 100 / the run's own period in µs when the two set-ups' periods differ (a share of the period: a longer period
     * allows more µs, and that is not worse), else 1 (compare_share_scales()) */
    double scale_a, scale_b;
};
/* The scales of run_groups for the baseline's phase pa and the compared phase pb: 100 / each one's own period (µs)
 * when both are known and differ, so that lateness is weighed as a share of each run's own period; 1 and 1 when
 * they are the same or either is unknown. Returns 1 when the periods differ. */
int compare_share_scales(const json_t *pa, const json_t *pb, double *sa, double *sb);

struct run_level {
    size_t na, nb, nnoise; /* runs on each side, and in the noise group, that had the value */
    int df;                /* pooled degrees of freedom: 0 when the run-to-run noise is unknown */
    double ratio;          /* exp(mean log value of side b - of side a) */
    double sd;             /* pooled standard deviation of the log values */
    double t, p;           /* two-sample t statistic, two-sided p (Student's t, df); NAN when df is 0 */
    double p_family;       /* p adjusted over the comparison's measures (Holm), NAN when not adjusted */
    int family;            /* how many measures that adjustment was over */
};
/* Measure m (0..RUN_VALUES-1) of va (the baseline run), vb (the compared run) and the groups. 0, or -EINVAL when
 * either compared run lacks the value. */
int run_level_test(const double va[RUN_VALUES], const double vb[RUN_VALUES], const struct run_groups *g, int m,
                   struct run_level *out);

/* The other runs of one load behind the verdicts of report i against the baseline docs[0], from reps (each report's
 * compare_replicates_beside(), or NULL) and ids (each report's file id, or NULL), into g; rows is room for 128 runs.
 * When the two are of one set-up, every other run of it (found beside either, each once) is noise only; else each
 * side's own runs join it. The compared reports themselves are never taken twice. */
void compare_gather_runs(json_t *const *docs, const char *const *ids, const json_t *const *reps, size_t i,
                         const char *load, double (*rows)[RUN_VALUES], struct run_groups *g);
/* The run-level p of every measure (RUN_VALUES) of every load in keys (phase display names) of each report i >= 1
 * against the baseline, Holm-adjusted per report and family: p[(i * nkeys + load) * RUN_VALUES + m], NAN where not
 * tested. Two families: the dropouts (xrun events and missed deadlines of every load: the musician's question, on
 * which compare's answer rests) and the lateness (the per-second measures of every load), each adjusted within
 * itself, so that the question asked first is not diluted by the twelve measures asked after it; fam[2 * i] is the
 * lateness family's size, fam[2 * i + 1] the dropouts'. malloc'd (caller frees); NULL when out of memory (then no adjustment). */
double *compare_family_p(json_t *const *docs, const char *const *ids, const json_t *const *reps, size_t n,
                         const json_t *keys, int *fam);

#endif
