/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's own figures (`rtjitter run --soak`), beside the phase's log-linear histograms: the wake-up latency in
 * cyclictest's linear 1 µs bins up to SOAK_RANGE_US with an overflow count, its maxima per window (OSADL: maxima
 * per 5 minutes), and per RT thread (stream) its min, mean and max (Linaro's rt-tests: one case per thread and
 * statistic). No JSON here: report/report_soak.h makes the report's object. Built by the collector thread from
 * each measured cycle's wake-up (phase_stats.wake_known/wake_ns); read by the main thread after collector_stop(). Memory is fixed at soak_init(): the bins, the windows the
 * planned duration needs (at most SOAK_WINDOWS_MAX) and the streams; nothing grows per cycle or per second. */
#ifndef RTJ_SOAKHIST_H
#define RTJ_SOAKHIST_H
#include <stddef.h>
#include <stdint.h>

#define SOAK_RANGE_US 10000         /* 1 µs bins [0,1) ... [9999,10000) µs; from 10 ms on: overflow */
#define SOAK_WINDOW_S 300           /* maxima per 5 minutes; RTJ_SOAK_WINDOW_S (for tests) sets another */
#define SOAK_WINDOWS_MAX 10080      /* a week of minutes: a longer run (or a shorter window) widens the window */
#define SOAK_STREAMS 256            /* RTREC_MAX_STREAMS */

struct soak_window {
    int64_t max_ns;                 /* the largest wake-up in it, -1 when it had no cycle */
    int64_t at_ns;                  /* when that cycle began, from the soak's first cycle */
    uint64_t cycles;
    uint64_t overflow;              /* its wake-ups of SOAK_RANGE_US or more */
};

struct soak_stream {
    uint64_t cycles;
    int64_t min_ns, max_ns;
    double sum_ns;
    int cpu;                        /* the CPU of its latest cycle, -1 unknown */
};

struct soak_stats {
    uint64_t *bins;                 /* SOAK_RANGE_US counts */
    uint64_t overflow, count;
    int64_t max_ns, max_at_ns;      /* the largest wake-up, and when (from t0) */
    int64_t t0_ns;                  /* the entry of the first cycle; windows count from it */
    int have_t0;
    int64_t window_ns;
    struct soak_window *win;
    size_t nwin;                    /* windows the planned duration has (the last takes a late cycle or two) */
    size_t nwin_used;               /* 1 + the latest window a cycle fell in */
    struct soak_stream *streams;    /* SOAK_STREAMS */
    /* --stop-at-us: the first wake-up beyond stop_ns (< 0: none asked) */
    int64_t stop_ns;
    int tripped;
    int64_t trip_wake_ns, trip_entry_ns, trip_at_ns;
    uint64_t trip_cycle;            /* 1-based: the how-manieth measured cycle of the soak */
    unsigned trip_stream;
};

/* The window in seconds: RTJ_SOAK_WINDOW_S when set to a whole number from 1 to 86400 (for tests), else
 * SOAK_WINDOW_S. */
double soak_window_from_env(void);
/* Fixed memory for a soak of duration_s in windows of window_s (widened to duration_s / SOAK_WINDOWS_MAX when
 * that many would not do); stop_us < 0: no --stop-at-us. Returns 0 or -ENOMEM. */
int soak_init(struct soak_stats *s, double duration_s, double window_s, double stop_us);
void soak_free(struct soak_stats *s);
/* One measured cycle's wake-up (ns, >= 0), its entry on the measurement clock, its stream and CPU. Returns 1 when
 * this cycle tripped --stop-at-us (the first beyond it), else 0. Collector thread. */
int soak_add(struct soak_stats *s, int64_t wake_ns, int64_t entry_ns, unsigned stream, int cpu);
#endif
