/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report as JUnit XML (the shape of the common JUnit XSD that Jenkins, GitLab and LAVA read): one
 * <testsuite> per run inside <testsuites>, its identity (kernel, machine, backend, setting) as properties,
 * one <testcase> per phase and threshold with a <failure> carrying the figures, and one for the verdict. A limit
 * that was only advice (a profile without --profile) and failed is a <failure> of type "advice" too: the exit
 * status did not count it, but the verdict did, and a harness that counts failures must not read it as a pass
 * (as <skipped> was read). A failed verdict is a <failure> of type "verdict"; an incomplete run adds an <error>.
 * Every text goes through html_escape() (&<>"' and what XML does not allow). */
#include "render/html.h"
#include "render/pkgtest.h"
#include "render/render.h"
#include "render/soak_pkg.h"
#include "report/access.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    html_escape(f, value ? value : "");
    fputc('"', f);
}

static void prop(const char *name, const char *value, void *arg)
{
    FILE *f = arg;
    fputs("      <property", f);
    attr(f, "name", name);
    attr(f, "value", value);
    fputs("/>\n", f);
}

/* Seconds between the report's two ISO 8601 UTC times; 0 when either is unknown. */
static double run_seconds(const json_t *doc)
{
    struct tm a = { 0 }, b = { 0 };
    const char *s = doc_str(doc, "started", NULL), *e = doc_str(doc, "finished", NULL);
    if (!s || !e || !strptime(s, "%Y-%m-%dT%H:%M:%S", &a) || !strptime(e, "%Y-%m-%dT%H:%M:%S", &b))
        return 0;
    double d = difftime(timegm(&b), timegm(&a));
    return d > 0 ? d : 0;
}

struct jctx {
    FILE *f;
    size_t tests, failures, per_phase; /* nothing is <skipped>: see above */
    const json_t *doc;
};

static void count_case(const json_t *phase, size_t pi, const json_t *check, const json_t *e, void *arg)
{
    (void)phase;
    (void)pi;
    struct jctx *j = arg;
    enum thresh_outcome o = thresholds_outcome(check, e);
    j->tests++;
    j->failures += o != THRESH_PASS;
}

static void write_case(const json_t *phase, size_t pi, const json_t *check, const json_t *e, void *arg)
{
    (void)pi;
    struct jctx *j = arg;
    FILE *f = j->f;
    char what[256], name[PHASE_NAME_LEN + 300], cls[PHASE_NAME_LEN + 16], lim[64], t[32];
    const char *pname = doc_str(e, "phase", "?"), *unit = doc_str(check, "unit", "");
    thresholds_value_text(check, json_object_get(check, "limit"), lim, sizeof(lim));
    snprintf(name, sizeof(name), "%s: %s %s %s%s%s", pname, doc_str(check, "metric", "?"), doc_str(check, "op", "?"),
             lim, unit[0] && strcmp(unit, "%") ? " " : "", unit);
    snprintf(cls, sizeof(cls), "rtjitter.%s", pname);
    struct phase_figs pf;
    pkg_phase_figs(phase, &pf);
    /* A phase's measured time is shared by its test cases, so that their sum is the time measured. */
    snprintf(t, sizeof(t), "%.3f", isnan(pf.measured_s) || !j->per_phase ? 0 : pf.measured_s / (double)j->per_phase);
    fputs("    <testcase", f);
    attr(f, "name", name);
    attr(f, "classname", cls);
    attr(f, "time", t);
    enum thresh_outcome o = thresholds_outcome(check, e);
    if (o == THRESH_PASS) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    thresholds_describe(check, e, what, sizeof(what));
    char msg[PHASE_NAME_LEN + 600];
    snprintf(msg, sizeof(msg), "phase %s: %s (%s)%s", pname, what, doc_str(check, "source", "?"),
             o == THRESH_ADVISORY ? ": the exit status did not count it (give --profile to enforce it)" : "");
    {
        fputs("      <failure", f);
        attr(f, "message", msg);
        attr(f, "type", o == THRESH_ADVISORY ? "advice" : "threshold");
        fputs(">", f);
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            fprintf(m, "phase: %s\nmetric: %s\nlimit: %s %s%s%s\nsource: %s\n", pname, doc_str(check, "metric", "?"),
                    doc_str(check, "op", "?"), lim, unit[0] && strcmp(unit, "%") ? " " : "", unit,
                    doc_str(check, "source", "?"));
            pkg_phase_figs_lines(m, &pf, "");
            fclose(m);
            html_escape(f, buf);
        }
        free(buf);
        fputs("</failure>\n", f);
    }
    fputs("    </testcase>\n", f);
}

