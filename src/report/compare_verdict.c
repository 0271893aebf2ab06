/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdicts of one load: a report against the baseline, metric by metric, each with the test that decides
 * it and its words. See compare_stats.h for the tests. */
#include "report/compare_verdict.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

double compare_xruns(const json_t *p)
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

double phase_quantile(const json_t *p, const char *hist, int fold, double q)
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

double phase_period_us(const json_t *doc, const json_t *p)
{
    /* A phase's own frames and rate first: a phase split by a buffer-size change has its own period. (Its
     * "period_us" is the measured period's statistics, not the nominal one.) */
    double fr = doc_num(p, "period_frames"), rate = doc_num(p, "rate");
    if (fr > 0 && rate > 0)
        return 1e6 * fr / rate;
    double v = doc_num(json_object_get(doc, "audio"), "period_us");
    return v > 0 ? v : NAN;
}

static void count(struct tally *t, enum cmp_outcome o)
{
    if (o == CMP_BETTER)
        t->better++;
    else if (o == CMP_WORSE)
        t->worse++;
    else if (o == CMP_SAME)
        t->same++;
    else if (o == CMP_WEAK)
        t->weak++;
}

static void add_verdict(json_t *list, size_t report, const char *metric, double a, double b,
                        enum cmp_outcome o, const char *text, struct tally *t)
{
    json_array_append_new(list, json_pack("{s:I, s:s, s:o, s:o, s:s, s:s}", "report", (json_int_t)report,
                                          "metric", metric, "a", doc_number_json(a), "b", doc_number_json(b), "outcome",
                                          cmp_outcome_name(o), "text", text));
    count(t, o);
}

#define BOOTSTRAP_RESAMPLES 2000

/* How far two runs of one and the same kernel lie apart: the q-quantile difference in µs (q > 0), or the rank
 * test's |P(B > A) - 0.5| (q == 0). 0 without a repeated run. */
static double repeat_noise(const json_t *p, const json_t *rep, const char *hist, int fold, double q)
{
    if (!p || !rep)
        return 0;
    struct rhist h, r;
    double noise = 0;
    if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), hist), fold, &h) < 0)
        return 0;
    if (rhist_from_json(json_object_get(json_object_get(rep, "histograms"), hist), fold, &r) == 0) {
        if (q > 0) {
            noise = fabs(rhist_quantile(&h, q) - rhist_quantile(&r, q));
        } else {
            struct rank_test t;
            if (rank_test(&r, &h, &t) == 0)
                noise = fabs(t.prob_b_greater - 0.5);
        }
        rhist_free(&r);
    }
    rhist_free(&h);
    return isnan(noise) ? 0 : noise;
}

/* The practical floor a difference must clear, as compare_stats.c applies it to percentiles: 10 % of the
 * baseline and 2 µs (bucket width is 1.6 %; below 2 µs is timer and clock noise). */
static double floor_us(double baseline)
{
    return fmax(2.0, 0.10 * fabs(baseline));
}

static void p_words(char *buf, size_t len, double p)
{
    if (p < 1e-6)
        snprintf(buf, len, "p < 1e-6");
    else
        snprintf(buf, len, "p = %.2g", p);
}

/* The whole distribution: the rank test decides; its effect must be more than 0.06 away from an even chance,
 * beyond run-to-run noise, and the medians must be apart by the same 10 % / 2 µs floor as the percentiles, so
 * that "p < 1e-6" beside "no clear difference" always comes with its reason. */
