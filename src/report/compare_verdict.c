/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdicts of one load: a report against the baseline, metric by metric, each with the test that decides
 * it and its words. See compare_stats.h for the tests. */
#include "report/compare_verdict.h"
#include "report/access.h"
#include "report/compare_blocks.h"
#include "report/compare_runs.h"
#include <stdlib.h>
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

const struct block_measure compare_block_measures[4] = {
    { "wakeup p99/s", "wakeup_p99_us", "wakeup p99" },
    { "wakeup max/s", "wakeup_max_us", "wakeup max" },
    { "jitter p99/s", "jitter_abs_p99_us", "|jitter| p99" },
    { "jitter max/s", "jitter_abs_max_us", "|jitter| max" },
};

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
    else if (o == CMP_NA)
        t->na++;
}

static void add_verdict(json_t *list, size_t report, const char *metric, double a, double b,
                        enum cmp_outcome o, const char *text, json_t *runs, struct tally *t)
{
    json_array_append_new(list, json_pack("{s:I, s:s, s:o, s:o, s:s, s:s, s:o}", "report", (json_int_t)report,
                                          "metric", metric, "a", doc_number_json(a), "b", doc_number_json(b), "outcome",
                                          cmp_outcome_name(o), "text", text, "runs", runs));
    count(t, o);
}

/* What a difference must clear to be called one. First, between the two runs compared (compare_blocks.h for the
 * units):
 *  - the rank test of the seconds: p < BLOCK_ALPHA (seconds are close to independent, not exactly: 0.01, not 0.05);
 *  - the Hodges-Lehmann shift of the seconds: at least BLOCK_REL of the baseline's median second and BLOCK_ABS_US
 *    (below that, a busy machine moves between two runs of one set-up; and nobody hears it);
 *  - in every half of either run: the shift between each half of one run and each half of the other has the
 *    same sign and clears the floor and half the whole shift too (the machine's other work comes and goes over
 *    seconds: a burst of it in one run is not a difference of set-ups);
 *  - at least MIN_BLOCKS whole seconds on each side.
 * Counts (xrun events, missed deadlines): Poisson rates per measured second, exact conditional test p < RATE_ALPHA
 * and at least RATE_RATIO times apart between every half of one run and every half of the other (events come in
 * bursts, so a p-value alone overstates the evidence).
 * Then across runs (compare_runs.h): the set-ups' runs differ the same way, t-test p < RUN_ALPHA on the runs'
 * values, the run-to-run variance pooled over the other runs of either set-up. Without any other run, a
 * difference of the two runs is "weak": it may be the machine's run-to-run noise. */
#define BLOCK_ALPHA 0.01
#define BLOCK_REL 0.10
#define BLOCK_ABS_US 5.0
#define MIN_BLOCKS 5
#define RATE_ALPHA 0.01
#define RATE_RATIO 2.0
#define RUN_ALPHA 0.01

double compare_block_floor_us(double baseline_median)
{
    return fmax(BLOCK_ABS_US, BLOCK_REL * fabs(baseline_median));
}

double compare_block_median(const json_t *p, const char *key)
{
    return blocks_median(p, key, 1);
}

static void p_words(char *buf, size_t len, double p)
{
    if (p < 0.001)
        snprintf(buf, len, "p < 0.001");
    else
        snprintf(buf, len, "p = %.2g", p);
}

/* The verdict on two runs that differ by their own seconds or events (called: CMP_WORSE or CMP_BETTER; pair: the
 * evidence, in words) once the runs of their set-ups are heard: its outcome, and the sentence into t. */
