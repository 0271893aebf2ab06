/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "verdict/verdict_ramp.h"
#include "verdict/verdict_text.h"
#include "report/report.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

int verdict_is_ramp(const json_t *doc)
{
    return json_is_object(json_object_get(json_object_get(doc, "audio"), "dsp_ramp"));
}

static void pct(char *b, size_t n, const json_t *v, const char *none)
{
    if (json_is_number(v))
        snprintf(b, n, "%.0f %%", json_number_value(v));
    else
        snprintf(b, n, "%s", none);
}

int verdict_ramp(const json_t *doc, const json_t *profile, struct report_judgement *j)
{
    const json_t *au = json_object_get(doc, "audio"), *phases = json_object_get(doc, "phases"), *p;
    char setting[128], summary[2048];
    double frames = doc_num(au, "period_frames"), rate = doc_num(au, "rate"), period_us = doc_num(au, "period_us");
    const char *backend = doc_str(au, "backend", "");
    if (strcmp(backend, "timer") == 0 && rate == 1e6 && period_us > 0) /* --interval: µs, not frames */
        snprintf(setting, sizeof(setting), "a %.2f ms timer period", period_us / 1000.0);
    else if (frames > 0 && rate > 0)
        snprintf(setting, sizeof(setting), "%.0f frames at %g kHz (%.2f ms per period)", frames, rate / 1000.0,
                 period_us / 1000.0);
    else
        snprintf(setting, sizeof(setting), "an unknown buffer size");
    size_t o = vadd(summary, sizeof(summary), 0, "DSP headroom at %s: ", setting);
    size_t i;
    double worst = INFINITY;
    const char *worst_load = NULL;
    int dropped = 0, n = 0;
    json_array_foreach(phases, i, p) {
        const json_t *r = json_object_get(p, "dsp_ramp");
        if (!json_is_object(r))
            continue;
        char first[32], one[32];
        const json_t *fm = json_object_get(r, "first_miss_pct");
        pct(first, sizeof(first), fm, "none");
        pct(one, sizeof(one), json_object_get(r, "one_pct_pct"), "none");
        const char *load = doc_str(p, "load", "?");
        if (json_is_number(fm))
            o = vadd(summary, sizeof(summary), o, "%sunder %s, the first cycle whose work did not fit came at %s of "
                    "the period, 1 %% of cycles failed at %s", n ? "; " : "", load, first, one);
        else
            o = vadd(summary, sizeof(summary), o, "%sunder %s, every cycle's work fitted up to %.0f %% of the period",
                    n ? "; " : "", load, doc_num(r, "reached_pct"));
        double h = json_is_number(fm) ? json_number_value(fm) : doc_num(r, "reached_pct");
        if (!isnan(h) && h < worst) {
            worst = h;
            worst_load = load;
        }
        dropped += doc_num(p, "dropped") > 0;
        n++;
    }
    if (n == 0)
        o = vadd(summary, sizeof(summary), o, "nothing was measured");
    o = vadd(summary, sizeof(summary), o, ". The ramp overloads the callback on purpose: its cut-short cycles and "
            "missed deadlines measure the headroom and are not held against the kernel.");
    int rt = json_is_true(json_object_get(au, "realtime")), complete = json_is_true(json_object_get(doc, "complete"));
    if (!rt)
        o = vadd(summary, sizeof(summary), o, " Not a kernel test: the audio thread ran without real-time scheduling.");
    if (dropped)
        vadd(summary, sizeof(summary), o, " Records were lost: the figures of those phases are incomplete.");
    const char *level = n == 0 ? "fail" : (!rt || !complete || dropped) ? "warn" : "pass";
    json_t *pname = json_object_get(profile, "name");
    j->thresholds = json_pack("{s:O, s:o, s:o, s:o, s:b, s:b}", "profile", pname ? pname : json_null(),
                              "max_xruns", json_null(), "max_deadlines_missed", json_null(), "max_jitter_us",
                              json_null(), "strict", 0, "exceeded", 0);
    json_t *prof = profile ? json_deep_copy(profile) : json_null();
    json_object_del(prof, "path");
    j->profile = prof;
    json_t *v = json_pack("{s:s, s:s, s:s, s:s?, s:n, s:[], s:[], s:O, s:o}", "level", level, "summary", summary,
                          "setting", setting, "worst_load", worst_load, "try", "advice", "advice_ids", "profile",
                          pname ? pname : json_null(), "headroom_pct", isfinite(worst) ? json_real(worst)
                                                                                        : json_null());
    if (!v)
        return -1;
    j->verdict = v;
    return 0;
}
