/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report as a KernelCI KCIDB document, schema v5 (kcidb-io's v05_00: "version" {major 5, minor 0}, then
 * "checkouts", "builds" and "tests", linked by "<origin>:..." ids, no null anywhere, no property the schema does
 * not name, test paths of dot-separated [A-Za-z0-9_-] parts). The origin is "rtjitter" unless the lab names its own
 * (render_opts.kcidb_origin, `report --kcidb-origin`). rtjitter does not know the kernel's git commit: the lab gives
 * it (`--kcidb-git-commit`) and it becomes the checkout's git_commit_hash; without it the checkout is the kernel
 * release alone. The build is the running kernel (release and version string; rtjitter did not build it, so it has
 * no status).
 *
 * Every figure is a test of its own with a first-class "number" {value, unit, prefix}, never a figure left only in
 * "misc": per phase, path "rtjitter.<load>.<figure>". A figure a threshold judges (report/thresholds.h) is PASS or
 * FAIL by it (a limit that was only advice and failed is FAIL too: the verdict counted it; "misc".enforced says
 * the exit status did not); a figure nothing judges is DONE, KCIDB's status for a measurement. Times are in
 * seconds with the metric prefix (41.2 µs is 4.12e-05 s, shown "41.2 µs"). The verdict is "rtjitter.verdict"
 * (PASS, FAIL, or DONE for a warning), an incomplete run adds "rtjitter" with status ERROR. Built with jansson. */
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
    if (isfinite(v))
        json_object_set_new(o, k, json_real(v));
}

static void misc_prop(const char *name, const char *value, void *arg)
{
    json_object_set_new(arg, name, utf8_json_string(value));
}

/* A part of a v5 test path: [A-Za-z0-9_-] only (a '.' would split it), never empty. */
static void path_part(const char *s, char *buf, size_t len)
{
    pkg_ident(s, buf, len);
    for (char *c = buf; *c; c++)
        if (*c == '.')
            *c = '_';
    if (!buf[0] && len > 1)
        snprintf(buf, len, "_");
}

/* The figures of a phase, each a test: its path part, the threshold id that judges it (thresholds.c), its unit
 * and the scale from the report's unit to it (µs to s, with the metric prefix). The phase's measured time is each
 * test's "duration". */
static const struct kfig {
    const char *name, *check_id, *unit;
    double scale;
    int metric_prefix;
} kfigs[] = {
    { "cycles", NULL, "cycles", 1, 0 },
    { "xrun_events", "xruns", "events", 1, 0 },
    { "xrun_notifications", NULL, "notifications", 1, 0 },
    { "skipped_cycles", NULL, "cycles", 1, 0 },
    { "deadlines_met", "deadlines_met", "%", 1, 0 },
    { "deadlines_missed", "deadlines_missed", "deadlines", 1, 0 },
    { "wakeup_p99", "wakeup_p99", "s", 1e-6, 1 },
    { "wakeup_max", NULL, "s", 1e-6, 1 },
    { "jitter_abs_max", "jitter", "s", 1e-6, 1 },
    { "margin_min", NULL, "s", 1e-6, 1 },
};
#define NKFIGS (sizeof(kfigs) / sizeof(kfigs[0]))

static double kfig_value(const struct phase_figs *pf, size_t i)
{
    const double v[NKFIGS] = { pf->cycles, pf->xrun_events, pf->xruns_reported, pf->skipped_cycles, pf->met_pct,
                               pf->missed, pf->wakeup_p99_us, pf->wakeup_max_us, pf->jitter_abs_max_us,
                               pf->margin_min_us };
    return v[i];
}

/* {value, unit, prefix} of a figure in the report's unit ("us", "%", "" for a count). */
static json_t *number(double v, const char *report_unit, const char *count_unit)
{
    json_t *n = json_object();
    if (!strcmp(report_unit, "us")) {
        json_object_set_new(n, "value", json_real(v * 1e-6));
        json_object_set_new(n, "unit", json_string("s"));
        json_object_set_new(n, "prefix", json_string("metric"));
    } else {
        json_object_set_new(n, "value", json_real(v));
        json_object_set_new(n, "unit", json_string(report_unit[0] ? report_unit : count_unit));
    }
    return n;
}

struct kctx {
    json_t *tests, *env;
    const char *origin, *build_id, *run_id, *start;
};

static json_t *new_test(const struct kctx *k, const char *id, const char *path, const char *status)
{
    json_t *t = json_object();
    set_str(t, "build_id", k->build_id);
    set_str(t, "id", id);
    set_str(t, "origin", k->origin);
    json_object_set_new(t, "environment", json_deep_copy(k->env));
    set_str(t, "path", path);
    json_object_set_new(t, "status", json_string(status));
    set_str(t, "start_time", k->start);
    return t;
}