/* The verdict's case: a failure when its level is "fail", with the summary and each line of advice. Nothing when
 * the report has no verdict (an import). Returns 1 when written (or, f NULL, when there is one), *failed set. */
static int verdict_case(FILE *f, const json_t *doc, int *failed)
{
    const json_t *v = json_object_get(doc, "verdict");
    const char *level = doc_str(v, "level", NULL);
    *failed = level && !strcmp(level, "fail");
    if (!level || !f)
        return level != NULL;
    fputs("    <testcase", f);
    attr(f, "name", "verdict");
    attr(f, "classname", "rtjitter.run");
    attr(f, "time", "0");
    if (!*failed) {
        fputs("/>\n", f);
        return 1;
    }
    fputs(">\n      <failure", f);
    attr(f, "message", doc_str(v, "summary", "the verdict is fail"));
    attr(f, "type", "verdict");
    fputs(">", f);
    const json_t *a;
    size_t i;
    json_array_foreach(json_object_get(v, "advice"), i, a)
        if (json_is_string(a)) {
            html_escape(f, json_string_value(a));
            fputc('\n', f);
        }
    fputs("</failure>\n    </testcase>\n", f);
    return 1;
}

static int junit_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    struct jctx j = { .f = f, .doc = doc };
    pkg_cases(doc, count_case, &j);
    j.tests += soak_junit(NULL, doc, &j.failures); /* --soak's cases (soak_pkg.h) */
    int vfailed;
    j.tests += (size_t)verdict_case(NULL, doc, &vfailed);
    j.failures += (size_t)vfailed;
    size_t nchecks = json_array_size(json_object_get(json_object_get(doc, "thresholds"), "checks"));
    j.per_phase = nchecks;
    int complete = json_is_true(json_object_get(doc, "complete"));
    size_t errors = !complete;
    const json_t *k = json_object_get(json_object_get(doc, "system"), "kernel"), *a = json_object_get(doc, "audio");
    char suite[512], n[32], fl[32], er[32], sk[32], t[32], stamp[32];
    const char *label = doc_str(doc, "label", NULL);
    snprintf(suite, sizeof(suite), "rtjitter%s%s%s on %s (%s, %.0f frames at %.0f Hz)", label ? " '" : "",
             label ? label : "", label ? "'" : "", doc_str(k, "release", "?"), doc_str(a, "backend", "?"),
             doc_num(a, "period_frames"), doc_num(a, "rate"));
    snprintf(n, sizeof(n), "%zu", j.tests + 1);
    snprintf(fl, sizeof(fl), "%zu", j.failures);
    snprintf(er, sizeof(er), "%zu", errors);
    snprintf(sk, sizeof(sk), "%d", 0);
    snprintf(t, sizeof(t), "%.3f", run_seconds(doc));
    /* The XSD's timestamp has no zone: the report's time is UTC. */
    snprintf(stamp, sizeof(stamp), "%.19s", doc_str(doc, "started", "1970-01-01T00:00:00"));
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
    attr(f, "name", "rtjitter");
    attr(f, "tests", n);
    attr(f, "failures", fl);
    attr(f, "errors", er);
    attr(f, "skipped", sk);
    attr(f, "time", t);
    fputs(">\n  <testsuite", f);
    attr(f, "name", suite);
    attr(f, "tests", n);
    attr(f, "failures", fl);
    attr(f, "errors", er);
    attr(f, "skipped", sk);
    attr(f, "time", t);
    attr(f, "timestamp", stamp);
    attr(f, "hostname", doc_str(json_object_get(doc, "system"), "hostname", "unknown"));
    attr(f, "id", "0");
    attr(f, "package", "rtjitter");
    fputs(">\n    <properties>\n", f);
    pkg_identity(doc, prop, f);
    fputs("    </properties>\n    <testcase", f);
    attr(f, "name", "run complete");
    attr(f, "classname", "rtjitter.run");
    attr(f, "time", t);
    if (complete) {
        fputs("/>\n", f);
    } else {
        fputs(">\n      <error", f);
        attr(f, "message", doc_str(doc, "incomplete_reason", "the run did not complete"));
        attr(f, "type", "incomplete");
        fputs("/>\n    </testcase>\n", f);
    }
    verdict_case(f, doc, &vfailed);
    pkg_cases(doc, write_case, &j);
    soak_junit(f, doc, &(size_t){ 0 });
    fputs("  </testsuite>\n</testsuites>\n", f);
    return 0;
}

/* Its entry in the table of forms (render.c): a report only (a packaging form judges a run's phases). */
const struct renderer render_form_junit = {
    .name = "junit", .ext = "xml", .summary = "JUnit XML: a test case per phase and threshold",
    .report = junit_report,
};