static enum cmp_outcome distribution_verdict(const struct rhist *ha, const struct rhist *hb, double noise,
                                             int repeats, const char *what, char *text, size_t len)
{
    struct rank_test rt;
    rank_test(ha, hb, &rt);
    enum cmp_outcome test = decide_rank(&rt), o = decide_rank_noise(&rt, noise);
    double ma = rhist_quantile(ha, 0.5), mb = rhist_quantile(hb, 0.5), fl = floor_us(ma);
    int below = !(fabs(mb - ma) >= fl);
    if ((o == CMP_BETTER || o == CMP_WORSE) && below)
        o = CMP_SAME;
    char pv[32];
    p_words(pv, sizeof(pv), rt.p_value);
    double effect = fabs(rt.prob_b_greater - 0.5);
    int n = snprintf(text, len, "%s distribution (median %.1f → %.1f µs): ", what, ma, mb);
    if (n < 0 || (size_t)n >= len)
        return o;
    char *t = text + n;
    size_t l = len - (size_t)n;
    if (o == CMP_BETTER || o == CMP_WORSE)
        snprintf(t, l, "%s, because the rank test is sure (Mann-Whitney %s, below 0.001), the shift is large (P(this "
                 "> baseline) = %.2f, more than 0.06 from an even 0.50) and the medians are further apart than "
                 "the 10 %% / 2 µs floor (%.1f µs)", o == CMP_WORSE ? "worse" : "better", pv, rt.prob_b_greater,
                 fl);
    else if (o == CMP_NA)
        snprintf(t, l, "not comparable (the rank test has no answer for these histograms)");
    else if (!(rt.p_value < 0.001))
        snprintf(t, l, "no clear difference: the rank test cannot tell them apart (Mann-Whitney %s; it needs "
                 "p < 0.001)", pv);
    else if (effect < 0.06)
        snprintf(t, l, "no clear difference: the rank test sees one (Mann-Whitney %s) but it is small, P(this "
                 "> baseline) = %.2f, within 0.06 of an even 0.50", pv, rt.prob_b_greater);
    else if (test != CMP_SAME && below)
        snprintf(t, l, "no clear difference: the rank test sees one (Mann-Whitney %s, P(this > baseline) = "
                 "%.2f) but the medians are apart by less than the 10 %% / 2 µs floor (%.1f µs)", pv,
                 rt.prob_b_greater, fl);
    else
        snprintf(t, l, "no clear difference: within the run-to-run noise (Mann-Whitney %s, P(this > "
                 "baseline) = %.2f, but two runs of one kernel already differ by %.2f in P)", pv,
                 rt.prob_b_greater, noise);
    if (repeats && o != CMP_SAME && n > 0) {
        size_t u = strlen(text);
        if (u < len)
            snprintf(text + u, len - u, "; two runs of one kernel differ by %.2f in P", noise);
    }
    return o;
}

/* A percentile: its bootstrap interval decides, then the 10 % / 2 µs floor, then the run-to-run noise, then
 * whether enough cycles lie above it. a and b are the figures the tables show (phase_quantile()). */
static enum cmp_outcome quantile_verdict(const struct quantile_diff *d, double noise, int repeats, double a,
                                         double b, const char *what, const char *label, char *text, size_t len)
{
    enum cmp_outcome o = decide_quantile_noise(d, noise), o0 = decide_quantile(d);
    double diff = d->b - d->a, fl = floor_us(d->a);
    int n = snprintf(text, len, "%s %s %.1f → %.1f µs: ", what, label, a, b);
    if (n < 0 || (size_t)n >= len)
        return o;
    char *t = text + n, iv[96];
    size_t l = len - (size_t)n;
    snprintf(iv, sizeof(iv), "%+.1f..%+.1f µs", d->lo, d->hi);
    if (o == CMP_BETTER || o == CMP_WORSE)
        snprintf(t, l, "%s, because the 95 %% bootstrap interval of the difference (%s) excludes zero and the "
                 "difference (%+.1f µs) clears the 10 %% / 2 µs floor (%.1f µs)", o == CMP_WORSE ? "worse" :
                 "better", iv, diff, fl);
    else if (o == CMP_WEAK)
        snprintf(t, l, "weak evidence: the interval (%s) excludes zero and clears the 10 %% / 2 µs floor, but "
                 "only %.0f and %.0f cycles lie above it (10 are needed)", iv, d->tail_a, d->tail_b);
    else if (o == CMP_NA)
        snprintf(t, l, "not comparable (no interval for these histograms)");
    else if (!(d->lo > 0) && !(d->hi < 0))
        snprintf(t, l, "no clear difference: the 95 %% bootstrap interval of the difference (%s) includes "
                 "zero", iv);
    else if (!(fabs(diff) >= fl))
        snprintf(t, l, "no clear difference: the interval (%s) excludes zero, but the difference (%+.1f µs) is "
                 "below the 10 %% / 2 µs floor (%.1f µs)", iv, diff, fl);
    else
        snprintf(t, l, "no clear difference: within the run-to-run noise (interval %s, but two runs of one "
                 "kernel differ by %.1f µs)", iv, noise);
    (void)o0;
    if (repeats && o != CMP_SAME) {
        size_t u = strlen(text);
        if (u < len)
            snprintf(text + u, len - u, "; two runs of one kernel differ by %.1f µs", noise);
    }
    return o;
}