static enum cmp_outcome across_runs(enum cmp_outcome called, const struct run_level *rl, int ok, const char *pair,
                                    char *t, size_t l)
{
    const char *dir = called == CMP_WORSE ? "worse" : "better";
    if (!ok || rl->df < 1) {
        size_t others = ok ? rl->na + rl->nb + rl->nnoise - 2 : 0;
        char few[160];
        if (others)
            snprintf(few, sizeof(few), "only %zu other run%s of these set-ups beside them: too few to tell the "
                     "machine's run-to-run noise, which", others, others == 1 ? "" : "s");
        else
            snprintf(few, sizeof(few), "one run a side and no other run of either set-up beside them: the machine's "
                     "run-to-run noise is unknown and");
        snprintf(t, l, "weak: %s in these two runs (%s), but %s may be all of it (run each set-up at least twice "
                 "more, into one directory, and compare again)", dir, pair, few);
        return CMP_WEAK;
    }
    char pv[32], runs[160];
    p_words(pv, sizeof(pv), rl->p);
    if (rl->nnoise)
        snprintf(runs, sizeof(runs), "the two runs against %zu other run%s of their one set-up", rl->nnoise,
                 rl->nnoise == 1 ? "" : "s");
    else
        snprintf(runs, sizeof(runs), "%zu run%s of the baseline's set-up against %zu of this one", rl->na,
                 rl->na == 1 ? "" : "s", rl->nb);
    int same_way = called == CMP_WORSE ? rl->ratio > 1 : rl->ratio < 1;
    /* decided on the family's p where the comparison's measures were adjusted together */
    double p = isnan(rl->p_family) ? rl->p : rl->p_family;
    char fam[96] = "";
    if (!isnan(rl->p_family)) {
        char pf[32];
        p_words(pf, sizeof(pf), rl->p_family);
        snprintf(fam, sizeof(fam), "; over the %d measures compared (Holm) %s", rl->family, pf);
    }
    if (p < RUN_ALPHA && same_way) {
        snprintf(t, l, "%s: %s; and across runs: %s, ×%.2f (t-test on the runs, %s, %d df%s)", dir, pair, runs,
                 rl->ratio, pv, rl->df, fam);
        return called;
    }
    snprintf(t, l, "no clear difference: %s in these two runs (%s), but not beyond run-to-run noise: %s, ×%.2f "
             "(t-test on the runs, %s, %d df%s; a difference needs p < %.2g)", dir, pair, runs, rl->ratio, pv,
             rl->df, fam, RUN_ALPHA);
    return CMP_SAME;
}