/* One test of phase pi: path rtjitter.<load>.<what>, id unique to the run and phase. */
static json_t *phase_test(const struct kctx *k, size_t pi, const char *load, const char *what, const char *status,
                          const struct phase_figs *pf, const char *phase_name)
{
    char l[PHASE_NAME_LEN], w[96], path[PHASE_NAME_LEN + 120], id[PHASE_NAME_LEN + 800];
    path_part(load, l, sizeof(l));
    path_part(what, w, sizeof(w));
    snprintf(path, sizeof(path), "rtjitter.%s.%s", l, w);
    snprintf(id, sizeof(id), "%s:%zu:%s", k->run_id, pi, path);
    json_t *t = new_test(k, id, path, status);
    set_num(t, "duration", pf->measured_s);
    json_t *misc = json_object();
    set_str(misc, "phase", phase_name);
    json_object_set_new(t, "misc", misc);
    return t;
}

/* A threshold's test: PASS or FAIL, the figure it judged as its number. */
static void threshold_test(const struct kctx *k, size_t pi, const json_t *check, const json_t *e,
                           const struct phase_figs *pf, const char *load, const char *what, const char *count_unit)
{
    enum thresh_outcome o = thresholds_outcome(check, e);
    const char *pname = doc_str(e, "phase", "?");
    json_t *t = phase_test(k, pi, load, what, o == THRESH_PASS ? "PASS" : "FAIL", pf, pname);
    char desc[256], comment[PHASE_NAME_LEN + 400];
    thresholds_describe(check, e, desc, sizeof(desc));
    snprintf(comment, sizeof(comment), "phase %s: %s (%s)", pname, desc, doc_str(check, "source", "?"));
    set_str(t, "comment", comment);
    double v = doc_num(e, "value");
    if (isfinite(v))
        json_object_set_new(t, "number", number(v, doc_str(check, "unit", ""), count_unit));
    json_t *misc = json_object_get(t, "misc");
    set_str(misc, "threshold", doc_str(check, "id", "?"));
    set_str(misc, "op", doc_str(check, "op", "?"));
    set_num(misc, "limit", doc_num(check, "limit"));
    set_str(misc, "limit_unit", doc_str(check, "unit", ""));
    set_str(misc, "source", doc_str(check, "source", "?"));
    json_object_set_new(misc, "enforced", json_boolean(json_is_true(json_object_get(check, "enforced"))));
    json_array_append_new(k->tests, t);
}

/* Phase pi: its thresholds, then every figure no threshold judged (DONE), then what its load did. */
static void phase_tests(const struct kctx *k, const json_t *doc, size_t pi, const json_t *p)
{
    char pname[PHASE_NAME_LEN];
    doc_phase_name(p, pname, sizeof(pname));
    struct phase_figs pf;
    pkg_phase_figs(p, &pf);
    const json_t *checks = json_object_get(json_object_get(doc, "thresholds"), "checks"), *c;
    unsigned judged = 0;
    size_t i;
    json_array_foreach(checks, i, c) {
        const json_t *e = json_array_get(json_object_get(c, "phases"), pi);
        if (!e)
            continue;
        const char *id = doc_str(c, "id", "?"), *what = id, *unit = "events";
        for (size_t f = 0; f < NKFIGS; f++)
            if (kfigs[f].check_id && !strcmp(kfigs[f].check_id, id)) {
                judged |= 1u << f;
                what = kfigs[f].name;
                unit = kfigs[f].unit;
            }
        threshold_test(k, pi, c, e, &pf, pname, what, unit);
    }
    for (size_t f = 0; f < NKFIGS; f++) {
        double v = kfig_value(&pf, f);
        if ((judged & (1u << f)) || !isfinite(v))
            continue;
        json_t *t = phase_test(k, pi, pname, kfigs[f].name, "DONE", &pf, pname);
        json_t *n = json_object();
        json_object_set_new(n, "value", json_real(v * kfigs[f].scale));
        json_object_set_new(n, "unit", json_string(kfigs[f].unit));
        if (kfigs[f].metric_prefix)
            json_object_set_new(n, "prefix", json_string("metric"));
        json_object_set_new(t, "number", n);
        json_array_append_new(k->tests, t);
    }
    const json_t *m;
    json_array_foreach(json_object_get(p, "load_metrics"), i, m) {
        double v = doc_num(m, "value");
        const char *name = doc_str(m, "name", NULL);
        if (!name || !isfinite(v))
            continue;
        char what[96];
        snprintf(what, sizeof(what), "load_%s", name);
        json_t *t = phase_test(k, pi, pname, what, "DONE", &pf, pname);
        json_t *n = json_object();
        json_object_set_new(n, "value", json_real(v));
        set_str(n, "unit", doc_str(m, "unit", NULL));
        json_object_set_new(t, "number", n);
        set_str(json_object_get(t, "misc"), "load_metric", name);
        json_array_append_new(k->tests, t);
    }
}

