/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/report/: the documents. The report ("schema": "rtjitter.report/1") is built once from a run (report.c),
 * kept in the store (store.c), read back and checked (report_read.c), and compared (compare*.c, giving
 * "rtjitter.compare/1"); doc.c holds the frame every document opens with and the one writer every file goes
 * through, access.c the one way values are read out of a document. Every other form (text, HTML) is rendered
 * from the JSON by render/. A file here may include stats/ (what a report is built from), util/ and jansson;
 * never render/, cli/, run/ or rtaudio/. */
#ifndef RTJ_REPORT_H
#define RTJ_REPORT_H
#include <jansson.h>
#include <stdio.h>
#include <time.h>
#include "stats/phase.h"

#define REPORT_SCHEMA "rtjitter.report/1"

struct phase_result {
    const char *load;              /* "none", "burn", "compile+write", ... */
    double duration_s;             /* planned measuring time */
    double measured_s;             /* time really measured (shorter when interrupted) */
    int measured;                  /* the phase reached its measuring part */
    int finished;                  /* and measured it to its end (not cut short by a stop of the run) */
    struct phase_stats *stats;
    uint64_t dropped;              /* its measured records the full ring dropped */
    double cpu_load_mean, cpu_load_max; /* jack_cpu_load() samples, % */
    int cpu_load_samples;
    json_t *load_metrics;          /* array [{name, value, unit}], borrowed reference, may be NULL */
    const char *load_error;        /* why the load did not run / failed, or NULL */
    json_t *ramp;                  /* --dsp ramp: the phase's "dsp_ramp" (report_ramp.h), borrowed, or NULL */
    json_t *dsp_share;             /* the phase's "dsp_share" (run/rt_cpu.h): the RT threads' CPU time over its
                                    * cycles x the period, and the share asked; borrowed, or NULL */
};

struct audio_info {
    const char *backend;           /* "jack", ... */
    json_t *provider;              /* the backend's describe(): provider, server, clock... (borrowed, may be NULL) */
    int rate_hz, period_frames;
    int realtime;                  /* SCHED_FIFO/RR seen from inside the RT thread */
    const char *sched_policy;
    int priority;                  /* seen from inside the RT thread */
    int priority_requested;
    int mlocked;
    double dsp_pct;
    unsigned buffer_changes;
    int64_t wall_offset_ns;        /* CLOCK_REALTIME minus the measurement clock, read at the end (events' wall) */
};

/* What the run cost: for `make bench` and for anyone who doubts the figures. */
struct run_stats {
    double wall_s;                 /* from activation to the end */
    double collector_cpu_s;        /* CPU time of the collector thread */
    uint64_t records;              /* records drained, warm-ups included */
    uint64_t dropped;              /* records lost to a full ring, whole run */
    size_t ring_capacity;          /* records */
    long peak_rss_kib;             /* VmHWM at the end of the run */
    long private_dirty_kib;        /* Private_Dirty (smaps_rollup) at the end of measuring, -1 unknown */
};

struct run_info {
    const char *command;
    const char *label;
    struct timespec started, finished; /* CLOCK_REALTIME */
    int complete;
    const char *incomplete_reason;
    struct audio_info audio;
    struct phase_result *phases;
    int nphases;
    struct run_stats stats;
    json_t *system;                /* borrowed */
    json_t *warnings;              /* array of strings, borrowed, may be NULL */
    int64_t max_xruns;             /* thresholds, -1 when not set */
    double max_jitter_us;          /* < 0 when not set */
};

json_t *report_build(const struct run_info *ri);
/* One metric as the report holds it: {count, mean, sd, min, max, abs_max, p50 ... p9999} in µs; null if empty. */
json_t *report_metric_json(const struct metric_stats *m);
/* A histogram as the report holds it: non-empty buckets only, ascending, [lo_us, hi_us, count]. */
json_t *report_hist_json(const struct histogram *h);
/* Adds "verdict" {level, summary, setting, worst_load, try, advice[], advice_ids[], profile}, "thresholds" and
 * "profile" to doc, from its phases and its system identity, judged by profile (a checked profile, see
 * profile.h). max_xruns (>= 0) overrides the profile's; max_jitter_us (>= 0) adds a jitter limit.
 * Returns 1 when a threshold the user chose was exceeded: --max-xruns, --max-jitter-us, or, when strict
 * (--profile given), any FAIL of the profile; 0 otherwise; -1 when out of memory. */
int report_verdict(json_t *doc, const json_t *profile, int strict, int64_t max_xruns, double max_jitter_us);
/* The same with every limit of thresholds.h (--min-deadlines-pct, --max-wakeup-p99-us too); "thresholds" gets
 * "checks", each limit judged per phase (thresholds_judge()). */
struct report_limits;
int report_verdict_limits(json_t *doc, const json_t *profile, int strict, const struct report_limits *lim);
/* Check that doc is a report this reader understands; on error fills err with one line. */
int report_check_schema(const json_t *doc, char *err, size_t errlen);

#endif
