/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclictest --json (rt-tests 2.x, file_version 1) into a report: see import_cyclictest.h. What cyclictest
 * writes (rt-tests src/cyclictest/cyclictest.c, write_stats): "cmdline:", "rt_test_version:", "start_time",
 * "end_time", "return_code", "sysinfo" {sysname, nodename, release, version, machine, realtime}, "num_threads",
 * "resolution_in_ns" (1 with -N: every value in ns, else µs), and "thread" {"N": {"histogram" {"VALUE": COUNT}
 * (with -h/-H only; samples at or past the histogram's limit are not in it), "cycles", "min", "max", "avg",
 * "cpu", "node"}}. Its latencies are truncated to whole units, so bucket VALUE holds [VALUE, VALUE + 1).
 *
 * This file reads and checks the file and gathers its samples and its run's facts (struct ct, struct ct_run);
 * import_cyclictest_report.c builds the report of them. */
#include "report/import_cyclictest_internal.h"
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

/* A thread's "histogram" h (n cycles between lo and hi) into c's buckets; *in: the samples it holds. 0, or -EINVAL
 * (-ENOMEM) with one line in err. */
static int read_histogram(struct ct *c, const char *name, const json_t *h, uint64_t n, double lo, double hi,
                          uint64_t *in, char *err, size_t len)
{
    if (!json_is_object(h)) {
        snprintf(err, len, "not %s: thread \"%.40s\" has a \"histogram\" that is not an object", c->tool->what,
                 name);
        return -EINVAL;
    }
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)h, k, v) {
        int64_t val;
        if (key_value(k, &val) < 0 || !is_count(v, 1e15) || val < c->tool->key_shift) {
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
        val -= c->tool->key_shift; /* oslat's key k: up to k units, [k - 1, k) */
        *in += cnt;
        if (*in > n) {
            snprintf(err, len, "thread \"%.40s\": its histogram holds more samples than its %llu cycles", name,
                     (unsigned long long)n);
            return -EINVAL;
        }
        if ((double)val < floor(lo) - (double)c->tool->key_shift || (double)val > hi) {
            snprintf(err, len, "thread \"%.40s\": histogram value %lld lies outside its min %g and max %g", name,
                     (long long)val, lo, hi);
            return -EINVAL;
        }
        if (add_bucket(c, val, cnt) < 0) {
            snprintf(err, len, "out of memory");
            return -ENOMEM;
        }
    }
    return 0;
}