void compare_load_verdicts(const json_t *pa, const json_t *pb, const json_t *ra, const json_t *rb, size_t bi,
                           json_t *list, struct tally *t)
{
    static const struct { const char *name, *hist; int fold; } metrics[] = {
        { "jitter", "jitter", 1 }, { "wakeup", "wakeup", 0 },
    };
    char text[768];
    for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
        struct rhist ha, hb;
        const char *hist = metrics[m].hist;
        int fold = metrics[m].fold;
        if (rhist_from_json(json_object_get(json_object_get(pa, "histograms"), hist), fold, &ha) < 0)
            continue;
        if (rhist_from_json(json_object_get(json_object_get(pb, "histograms"), hist), fold, &hb) < 0) {
            rhist_free(&ha);
            continue;
        }
        const char *what = fold ? "|jitter|" : "wakeup";
        char mname[64];
        if (ha.total > 0 && hb.total > 0) {
            double noise = fmax(repeat_noise(pa, ra, hist, fold, 0), repeat_noise(pb, rb, hist, fold, 0));
            enum cmp_outcome o = distribution_verdict(&ha, &hb, noise, ra || rb, what, text, sizeof(text));
            snprintf(mname, sizeof(mname), "%s distribution", metrics[m].name);
            add_verdict(list, bi, mname, rhist_quantile(&ha, 0.5), rhist_quantile(&hb, 0.5), o, text, t);
            static const struct { double q; const char *label; } qs[] = { { 0.99, "p99" }, { 0.999, "p99.9" } };
            for (size_t k = 0; k < 2; k++) {
                struct quantile_diff d;
                quantile_diff_ci(&ha, &hb, qs[k].q, BOOTSTRAP_RESAMPLES, 0x5eed0000u + k + 2 * m, &d);
                noise = fmax(repeat_noise(pa, ra, hist, fold, qs[k].q), repeat_noise(pb, rb, hist, fold, qs[k].q));
                double a = phase_quantile(pa, hist, fold, qs[k].q), b = phase_quantile(pb, hist, fold, qs[k].q);
                o = quantile_verdict(&d, noise, ra || rb, a, b, what, qs[k].label, text, sizeof(text));
                snprintf(mname, sizeof(mname), "%s %s", metrics[m].name, qs[k].label);
                add_verdict(list, bi, mname, a, b, o, text, t);
            }
        }
        rhist_free(&ha);
        rhist_free(&hb);
        /* The maximum is one event of one run: shown, never decided. */
        const char *mk = fold ? "jitter_us" : "wakeup_us", *mf = fold ? "abs_max" : "max";
        double ma = doc_num(json_object_get(pa, mk), mf), mb = doc_num(json_object_get(pb, mk), mf);
        if (!isnan(ma) && !isnan(mb)) {
            snprintf(text, sizeof(text), "%s max %.1f → %.1f µs: weak evidence, because a single run's maximum "
                     "is one event: shown, never decided", what, ma, mb);
            snprintf(mname, sizeof(mname), "%s max", metrics[m].name);
            add_verdict(list, bi, mname, ma, mb, CMP_WEAK, text, t);
        }
    }
    /* Counts of rare events: are the rates per cycle different? */
    static const char *const events[] = { "xruns", "deadlines missed" };
    for (size_t e = 0; e < 2; e++) {
        double ka = e ? doc_num(pa, "deadlines_missed") : compare_xruns(pa);
        double kb = e ? doc_num(pb, "deadlines_missed") : compare_xruns(pb);
        double na = doc_num(pa, "cycles"), nb = doc_num(pb, "cycles");
        if (isnan(ka) || isnan(kb) || !(na > 0) || !(nb > 0))
            continue;
        double p = rate_test_p(ka, na, kb, nb);
        enum cmp_outcome o = CMP_SAME;
        if (!isnan(p) && p < 0.01)
            o = kb / nb > ka / na ? CMP_WORSE : CMP_BETTER;
        char pv[32];
        p_words(pv, sizeof(pv), p);
        if (ka + kb == 0)
            snprintf(text, sizeof(text), "%s: none in either run", events[e]);
        else if (o == CMP_SAME)
            snprintf(text, sizeof(text), "%s %.0f in %.0f cycles → %.0f in %.0f cycles: no clear difference, "
                     "because the exact rate test gives %s and a difference needs p < 0.01", events[e], ka, na,
                     kb, nb, pv);
        else
            snprintf(text, sizeof(text), "%s %.0f in %.0f cycles → %.0f in %.0f cycles: %s, because the exact "
                     "rate test gives %s, below 0.01", events[e], ka, na, kb, nb,
                     o == CMP_WORSE ? "worse" : "better", pv);
        add_verdict(list, bi, events[e], ka, kb, o, text, t);
    }
}