/* One per-second measure (lower is better): its verdict and the sentence that says why. */
static enum cmp_outcome block_verdict(const json_t *pa, const json_t *pb, const struct run_level *rl, int rl_ok,
                                      const char *key, const char *what, double *ma, double *mb, char *text,
                                      size_t len)
{
    double *a, *b;
    int na = blocks_of(pa, key, &a), nb = blocks_of(pb, key, &b);
    enum cmp_outcome o = CMP_NA;
    struct block_test bt;
    *ma = *mb = NAN;
    if (na < MIN_BLOCKS || nb < MIN_BLOCKS || block_test(a, (size_t)na, b, (size_t)nb, &bt) < 0) {
        snprintf(text, len, "%s per second: not compared: %d and %d whole seconds in the timelines, %d are needed "
                 "(seconds, not cycles, are the units a verdict rests on)", what, na < 0 ? 0 : na, nb < 0 ? 0 : nb,
                 MIN_BLOCKS);
        free(a);
        free(b);
        return o;
    }
    free(a);
    free(b);
    *ma = bt.median_a;
    *mb = bt.median_b;
    double fl = compare_block_floor_us(bt.median_a);
    double hlo, hhi;
    int halves = blocks_half_shifts(pa, pb, key, &hlo, &hhi) == 0;
    char pv[32];
    p_words(pv, sizeof(pv), bt.p_value);
    int sure = bt.p_value < BLOCK_ALPHA, large = fabs(bt.shift) >= fl;
    /* every half against every half: on the same side, each clearing the floor and half the shift claimed (a burst
     * in one half of a run moves the shift; a change of set-up moves every half alike) */
    double need = fmax(fl, fabs(bt.shift) / 2);
    int steady = !halves || (bt.shift > 0 ? hlo >= need : hhi <= -need);
    o = sure && large && steady ? (bt.shift > 0 ? CMP_WORSE : CMP_BETTER) : CMP_SAME;
    int n = snprintf(text, len, "%s per second, median %.1f → %.1f µs (%zu s against %zu s): ", what, bt.median_a,
                     bt.median_b, bt.na, bt.nb);
    if (n < 0 || (size_t)n >= len)
        return o;
    char *t = text + n;
    size_t l = len - (size_t)n;
    if (o != CMP_SAME) {
        char pair[400];
        snprintf(pair, sizeof(pair), "%zu of %zu seconds above the baseline's median, shift %+.1f µs "
                 "(Hodges-Lehmann; %s) beyond the %.1f µs that matters, Mann-Whitney %s", bt.b_above_median_a, bt.nb,
                 bt.shift, halves ? "in every half of either run" : "runs too short to halve", fl, pv);
        o = across_runs(o, rl, rl_ok, pair, t, l);
    } else if (!sure)
        snprintf(t, l, "no clear difference: the seconds overlap (Mann-Whitney %s, a difference needs p < %.2g; "
                 "%zu of %zu seconds above the baseline's median, shift %+.1f µs)", pv, BLOCK_ALPHA,
                 bt.b_above_median_a, bt.nb, bt.shift);
    else if (!large)
        snprintf(t, l, "no clear difference: shift %+.1f µs (Hodges-Lehmann) is below the %.1f µs that matters "
                 "(%.0f %% of the baseline, at least %.0f µs), though Mann-Whitney gives %s", bt.shift, fl,
                 BLOCK_REL * 100, BLOCK_ABS_US, pv);
    else
        snprintf(t, l, "no clear difference: shift %+.1f µs (Mann-Whitney %s), but not in every half of the runs "
                 "(half against half: %+.1f to %+.1f µs): the machine's other work came and went", bt.shift, pv,
                 hlo, hhi);
    return o;
}

/* The run-level figures of a verdict, in its JSON: runs a side, the noise group, df, ratio and p. */
static json_t *runs_json(const struct run_level *rl, int ok)
{
    if (!ok)
        return json_null();
    return json_pack("{s:I, s:I, s:I, s:i, s:o, s:o, s:o, s:i}", "a", (json_int_t)rl->na, "b", (json_int_t)rl->nb,
                     "noise", (json_int_t)rl->nnoise, "df", rl->df, "ratio", doc_number_json(rl->ratio), "p",
                     doc_number_json(rl->p), "p_family", doc_number_json(rl->p_family), "family", rl->family);
}

