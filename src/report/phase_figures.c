/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A single report's figures, as every table, the run page, the verdict and compare show them: see phase_figures.h. */
#include "report/phase_figures.h"
#include "report/access.h"
#include "report/rhist.h"
#include "stats/stats.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const json_t *phasefig_find(const json_t *doc, const char *key)
{
    size_t i;
    const json_t *p;
    char k[PHASE_NAME_LEN];
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        doc_phase_name(p, k, sizeof(k));
        if (!strcmp(k, key))
            return p;
    }
    return NULL;
}

double phasefig_xruns(const json_t *p)
{
    const json_t *x = json_object_get(p, "xruns");
    /* Xrun events: one per stall, however many notifications it caused. Reports from before events were kept
     * give the larger of notifications and gaps. */
    double e = doc_num(x, "events");
    if (!isnan(e))
        return e;
    double r = doc_num(x, "reported"), d = doc_num(x, "detected");
    if (isnan(r))
        return d;
    if (isnan(d))
        return r;
    return fmax(r, d); /* the two overlap: see DESIGN.md, "Xrun notifications" */
}

double phasefig_quantile_from(const json_t *p, const char *metric, int fold, double q, int *from_hist)
{
    static const struct { double q; const char *k; } keys[] = {
        { 0.5, "p50" }, { 0.9, "p90" }, { 0.99, "p99" }, { 0.999, "p999" }, { 0.9999, "p9999" },
    };
    const char *k = NULL;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (fabs(q - keys[i].q) < 1e-12)
            k = keys[i].k;
    if (from_hist)
        *from_hist = 0;
    char key[64];
    snprintf(key, sizeof(key), "%.50s_us", metric);
    const json_t *m = json_object_get(p, key);
    if (k) {
        snprintf(key, sizeof(key), "%s%s", fold ? "abs_" : "", k);
        const json_t *v = json_object_get(m, key);
        if (json_is_number(v))
            return json_number_value(v);
        if (v) /* null: too few cycles for this quantile, as the run judged */
            return NAN;
    }
    struct rhist h;
    if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), metric), fold, &h) < 0)
        return NAN;
    double v = quantile_defined((uint64_t)h.total, q) ? rhist_midrank(&h, q) : NAN;
    rhist_free(&h);
    /* as the run clamps its own (metric_quantile(), metric_abs_quantile()) */
    double lo = fold ? 0 : doc_num(m, "min"), hi = doc_num(m, fold ? "abs_max" : "max");
    if (!isnan(v) && !isnan(hi) && v > hi)
        v = hi;
    if (!isnan(v) && !isnan(lo) && v < lo)
        v = lo;
    if (from_hist && !isnan(v))
        *from_hist = 1;
    return v;
}

double phasefig_quantile(const json_t *p, const char *metric, int fold, double q)
{
    return phasefig_quantile_from(p, metric, fold, q, NULL);
}

double phasefig_period_us(const json_t *doc, const json_t *p)
{
    /* A phase's own frames and rate first: a phase split by a buffer-size change has its own period. (Its
     * "period_us" is the measured period's statistics, not the nominal one.) */
    double fr = doc_num(p, "period_frames"), rate = doc_num(p, "rate");
    if (fr > 0 && rate > 0)
        return 1e6 * fr / rate;
    double v = doc_num(json_object_get(doc, "audio"), "period_us");
    return v > 0 ? v : NAN;
}
