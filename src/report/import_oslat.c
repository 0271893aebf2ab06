/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oslat --json=FILE (rt-tests 2.x) into a report: see import_tools.h. What oslat writes (rt-tests
 * src/oslat/oslat.c, write_summary_json, inside rt-tests' common header: "cmdline:", "rt_test_version:",
 * "start_time", "end_time", "return_code", "sysinfo"): "num_threads" and "thread" {"N": {"cpu", "freq" (its
 * counter's MHz), "min", "avg", "max" (µs), "duration" (s), "histogram" {"K": COUNT}}}. oslat spins on each CPU
 * and times every loop: a loop that took more than K - 1 and at most K µs is counted in bucket K, so its figures
 * are upper bounds to the µs; the last bucket (K = the bucket count, -b, 32 by default) holds every longer loop too
 * ("including overflows"). Buckets with no count are left out, and the samples are the histogram's sum.
 *
 * The file is read into cyclictest's shape (a thread's "cycles" the sum, the last bucket kept apart as samples
 * past the histogram) and made a report by the cyclictest import's code (import_cyclictest_internal.h). */
#include "report/import_cyclictest_internal.h"
#include "report/import_tools.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ct_tool ct_tool_oslat = {
    .name = "oslat",
    .what = "oslat's --json output",
    .measures = "how long one loop of a busy thread on each CPU took, to the µs above (oslat's latency: the time "
                "the CPU was taken from a running thread, not a timer wake-up), kept as wakeup_us so that compare "
                "puts it beside runs; period, jitter, callback, margin, deadlines and xruns are null",
    .first_warning = "imported from oslat: its latency is how long a busy loop was held up (an upper bound to the "
                     "µs), kept as the wake-up; period, jitter, callback, margin, deadlines and xruns are null",
    .hist_limit_fmt = "-b %ld",
    .hist_advice = "a larger -b keeps them",
    .key_shift = 1,
};

/* oslat's command line: does it name option shrt or lng (with or without a value)? its value in *v when a
 * number follows ("-b 64", "-b64", "--bucket-size=64", "--bucket-size 64"). 1 when named. */
static int cmd_has(const char *cmd, const char *shrt, const char *lng, long *v)
{
    if (!cmd)
        return 0;
    char *copy = strdup(cmd), *save = NULL;
    int named = 0;
    size_t ll = strlen(lng);
    for (char *w = copy ? strtok_r(copy, " \t", &save) : NULL; w && !named; w = strtok_r(NULL, " \t", &save)) {
        const char *val = NULL;
        if (!strcmp(w, shrt) || !strcmp(w, lng))
            named = 1, val = strtok_r(NULL, " \t", &save);
        else if (!strncmp(w, lng, ll) && w[ll] == '=')
            named = 1, val = w + ll + 1;
        else if (w[0] == '-' && w[1] == shrt[1] && w[1] != '-' && w[2])
            named = 1, val = w + 2;
        if (named && v && val) {
            char *end;
            long x = strtol(val, &end, 10);
            if (end != val && !*end)
                *v = x;
        }
    }
    free(copy);
    return named;
}

/* A whole bucket key ("12"), as oslat writes it with 1 µs buckets; -1 for anything else ("1.250", "x"). */
static long key_of(const char *k)
{
    if (!*k || strlen(k) > 9)
        return -1;
    for (const char *c = k; *c; c++)
        if (!isdigit((unsigned char)*c))
            return -1;
    return strtol(k, NULL, 10);
}

/* oslat's document -> cyclictest's shape, or NULL with err. */
static json_t *oslat_to_ct(const json_t *in, char *err, size_t errlen)
{
    const json_t *threads = json_object_get(in, "thread");
    if (!json_is_object(in) || !json_is_object(threads) || json_object_size(threads) == 0 ||
        !json_is_string(json_object_get(in, "rt_test_version:"))) {
        snprintf(err, errlen, "not oslat's --json output: no rt-tests header and \"thread\" object (rt-tests 2.x: "
                 "oslat --json=FILE)");
        return NULL;
    }
    const char *cmd = json_string_value(json_object_get(in, "cmdline:"));
    if (cmd && strstr(cmd, "cyclictest")) {
        snprintf(err, errlen, "this is cyclictest's output, not oslat's: rtjitter import cyclictest FILE");
        return NULL;
    }
    long buckets = 32, width = 1000;
    cmd_has(cmd, "-b", "--bucket-size", &buckets);
    if (cmd_has(cmd, "-W", "--bucket-width", &width) && width != 1000) {
        snprintf(err, errlen, "oslat ran with buckets %ld ns wide (-W): only 1 us buckets are imported", width);
        return NULL;
    }
    if (cmd_has(cmd, "-B", "--bias", NULL)) {
        snprintf(err, errlen, "oslat ran with --bias: its bucket keys are shifted by a bias the file does not "
                 "record, not imported");
        return NULL;
    }
    json_t *out = json_object(), *th = json_object();
    static const char *const header[] = { "file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
                                          "return_code", "sysinfo" };
    for (size_t i = 0; i < sizeof(header) / sizeof(header[0]); i++)
        if (json_object_get(in, header[i]))
            json_object_set(out, header[i], json_object_get(in, header[i]));
    json_object_set_new(out, "thread", th);
    json_object_set_new(out, "oslat_buckets", json_integer(buckets)); /* for oslat_run */
    const char *name;
    const json_t *t;
    json_object_foreach((json_t *)threads, name, t) {
        const json_t *h = json_object_get(t, "histogram");
        if (!json_is_object(t) || !json_is_object(h)) {
            snprintf(err, errlen, "not oslat's --json output: thread \"%.40s\" has no \"histogram\" object", name);
            json_decref(out);
            return NULL;
        }
        json_t *nt = json_object(), *nh = json_object();
        static const char *const keep[] = { "min", "max", "avg", "cpu" };
        for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
            if (json_object_get(t, keep[i]))
                json_object_set(nt, keep[i], json_object_get(t, keep[i]));
        double n = 0;
        const char *k;
        const json_t *c;
        json_object_foreach((json_t *)h, k, c) {
            long key = key_of(k);
            if (key < 1 || key > buckets || !json_is_integer(c) || json_integer_value(c) < 0) {
                snprintf(err, errlen, "thread \"%.40s\": histogram entry \"%.20s\" is not a whole bucket from 1 to "
                         "%ld (oslat -b) with a whole count", name, k, buckets);
                json_decref(nt);
                json_decref(nh);
                json_decref(out);
                return NULL;
            }
            n += (double)json_integer_value(c);
            if (key < buckets) /* the last bucket holds the longer loops too: past the histogram */
                json_object_set(nh, k, (json_t *)c);
        }
        if (n > 1e15) {
            snprintf(err, errlen, "thread \"%.40s\": more than 1e15 samples", name);
            json_decref(nt);
            json_decref(nh);
            json_decref(out);
            return NULL;
        }
        json_object_set_new(nt, "cycles", json_integer((json_int_t)n));
        json_object_set_new(nt, "histogram", nh);
        json_object_set_new(th, name, nt);
    }
    return out;
}

static void oslat_run(const json_t *in, struct ct_run *r)
{
    r->have_interval = 0; /* oslat spins: no interval */
    r->interval = 0;
    long prio = 0;
    r->have_prio = cmd_has(r->cmd, "-f", "--rtprio", &prio) && prio > 0;
    r->prio = prio;
    /* the last bucket's lower edge: where the samples past the histogram begin */
    r->hist_shown = (long)json_integer_value(json_object_get(in, "oslat_buckets"));
    r->hist_limit = r->hist_shown - 1;
}

json_t *import_oslat(const char *text, size_t len, const struct import_info *info, char *release,
                     size_t release_len, struct timespec *when, char *err, size_t errlen)
{
    return import_ct_run(text, len, &ct_tool_oslat, oslat_to_ct, oslat_run, info, release, release_len, when, err,
                         errlen);
}