/* One thread's object. Returns 0, or -EINVAL with one line in err. */
static int read_thread(struct ct *c, const char *name, const json_t *t, char *err, size_t len)
{
    if (!json_is_object(t)) {
        snprintf(err, len, "not %s: thread \"%.40s\" is not an object", c->tool->what, name);
        return -EINVAL;
    }
    const json_t *cy = json_object_get(t, "cycles"), *mn = json_object_get(t, "min"), *mx = json_object_get(t, "max"),
                 *avg = json_object_get(t, "avg"), *cpu = json_object_get(t, "cpu"),
                 *h = json_object_get(t, "histogram");
    if (!is_count(cy, 1e15) || !is_num(mn) || !is_num(mx) || !is_num(avg)) {
        snprintf(err, len, "not %s: thread \"%.40s\" lacks whole \"cycles\" or numeric \"min\", \"max\", \"avg\"",
                 c->tool->what, name);
        return -EINVAL;
    }
    uint64_t n = (uint64_t)json_integer_value(cy);
    double lo = json_number_value(mn), hi = json_number_value(mx), mean = json_number_value(avg);
    if (n > 0 && (lo > hi || mean < lo - 1 || mean > hi + 1)) {
        snprintf(err, len, "thread \"%.40s\": min %g, avg %g and max %g contradict each other", name, lo, mean, hi);
        return -EINVAL;
    }
    if (cpu && !json_is_integer(cpu)) {
        snprintf(err, len, "not %s: thread \"%.40s\" has a \"cpu\" that is not a number", c->tool->what, name);
        return -EINVAL;
    }
    uint64_t in = 0;
    if (h) {
        int e = read_histogram(c, name, h, n, lo, hi, &in, err, len);
        if (e < 0)
            return e;
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

/* The file's text parsed, once its pairs are known to be few enough: the input object, or NULL with err. */
static json_t *parse_input(const char *text, size_t len, char *err, size_t errlen)
{
    if (count_pairs(text, len, IMPORT_MAX_PAIRS) > IMPORT_MAX_PAIRS) {
        snprintf(err, errlen, "more than %d histogram buckets and fields (the tools write only the buckets they "
                 "filled): not parsed", IMPORT_MAX_PAIRS);
        return NULL;
    }
    json_error_t je;
    json_t *in = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!in)
        snprintf(err, errlen, "not JSON (line %d: %.120s)", je.line, je.text);
    return in;
}

/* cyclictest's shape checked and its threads gathered into c (c->threads already made): 0, or -1 with err. */
static int gather(struct ct *c, const json_t *in, char *err, size_t errlen)
{
    const json_t *threads = json_object_get(in, "thread");
    if (!json_is_object(in) || !json_is_object(threads) || json_object_size(threads) == 0) {
        snprintf(err, errlen, "not %s: no \"thread\" object%s", c->tool->what,
                 c->tool == &ct_tool_cyclictest ? " (rt-tests 2.x: cyclictest --json=FILE)" : "");
        return -1;
    }
    if (json_object_size(threads) > MAX_THREADS) {
        snprintf(err, errlen, "more than %d threads", MAX_THREADS);
        return -1;
    }
    const json_t *res = json_object_get(in, "resolution_in_ns");
    if (res && !(json_is_integer(res) && (json_integer_value(res) == 0 || json_integer_value(res) == 1))) {
        snprintf(err, errlen, "not %s: \"resolution_in_ns\" is neither 0 nor 1", c->tool->what);
        return -1;
    }
    c->unit_us = res && json_integer_value(res) == 1 ? 0.001 : 1.0;
    const json_t *sys = json_object_get(in, "sysinfo");
    if (sys && !json_is_object(sys)) {
        snprintf(err, errlen, "not %s: \"sysinfo\" is not an object", c->tool->what);
        return -1;
    }
    const char *k;
    const json_t *t;
    json_object_foreach((json_t *)threads, k, t)
        if (read_thread(c, k, t, err, errlen) < 0)
            return -1;
    if (c->have_hist && c->no_hist) {
        snprintf(err, errlen, "some threads have a histogram and others not: not one %s run", c->tool->name);
        return -1;
    }
    if (c->cycles == 0) {
        snprintf(err, errlen, "%s measured no cycle in this file", c->tool->name);
        return -1;
    }
    if (c->have_hist && c->in_hist == 0) { /* cyclictest writes an empty "histogram" without -h */
        c->no_hist = c->have_hist;
        c->have_hist = 0;
        c->overflow = 0;
    }
    pool_buckets(c);
    return 0;
}

static void read_run(const json_t *in, const struct ct_tool *tool, struct ct_run *r)
{
    memset(r, 0, sizeof(*r));
    r->tool = tool;
    r->cmd = json_string_value(json_object_get(in, "cmdline:"));
    r->nthreads = (long)json_object_size(json_object_get(in, "thread"));
    r->have_interval = cmd_int(r->cmd, "-i", "--interval", &r->interval) == 0 && r->interval > 0;
    if (!r->have_interval && r->cmd && tool->default_interval) { /* cyclictest's default interval */
        r->interval = 1000;
        r->have_interval = 1;
    }
    r->have_prio = cmd_int(r->cmd, "-p", "--priority", &r->prio) == 0;
    if (cmd_int(r->cmd, "-h", "--histogram", &r->hist_limit) < 0)
        cmd_int(r->cmd, "-H", "--histofall", &r->hist_limit);
    r->have_t0 = parse_time(json_string_value(json_object_get(in, "start_time")), &r->t0) == 0;
    r->have_t1 = parse_time(json_string_value(json_object_get(in, "end_time")), &r->t1) == 0 && r->have_t0 &&
                 r->t1 >= r->t0;
    const json_t *rc = json_object_get(in, "return_code");
    r->failed = json_is_integer(rc) && json_integer_value(rc) != 0;
    r->return_code = r->failed ? (long long)json_integer_value(rc) : 0LL;
}

const struct ct_tool ct_tool_cyclictest = {
    .name = "cyclictest",
    .what = "cyclictest's --json output",
    .measures = "the timer wake-up latency only (cyclictest's latency: wakeup_us); period, jitter, callback, margin, "
                "deadlines and xruns are not measured and are null",
    .first_warning = "imported from cyclictest: only the wake-up latency is known; period, jitter, callback, margin, "
                     "deadlines and xruns are null",
    .hist_limit_fmt = "-h %ld",
    .hist_advice = "a larger -h keeps them",
    .default_interval = 1,
};

json_t *import_ct_run(const char *text, size_t len, const struct ct_tool *tool,
                      json_t *(*to_ct)(const json_t *parsed, char *err, size_t errlen),
                      void (*fix_run)(const json_t *in, struct ct_run *r), const struct import_info *info,
                      char *release, size_t release_len, struct timespec *when, char *err, size_t errlen)
{
    snprintf(release, release_len, "unknown");
    clock_gettime(CLOCK_REALTIME, when);
    json_t *parsed = parse_input(text, len, err, errlen), *doc = NULL;
    json_t *in = parsed && to_ct ? to_ct(parsed, err, errlen) : json_incref(parsed);
    json_decref(parsed);
    if (!in) {
        term_fix(err, errlen); /* it may quote the file: a thread's name, jansson's "near '...'" */
        return NULL;
    }
    struct ct c;
    memset(&c, 0, sizeof(c));
    c.tool = tool;
    c.threads = json_array();
    if (gather(&c, in, err, errlen) == 0) {
        struct ct_run r;
        read_run(in, tool, &r);
        if (fix_run)
            fix_run(in, &r);
        if (r.have_t0) {
            when->tv_sec = r.t0;
            when->tv_nsec = 0;
        }
        const json_t *sys = json_object_get(in, "sysinfo");
        const char *rel = sys ? json_string_value(json_object_get(sys, "release")) : NULL;
        if (rel && *rel)
            snprintf(release, release_len, "%s", rel);
        doc = import_ct_report(in, &c, &r, info, err, errlen);
    }
    free(c.b);
    json_decref(c.threads);
    json_decref(in);
    if (!doc)
        term_fix(err, errlen);
    return doc;
}

json_t *import_cyclictest(const char *text, size_t len, const struct import_info *info, char *release,
                          size_t release_len, struct timespec *when, char *err, size_t errlen)
{
    return import_ct_run(text, len, &ct_tool_cyclictest, NULL, NULL, info, release, release_len, when, err, errlen);
}
