/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thresholds (see thresholds.h): each limit judged per phase, kept in the report, read back by the
 * renderers of the packaging-test forms (JUnit, TAP, LAVA, KCIDB) and by the run's one-line failures. */
#include "report/thresholds.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include "util/utf8.h"
#include <math.h>
#include <string.h>

/* A metric a threshold can judge: how it is read from a phase. */
struct metric_def {
    const char *id, *metric, *unit, *op;
    double (*read)(const json_t *phase);
};

static double xrun_events(const json_t *p)
{
    return phasefig_xruns(p); /* events: one per stall, not jack2's notifications */
}

static double missed(const json_t *p)
{
    return doc_num(p, "deadlines_missed");
}

static double jitter_abs_max(const json_t *p)
{
    return doc_num(json_object_get(p, "jitter_us"), "abs_max");
}

static double met_pct(const json_t *p)
{
    return doc_num(p, "deadlines_met_pct");
}

static double wakeup_p99(const json_t *p)
{
    return doc_num(json_object_get(p, "wakeup_us"), "p99");
}

static const struct metric_def m_xruns = { "xruns", "xrun events", "", "<=", xrun_events };
static const struct metric_def m_missed = { "deadlines_missed", "missed deadlines", "", "<=", missed };
static const struct metric_def m_jitter = { "jitter", "|jitter| max", "us", "<=", jitter_abs_max };
static const struct metric_def m_met = { "deadlines_met", "deadlines met", "%", ">=", met_pct };
static const struct metric_def m_wakeup = { "wakeup_p99", "wake-up p99", "us", "<=", wakeup_p99 };

static int within(const struct metric_def *m, double v, double limit)
{
    if (isnan(v))
        return 0;
    return m->op[0] == '<' ? v <= limit : v >= limit;
}

static json_t *judge_one(const json_t *phases, const struct metric_def *m, double limit, const char *source,
                         int enforced, int *failed)
{
    json_t *per = json_array();
    size_t i;
    const json_t *p;
    json_array_foreach(phases, i, p) {
        char name[PHASE_NAME_LEN];
        doc_phase_name(p, name, sizeof(name));
        double v = m->read(p);
        int ok = within(m, v, limit);
        if (!ok && enforced)
            (*failed)++;
        json_array_append_new(per, json_pack("{s:o, s:o, s:o, s:b}", "phase", utf8_json_string(name), "load",
                                             utf8_json_string(doc_str(p, "load", "?")), "value",
                                             doc_number_json(v), "pass", ok));
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:f, s:o, s:b, s:o}", "id", m->id, "metric", m->metric, "unit", m->unit,
                     "op", m->op, "limit", limit, "source", utf8_json_string(source), "enforced", enforced,
                     "phases", per);
}

json_t *thresholds_judge(const json_t *doc, const json_t *profile, int strict, const struct report_limits *lim,
                         int *failed)
{
    const json_t *phases = json_object_get(doc, "phases");
    json_t *checks = json_array();
    *failed = 0;
    char psrc[160];
    const char *pname = doc_str(profile, "name", "?");
    snprintf(psrc, sizeof(psrc), "profile %.*s%s", utf8_prefix(pname, 100), pname, strict ? "" : " (advice only)");
    double pxr = doc_num(profile, "max_xruns"), pmiss = doc_num(profile, "max_deadlines_missed");
    if (lim->max_xruns >= 0)
        json_array_append_new(checks, judge_one(phases, &m_xruns, (double)lim->max_xruns, "--max-xruns", 1, failed));
    else if (!isnan(pxr))
        json_array_append_new(checks, judge_one(phases, &m_xruns, pxr, psrc, strict, failed));
    if (!isnan(pmiss))
        json_array_append_new(checks, judge_one(phases, &m_missed, pmiss, psrc, strict, failed));
    if (lim->min_deadlines_pct >= 0)
        json_array_append_new(checks, judge_one(phases, &m_met, lim->min_deadlines_pct, "--min-deadlines-pct", 1,
                                                failed));
    if (lim->max_wakeup_p99_us >= 0)
        json_array_append_new(checks, judge_one(phases, &m_wakeup, lim->max_wakeup_p99_us, "--max-wakeup-p99-us",
                                                1, failed));
    if (lim->max_jitter_us >= 0)
        json_array_append_new(checks, judge_one(phases, &m_jitter, lim->max_jitter_us, "--max-jitter-us", 1,
                                                failed));
    return checks;
}

