/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report as a KernelCI KCIDB document, schema v4.0 (kcidb-io's v04_00: "version" {major, minor}, then
 * "checkouts", "builds" and "tests", linked by "origin:..." ids, no null anywhere, no property the schema does
 * not name). rtjitter does not know the kernel's git commit, so the checkout is the kernel release, the build the
 * running kernel's release and version string, and each test one phase and threshold:
 * path "rtjitter.<load>.<threshold>", status PASS or FAIL, its figures under "misc". A limit that was only advice
 * and failed is FAIL with "waived": true (the run's exit status did not count it either). An incomplete run
 * adds the test "rtjitter" with status ERROR. Built with jansson. */
#include "render/pkgtest.h"
#include "render/render.h"
#include "report/access.h"
#include "report/doc.h"
#include "util/utf8.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

/* A short stable hash (FNV-1a, 64 bits) to make ids from long strings. */
static uint64_t fnv(const char *s, uint64_t h)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

static void set_str(json_t *o, const char *k, const char *v)
{
    if (v)
        json_object_set_new(o, k, utf8_json_string(v));
}

static void set_num(json_t *o, const char *k, double v)
{
    if (!isnan(v))
        json_object_set_new(o, k, json_real(v));
}

static void misc_prop(const char *name, const char *value, void *arg)
{
    json_object_set_new(arg, name, utf8_json_string(value));
}

static void figs_misc(json_t *o, const struct phase_figs *pf)
{
    set_num(o, "measured_s", pf->measured_s);
    set_num(o, "cycles", pf->cycles);
    set_num(o, "xrun_events", pf->xrun_events);
    set_num(o, "xrun_notifications", pf->xruns_reported);
    set_num(o, "skipped_cycles", pf->skipped_cycles);
    set_num(o, "deadlines_met_pct", pf->met_pct);
    set_num(o, "deadlines_missed", pf->missed);
    set_num(o, "wakeup_p99_us", pf->wakeup_p99_us);
    set_num(o, "wakeup_max_us", pf->wakeup_max_us);
    set_num(o, "jitter_abs_max_us", pf->jitter_abs_max_us);
    set_num(o, "margin_min_us", pf->margin_min_us);
}

struct kctx {
    json_t *tests, *env;
    const char *build_id, *run_id, *start;
};

static json_t *new_test(const struct kctx *k, const char *id, const char *path, const char *status)
{
    json_t *t = json_object();
    set_str(t, "build_id", k->build_id);
    set_str(t, "id", id);
    json_object_set_new(t, "origin", json_string("rtjitter"));
    json_object_set_new(t, "environment", json_deep_copy(k->env));
    set_str(t, "path", path);
    json_object_set_new(t, "status", json_string(status));
    set_str(t, "start_time", k->start);
    return t;
}

static void kcidb_case(const json_t *phase, size_t pi, const json_t *check, const json_t *e, void *arg)
{
    struct kctx *k = arg;
    char load[PHASE_NAME_LEN], cid[64], path[PHASE_NAME_LEN + 96], id[PHASE_NAME_LEN + 192], what[256];
    pkg_ident(doc_str(e, "phase", "?"), load, sizeof(load));
    pkg_ident(doc_str(check, "id", "?"), cid, sizeof(cid));
    snprintf(path, sizeof(path), "rtjitter.%s.%s", load, cid);
    snprintf(id, sizeof(id), "%s:%zu:%s", k->run_id, pi, path);
    enum thresh_outcome o = thresholds_outcome(check, e);
    json_t *t = new_test(k, id, path, o == THRESH_PASS ? "PASS" : "FAIL");
    if (o == THRESH_ADVISORY)
        json_object_set_new(t, "waived", json_true());
    thresholds_describe(check, e, what, sizeof(what));
    char comment[PHASE_NAME_LEN + 400];
    snprintf(comment, sizeof(comment), "phase %s: %s (%s)", doc_str(e, "phase", "?"), what,
             doc_str(check, "source", "?"));
    set_str(t, "comment", comment);
    struct phase_figs pf;
    pkg_phase_figs(phase, &pf);
    set_num(t, "duration", pf.measured_s);
    json_t *misc = json_object();
    set_str(misc, "phase", doc_str(e, "phase", "?"));
    set_str(misc, "metric", doc_str(check, "metric", "?"));
    set_num(misc, "value", doc_num(e, "value"));
    set_num(misc, "limit", doc_num(check, "limit"));
    set_str(misc, "op", doc_str(check, "op", "?"));
    set_str(misc, "unit", doc_str(check, "unit", ""));
    set_str(misc, "source", doc_str(check, "source", "?"));
    json_object_set_new(misc, "enforced", json_boolean(json_is_true(json_object_get(check, "enforced"))));
    figs_misc(misc, &pf);
    json_object_set_new(t, "misc", misc);
    json_array_append_new(k->tests, t);
}

/* KCIDB's date-time: the report's "2026-01-01T00:00:00Z" as "2026-01-01T00:00:00+00:00". */
static void kcidb_time(const char *iso, char *buf, size_t len)
{
    snprintf(buf, len, "%.19s+00:00", iso);
}

static int kcidb_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    const json_t *sys = json_object_get(doc, "system"), *kern = json_object_get(sys, "kernel");
    const char *rel = doc_str(kern, "release", "unknown"), *ver = doc_str(kern, "version", "");
    const char *host = doc_str(sys, "hostname", "unknown");
    const char *cpu = doc_str(json_object_get(sys, "cpu"), "model", "unknown CPU");
    char rel_id[160], checkout_id[256], build_id[256], run_id[512], start[40] = "";
    pkg_ident(rel, rel_id, sizeof(rel_id));
    snprintf(checkout_id, sizeof(checkout_id), "rtjitter:%s", rel_id);
    snprintf(build_id, sizeof(build_id), "rtjitter:%s:%016llx", rel_id, (unsigned long long)fnv(ver, fnv(rel,
             0xcbf29ce484222325ULL)));
    const char *started = doc_str(doc, "started", NULL);
    if (started)
        kcidb_time(started, start, sizeof(start));
    /* One run: the machine and its start time make it unique among rtjitter's submissions. */
    snprintf(run_id, sizeof(run_id), "%s:%016llx:%s", build_id, (unsigned long long)fnv(cpu, fnv(host,
             0xcbf29ce484222325ULL)), started ? started : "unknown");

    json_t *out = json_pack("{s:{s:i, s:i}}", "version", "major", 4, "minor", 0);
    json_t *checkout = json_pack("{s:s, s:s, s:b}", "id", checkout_id, "origin", "rtjitter", "valid", 1);
    char comment[512];
    snprintf(comment, sizeof(comment), "Linux %s", rel);
    set_str(checkout, "comment", comment);
    json_object_set_new(checkout, "misc", json_pack("{s:o}", "kernel_release", utf8_json_string(rel)));
    json_object_set_new(out, "checkouts", json_pack("[o]", checkout));

    json_t *build = json_pack("{s:s, s:s, s:s, s:b}", "checkout_id", checkout_id, "id", build_id, "origin",
                              "rtjitter", "valid", 1);
    snprintf(comment, sizeof(comment), "Linux %s %s (the running kernel; rtjitter did not build it)", rel, ver);
    set_str(build, "comment", comment);
    json_t *bmisc = json_object();
    set_str(bmisc, "kernel_version", ver);
    set_str(bmisc, "preempt", doc_str(kern, "preempt", NULL));
    set_num(bmisc, "hz", doc_num(kern, "hz"));
    set_str(bmisc, "cmdline", doc_str(kern, "cmdline", NULL));
    json_object_set_new(build, "misc", bmisc);
    json_object_set_new(out, "builds", json_pack("[o]", build));

    json_t *env = json_object();
    snprintf(comment, sizeof(comment), "%s (%s)", host, cpu);
    set_str(env, "comment", comment);
    json_t *emisc = json_object();
    pkg_identity(doc, misc_prop, emisc);
    json_object_set_new(env, "misc", emisc);
    struct kctx k = { .tests = json_array(), .env = env, .build_id = build_id, .run_id = run_id,
                      .start = started ? start : NULL };
    if (!json_is_true(json_object_get(doc, "complete"))) {
        char id[600];
        snprintf(id, sizeof(id), "%s:run", run_id);
        json_t *t = new_test(&k, id, "rtjitter", "ERROR");
        set_str(t, "comment", doc_str(doc, "incomplete_reason", "the run did not complete"));
        json_array_append_new(k.tests, t);
    }
    pkg_cases(doc, kcidb_case, &k);
    json_object_set_new(out, "tests", k.tests);
    json_decref(env);
    int e = doc_json_body(f, out);
    json_decref(out);
    return e;
}

/* Its entry in the table of forms (render.c): a report only (a packaging form judges a run's phases). */
const struct renderer render_form_kcidb = {
    .name = "kcidb", .ext = "json", .summary = "a KernelCI KCIDB v4 document: a test per phase and threshold",
    .report = kcidb_report,
};
