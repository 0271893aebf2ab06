/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclictest --json (rt-tests 2.x, file_version 1) into a report: see import_cyclictest.h. What cyclictest
 * writes (rt-tests src/cyclictest/cyclictest.c, write_stats): "cmdline:", "rt_test_version:", "start_time",
 * "end_time", "return_code", "sysinfo" {sysname, nodename, release, version, machine, realtime}, "num_threads",
 * "resolution_in_ns" (1 with -N: every value in ns, else µs), and "thread" {"N": {"histogram" {"VALUE": COUNT}
 * (with -h/-H only; samples at or past the histogram's limit are not in it), "cycles", "min", "max", "avg",
 * "cpu", "node"}}. Its latencies are truncated to whole units, so bucket VALUE holds [VALUE, VALUE + 1). */
#include "report/import_cyclictest.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/report_read.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 4096
#define MAX_BUCKETS 10000000 /* over all threads */
#define MAX_VALUE 1e12       /* a latency of 1e12 units (11 days in µs) is no measurement */

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

static int is_count(const json_t *v, double max)
{
    return json_is_integer(v) && json_integer_value(v) >= 0 && (double)json_integer_value(v) <= max;
}

static int is_num(const json_t *v)
{
    return json_is_number(v) && isfinite(json_number_value(v)) && fabs(json_number_value(v)) <= MAX_VALUE;
}

/* A bucket key: a decimal whole number, nothing else ("12", not "12.5", "-3", "0x10" or " 7"). */
static int key_value(const char *k, int64_t *v)
{
    if (!*k || strlen(k) > 13)
        return -1;
    for (const char *c = k; *c; c++)
        if (!isdigit((unsigned char)*c))
            return -1;
    *v = strtoll(k, NULL, 10);
    return 0;
}

static int add_bucket(struct ct *c, int64_t v, uint64_t n)
{
    if (c->nb == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        struct bucket *nbk = realloc(c->b, cap * sizeof(*nbk));
        if (!nbk)
            return -ENOMEM;
        c->b = nbk;
        c->cap = cap;
    }
    c->b[c->nb++] = (struct bucket){ v, n };
    if (v + 1 > c->top)
        c->top = v + 1;
    return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
    int64_t x = ((const struct bucket *)a)->v, y = ((const struct bucket *)b)->v;
    return (x > y) - (x < y);
}

/* One thread's object. Returns 0, or -EINVAL with one line in err. */
static int read_thread(struct ct *c, const char *name, const json_t *t, char *err, size_t len)
{
    if (!json_is_object(t)) {
        snprintf(err, len, "not cyclictest's --json output: thread \"%.40s\" is not an object", name);
        return -EINVAL;
    }
    const json_t *cy = json_object_get(t, "cycles"), *mn = json_object_get(t, "min"), *mx = json_object_get(t, "max"),
                 *avg = json_object_get(t, "avg"), *cpu = json_object_get(t, "cpu"),
                 *h = json_object_get(t, "histogram");
    if (!is_count(cy, 1e15) || !is_num(mn) || !is_num(mx) || !is_num(avg)) {
        snprintf(err, len, "not cyclictest's --json output: thread \"%.40s\" lacks whole \"cycles\" or numeric "
                 "\"min\", \"max\", \"avg\"", name);
        return -EINVAL;
    }
    uint64_t n = (uint64_t)json_integer_value(cy);
    double lo = json_number_value(mn), hi = json_number_value(mx), mean = json_number_value(avg);
    if (n > 0 && (lo > hi || mean < lo - 1 || mean > hi + 1)) {
        snprintf(err, len, "thread \"%.40s\": min %g, avg %g and max %g contradict each other", name, lo, mean, hi);
        return -EINVAL;
    }
    if (cpu && !json_is_integer(cpu)) {
        snprintf(err, len, "not cyclictest's --json output: thread \"%.40s\" has a \"cpu\" that is not a number",
                 name);
        return -EINVAL;
    }
    uint64_t in = 0;
    if (h) {
        if (!json_is_object(h)) {
            snprintf(err, len, "not cyclictest's --json output: thread \"%.40s\" has a \"histogram\" that is not an "
                     "object", name);
            return -EINVAL;
        }
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)h, k, v) {
            int64_t val;
            if (key_value(k, &val) < 0 || !is_count(v, 1e15)) {
                snprintf(err, len, "thread \"%.40s\": histogram entry \"%.20s\" is not a whole value with a whole "
                         "count", name, k);
                return -EINVAL;
            }
            if (c->nb >= MAX_BUCKETS) {
                snprintf(err, len, "more than %d histogram buckets", MAX_BUCKETS);
                return -EINVAL;
            }
            uint64_t cnt = (uint64_t)json_integer_value(v);
            if (cnt == 0)
                continue;
            in += cnt;
            if (in > n) {
                snprintf(err, len, "thread \"%.40s\": its histogram holds more samples than its %llu cycles", name,
                         (unsigned long long)n);
                return -EINVAL;
            }
            if ((double)val < floor(lo) || (double)val > hi) {
                snprintf(err, len, "thread \"%.40s\": histogram value %lld lies outside its min %g and max %g", name,
                         (long long)val, lo, hi);
                return -EINVAL;
            }
            if (add_bucket(c, val, cnt) < 0) {
                snprintf(err, len, "out of memory");
                return -ENOMEM;
            }
        }
        c->have_hist++;
        c->in_hist += in;
        c->overflow += n - in;
    } else {
        c->no_hist++;
    }
    if (n > 0) {
        if (c->cycles == 0 || lo < c->min)
            c->min = lo;
        if (c->cycles == 0 || hi > c->max)
            c->max = hi;
    }
    c->cycles += n;
    c->sum += mean * (double)n;
    json_array_append_new(c->threads, json_pack("{s:o, s:o, s:I, s:f, s:f, s:f}", "thread", utf8_json_string(name),
        "cpu", cpu ? json_integer(json_integer_value(cpu)) : json_null(), "cycles", (json_int_t)n,
        "min_us", lo * c->unit_us, "avg_us", mean * c->unit_us, "max_us", hi * c->unit_us));
    return 0;
}

