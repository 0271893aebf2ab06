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

struct bucket {
    int64_t v;   /* the truncated value: the bucket is [v, v + 1) units */
    uint64_t n;
};

/* What the import gathers from the file, before the document is built. */
struct ct {
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
    const char *cmd;                   /* "cmdline:", or NULL */
    long interval, prio, hist_limit, nthreads;
    int have_interval, have_prio;
    time_t t0, t1;
    int have_t0, have_t1;              /* have_t1: an end at or after a known start */
    int failed;                        /* a nonzero "return_code" */
    long long return_code;
};

/* The report of what was gathered from in (c, r), checked as any report is: NULL with one line in err when it is
 * out of a report's range (or memory ran out). */
json_t *import_ct_report(const json_t *in, const struct ct *c, const struct ct_run *r, const struct import_info *info,
                         char *err, size_t errlen);

#endif
