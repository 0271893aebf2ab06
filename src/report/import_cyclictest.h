/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter import cyclictest`: cyclictest's --json output (rt-tests 2.x) made into a report (schema
 * rtjitter.report/1, backend "cyclictest-import", marked "imported"), so that `compare` puts results people
 * already have beside runs. cyclictest measures one thing, the timer wake-up latency, so the report's phase has
 * wakeup_us and the wakeup histogram (cyclictest's own buckets, [v, v+1) in its unit) and nulls where cyclictest
 * measures nothing (period, jitter, callback, margin, deadlines, xruns); the system identity has what cyclictest
 * wrote (host, kernel release and version) and null for the rest. All threads' samples are pooled into one phase,
 * as rtjitter's timer backend pools its CPUs; each thread is listed under audio.threads. */
#ifndef RTJ_IMPORT_CYCLICTEST_H
#define RTJ_IMPORT_CYCLICTEST_H
#include <jansson.h>
#include <stddef.h>
#include <time.h>

/* The largest cyclictest file read (a -h 100000 histogram of 256 threads is far below), checked on the open
 * file before it is read. */
#define IMPORT_MAX_BYTES (64u << 20)
/* The most name-value pairs (histogram buckets, mostly) a file may hold, counted before it is parsed: jansson
 * takes about 350 bytes of memory for each, so 64 MiB of one-bucket entries ("123": 1, 4 million of them) would
 * take 1.5 GB. A report's pooled histogram holds at most 100,000 buckets; four times that allows threads whose
 * histograms share their values. At the limit (4 threads of 99,900 buckets, 4.7 MB) the import took 91 MB and
 * 2.2 s here. */
#define IMPORT_MAX_PAIRS 400000

struct import_info {
    const char *source;        /* the file's name, kept in the report */
    const char *load;          /* the phase's load name (what ran beside cyclictest): "none" by default */
    const char *label;         /* the report's label (NULL: none) */
    const char *command;       /* rtjitter's own command line */
};

/* text (len bytes, any content) -> a checked report. Returns a new document and fills *release (the kernel
 * release cyclictest named, or "unknown") and *when (its start time; the current time when it has none), or NULL
 * with one line in err: not JSON, not cyclictest's shape, or numbers that contradict each other. */
json_t *import_cyclictest(const char *text, size_t len, const struct import_info *info, char *release,
                          size_t release_len, struct timespec *when, char *err, size_t errlen);

#endif