/* cyclictest's command line, for what it was asked: "-i 200", "-i200", "--interval=200", "--interval 200". The
 * value of the first of the given spellings, or NULL. */
static const char *cmd_opt(const char *cmd, const char *shrt, const char *lng, char *buf, size_t len)
{
    if (!cmd)
        return NULL;
    char *copy = strdup(cmd);
    const char *found = NULL;
    if (!copy)
        return NULL;
    char *save = NULL, *prev = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w && !found; prev = w, w = strtok_r(NULL, " \t", &save)) {
        size_t ll = strlen(lng);
        if (prev && (strcmp(prev, shrt) == 0 || strcmp(prev, lng) == 0))
            found = w;
        else if (strncmp(w, lng, ll) == 0 && w[ll] == '=')
            found = w + ll + 1;
        else if (strncmp(w, shrt, 2) == 0 && strlen(shrt) == 2 && w[2] && strncmp(w, "--", 2) != 0)
            found = w + 2;
    }
    if (found)
        snprintf(buf, len, "%s", found);
    free(copy);
    return found ? buf : NULL;
}

static int cmd_int(const char *cmd, const char *shrt, const char *lng, long *v)
{
    char buf[64], *end;
    const char *s = cmd_opt(cmd, shrt, lng, buf, sizeof(buf));
    if (!s)
        return -1;
    *v = strtol(s, &end, 10);
    return end != s && *end == '\0' ? 0 : -1;
}

/* "Mon, 30 Nov 2026 23:42:57 +0000" (cyclictest's strftime "%a, %d %b %Y %T %z") -> UTC seconds. */
static int parse_time(const char *s, time_t *t)
{
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    const char *end = s ? strptime(s, "%a, %d %b %Y %H:%M:%S %z", &tm) : NULL;
    if (!end || *end)
        return -1;
    long off = tm.tm_gmtoff;
    *t = timegm(&tm) - off;
    return 0;
}

