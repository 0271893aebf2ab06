/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/stats/: statistics of cycles, without JSON and without threads: one metric (this file) and one phase
 * (phase.h, from rt_records). It may include rtaudio/record.h and the C library only.
 *
 * Statistics of one metric: exact count/min/max, Welford mean and variance, and a log-linear histogram.
 * Values are int64 nanoseconds and may be negative (jitter, margin).
 *
 * Histogram: magnitudes below 128 ns are exact; above, each power of two is split in 64 buckets, so a
 * bucket's width is at most 1/64 of its lower edge and its midpoint is within 0.8 % of any value in it.
 * That covers 1 µs .. 10 s (and beyond, to 2^40 ns) with <= 1 % relative error in a fixed 2 x 2304 buckets:
 * memory does not grow with the run's duration. */
#ifndef RTJ_STATS_H
#define RTJ_STATS_H
#include <stdint.h>
#include <stddef.h>

#define HIST_LINEAR 128
#define HIST_SUB_BITS 6
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_MAX_EXP 40
#define HIST_BUCKETS (HIST_LINEAR + (HIST_MAX_EXP - 7 + 1) * HIST_SUB)

/* A non-empty bucket of a compacted histogram: b >= 0 the bucket of values >= 0, b < 0 bucket -b - 1 of magnitudes of
 * values < 0. Packed, 10 bytes (16 aligned): a finished phase keeps ~3,750 of them at 16 frames / 192 kHz under load
 * (issue 32, Cost). */
struct __attribute__((packed)) hist_bin {
    int16_t b;
    uint64_t n;
};
_Static_assert(HIST_BUCKETS < 32767, "a bucket's index fits hist_bin.b");

struct histogram {
    uint64_t pos[HIST_BUCKETS]; /* values >= 0 */
    uint64_t neg[HIST_BUCKETS]; /* magnitudes of values < 0 */
    uint64_t total;
    struct hist_bin *sparse;    /* compacted (hist_compact): its non-empty buckets, most negative first, and pos and
                                 * neg no longer read (their whole pages given back); NULL: pos and neg hold them */
    uint32_t nsparse;
};

/* The non-empty buckets of a histogram, dense or compacted, most negative first: *neg, *b the bucket, *n its count;
 * returns 0 when none is left. Start with it zeroed. */
struct hist_iter {
    int stage, b;
    uint32_t k;
};
int hist_next(const struct histogram *h, struct hist_iter *it, int *neg, int *b, uint64_t *n);
/* A histogram no value will be added to any more (its phase is over): its non-empty buckets are kept apart (a few
 * hundred bytes) and the whole pages of its 37 KB of dense arrays given back to the kernel (munlock, madvise
 * MADV_DONTNEED: a segment's five histograms touch ~90 KB at 16 frames / 192 kHz). Every reader goes through
 * hist_next; a value added later first spreads the buckets back. Returns 0, or -1 (no memory: left dense). */
int hist_compact(struct histogram *h);
/* Frees what hist_compact kept apart (the histogram is then empty). */
void hist_release(struct histogram *h);

struct welford {
    uint64_t n;
    double mean;
    double m2;
};

struct metric_stats {
    uint64_t count;
    int64_t min, max;
    int64_t abs_max;
    struct welford w;
    struct histogram hist;
};

int hist_bucket(uint64_t magnitude);
/* Lower and upper (exclusive) edges of bucket b, as magnitudes in ns. */
void hist_bucket_edges(int b, uint64_t *lo, uint64_t *hi);
void hist_add(struct histogram *h, int64_t v);
/* The q-quantile (0 <= q <= 1), nearest-rank, as the midpoint of the bucket holding that rank.
 * Returns 0 for an empty histogram. */
int64_t hist_quantile(const struct histogram *h, double q);

void welford_add(struct welford *w, double x);
double welford_sd(const struct welford *w);   /* sample SD (n-1); 0 when n < 2 */

void metric_init(struct metric_stats *m);
/* The same for an m whose bytes are all zero already (calloc): its histogram (37 KB) is not written, so the pages
 * no value lands in stay untouched and cost no memory (a segment's histograms are 184 KB, nearly all zeros). */
void metric_init_zeroed(struct metric_stats *m);
void metric_add(struct metric_stats *m, int64_t v);
/* Quantile clamped to the exact min and max. */
int64_t metric_quantile(const struct metric_stats *m, double q);
/* The same of the magnitudes |v| (negative and positive buckets of one size together), at most abs_max. */
int64_t metric_abs_quantile(const struct metric_stats *m, double q);

/* Whether n values say anything of their q-quantile beyond their maximum: at least 1/(1 - q) of them. The report
 * stores null for a quantile they do not (report_metric_json), and its readers' fallback keeps to it. */
int quantile_defined(uint64_t n, double q);

/* In-place selection: the nearest-rank q-quantile of v[0..n-1] (reorders v). n > 0. */
int64_t select_quantile(int64_t *v, size_t n, double q);

#endif