json_t *thresholds_object(const json_t *doc, const json_t *profile, int strict, const struct report_limits *lim,
                          long long max_xruns, long long max_missed, int profile_failed, int *exceeded)
{
    int nfailed = 0;
    json_t *checks = thresholds_judge(doc, profile, strict, lim, &nfailed);
    *exceeded = nfailed > 0 || profile_failed;
    json_t *pname = json_object_get(profile, "name");
    return json_pack("{s:O, s:I, s:I, s:o, s:o, s:o, s:b, s:b, s:o}", "profile", pname ? pname : json_null(),
                     "max_xruns", (json_int_t)max_xruns, "max_deadlines_missed", (json_int_t)max_missed,
                     "max_jitter_us", doc_number_json(lim->max_jitter_us >= 0 ? lim->max_jitter_us : NAN),
                     "min_deadlines_pct", doc_number_json(lim->min_deadlines_pct >= 0 ? lim->min_deadlines_pct : NAN),
                     "max_wakeup_p99_us", doc_number_json(lim->max_wakeup_p99_us >= 0 ? lim->max_wakeup_p99_us : NAN),
                     "strict", strict, "exceeded", *exceeded, "checks", checks ? checks : json_array());
}

void thresholds_num_text(double v, int prec, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f", prec, v);
    if (strchr(buf, '.')) {
        char *e = buf + strlen(buf) - 1;
        while (*e == '0')
            *e-- = '\0';
        if (*e == '.')
            *e = '\0';
    }
    if (!strcmp(buf, "-0"))
        strcpy(buf, "0");
}

void thresholds_value_text(const json_t *check, const json_t *v, char *buf, size_t len)
{
    const char *unit = doc_str(check, "unit", "");
    if (!json_is_number(v)) {
        snprintf(buf, len, "-");
        return;
    }
    thresholds_num_text(json_number_value(v), !strcmp(unit, "us") ? 1 : !strcmp(unit, "%") ? 3 : 0, buf, len);
}

enum thresh_outcome thresholds_outcome(const json_t *check, const json_t *phase_entry)
{
    if (json_is_true(json_object_get(phase_entry, "pass")))
        return THRESH_PASS;
    return json_is_true(json_object_get(check, "enforced")) ? THRESH_FAIL : THRESH_ADVISORY;
}

void thresholds_describe(const json_t *check, const json_t *phase_entry, char *buf, size_t len)
{
    char v[64], l[64];
    const char *unit = doc_str(check, "unit", "");
    thresholds_value_text(check, json_object_get(phase_entry, "value"), v, sizeof(v));
    thresholds_value_text(check, json_object_get(check, "limit"), l, sizeof(l));
    const char *sep = unit[0] && strcmp(unit, "%") ? " " : "";
    snprintf(buf, len, "%s %s%s%s %s %s%s%s", doc_str(check, "metric", "?"), v, strcmp(v, "-") ? sep : "",
             strcmp(v, "-") ? unit : "", doc_str(check, "op", "?"), l, sep, unit);
}

int thresholds_print_failures(FILE *f, const json_t *doc, const char *prog)
{
    const json_t *checks = json_object_get(json_object_get(doc, "thresholds"), "checks");
    const json_t *c, *pe;
    size_t i, k;
    int n = 0;
    json_array_foreach(checks, i, c) {
        json_array_foreach(json_object_get(c, "phases"), k, pe) {
            if (thresholds_outcome(c, pe) != THRESH_FAIL)
                continue;
            char v[64], l[64];
            const char *unit = doc_str(c, "unit", "");
            thresholds_value_text(c, json_object_get(pe, "value"), v, sizeof(v));
            thresholds_value_text(c, json_object_get(c, "limit"), l, sizeof(l));
            const char *sep = unit[0] && strcmp(unit, "%") ? " " : "";
            fprintf(f, "%s: threshold exceeded: phase %s: %s %s%s%s, limit %s %s%s%s (%s)\n", prog,
                    doc_str(pe, "phase", "?"), doc_str(c, "metric", "?"), strcmp(v, "-") ? v : "not measured",
                    strcmp(v, "-") ? sep : "", strcmp(v, "-") ? unit : "", doc_str(c, "op", "?"), l, sep, unit,
                    doc_str(c, "source", "?"));
            n++;
        }
    }
    return n;
}