void compare_load_verdicts(const json_t *pa, const json_t *pb, const struct run_groups *g, size_t bi, json_t *list,
                           struct tally *t)
{
    char text[1024];
    double va[RUN_VALUES], vb[RUN_VALUES];
    compare_run_values(pa, va);
    compare_run_values(pb, vb);
    for (size_t m = 0; m < sizeof(compare_block_measures) / sizeof(compare_block_measures[0]); m++) {
        const struct block_measure *bm = &compare_block_measures[m];
        double ma, mb;
        struct run_level rl;
        int ok = run_level_test(va, vb, g, (int)m, &rl) == 0;
        enum cmp_outcome o = block_verdict(pa, pb, &rl, ok, bm->key, bm->words, &ma, &mb, text, sizeof(text));
        add_verdict(list, bi, bm->metric, ma, mb, o, text, runs_json(&rl, ok), t);
    }
    /* Counts of rare events: Poisson rates per measured second, of the seconds that had any (bursts are one unit
     * each: see compare_blocks.h); of the raw counts for a report whose timeline does not count them. */
    static const char *const events[] = { "xruns", "deadlines missed" };
    static const char *const ewords[] = { "xrun events", "missed deadlines" };
    static const char *const ekeys[] = { "xrun_events", "deadlines_missed" };
    for (size_t e = 0; e < 2; e++) {
        double ka = e ? doc_num(pa, "deadlines_missed") : compare_xruns(pa);
        double kb = e ? doc_num(pb, "deadlines_missed") : compare_xruns(pb);
        double sa = blocks_measured_s(pa), sb = blocks_measured_s(pb);
        if (isnan(ka) || isnan(kb) || !(sa > 0) || !(sb > 0))
            continue;
        double ua = blocks_event_seconds(pa, ekeys[e]), ub = blocks_event_seconds(pb, ekeys[e]);
        int by_seconds = ua >= 0 && ub >= 0 && ua <= ka && ub <= kb;
        if (!by_seconds) {
            ua = ka;
            ub = kb;
        }
        double p = rate_test_p(ua, sa, ub, sb), ra_ = ua / sa, rb_ = ub / sb;
        int apart = rb_ >= RATE_RATIO * ra_ || ra_ >= RATE_RATIO * rb_;
        /* every half of one run against every half of the other, (k + 0.5) per second: as far apart */
        double qa[2], qb[2], rlo = NAN, rhi = NAN;
        int halves = by_seconds && blocks_count_halves(pa, ekeys[e], qa) == 0 &&
                     blocks_count_halves(pb, ekeys[e], qb) == 0;
        for (int i = 0; halves && i < 2; i++)
            for (int j = 0; j < 2; j++) {
                double r = qb[j] / qa[i];
                rlo = i + j ? fmin(rlo, r) : r;
                rhi = i + j ? fmax(rhi, r) : r;
            }
        int steady = !halves || (rb_ > ra_ ? rlo >= RATE_RATIO : rhi <= 1 / RATE_RATIO);
        enum cmp_outcome o = CMP_SAME;
        if (!isnan(p) && p < RATE_ALPHA && apart && steady)
            o = rb_ > ra_ ? CMP_WORSE : CMP_BETTER;
        struct run_level rl;
        int ok = run_level_test(va, vb, g, 4 + (int)e, &rl) == 0;
        char pv[32], unit[96] = "";
        p_words(pv, sizeof(pv), p);
        if (by_seconds)
            snprintf(unit, sizeof(unit), " (in %.0f and %.0f seconds)", ua, ub);
        int n = snprintf(text, sizeof(text), "%s %.0f in %.1f s → %.0f in %.1f s%s: ", ewords[e], ka, sa, kb, sb,
                         unit);
        char *tt = text + (n > 0 && (size_t)n < sizeof(text) ? n : 0);
        size_t l = sizeof(text) - (size_t)(tt - text);
        const char *what = by_seconds ? "seconds with any" : "events";
        if (ka + kb == 0)
            snprintf(tt, l, "none in either run");
        else if (o != CMP_SAME) {
            char pair[300];
            snprintf(pair, sizeof(pair), "%s in %.2f against %.2f of the seconds, Poisson rate test %s, at least %.0f "
                     "times apart%s", what, rb_, ra_, pv, RATE_RATIO, halves ? " in every half of either run" : "");
            o = across_runs(o, &rl, ok, pair, tt, l);
        }
        else if (p < RATE_ALPHA && apart)
            snprintf(tt, l, "no clear difference: Poisson rate test %s on the %s, but not in every half of the runs "
                     "(half against half: %.1f to %.1f times the rate): they came in a burst", pv, what, rlo, rhi);
        else if (!(p < RATE_ALPHA))
            snprintf(tt, l, "no clear difference: Poisson rate test %s on the %s (a difference needs p < %.2g and "
                     "%.0f times the rate)", pv, what, RATE_ALPHA, RATE_RATIO);
        else
            snprintf(tt, l, "no clear difference: Poisson rate test %s on the %s, but the rates (%.2f and %.2f of "
                     "the seconds) are less than %.0f times apart", pv, what, ra_, rb_, RATE_RATIO);
        add_verdict(list, bi, events[e], ka, kb, o, text, runs_json(&rl, ok), t);
    }
}