static json_t *iso(time_t t)
{
    char buf[32];
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

static json_t *num_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

/* The wake-up metric in µs: count, mean and extremes exact (cyclictest's own), SD and percentiles from the
 * histogram's buckets (nearest rank, the bucket's middle, clamped to min and max). A percentile that falls past
 * the histogram, and the SD when samples are past it, are unknown: null. */
static json_t *wakeup_metric(const struct ct *c)
{
    double u = c->unit_us, mean = c->cycles ? c->sum / (double)c->cycles : NAN;
    double sd = NAN;
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer((json_int_t)c->cycles));
    json_object_set_new(o, "mean", num_or_null(mean * u));
    if (c->have_hist && c->overflow == 0 && c->in_hist > 1) {
        double m2 = 0;
        for (size_t i = 0; i < c->nb; i++) {
            double d = (double)c->b[i].v + 0.5 - mean;
            m2 += d * d * (double)c->b[i].n;
        }
        sd = sqrt(m2 / (double)(c->in_hist - 1)) * u;
    }
    json_object_set_new(o, "sd", num_or_null(sd));
    json_object_set_new(o, "min", num_or_null(c->cycles ? c->min * u : NAN));
    json_object_set_new(o, "max", num_or_null(c->cycles ? c->max * u : NAN));
    json_object_set_new(o, "abs_max", num_or_null(c->cycles ? fmax(fabs(c->min), fabs(c->max)) * u : NAN));
    static const struct { const char *k; double q; } qs[] = {
        { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 }, { "p9999", 0.9999 },
    };
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
        double v = NAN;
        if (c->have_hist && c->cycles) {
            uint64_t rank = (uint64_t)ceil(qs[i].q * (double)c->cycles - 1e-9), acc = 0;
            if (rank < 1)
                rank = 1;
            for (size_t b = 0; b < c->nb && isnan(v); b++) {
                acc += c->b[b].n;
                if (acc >= rank)
                    v = fmin(fmax((double)c->b[b].v + 0.5, c->min), c->max) * u;
            }
        }
        json_object_set_new(o, qs[i].k, num_or_null(v));
    }
    return o;
}

/* The histogram as a report holds it: [lo_us, hi_us, count], ascending; the samples past cyclictest's histogram
 * in one last bucket from its limit to just past the max. */
static json_t *wakeup_hist(const struct ct *c, double limit)
{
    json_t *a = json_array();
    for (size_t i = 0; i < c->nb; i++)
        json_array_append_new(a, json_pack("[f,f,I]", (double)c->b[i].v * c->unit_us,
                                           (double)(c->b[i].v + 1) * c->unit_us, (json_int_t)c->b[i].n));
    if (c->overflow) {
        double lo = fmax(limit, (double)c->top);
        json_array_append_new(a, json_pack("[f,f,I]", fmin(lo, c->max) * c->unit_us, (c->max + 1) * c->unit_us,
                                           (json_int_t)c->overflow));
    }
    return a;
}

/* Pools equal values of several threads into one bucket each, ascending. */
static void pool_buckets(struct ct *c)
{
    if (c->nb == 0)
        return;
    qsort(c->b, c->nb, sizeof(*c->b), cmp_bucket);
    size_t o = 0;
    for (size_t i = 1; i < c->nb; i++) {
        if (c->b[i].v == c->b[o].v)
            c->b[o].n += c->b[i].n;
        else
            c->b[++o] = c->b[i];
    }
    c->nb = o + 1;
}

static json_t *str_field(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? utf8_json_string(json_string_value(v)) : json_null();
}

