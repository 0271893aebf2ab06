/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report as the lines a LAVA test job runs to record its results: one
 * `lava-test-case LOAD-METRIC --result pass|fail|unknown --measurement X --units U` per phase and metric
 * ("burn-wakeup_p99", the shape of Linaro's test-definitions: data/lava/rtjitter.yaml runs them). A metric a
 * threshold judges (report/thresholds.h) passes or fails by it (a limit that was only advice and failed fails
 * too: the verdict counted it, though the run's exit status did not); a headline figure no threshold judges is a
 * measurement with "unknown" (LAVA's result for "not judged"), never "pass": a pass is a limit that held. The
 * verdict is a case of its own: pass, fail, or unknown for a warning. Names keep to [A-Za-z0-9_.-] and the
 * values are numbers, so every line is safe for the shell that runs it. */
#include "render/pkgtest.h"
#include "render/render.h"
#include "render/soak_pkg.h"
#include "report/access.h"
#include <math.h>
#include <string.h>

struct lctx {
    FILE *f;
    size_t pi;
    unsigned covered; /* bit per headline metric judged by a threshold, for phase pi */
};

/* The headline figures of a phase, and the threshold id that judges each (thresholds.c): the case's metric name. */
static const struct { const char *name, *check_id, *units; int prec; } headline[] = {
    { "xrun_events", "xruns", "events", 0 },
    { "deadlines_met", "deadlines_met", "%", 3 },
    { "wakeup_p99", "wakeup_p99", "us", 1 },
    { "jitter_abs_max", "jitter", "us", 1 },
};

static double headline_value(const struct phase_figs *pf, size_t i)
{
    const double v[] = { pf->xrun_events, pf->met_pct, pf->wakeup_p99_us, pf->jitter_abs_max_us };
    return v[i];
}

static void lava_case(const json_t *phase, size_t pi, const json_t *check, const json_t *e, void *arg)
{
    (void)phase;
    (void)pi;
    struct lctx *l = arg;
    char ph[PHASE_NAME_LEN], id[64], v[64];
    pkg_ident(doc_str(e, "phase", "?"), ph, sizeof(ph));
    pkg_ident(doc_str(check, "id", "?"), id, sizeof(id));
    for (size_t i = 0; i < sizeof(headline) / sizeof(headline[0]); i++)
        if (!strcmp(headline[i].check_id, doc_str(check, "id", ""))) {
            l->covered |= 1u << i;
            snprintf(id, sizeof(id), "%s", headline[i].name);
        }
    enum thresh_outcome o = thresholds_outcome(check, e);
    fprintf(l->f, "lava-test-case %s-%s --result %s", ph, id, o == THRESH_PASS ? "pass" : "fail");
    thresholds_value_text(check, json_object_get(e, "value"), v, sizeof(v));
    const char *unit = doc_str(check, "unit", "");
    if (strcmp(v, "-"))
        fprintf(l->f, " --measurement %s --units %s", v, unit[0] ? unit : "events");
    fputc('\n', l->f);
}

static int lava_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    fputs("# rtjitter results for LAVA: each line records one test case (lava-test-case)\n", f);
    int complete = json_is_true(json_object_get(doc, "complete"));
    fprintf(f, "lava-test-case run_complete --result %s\n", complete ? "pass" : "fail");
    const char *level = doc_str(json_object_get(doc, "verdict"), "level", NULL);
    if (level)
        fprintf(f, "lava-test-case verdict --result %s\n", !strcmp(level, "pass")   ? "pass"
                                                          : !strcmp(level, "fail") ? "fail"
                                                                                   : "unknown");
    const json_t *checks = json_object_get(json_object_get(doc, "thresholds"), "checks");
    const json_t *phases = json_object_get(doc, "phases"), *p;
    size_t pi;
    json_array_foreach(phases, pi, p) {
        struct lctx l = { .f = f, .pi = pi };
        const json_t *c;
        size_t i;
        json_array_foreach(checks, i, c) {
            const json_t *e = json_array_get(json_object_get(c, "phases"), pi);
            if (e)
                lava_case(p, pi, c, e, &l);
        }
        char name[PHASE_NAME_LEN], ph[PHASE_NAME_LEN];
        doc_phase_name(p, name, sizeof(name));
        pkg_ident(name, ph, sizeof(ph));
        struct phase_figs pf;
        pkg_phase_figs(p, &pf);
        for (size_t k = 0; k < sizeof(headline) / sizeof(headline[0]); k++) {
            double v = headline_value(&pf, k);
            if ((l.covered & (1u << k)) || isnan(v))
                continue;
            char num[64];
            thresholds_num_text(v, headline[k].prec, num, sizeof(num));
            fprintf(f, "lava-test-case %s-%s --result unknown --measurement %s --units %s\n", ph, headline[k].name,
                    num, headline[k].units);
        }
    }
    soak_lava(f, doc); /* --soak: one case per thread and statistic (soak_pkg.h) */
    return 0;
}

/* Its entry in the table of forms (render.c): a report only (a packaging form judges a run's phases). */
const struct renderer render_form_lava = {
    .name = "lava", .ext = "sh", .summary = "lava-test-case lines for a LAVA job, per phase and metric",
    .report = lava_report,
};
