/* `rtjitter compare`: reports side by side, and an honest verdict per metric.
 *
 * The statistics work on the histograms stored in the reports (log-linear buckets, <= 1.6 % wide), so a
 * comparison needs no raw samples:
 *  - percentiles (p99, p99.9) get a bootstrap confidence interval. The q-quantile of a resample of n values
 *    drawn from the histogram is F^-1(U(k)), U(k) the k-th order statistic of n uniforms, k = ceil(q n), which is
 *    Beta(k, n + 1 - k) distributed: drawing that Beta is drawing a whole resample's quantile, exactly and in
 *    constant time.
 *  - the whole distribution gets a Mann-Whitney rank test computed from the two histograms (values in one bucket
 *    are ties) and its effect size P(B > A).
 *  - xrun and missed-deadline counts get an exact conditional binomial test of two Poisson rates.
 * All of these treat the cycles of one run as independent; consecutive cycles are not, and one run per kernel
 * cannot measure run-to-run noise, so a difference also has to be large (>= 10 % and >= 2 µs) to be called
 * one, and a single run's maximum is never more than weak evidence. */
#ifndef RTJ_COMPARE_H
#define RTJ_COMPARE_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A histogram read from a report: buckets [lo, hi) in µs, sorted by lo, with counts. */
struct rhist {
    size_t n;
    double *lo, *hi, *count;
    double *cum;            /* cum[i]: sum of count[0..i], for binary search */
    double total;
};

/* From a validated report's histogram array. fold_abs: magnitudes (|jitter|), negative buckets mirrored and
 * merged with the positive ones. An absent or empty array gives an empty histogram. 0 or -ENOMEM. */
int rhist_from_json(const json_t *arr, int fold_abs, struct rhist *h);
void rhist_free(struct rhist *h);
/* Inverse CDF at probability u in [0, 1], linear inside the bucket. NAN when empty. */
double rhist_inverse(const struct rhist *h, double u);
/* The q-quantile (nearest rank k = ceil(q n), interpolated inside its bucket). NAN when empty. */
double rhist_quantile(const struct rhist *h, double q);

struct quantile_diff {
    double a, b;            /* the q-quantile of each */
    double lo, hi;          /* 95 % bootstrap interval of b - a */
    double tail_a, tail_b;  /* cycles above the quantile in each: few means weak evidence */
};
/* Percentile bootstrap with `resamples` draws from a fixed seed: the same inputs give the same interval. */
int quantile_diff_ci(const struct rhist *a, const struct rhist *b, double q, int resamples, uint64_t seed,
                     struct quantile_diff *out);

struct rank_test {
    double p_value;         /* two-sided, normal approximation with tie correction */
    double prob_b_greater;  /* P(B > A) + P(B = A) / 2 */
    double z;
};
int rank_test(const struct rhist *a, const struct rhist *b, struct rank_test *out);

/* Exact two-sided conditional test that ka events in na cycles and kb in nb come from one rate. */
double rate_test_p(double ka, double na, double kb, double nb);

/* Outcome of one metric's comparison. */
enum cmp_outcome { CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_WEAK, CMP_NA };
const char *cmp_outcome_name(enum cmp_outcome o);

/* Decide a percentile comparison: lower is better. */
enum cmp_outcome decide_quantile(const struct quantile_diff *d);
/* Decide a rank test: lower is better. */
enum cmp_outcome decide_rank(const struct rank_test *t);
/* The same, when two runs of one kernel were seen to differ by noise_us (quantile) or by an effect of
 * noise_effect (|P(B > A) - 0.5|): a difference must exceed that too. */
enum cmp_outcome decide_quantile_noise(const struct quantile_diff *d, double noise_us);
enum cmp_outcome decide_rank_noise(const struct rank_test *t, double noise_effect);

/* The comparison document ("schema": "rtjitter.compare/1") of n validated reports; the first is the baseline.
 * names[i] is where report i came from (shown, not parsed). NULL when n is 0. */
json_t *compare_build(json_t *const *docs, const char *const *names, size_t n);
/* The same, with repeats[i] (or NULL) an earlier run of report i's kernel: when its system identity and audio
 * setting match, the distance between the two runs is taken as run-to-run noise, and a difference between
 * kernels must exceed it. repeat_names[i] says where it came from. */
json_t *compare_build_repeats(json_t *const *docs, const char *const *names, json_t *const *repeats,
                              const char *const *repeat_names, size_t n);
/* Text rendering: identity differences, one table per load, verdicts. */
void compare_print_text(FILE *f, const json_t *cmp);
/* One flattened line per scalar under o ("kernel.hz" -> "1000"), for identity tables and differences.
 * Calls fn for each, depth-limited. */
void flatten_json(const json_t *o, const char *prefix, int depth,
                  void (*fn)(const char *key, const char *value, void *arg), void *arg);

/* The comparison key of a phase: its load, with "@FRAMES" when the buffer size changed during the phase.
 * And the phase of doc with that key, or NULL. */
void compare_phase_key(const json_t *phase, char *buf, size_t len);
const json_t *compare_find_phase(const json_t *doc, const char *key);

/* The report just before path in its directory (by name, i.e. by start time), into out. 0 or -ENOENT. */
int compare_previous_in_store(const char *path, char *out, size_t len);
/* The store's latest report of each kernel release: fills paths (malloc'ed, caller frees each and the array),
 * oldest kernel first by start time. 0 or -errno; *n may be 0. */
int compare_latest_in_store(const char *store, char ***paths, size_t *n);

#endif
