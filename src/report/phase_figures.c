/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A single report's figures, as every table, the run page, the verdict and compare show them: see phase_figures.h. */
#include "report/phase_figures.h"
#include "report/access.h"
#include "report/rhist.h"
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

double phasefig_quantile(const json_t *p, const char *hist, int fold, double q)
{
    struct rhist h;
    if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), hist), fold, &h) < 0)
        return NAN;
    double v = rhist_quantile(&h, q);
    rhist_free(&h);
    /* Interpolated inside its bucket, a quantile could read above the exact maximum the report also gives: by
     * less than a bucket's width (1.6 %). Further above, the document disagrees with itself, and the histogram
     * is what the verdicts judge. */
    char key[64];
    snprintf(key, sizeof(key), "%.50s_us", hist);
    double mx = doc_num(json_object_get(p, key), fold ? "abs_max" : "max");
    if (!isnan(v) && !isnan(mx) && v > mx && v <= mx * 1.02 + 0.01)
        v = mx;
    return v;
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
