/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/report/: the documents. The report ("schema": "rtjitter.report/1") is built once from a run (report.c),
 * kept in the store (store.c) and read back and checked (report_read.c) against the one table of its keys
 * (schema.h, which rtjitter-report(5) prints); compare/ compares reports (giving "rtjitter.compare/1") from above.
 * doc.c holds the frame every document opens with and the one writer every file goes through, access.c the one
 * way values are read out of a document, phase_figures.c a single report's figures (and its phase of a load) that
 * render/, verdict/ and compare/ all read. Every other form (text, HTML) is rendered
 * from the JSON by render/. A file here may include stats/ (what a report is built from), culprit/culprit.h (the
 * culprits it places: types and their JSON only, never the engine), util/ and jansson; never compare/, render/,
 * verdict/, cli/, run/ or rtaudio/. */
#ifndef RTJ_REPORT_H
#define RTJ_REPORT_H
#include <jansson.h>
#include <stdio.h>
#include <time.h>
#include "stats/phase.h"
#include "culprit/culprit.h"

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
    json_t *soak;                  /* --soak: the phase's "soak" (stats/soakhist.h), borrowed, or NULL */
    json_t *noise;                 /* --backend noise: the phase's "noise" (backend phase_json), borrowed, or NULL */
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
    size_t ring_high_water;        /* the most records it held when the collector came to drain it */
    long peak_rss_kib;             /* VmHWM at the end of the run */
    long private_dirty_kib;        /* Private_Dirty (smaps_rollup) at the end of measuring, -1 unknown */
};

/* What the verdict made of a document (verdict/verdict.h): new references, NULL where none was made. */
struct report_judgement {
    json_t *thresholds, *profile, *verdict;
};

/* What the run's other parts produced, for report_build to place, each where the document has always had it:
 * new references it takes over, NULL for none. */
struct report_parts {
    json_t *run;                   /* "run": rtjitter's own stops (run/run_stopped.h) */
    json_t *dsp_calibration;       /* audio.dsp_calibration: how --dsp's work was calibrated (report_ramp.h) */
    json_t *dsp_ramp;              /* audio.dsp_ramp: the ramp's step and rule */
    json_t *loopback;              /* "loopback": the analyzer's, glitches tied to phases and xruns (loopback_run.h) */
    const char *lost_output;       /* an output the user asked for was not written in full (--record): the report
                                    * is incomplete for this reason, which is also a warning */
    json_t *privileges;            /* audio.privileges: this login's real-time rights (checks/privileges.h) */
    json_t *ladder;                /* "ladder": this depth and the ones measured below it (run/ladder.h) */
    /* What explains the events and spikes (culprit/culprit.h; the engine's, culprit_engine_results()): read while
     * the document is built, not taken over; NULL: none sought, and the document has no culprit keys (spikes are
     * measured and placed either way). Looked up by the run's phase index (ri->phases[i]) and each event's
     * start_ns, each spike's t_ns. */
    const struct culprit_results *culprits;
    /* Last, the verdict of the document as built so far (read only), placed by report_build; NULL: none. (A
     * callback, so that report/ needs nothing of verdict/, which reads report/.) */
    void (*judge)(void *arg, const json_t *doc, struct report_judgement *j);
    void *judge_arg;
};

struct run_info {
    const char *command;
    const char *label;
    const char *session;           /* "watch": rtjitter watch's report (REPORT SCHEMA: session); NULL otherwise */
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
    struct report_parts parts;     /* the other parts' results (their references are taken over by report_build) */
};

/* The report of a run, built in this one place: the frame, "audio" (with the backend's describe()), the phases,
 * the warnings, run_stats, then each of ri->parts where it belongs, the verdict last. */
json_t *report_build(const struct run_info *ri);
/* Places a verdict's parts (those not NULL) in doc: "thresholds", "profile", "verdict"; takes their references
 * and leaves j empty. */
void report_place_judgement(json_t *doc, struct report_judgement *j);
/* The load of the k-th entry of the "phases" report_build makes of ri (one per segment of a measured phase, one
 * for a measured phase without any); *exists gets 0 (and NULL is returned) when there is no such entry. */
const char *report_phase_load(const struct run_info *ri, size_t k, int *exists);
/* One metric as the report holds it: {count, mean, sd, min, max, abs_max, p50 ... p9999} in µs; null if empty. */
json_t *report_metric_json(const struct metric_stats *m);
/* A histogram as the report holds it: non-empty buckets only, ascending, [lo_us, hi_us, count]. */
json_t *report_hist_json(const struct histogram *h);
/* Check that doc is a report this reader understands; on error fills err with one line. */
int report_check_schema(const json_t *doc, char *err, size_t errlen);

#endif