/* The system identity: what cyclictest wrote, null for what it does not know. */
static json_t *system_identity(const json_t *sys)
{
    const json_t *rt = json_object_get(sys, "realtime");
    json_t *kernel = json_pack("{s:o, s:o, s:n, s:o, s:n, s:n, s:n, s:n}", "release", str_field(sys, "release"),
        "version", str_field(sys, "version"), "cmdline",
        /* cyclictest's "realtime" is 1 on a PREEMPT_RT kernel; 0 does not say which other model it was. */
        "preempt", json_is_integer(rt) && json_integer_value(rt) == 1 ? json_string("rt") : json_null(),
        "hz", "nohz", "threadirqs", "config_source");
    json_object_set_new(kernel, "sysname", str_field(sys, "sysname"));
    json_t *cpu = json_pack("{s:n, s:n, s:n, s:o}", "model", "threads", "governor", "machine",
                            str_field(sys, "machine"));
    return json_pack("{s:o, s:o, s:o}", "hostname", str_field(sys, "nodename"), "kernel", kernel, "cpu", cpu);
}

/* The name-value pairs of JSON text (a ':' outside strings), counted up to max + 1: what parsing it would hold
 * in memory, known before it is parsed. */
static size_t count_pairs(const char *t, size_t len, size_t max)
{
    size_t n = 0;
    int in_string = 0;
    for (size_t i = 0; i < len && n <= max; i++) {
        char c = t[i];
        if (in_string) {
            if (c == '\\')
                i++; /* the escaped character, a quote included */
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == ':') {
            n++;
        }
    }
    return n;
}