/* KCIDB's date-time: the report's "2026-01-01T00:00:00Z" as "2026-01-01T00:00:00+00:00". */
static void kcidb_time(const char *iso, char *buf, size_t len)
{
    snprintf(buf, len, "%.19s+00:00", iso);
}

int kcidb_origin_valid(const char *s)
{
    if (!s || !*s)
        return 0;
    return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

int kcidb_commit_valid(const char *s)
{
    return s && strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

static int kcidb_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    struct render_opts ro = render_opts_or_default(o);
    const char *origin = kcidb_origin_valid(ro.kcidb_origin) ? ro.kcidb_origin : "rtjitter";
    const json_t *sys = json_object_get(doc, "system"), *kern = json_object_get(sys, "kernel");
    const char *rel = doc_str(kern, "release", "unknown"), *ver = doc_str(kern, "version", "");
    const char *host = doc_str(sys, "hostname", "unknown");
    const char *cpu = doc_str(json_object_get(sys, "cpu"), "model", "unknown CPU");
    const char *commit = kcidb_commit_valid(ro.kcidb_git_commit) ? ro.kcidb_git_commit : NULL;
    char rel_id[160], checkout_id[256], build_id[300], run_id[600], start[40] = "";
    pkg_ident(rel, rel_id, sizeof(rel_id));
    /* the same kernel release from another commit is another checkout */
    snprintf(checkout_id, sizeof(checkout_id), "%s:%s%s%s", origin, rel_id, commit ? ":" : "", commit ? commit : "");
    snprintf(build_id, sizeof(build_id), "%s:%016llx", checkout_id,
             (unsigned long long)fnv(ver, fnv(rel, 0xcbf29ce484222325ULL)));
    const char *started = doc_str(doc, "started", NULL);
    if (started)
        kcidb_time(started, start, sizeof(start));
    /* One run: the machine and its start time make it unique among this origin's submissions. */
    snprintf(run_id, sizeof(run_id), "%s:%016llx:%s", build_id,
             (unsigned long long)fnv(cpu, fnv(host, 0xcbf29ce484222325ULL)), started ? started : "unknown");

    json_t *out = json_pack("{s:{s:i, s:i}}", "version", "major", 5, "minor", 0);
    json_t *checkout = json_object();
    set_str(checkout, "id", checkout_id);
    set_str(checkout, "origin", origin);
    json_object_set_new(checkout, "valid", json_true());
    set_str(checkout, "git_commit_hash", commit);
    char comment[512];
    snprintf(comment, sizeof(comment), "Linux %s", rel);
    set_str(checkout, "comment", comment);
    json_object_set_new(checkout, "misc", json_pack("{s:o}", "kernel_release", utf8_json_string(rel)));
    json_object_set_new(out, "checkouts", json_pack("[o]", checkout));

    json_t *build = json_object();
    set_str(build, "checkout_id", checkout_id);
    set_str(build, "id", build_id);
    set_str(build, "origin", origin);
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
    struct kctx k = { .tests = json_array(), .env = env, .origin = origin, .build_id = build_id, .run_id = run_id,
                      .start = started ? start : NULL };
    char id[700];
    if (!json_is_true(json_object_get(doc, "complete"))) {
        snprintf(id, sizeof(id), "%s:run", run_id);
        json_t *t = new_test(&k, id, "rtjitter", "ERROR");
        set_str(t, "comment", doc_str(doc, "incomplete_reason", "the run did not complete"));
        json_array_append_new(k.tests, t);
    }
    const char *level = doc_str(json_object_get(doc, "verdict"), "level", NULL);
    if (level) {
        snprintf(id, sizeof(id), "%s:verdict", run_id);
        json_t *t = new_test(&k, id, "rtjitter.verdict", !strcmp(level, "pass")   ? "PASS"
                                                         : !strcmp(level, "fail") ? "FAIL"
                                                                                  : "DONE");
        set_str(t, "comment", doc_str(json_object_get(doc, "verdict"), "summary", NULL));
        json_object_set_new(t, "misc", json_pack("{s:s}", "level", level));
        json_array_append_new(k.tests, t);
    }
    const json_t *p;
    size_t pi;
    json_array_foreach(json_object_get(doc, "phases"), pi, p)
        phase_tests(&k, doc, pi, p);
    json_object_set_new(out, "tests", k.tests);
    json_decref(env);
    int e = doc_json_body(f, out);
    json_decref(out);
    return e;
}

/* Its entry in the table of forms (render.c): a report only (a packaging form judges a run's phases). */
const struct renderer render_form_kcidb = {
    .name = "kcidb", .ext = "json", .summary = "a KernelCI KCIDB v5 document: a test per phase and figure",
    .report = kcidb_report,
};
