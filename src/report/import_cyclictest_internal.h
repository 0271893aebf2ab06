/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the two halves of the cyclictest import only (report/ private): what import_cyclictest.c gathers from
 * the file, and the report import_cyclictest_report.c builds of it. Other files see import_cyclictest.h. */
#ifndef RTJ_IMPORT_CYCLICTEST_INTERNAL_H
#define RTJ_IMPORT_CYCLICTEST_INTERNAL_H
#include "report/import_cyclictest.h"
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The tool a file came from: cyclictest (import_cyclictest.c), oslat (import_oslat.c), jitterdebugger
 * (import_jitterdebugger.c). The latter two are read into cyclictest's shape ("thread" {"N": {cycles, min, max,
 * avg, cpu, histogram}}, the rt-tests header) and go through the same checks and the same report. */
struct ct_tool {
    const char *name;            /* "oslat": in messages and imported.from, audio.backend "<name>-import" */
    const char *what;            /* "oslat's --json output": what a file that is not one is said not to be */
    const char *measures;        /* imported.measures: what the latency is, and what is null */
    const char *first_warning;   /* the report's first warning: what is known and what is not */
    const char *hist_limit_fmt;  /* the histogram's limit in a warning, a printf format of one long: "-h %ld" */
    const char *hist_advice;     /* what keeps the samples past it: "a larger -h keeps them" */
    int64_t key_shift;           /* a histogram key k holds [k - shift, k - shift + 1) units (oslat: 1) */
    int default_interval;        /* cyclictest's 1000 µs when the command line names none */
};
extern const struct ct_tool ct_tool_cyclictest;

struct bucket {
    int64_t v;   /* the truncated value: the bucket is [v, v + 1) units */
    uint64_t n;
};

/* What the import gathers from the file, before the document is built. */
struct ct {
    const struct ct_tool *tool;
    double unit_us;              /* 1 (µs) or 0.001 (ns, -N) */
    uint64_t cycles;             /* all threads */
    double sum;                  /* of avg x cycles, in units */
    double min, max;             /* in units, over threads with cycles */
    int have_hist, no_hist;      /* threads with and without a histogram */
    struct bucket *b;
    size_t nb, cap;
    uint64_t in_hist;            /* samples in the histograms */
    uint64_t overflow;           /* samples past them: cycles - in_hist of each thread with a histogram */
    int64_t top;                 /* 1 + the largest bucket value met */
    json_t *threads;
};

/* What the file says of the run beside the samples: its command line's options, its times, its exit status. */
struct ct_run {
    const struct ct_tool *tool;
    const char *cmd;                   /* "cmdline:", or NULL */
    long interval, prio, hist_limit, nthreads;
    long hist_shown;                   /* the limit as the tool's option said it, when not hist_limit (oslat) */
    int have_interval, have_prio;
    time_t t0, t1;
    int have_t0, have_t1;              /* have_t1: an end at or after a known start */
    int failed;                        /* a nonzero "return_code" */
    long long return_code;
};

/* The shared driver: text parsed (its pairs counted first, IMPORT_MAX_PAIRS), then in = to_ct(parsed) in
 * cyclictest's shape (NULL: to_ct said why in err; it may return its argument with a new reference), gathered,
 * and made a report by import_ct_report(); fix_run (may be NULL) corrects what read_run took for cyclictest's. The
 * arguments and results as import_cyclictest()'s. */
json_t *import_ct_run(const char *text, size_t len, const struct ct_tool *tool,
                      json_t *(*to_ct)(const json_t *parsed, char *err, size_t errlen),
                      void (*fix_run)(const json_t *in, struct ct_run *r), const struct import_info *info,
                      char *release, size_t release_len, struct timespec *when, char *err, size_t errlen);

/* The report of what was gathered from in (c, r), checked as any report is: NULL with one line in err when it is
 * out of a report's range (or memory ran out). */
json_t *import_ct_report(const json_t *in, const struct ct *c, const struct ct_run *r, const struct import_info *info,
                         char *err, size_t errlen);

#endif