static json_t *import_doc(const char *text, size_t len, const struct import_info *info, char *release,
                          size_t release_len, struct timespec *when, char *err, size_t errlen)
{
    snprintf(release, release_len, "unknown");
    clock_gettime(CLOCK_REALTIME, when);
    if (count_pairs(text, len, IMPORT_MAX_PAIRS) > IMPORT_MAX_PAIRS) {
        snprintf(err, errlen, "more than %d histogram buckets and fields (cyclictest writes only the buckets it "
                 "filled): not parsed", IMPORT_MAX_PAIRS);
        return NULL;
    }
    json_error_t je;
    json_t *in = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!in) {
        snprintf(err, errlen, "not JSON (line %d: %.120s)", je.line, je.text);
        return NULL;
    }
    json_t *doc = NULL;
    struct ct c;
    memset(&c, 0, sizeof(c));
    c.threads = json_array();
    const json_t *threads = json_object_get(in, "thread");
    if (!json_is_object(in) || !json_is_object(threads) || json_object_size(threads) == 0) {
        snprintf(err, errlen, "not cyclictest's --json output: no \"thread\" object (rt-tests 2.x: cyclictest "
                 "--json=FILE)");
        goto out;
    }
    if (json_object_size(threads) > MAX_THREADS) {
        snprintf(err, errlen, "more than %d threads", MAX_THREADS);
        goto out;
    }
    const json_t *res = json_object_get(in, "resolution_in_ns");
    if (res && !(json_is_integer(res) && (json_integer_value(res) == 0 || json_integer_value(res) == 1))) {
        snprintf(err, errlen, "not cyclictest's --json output: \"resolution_in_ns\" is neither 0 nor 1");
        goto out;
    }
    c.unit_us = res && json_integer_value(res) == 1 ? 0.001 : 1.0;
    const json_t *sys = json_object_get(in, "sysinfo");
    if (sys && !json_is_object(sys)) {
        snprintf(err, errlen, "not cyclictest's --json output: \"sysinfo\" is not an object");
        goto out;
    }
    const char *k;
    const json_t *t;
    json_object_foreach((json_t *)threads, k, t)
        if (read_thread(&c, k, t, err, errlen) < 0)
            goto out;
    if (c.have_hist && c.no_hist) {
        snprintf(err, errlen, "some threads have a histogram and others not: not one cyclictest run");
        goto out;
    }
    if (c.cycles == 0) {
        snprintf(err, errlen, "cyclictest measured no cycle in this file");
        goto out;
    }
    if (c.have_hist && c.in_hist == 0) { /* cyclictest writes an empty "histogram" without -h */
        c.no_hist = c.have_hist;
        c.have_hist = 0;
        c.overflow = 0;
    }
    pool_buckets(&c);

    const char *cmd = json_string_value(json_object_get(in, "cmdline:"));
    long interval = 0, prio = 0, hist_limit = 0, nthreads = (long)json_object_size(threads);
    int have_interval = cmd_int(cmd, "-i", "--interval", &interval) == 0 && interval > 0;
    if (!have_interval && cmd) { /* cyclictest's default interval */
        interval = 1000;
        have_interval = 1;
    }
    int have_prio = cmd_int(cmd, "-p", "--priority", &prio) == 0;
    if (cmd_int(cmd, "-h", "--histogram", &hist_limit) < 0)
        cmd_int(cmd, "-H", "--histofall", &hist_limit);
    time_t t0 = 0, t1 = 0;
    int have_t0 = parse_time(json_string_value(json_object_get(in, "start_time")), &t0) == 0;
    int have_t1 = parse_time(json_string_value(json_object_get(in, "end_time")), &t1) == 0 && have_t0 && t1 >= t0;
    if (have_t0) {
        when->tv_sec = t0;
        when->tv_nsec = 0;
    }
    const json_t *rc = json_object_get(in, "return_code");
    int failed = json_is_integer(rc) && json_integer_value(rc) != 0;
    const char *rel = sys ? json_string_value(json_object_get(sys, "release")) : NULL;
    if (rel && *rel)
        snprintf(release, release_len, "%s", rel);

    if (!(doc = doc_begin(REPORT_SCHEMA, 1)))
        goto oom;
    char reason[96];
    snprintf(reason, sizeof(reason), "cyclictest exited with status %lld",
             failed ? (long long)json_integer_value(rc) : 0LL);
    json_object_set_new(doc, "complete", json_boolean(!failed));
    json_object_set_new(doc, "incomplete_reason", failed ? json_string(reason) : json_null());
    json_object_set_new(doc, "label", utf8_json_string(info->label));
    json_object_set_new(doc, "started", have_t0 ? iso(t0) : json_null());
    json_object_set_new(doc, "finished", have_t1 ? iso(t1) : json_null());
    json_t *system = system_identity(sys);
    doc_set_origin(doc, info->command, system);
    json_decref(system);
    json_object_set_new(doc, "imported", json_pack("{s:s, s:o, s:o, s:o, s:o, s:s}", "from", "cyclictest",
        "file", utf8_json_string(info->source), "tool_version", str_field(in, "rt_test_version:"),
        "command", cmd ? utf8_json_string(cmd) : json_null(), "file_version",
        json_is_integer(json_object_get(in, "file_version")) ? json_integer(json_integer_value(json_object_get(in, "file_version")))
                                                           : json_null(),
        "measures", "the timer wake-up latency only (cyclictest's latency: wakeup_us); period, jitter, callback, "
                    "margin, deadlines and xruns are not measured and are null"));
    int one_interval = have_interval && nthreads == 1;
    json_t *au = json_object();
    json_object_set_new(au, "backend", json_string("cyclictest-import"));
    json_object_set_new(au, "provider", json_string("cyclictest"));
    json_object_set_new(au, "provider_version", str_field(in, "rt_test_version:"));
    json_object_set_new(au, "server", json_null());
    json_object_set_new(au, "server_name", json_null());
    json_object_set_new(au, "driver", json_null());
    json_object_set_new(au, "device", json_null());
    json_object_set_new(au, "nperiods", json_null());
    json_object_set_new(au, "clock", json_null());
    json_object_set_new(au, "rate", json_null());
    json_object_set_new(au, "period_frames", json_null());
    json_object_set_new(au, "period_us", one_interval ? json_real((double)interval) : json_null());
    json_object_set_new(au, "interval_us", have_interval ? json_integer(interval) : json_null());
    json_object_set_new(au, "realtime", json_null());
    json_object_set_new(au, "sched_policy", json_null());
    json_object_set_new(au, "priority", json_null());
    json_object_set_new(au, "priority_requested", have_prio ? json_integer(prio) : json_null());
    json_object_set_new(au, "mlocked", json_null());
    json_object_set_new(au, "dsp_pct", json_null());
    json_object_set_new(au, "buffer_changes", json_null());
    json_object_set_new(au, "threads", json_incref(c.threads));
    json_object_set_new(doc, "audio", au);

    json_t *p = json_object();
    json_object_set_new(p, "load", utf8_json_string(info->load ? info->load : "none"));
    json_object_set_new(p, "duration_s", have_t1 ? json_real((double)(t1 - t0)) : json_null());
    json_object_set_new(p, "measured_s", have_t1 ? json_real((double)(t1 - t0)) : json_null());
    json_object_set_new(p, "period_frames", json_null());
    json_object_set_new(p, "rate", json_null());
    json_object_set_new(p, "period_us", json_null());
    json_object_set_new(p, "cycles", json_integer((json_int_t)c.cycles));
    json_object_set_new(p, "clock_window_s", json_null());
    json_object_set_new(p, "dropped", json_null());
    json_object_set_new(p, "segments_in_phase", json_integer(1));
    json_object_set_new(p, "xruns", json_pack("{s:n, s:n, s:n}", "reported", "detected", "skipped_cycles"));
    json_object_set_new(p, "jitter_us", json_null());
    json_object_set_new(p, "wakeup_us", wakeup_metric(&c));
    json_object_set_new(p, "callback_us", json_null());
    json_object_set_new(p, "margin_us", json_null());
    json_object_set_new(p, "deadlines_met_pct", json_null());
    json_object_set_new(p, "deadlines_missed", json_null());
    json_object_set_new(p, "desired_cpu_pct", json_null());
    json_object_set_new(p, "dsp_load", json_null());
    json_object_set_new(p, "load_metrics", json_array());
    json_object_set_new(p, "load_error", json_null());
    json_t *h = json_object();
    if (c.have_hist)
        json_object_set_new(h, "wakeup", wakeup_hist(&c, (double)hist_limit));
    json_object_set_new(p, "histograms", h);
    json_object_set_new(p, "timeline", json_array());
    json_object_set_new(doc, "phases", json_pack("[o]", p));

    json_t *w = json_array();
    json_array_append_new(w, json_string("imported from cyclictest: only the wake-up latency is known; period, "
                                         "jitter, callback, margin, deadlines and xruns are null"));
    if (!c.have_hist)
        json_array_append_new(w, json_string("no histogram (cyclictest ran without -h, or every sample lay past "
                                             "it): only the count, mean, min and max of the wake-up are known"));
    if (c.overflow) {
        char m[256];
        snprintf(m, sizeof(m), "%llu of %llu samples lay past cyclictest's histogram (-h %ld): they are one bucket "
                 "up to the max, and a percentile that falls there is null; a larger -h keeps them",
                 (unsigned long long)c.overflow, (unsigned long long)c.cycles, hist_limit);
        json_array_append_new(w, json_string(m));
    }
    if (nthreads > 1)
        json_array_append_new(w, json_string("several cyclictest threads are pooled into one distribution (each is "
                                             "under audio.threads); without -d 0 each ran at its own interval"));
    json_object_set_new(doc, "warnings", w);
    json_object_set_new(doc, "verdict", json_null());
    json_object_set_new(doc, "thresholds", json_null());
    if (report_validate(doc, err, errlen) < 0) { /* a number out of a report's range, say */
        json_decref(doc);
        doc = NULL;
    }
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
out:
    free(c.b);
    json_decref(c.threads);
    json_decref(in);
    return doc;
}

json_t *import_cyclictest(const char *text, size_t len, const struct import_info *info, char *release,
                          size_t release_len, struct timespec *when, char *err, size_t errlen)
{
    json_t *doc = import_doc(text, len, info, release, release_len, when, err, errlen);
    if (!doc)
        term_fix(err, errlen); /* it may quote the file: a thread's name, jansson's "near '...'" */
    return doc;
}
