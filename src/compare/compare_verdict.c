/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdicts of one load: a report against the baseline, metric by metric, each with the test that decides
 * it and its words. */
#include "compare/compare_verdict.h"
#include "compare/compare_stats.h"
#include "report/phase_figures.h"
#include "report/access.h"
#include "compare/compare_blocks.h"
#include "compare/compare_counts.h"
#include "stats/mann_whitney.h"
#include <errno.h>
#include "compare/compare_runs.h"
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void count(struct tally *t, enum cmp_outcome o)
{
    if (o == CMP_BETTER)
        t->better++;
    else if (o == CMP_WORSE)
        t->worse++;
    else if (o == CMP_SAME)
        t->same++;
    else if (o == CMP_WORSE_PAIR)
        t->worse_pair++;
    else if (o == CMP_BETTER_PAIR)
        t->better_pair++;
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
 * Counts (xrun events, missed deadlines): their counts per second, the permutation test of the seconds' ranks
 * (compare_counts.h) p < RATE_ALPHA, and at least RATE_RATIO times the rate ((k + 0.5) per second) between every
 * half of one run and every half of the other (events come in bursts: a burst in one half is not a change).
 * Then across runs (compare_runs.h): the set-ups' runs differ the same way, t-test p < RUN_ALPHA on the runs'
 * values, the run-to-run variance pooled over the other runs of either set-up. Without other runs to weigh it
 * against, a difference of the two runs is "worse in this pair" (or better): said first and counted apart, not a
 * call on the set-ups. For a per-second latency measure one pair alone must also show a shift of
 * PAIR_PERIOD_SHARE of the nominal period (PAIR_ABS_US when the period is unknown) in every half of either run: on
 * our 2-core VM two runs of one set-up differed in every second by tens of µs (a whole run in a worse state of
 * the machine), which the halves cannot see; a tenth of the time a cycle has is beyond that and is what a
 * musician loses. tests/experiments/compare_pair.sh measures how often two runs of one set-up get an "in this
 * pair" outcome. */
#define BLOCK_ALPHA 0.01
#define BLOCK_REL 0.10
#define BLOCK_ABS_US 5.0
#define MIN_BLOCKS 5
#define RATE_ALPHA 0.01
#define RATE_RATIO 2.0
#define RUN_ALPHA 0.01
#define PAIR_PERIOD_SHARE 0.10
#define PAIR_ABS_US 100.0

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

/* The verdict on two runs that differ by their own seconds or events (called: CMP_WORSE or CMP_BETTER; head: the
 * figures the line begins with; pair: the evidence of the two runs, in words) once the runs of their set-ups are
 * heard: its outcome, and the whole line into text.
 * With no other run to weigh it against (or too few to tell the run-to-run noise), a difference the two runs show
 * is "worse in this pair" / "better in this pair": its own outcome, said first, never folded into "no clear
 * difference" (which is kept for what the data cannot tell apart), never a call on the set-ups. pair_ok says the
 * difference is large enough to be said of one pair at all; when it is not, small says why, and the line is "no
 * clear difference". */
static enum cmp_outcome across_runs(enum cmp_outcome called, const struct run_level *rl, int ok, const char *head,
                                    const char *pair, int pair_ok, const char *small, char *text, size_t len)
{
    const char *dir = called == CMP_WORSE ? "worse" : "better";
    if (!ok || rl->df < 1) {
        size_t others = ok ? rl->na + rl->nb + rl->nnoise - 2 : 0;
        char few[200];
        if (others)
            snprintf(few, sizeof(few), "only %zu other run%s of these set-ups beside them, too few to tell the "
                     "machine's run-to-run noise", others, others == 1 ? "" : "s");
        else
            snprintf(few, sizeof(few), "one run a side and no other run of either set-up beside them, so the "
                     "machine's run-to-run noise is unknown");
        if (!pair_ok) {
            snprintf(text, len, "%s: no clear difference: %s in these two runs (%s), but %s, and %s", head, dir, pair,
                     small, few);
            return CMP_SAME;
        }
        snprintf(text, len, "%s in this pair: %s: %s; not yet confirmed across runs: %s (run each set-up twice more, "
                 "into one directory, and compare again)", dir, head, pair, few);
        return called == CMP_WORSE ? CMP_WORSE_PAIR : CMP_BETTER_PAIR;
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
        snprintf(text, len, "%s: %s: %s; and across runs: %s, ×%.2f (t-test on the runs, %s, %d df%s)", head, dir,
                 pair, runs, rl->ratio, pv, rl->df, fam);
        return called;
    }
    snprintf(text, len, "%s: no clear difference: %s in these two runs (%s), but not beyond run-to-run noise: %s, "
             "×%.2f (t-test on the runs, %s, %d df%s; a difference needs p < %.2g)", head, dir, pair, runs, rl->ratio,
             pv, rl->df, fam, RUN_ALPHA);
    return CMP_SAME;
}

/* One per-second measure (lower is better): its verdict and the sentence that says why. period_us: the nominal
 * period (NAN when unknown), for what one pair alone may call. sa, sb: what each side's seconds are multiplied by
 * (compare_share_scales(): 100 / its own period when the periods differ, the figures then in % of each run's own
 * period; else 1, in µs). */
static enum cmp_outcome block_verdict(const json_t *pa, const json_t *pb, const struct run_level *rl, int rl_ok,
                                      const char *key, const char *what, double period_us, double sa, double sb,
                                      double *ma, double *mb, char *text, size_t len)
{
    double *a, *b;
    int na = blocks_of(pa, key, &a), nb = blocks_of(pb, key, &b);
    enum cmp_outcome o = CMP_NA;
    struct block_test bt;
    int share = sa != 1 || sb != 1;
    const char *unit = share ? " % of its period" : " µs";
    for (int i = 0; i < na; i++)
        a[i] *= sa;
    for (int i = 0; i < nb; i++)
        b[i] *= sb;
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
    /* the verdict's figures stay in µs (the table's) */
    *ma = bt.median_a / sa;
    *mb = bt.median_b / sb;
    /* in shares, the floor's 5 µs are the baseline period's share of them */
    double fl = share ? fmax(BLOCK_ABS_US * sa, BLOCK_REL * fabs(bt.median_a)) : compare_block_floor_us(bt.median_a);
    double hlo, hhi;
    int halves = blocks_half_shifts_scaled(pa, pb, key, sa, sb, &hlo, &hhi) == 0;
    char pv[32];
    p_words(pv, sizeof(pv), bt.p_value);
    int sure = bt.p_value < BLOCK_ALPHA, large = fabs(bt.shift) >= fl;
    /* every half against every half: on the same side, each clearing the floor and half the shift claimed (a burst
     * in one half of a run moves the shift; a change of set-up moves every half alike) */
    double need = fmax(fl, fabs(bt.shift) / 2);
    int steady = !halves || (bt.shift > 0 ? hlo >= need : hhi <= -need);
    o = sure && large && steady ? (bt.shift > 0 ? CMP_WORSE : CMP_BETTER) : CMP_SAME;
    char head[200];
    snprintf(head, sizeof(head), "%s per second, median %.1f → %.1f%s (%zu s against %zu s)", what, bt.median_a,
             bt.median_b, unit, bt.na, bt.nb);
    if (o != CMP_SAME) {
        char pair[400], small[200];
        snprintf(pair, sizeof(pair), "%zu of %zu seconds above the baseline's median, shift %+.1f%s "
                 "(Hodges-Lehmann; %s) beyond the %.1f%s that matters, Mann-Whitney %s", bt.b_above_median_a, bt.nb,
                 bt.shift, unit, halves ? "in every half of either run" : "runs too short to halve", fl, unit, pv);
        /* One pair alone: two runs of one set-up on a busy or virtual machine differ in every second by more than
         * the floor (a whole run in a worse state of the machine). What one pair may call is a shift of
         * PAIR_PERIOD_SHARE of the period, in every half of either run: a tenth of the time a cycle has. */
        double bar = share ? PAIR_PERIOD_SHARE * 100 : isnan(period_us) ? PAIR_ABS_US : PAIR_PERIOD_SHARE * period_us;
        int pair_ok = fabs(bt.shift) >= bar && (!halves || (bt.shift > 0 ? hlo >= bar : hhi <= -bar));
        snprintf(small, sizeof(small), "by less than one pair alone can call (a shift of %.0f%s in every half of "
                 "either run, %s)", bar, unit, share || !isnan(period_us) ? "a tenth of the period"
                 : "the period being unknown");
        return across_runs(o, rl, rl_ok, head, pair, pair_ok, small, text, len);
    }
    int n = snprintf(text, len, "%s: ", head);
    if (n < 0 || (size_t)n >= len)
        return o;
    char *t = text + n;
    size_t l = len - (size_t)n;
    if (!sure)
        snprintf(t, l, "no clear difference: the seconds overlap (Mann-Whitney %s, a difference needs p < %.2g; "
                 "%zu of %zu seconds above the baseline's median, shift %+.1f%s)", pv, BLOCK_ALPHA,
                 bt.b_above_median_a, bt.nb, bt.shift, unit);
    else if (!large)
        snprintf(t, l, "no clear difference: shift %+.1f%s (Hodges-Lehmann) is below the %.1f%s that matters "
                 "(%.0f %% of the baseline, at least %.0f µs), though Mann-Whitney gives %s", bt.shift, unit, fl,
                 unit, BLOCK_REL * 100, BLOCK_ABS_US, pv);
    else
        snprintf(t, l, "no clear difference: shift %+.1f%s (Mann-Whitney %s), but not in every half of the runs "
                 "(half against half: %+.1f to %+.1f%s): the machine's other work came and went", bt.shift, unit, pv,
                 hlo, hhi, unit);
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

/* One count (lower is better): e 0 xrun events, 1 missed deadlines. Their counts per second, by the permutation
 * test of their ranks (compare_counts.h: why not a Poisson test), at least RATE_RATIO times apart in every half of
 * either run. ka, kb: the phases' own totals (shown); *absent set when either phase does not have the count at all
 * (then there is no verdict). */
static enum cmp_outcome count_verdict(const json_t *pa, const json_t *pb, int e, const struct run_level *rl, int ok,
                                      double *ka, double *kb, int *absent, char *text, size_t len)
{
    static const char *const ewords[] = { "xrun events", "missed deadlines" };
    static const char *const ekeys[] = { "xrun_events", "deadlines_missed" };
    *ka = e ? doc_num(pa, "deadlines_missed") : phasefig_xruns(pa);
    *kb = e ? doc_num(pb, "deadlines_missed") : phasefig_xruns(pb);
    double sa = blocks_measured_s(pa), sb = blocks_measured_s(pb);
    *absent = isnan(*ka) || isnan(*kb) || !(sa > 0) || !(sb > 0);
    if (*absent)
        return CMP_NA;
    char head[200];
    snprintf(head, sizeof(head), "%s %.0f in %.1f s → %.0f in %.1f s", ewords[e], *ka, sa, *kb, sb);
    if (*ka + *kb == 0) {
        snprintf(text, len, "%s: none in either run", head);
        return CMP_SAME;
    }
    struct count_test ct;
    int rc = count_test_phases(pa, pb, ekeys[e], &ct);
    if (rc == 0 && (ct.na < MIN_BLOCKS || ct.nb < MIN_BLOCKS))
        rc = -ERANGE;
    if (rc < 0) {
        if (rc == -ENODATA && ct.na >= MIN_BLOCKS && ct.nb >= MIN_BLOCKS)
            snprintf(text, len, "%s: not compared: the timelines do not count them per second (a report from an "
                     "older rtjitter), and a total alone cannot tell a burst from a steady rate", head);
        else
            snprintf(text, len, "%s: not compared: %zu and %zu whole seconds in the timelines, %d are needed "
                     "(seconds, not events, are the units a verdict rests on)", head, ct.na, ct.nb, MIN_BLOCKS);
        return CMP_NA;
    }
    /* the figures of the seconds tested: their events, per second, and the seconds with any */
    size_t hl = strlen(head);
    snprintf(head + hl, sizeof(head) - hl, " (per second %.2f → %.2f, in %zu of %zu and %zu of %zu seconds)",
             ct.rate_a, ct.rate_b, ct.any_a, ct.na, ct.any_b, ct.nb);
    char pv[32];
    p_words(pv, sizeof(pv), ct.p_value);
    const char *how = ct.exact ? "exact" : "seeded random splits";
    double ra = (ct.ka + 0.5) / (double)ct.na, rb = (ct.kb + 0.5) / (double)ct.nb;
    int sure = ct.p_value < RATE_ALPHA, apart = rb >= RATE_RATIO * ra || ra >= RATE_RATIO * rb;
    int halves = !isnan(ct.half_lo);
    int steady = !halves || (rb > ra ? ct.half_lo >= RATE_RATIO : ct.half_hi <= 1 / RATE_RATIO);
    if (sure && apart && steady) {
        char pair[300];
        snprintf(pair, sizeof(pair), "the seconds' counts differ (permutation test of their ranks, %s, %s), at "
                 "least %.0f times the rate%s", how, pv, RATE_RATIO, halves ? " in every half of either run" : "");
        return across_runs(rb > ra ? CMP_WORSE : CMP_BETTER, rl, ok, head, pair, 1, "", text, len);
    }
    if (!sure)
        snprintf(text, len, "%s: no clear difference: the seconds' counts overlap (permutation test of their ranks, "
                 "%s, %s; a difference needs p < %.2g and %.0f times the rate)", head, how, pv, RATE_ALPHA,
                 RATE_RATIO);
    else if (!apart)
        snprintf(text, len, "%s: no clear difference: the seconds' counts differ (permutation test of their ranks, "
                 "%s), but the rates are less than %.0f times apart", head, pv, RATE_RATIO);
    else
        snprintf(text, len, "%s: no clear difference: the seconds' counts differ (permutation test of their ranks, "
                 "%s), but not in every half of the runs (half against half: %.1f to %.1f times the rate, not %.0f "
                 "times apart in each): they came in a burst", head, pv, ct.half_lo, ct.half_hi, RATE_RATIO);
    return CMP_SAME;
}

void compare_load_verdicts(const json_t *pa, const json_t *pb, const struct run_groups *g, size_t bi, json_t *list,
                           struct tally *t)
{
    char text[1200];
    double va[RUN_VALUES], vb[RUN_VALUES];
    compare_run_values(pa, va);
    compare_run_values(pb, vb);
    /* the period of the compared phase (the baseline's when it lacks one) */
    double period_us = phasefig_period_us(NULL, pb);
    if (isnan(period_us))
        period_us = phasefig_period_us(NULL, pa);
    double sa, sb;
    compare_share_scales(pa, pb, &sa, &sb);
    for (size_t m = 0; m < sizeof(compare_block_measures) / sizeof(compare_block_measures[0]); m++) {
        const struct block_measure *bm = &compare_block_measures[m];
        double ma, mb;
        struct run_level rl;
        int ok = run_level_test(va, vb, g, (int)m, &rl) == 0;
        enum cmp_outcome o = block_verdict(pa, pb, &rl, ok, bm->key, bm->words, period_us, sa, sb, &ma, &mb,
                                           text, sizeof(text));
        add_verdict(list, bi, bm->metric, ma, mb, o, text, runs_json(&rl, ok), t);
    }
    static const char *const events[] = { "xruns", "deadlines missed" };
    for (int e = 0; e < 2; e++) {
        struct run_level rl;
        int ok = run_level_test(va, vb, g, 4 + e, &rl) == 0;
        double ka, kb;
        int absent;
        enum cmp_outcome o = count_verdict(pa, pb, e, &rl, ok, &ka, &kb, &absent, text, sizeof(text));
        if (!absent)
            add_verdict(list, bi, events[e], ka, kb, o, text, runs_json(&rl, ok), t);
    }
}
