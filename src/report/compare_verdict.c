/* The verdicts of one load: a report against the baseline, metric by metric, each with the test that decides
 * it and its words. See compare_stats.h for the tests. */
#include "report/compare_verdict.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>

double compare_xruns(const json_t *p)
{
    const json_t *x = json_object_get(p, "xruns");
    double r = doc_num(x, "reported"), d = doc_num(x, "detected");
    if (isnan(r))
        return d;
    if (isnan(d))
        return r;
    return fmax(r, d); /* the two overlap: see DESIGN.md, "Xrun notifications" */
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

static const char *outcome_words(enum cmp_outcome o)
{
    switch (o) {
    case CMP_BETTER: return "better, beyond sampling noise";
    case CMP_WORSE: return "worse, beyond sampling noise";
    case CMP_SAME: return "no clear difference";
    case CMP_WEAK: return "weak evidence";
    default: return "not comparable";
    }
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

void compare_load_verdicts(const json_t *pa, const json_t *pb, const json_t *ra, const json_t *rb, size_t bi,
                            json_t *list, struct tally *t)
{
    static const struct { const char *name, *hist; int fold; } metrics[] = {
        { "jitter", "jitter", 1 }, { "wakeup", "wakeup", 0 },
    };
    char text[512];
    for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
        struct rhist ha, hb;
        if (rhist_from_json(json_object_get(json_object_get(pa, "histograms"), metrics[m].hist), metrics[m].fold,
                            &ha) < 0)
            continue;
        if (rhist_from_json(json_object_get(json_object_get(pb, "histograms"), metrics[m].hist), metrics[m].fold,
                            &hb) < 0) {
            rhist_free(&ha);
            continue;
        }
        const char *what = metrics[m].fold ? "|jitter|" : "wakeup";
        if (ha.total > 0 && hb.total > 0) {
            struct rank_test rt;
            rank_test(&ha, &hb, &rt);
            double noise = fmax(repeat_noise(pa, ra, metrics[m].hist, metrics[m].fold, 0),
                                repeat_noise(pb, rb, metrics[m].hist, metrics[m].fold, 0));
            enum cmp_outcome o = decide_rank_noise(&rt, noise), o0 = decide_rank(&rt);
            char pv[32];
            if (rt.p_value < 1e-6)
                snprintf(pv, sizeof(pv), "p < 1e-6");
            else
                snprintf(pv, sizeof(pv), "p = %.2g", rt.p_value);
            int n = snprintf(text, sizeof(text), "%s distribution: %s (Mann-Whitney %s, P(this > baseline) = %.2f)",
                             what, o != o0 ? "no clear difference: within the run-to-run noise" : outcome_words(o),
                             pv, rt.prob_b_greater);
            if ((ra || rb) && n > 0 && (size_t)n < sizeof(text))
                snprintf(text + n, sizeof(text) - (size_t)n, "; two runs of one kernel already differ by %.2f "
                         "in P", noise);
            char mname[64];
            snprintf(mname, sizeof(mname), "%s distribution", metrics[m].name);
            add_verdict(list, bi, mname, rhist_quantile(&ha, 0.5), rhist_quantile(&hb, 0.5), o, text, t);
            static const struct { double q; const char *label; } qs[] = { { 0.99, "p99" }, { 0.999, "p99.9" } };
            for (size_t k = 0; k < 2; k++) {
                struct quantile_diff d;
                quantile_diff_ci(&ha, &hb, qs[k].q, BOOTSTRAP_RESAMPLES, 0x5eed0000u + k + 2 * m, &d);
                noise = fmax(repeat_noise(pa, ra, metrics[m].hist, metrics[m].fold, qs[k].q),
                             repeat_noise(pb, rb, metrics[m].hist, metrics[m].fold, qs[k].q));
                o = decide_quantile_noise(&d, noise);
                o0 = decide_quantile(&d);
                n = snprintf(text, sizeof(text), "%s %s %.1f → %.1f µs: %s (95 %% bootstrap interval of the "
                             "difference %+.1f..%+.1f µs)", what, qs[k].label, d.a, d.b,
                             o != o0 && o == CMP_SAME ? "no clear difference: within the run-to-run noise"
                                                      : outcome_words(o), d.lo, d.hi);
                if (o == CMP_WEAK && n > 0 && (size_t)n < sizeof(text))
                    n += snprintf(text + n, sizeof(text) - (size_t)n, "; only %.0f and %.0f cycles lie above it",
                                  d.tail_a, d.tail_b);
                if ((ra || rb) && n > 0 && (size_t)n < sizeof(text))
                    snprintf(text + n, sizeof(text) - (size_t)n, "; two runs of one kernel differ by %.1f µs",
                             noise);
                snprintf(mname, sizeof(mname), "%s %s", metrics[m].name, qs[k].label);
                add_verdict(list, bi, mname, d.a, d.b, o, text, t);
            }
        }
        rhist_free(&ha);
        rhist_free(&hb);
        /* The maximum is one event of one run: shown, never decided. */
        const char *mk = metrics[m].fold ? "jitter_us" : "wakeup_us";
        const char *mf = metrics[m].fold ? "abs_max" : "max";
        double ma = doc_num(json_object_get(pa, mk), mf), mb = doc_num(json_object_get(pb, mk), mf);
        if (!isnan(ma) && !isnan(mb)) {
            snprintf(text, sizeof(text), "%s max %.1f → %.1f µs: a single run's maximum is weak evidence", what, ma,
                     mb);
            char mname[64];
            snprintf(mname, sizeof(mname), "%s max", metrics[m].name);
            add_verdict(list, bi, mname, ma, mb, CMP_WEAK, text, t);
        }
    }
    /* Counts of rare events: are the rates per cycle different? */
    static const struct { const char *name; } events[] = { { "xruns" }, { "deadlines missed" } };
    for (size_t e = 0; e < 2; e++) {
        double ka = e ? doc_num(pa, "deadlines_missed") : compare_xruns(pa);
        double kb = e ? doc_num(pb, "deadlines_missed") : compare_xruns(pb);
        double na = doc_num(pa, "cycles"), nb = doc_num(pb, "cycles");
        if (isnan(ka) || isnan(kb) || !(na > 0) || !(nb > 0))
            continue;
        double p = rate_test_p(ka, na, kb, nb);
        enum cmp_outcome o = CMP_SAME;
        double ra = ka / na, rb = kb / nb;
        if (!isnan(p) && p < 0.01)
            o = rb > ra ? CMP_WORSE : CMP_BETTER;
        if (ka + kb == 0)
            snprintf(text, sizeof(text), "%s: none in either run", events[e].name);
        else
            snprintf(text, sizeof(text), "%s %.0f in %.0f cycles → %.0f in %.0f cycles: %s (exact rate test, "
                     "p = %.2g)", events[e].name, ka, na, kb, nb, o == CMP_SAME ? "no clear difference"
                     : outcome_words(o), p);
        add_verdict(list, bi, events[e].name, ka, kb, o, text, t);
    }
}
