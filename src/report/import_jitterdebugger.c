/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jitterdebugger's results.json into a report: see import_tools.h. What jitterdebugger writes in its -o DIR
 * (jitterdebugger.c, dump_stats): {"version", "sysinfo" {sysname, nodename, release, version, machine,
 * cpus_online, resolution_in_ns (1000: values in µs, 1: in ns with -N)}, "cpu" {"N": {"histogram" {"VALUE":
 * COUNT}, "count", "min", "max", "avg"}}}: one thread per CPU waking from clock_nanosleep, as cyclictest's, its
 * latency truncated to whole units (bucket VALUE holds [VALUE, VALUE + 1)); values of 1000 units and more are
 * counted but not in the histogram. The file has no time and no command line; the DIR's "cmdline" is the kernel's.
 *
 * The file is read into cyclictest's shape and made a report by the cyclictest import's code
 * (import_cyclictest_internal.h). */
#include "report/import_cyclictest_internal.h"
#include "report/import_tools.h"
#include "util/utf8.h"
#include <stdio.h>
#include <string.h>

/* jitterdebugger's histogram holds values below this many units (HIST_MAX_ENTRIES). */
#define JD_HIST_LIMIT 1000

static const struct ct_tool ct_tool_jitterdebugger = {
    .name = "jitterdebugger",
    .what = "jitterdebugger's results.json",
    .measures = "the timer wake-up latency only (jitterdebugger's latency, one thread per CPU: wakeup_us); period, "
                "jitter, callback, margin, deadlines and xruns are not measured and are null",
    .first_warning = "imported from jitterdebugger: only the wake-up latency is known; period, jitter, callback, "
                     "margin, deadlines and xruns are null; the file has no start time (the import's time is used)",
    .hist_limit_fmt = "values from %ld units",
    .hist_advice = "jitterdebugger's histogram has a fixed size",
};

static json_t *jd_to_ct(const json_t *in, char *err, size_t errlen)
{
    const json_t *cpus = json_object_get(in, "cpu"), *sys = json_object_get(in, "sysinfo");
    if (!json_is_object(in) || !json_is_integer(json_object_get(in, "version")) || !json_is_object(cpus) ||
        json_object_size(cpus) == 0) {
        snprintf(err, errlen, "not jitterdebugger's results.json: no \"version\" and \"cpu\" object (jitterdebugger "
                 "-o DIR writes DIR/results.json)");
        return NULL;
    }
    if (!json_is_object(sys)) {
        snprintf(err, errlen, "not jitterdebugger's results.json: no \"sysinfo\" object");
        return NULL;
    }
    const json_t *res = json_object_get(sys, "resolution_in_ns");
    if (!json_is_integer(res) || (json_integer_value(res) != 1000 && json_integer_value(res) != 1)) {
        snprintf(err, errlen, "not jitterdebugger's results.json: \"sysinfo\".\"resolution_in_ns\" is neither 1000 "
                 "(us) nor 1 (ns)");
        return NULL;
    }
    json_t *out = json_object(), *th = json_object();
    json_object_set(out, "sysinfo", (json_t *)sys);
    json_object_set_new(out, "resolution_in_ns", json_integer(json_integer_value(res) == 1));
    json_object_set_new(out, "thread", th);
    const char *name;
    const json_t *t;
    json_object_foreach((json_t *)cpus, name, t) {
        if (!json_is_object(t)) {
            snprintf(err, errlen, "not jitterdebugger's results.json: cpu \"%.40s\" is not an object", name);
            json_decref(out);
            return NULL;
        }
        json_t *nt = json_object();
        static const char *const keep[] = { "min", "max", "avg", "histogram" };
        for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
            if (json_object_get(t, keep[i]))
                json_object_set(nt, keep[i], json_object_get(t, keep[i]));
        if (json_object_get(t, "count"))
            json_object_set(nt, "cycles", json_object_get(t, "count"));
        json_object_set_new(th, name, nt);
    }
    return out;
}

static void jd_run(const json_t *in, struct ct_run *r)
{
    (void)in;
    r->hist_limit = JD_HIST_LIMIT;
}

json_t *import_jitterdebugger(const char *text, size_t len, const char *kernel_cmdline,
                              const struct import_info *info, char *release, size_t release_len,
                              struct timespec *when, char *err, size_t errlen)
{
    json_t *doc = import_ct_run(text, len, &ct_tool_jitterdebugger, jd_to_ct, jd_run, info, release, release_len,
                                when, err, errlen);
    json_t *kernel = json_object_get(json_object_get(doc, "system"), "kernel");
    if (kernel && kernel_cmdline && *kernel_cmdline) {
        char line[4096];
        snprintf(line, sizeof(line), "%s", kernel_cmdline);
        line[strcspn(line, "\n")] = '\0';
        json_object_set_new(kernel, "cmdline", utf8_json_string(line));
    }
    return doc;
}
