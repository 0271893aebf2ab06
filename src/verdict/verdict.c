/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict: plain words for a musician, from the phases of a report document, the system identity in it,
 * and a profile of thresholds (data/profiles/). Like Redis's LATENCY DOCTOR, it says what was seen, why it
 * matters and what to try, in that order. This file reads the phases, judges them and writes the summary and
 * the level; the advice (the run's own rules, the checks table's findings, a larger buffer) is in
 * verdict_advice.c, a ramp's verdict in verdict_ramp.c. Runs on the main thread, after the measurement. */
#include "verdict/verdict.h"
#include "report/thresholds.h"
#include "util/numfmt.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include "verdict/ladder_rule.h"
#include "verdict/verdict_internal.h"
#include "verdict/verdict_order.h"
#include "verdict/verdict_text.h"
#include "verdict/verdict_ramp.h"
#include "verdict/verdict_soak.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double sub(const json_t *o, const char *k1, const char *k2)
{
    return doc_num(json_object_get(o, k1), k2);
}

static long long count(double v)
{
    return isnan(v) || v < 0 ? 0 : (long long)v;
}

static const char *plural(long long n)
{
    return n == 1 ? "" : "s";
}

static int phase_fails(const struct vctx *v, const struct pview *p)
{
    return p->xruns > v->max_xruns || p->missed > v->max_missed ||
           (v->max_jitter_us >= 0 && p->jitter_us > v->max_jitter_us) ||
           (v->min_met_pct >= 0 && !(p->met_pct >= v->min_met_pct)) ||
           (v->max_wakeup_p99_us >= 0 && !(p->wakeup_p99_us <= v->max_wakeup_p99_us));
}

/* ---- the summary ---- */

/* The size in force at the end; after a buffer change (a quantum forced mid-watch) the sizes before it too, so that
 * "At 512 frames, deadlines were missed" never stands alone for misses at 256 (each phase's trouble names its size). */
static void setting_text(const struct vctx *v, char *b, size_t n)
{
    if (!(v->frames > 0 && v->rate_hz > 0)) {
        snprintf(b, n, "an unknown buffer size");
        return;
    }
    size_t o = vadd(b, n, 0, "%lld frames at %g kHz (%.2f ms per period", v->frames, v->rate_hz / 1000.0,
                    v->period_us / 1000.0);
    int said = 0;
    for (int i = 0; i < v->nph && said < 3; i++) {
        const struct pview *p = &v->ph[i];
        int seen = p->frames <= 0 || p->frames == v->frames;
        for (int k = 0; k < i && !seen; k++)
            seen = v->ph[k].frames == p->frames;
        if (!seen)
            o = vadd(b, n, o, "%s%lld", said++ ? ", " : "; before a buffer change: ", p->frames);
    }
    vadd(b, n, o, ")");
}

static void phase_trouble(const struct pview *p, char *b, size_t n)
{
    size_t o = vadd(b, n, 0, "Under %s: ", p->name);
    if (p->xruns)
        o = vadd(b, n, o, "%lld xrun%s", p->xruns, plural(p->xruns));
    if (p->missed)
        o = vadd(b, n, o, "%s%lld missed deadline%s", p->xruns ? ", " : "", p->missed, plural(p->missed));
    if (!isnan(p->met_pct) && p->missed) {
        char met[32];
        pct_met(met, sizeof(met), p->met_pct); /* rounded down: one miss never reads 100.00 */
        o = vadd(b, n, o, " (%s %% met)", met);
    }
    if (!p->xruns && !p->missed)
        o = vadd(b, n, o, "jitter %.0f µs", p->jitter_us);
    vadd(b, n, o, ".");
}

static void build_summary(const struct vctx *v, const char *level, const char *hints, char *b, size_t n)
{
    char setting[128];
    setting_text(v, setting, sizeof(setting));
    size_t o;
    if (v->nph == 0) {
        snprintf(b, n, "Nothing was measured%s.", v->complete ? "" : ": the run was interrupted");
        return;
    }
    if (v->failing == 0) {
        o = vadd(b, n, 0, "At %s, every deadline was met under every load (", setting);
        for (int i = 0; i < v->nph; i++)
            o = vadd(b, n, o, "%s%s", i ? ", " : "", v->ph[i].name);
        o = vadd(b, n, o, ")%s.", v->xruns ? "" : ", with no xrun");
        if (v->xruns || v->missed)
            o = vadd(b, n, o, " %lld xrun%s and %lld missed deadline%s, within what this profile accepts.",
                    v->xruns, plural(v->xruns), v->missed, plural(v->missed));
        if (v->worst_jitter >= 0)
            o = vadd(b, n, o, " Worst jitter %.0f µs (%.0f %% of the period), under %s.", v->jitter_us,
                    v->period_us > 0 ? 100 * v->jitter_us / v->period_us : 0, v->ph[v->worst_jitter].name);
        if (v->timing_warn && v->period_us > 0) {
            double pj = doc_num(v->profile, "warn_jitter_pct");
            if (100 * v->jitter_us / v->period_us > pj)
                o = vadd(b, n, o, " That is more jitter than the %s profile accepts (%g %%).",
                        doc_str(v->profile, "name", NULL), pj);
            else
                o = vadd(b, n, o, " The tightest cycle left %.0f µs, less than the %s profile asks (%g %% of the "
                        "period).", v->margin_us, doc_str(v->profile, "name", NULL), doc_num(v->profile, "warn_margin_pct"));
        }
        if (strcmp(level, "pass") == 0 && v->frames > 16)
            vadd(b, n, o, " Next: try %lld frames.", v->frames / 2);
        else if (hints[0])
            vadd(b, n, o, " Next: %s.", hints);
        return;
    }
    /* Say what happened: our own callback late (missed deadlines), cycles lost in the server (xruns), or, with
     * neither, a jitter over the limit the user set. */
    /* What an xrun is at this depth: the server's (JACK, PipeWire), the card's (ALSA), or, on the kernel's timer
     * where no audio flows, a period the thread woke too late to run at all. */
    const char *be = doc_str(v->audio, "backend", "");
    int timer = !strcmp(be, "timer") || !strcmp(be, "noise");
    const char *lost = timer ? "whole periods were skipped" : !strcmp(be, "alsa") ? "the card had xruns"
                                                                                 : "the server had xruns";
    o = vadd(b, n, 0, "At %s, ", setting);
    if (v->missed && v->xruns)
        o = vadd(b, n, o, "deadlines were missed and %s%s. ", lost, timer ? " (xruns)" : "");
    else if (v->missed)
        o = vadd(b, n, o, "deadlines were missed. ");
    else if (v->xruns)
        o = vadd(b, n, o, "%s %s. ", lost, timer ? "(xruns: the thread woke too late to run them), although every "
                                                   "cycle that ran met its deadline"
                                                 : "(audio was lost), although our callback met its deadlines");
    else
        o = vadd(b, n, o, "every deadline was met and no %s, but the jitter went over the limit. ",
                 timer ? "period was skipped" : "audio was lost");
    char part[256];
    /* The baseline first: when even the phase without a load fails, the machine is not quiet at rest, and no
     * "and N more loads" may hide that. */
    int base = -1;
    for (int i = 0; i < v->nph && base < 0; i++)
        if (!strcmp(v->ph[i].name, "none"))
            base = i;
    int base_fails = base >= 0 && phase_fails(v, &v->ph[base]);
    if (base_fails) {
        phase_trouble(&v->ph[base], part, sizeof(part));
        /* In a ladder whose depths below kept up, the machine at rest was quiet enough for them: not its fault. */
        if (v->own_session) /* rtjitter watch: no load of ours, but the user's own session ran */
            o = vadd(b, n, o, "In your own session: %s ", part);
        else if (v->kernel_cleared)
            o = vadd(b, n, o, "Even with no load: %s ", part);
        else
            o = vadd(b, n, o, "Even with no load the machine is not quiet: %s ", part);
    }
    /* The failing loads, the worst first: most xruns and missed deadlines. */
    int order[64], k = 0;
    for (int i = 0; i < v->nph && k < 64; i++)
        if (phase_fails(v, &v->ph[i]) && i != base)
            order[k++] = i;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0; j--) {
            const struct pview *a = &v->ph[order[j - 1]], *c = &v->ph[order[j]];
            if (a->xruns + a->missed >= c->xruns + c->missed)
                break;
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int shown = 0;
    for (; shown < k && shown < 4; shown++) {
        phase_trouble(&v->ph[order[shown]], part, sizeof(part));
        o = vadd(b, n, o, "%s%s", shown ? " " : "", part);
    }
    if (v->failing - base_fails > shown)
        o = vadd(b, n, o, " And %d more load%s.", v->failing - base_fails - shown,
                plural(v->failing - base_fails - shown));
    if (v->failing < v->nph) {
        int others = v->nph - v->failing, listed = 0;
        if (others > 4) {
            o = vadd(b, n, o, " The other %d loads met every deadline.", others);
        } else {
            o = vadd(b, n, o, " Every deadline was met under ");
            for (int i = 0; i < v->nph; i++)
                if (!phase_fails(v, &v->ph[i])) {
                    listed++;
                    o = vadd(b, n, o, "%s%s", listed == 1 ? "" : listed == others ? " and " : ", ", v->ph[i].name);
                }
            o = vadd(b, n, o, ".");
        }
    }
    if (hints[0])
        vadd(b, n, o, " Next: %s.", hints);
}

/* "stop canary; boot with threadirqs and install rtirq; use 128 frames" from the hints of the advice given, in its
 * order, each step with its own verb (a list "stopping canary, threadirqs and rtirq" read as "stopping threadirqs"),
 * at most VERDICT_ADVICE_SHOWN of them and how many more. */
static void join_hints(const struct advice *a, char *b, size_t n)
{
    size_t o = 0;
    int k = 0, shown = 0;
    char said[VERDICT_ADVICE_SHOWN][160];
    b[0] = '\0';
    for (int i = 0; i < a->nhints; i++) {
        char step[160];
        verdict_order_step(a->hint_ids[i], a->hints[i], step, sizeof(step));
        int again = 0; /* two pieces with one step (the preemption model's culprit and the kernel's check) */
        for (int j = 0; j < shown && !again; j++)
            again = !strcmp(said[j], step);
        if (again)
            continue;
        k++;
        if (shown < VERDICT_ADVICE_SHOWN) {
            snprintf(said[shown], sizeof(said[shown]), "%s", step);
            o = vadd(b, n, o, "%s%s", shown++ ? "; " : "", step);
        }
    }
    if (k > shown)
        vadd(b, n, o, " (and %d more in the advice)", k - shown);
}

int verdict_report(json_t *doc, const json_t *profile, int strict, int64_t max_xruns, double max_jitter_us)
{
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = max_xruns;
    lim.max_jitter_us = max_jitter_us;
    return verdict_report_limits(doc, profile, strict, &lim);
}

int verdict_report_limits(json_t *doc, const json_t *profile, int strict, const struct report_limits *lim)
{
    struct report_judgement j = { NULL, NULL, NULL };
    int rc = verdict_judge(doc, profile, strict, lim, &j);
    report_place_judgement(doc, &j); /* what was made, even when out of memory later */
    return rc;
}

/* rtjitter itself stopped (SIGSTOP, Ctrl-Z; the report's "run" object, run/run_stopped.h): the xrun events and
 * missed deadlines the cycles around each measured stop added to its phase are the stop's, not the kernel's; so is
 * its worst jitter and margin (the report keeps only the worst), which the verdict then does not judge. */
static void subtract_stops(const json_t *doc, const char *load, struct pview *pv, unsigned long long *used)
{
    const json_t *st;
    size_t k;
    json_array_foreach(json_object_get(json_object_get(doc, "run"), "stops"), k, st) {
        const char *l = doc_str(st, "load", NULL);
        if (k >= 64 || !l || strcmp(l, load) || !json_is_true(json_object_get(st, "measuring")) || (*used >> k & 1))
            continue;
        *used |= 1ull << k; /* once: a load split in segments has each stop once */
        long long e = count(doc_num(st, "xrun_events")), m = count(doc_num(st, "deadlines_missed"));
        /* The share met, of the cycles due outside the stop: due = missed / (1 - met share), both less m. */
        if (!isnan(pv->met_pct) && pv->met_pct < 100 && pv->missed > 0) {
            double due = (double)pv->missed / (1 - pv->met_pct / 100);
            if (due - (double)m > 0)
                pv->met_pct = 100 * (due - (double)pv->missed) / (due - (double)m);
        }
        pv->xruns = pv->xruns > e ? pv->xruns - e : 0;
        pv->missed = pv->missed > m ? pv->missed - m : 0;
        pv->jitter_us = pv->margin_us = NAN; /* the phase's worst is the stop's: its figures say so, not this verdict */
    }
}

/* "rtjitter itself was stopped ... ; the N skipped cycles then are not the kernel's." at o, or nothing. */
static size_t stopped_text(const json_t *doc, char *b, size_t n, size_t o)
{
    const json_t *run = json_object_get(doc, "run"), *st, *longest = NULL;
    size_t k;
    long long measured = 0, skipped = 0;
    json_array_foreach(json_object_get(run, "stops"), k, st) {
        double g = doc_num(st, "gap_s");
        if (isnan(g))
            continue;
        measured++;
        skipped += count(doc_num(st, "skipped_cycles"));
        if (!longest || g > doc_num(longest, "gap_s"))
            longest = st;
    }
    if (!longest)
        return o;
    const char *when = doc_str(longest, "continued", "");
    char hms[16] = "";
    if (strlen(when) >= 19)
        snprintf(hms, sizeof(hms), "%.8s", when + 11);
    if (measured == 1)
        o = vadd(b, n, o, "rtjitter itself was stopped (SIGSTOP/Ctrl-Z) for %.1f s, until %s UTC, under %s", doc_num(longest, "gap_s"),
                 hms, doc_str(longest, "load", "?"));
    else
        o = vadd(b, n, o, "rtjitter itself was stopped (SIGSTOP/Ctrl-Z) %lld times, %.1f s in all; the longest %.1f s, "
                 "until %s UTC, under %s", measured, doc_num(run, "stopped_s"), doc_num(longest, "gap_s"), hms,
                 doc_str(longest, "load", "?"));
    return vadd(b, n, o, ": the %lld skipped cycle%s then %s not the kernel's; this verdict leaves %s out, with that "
                "phase's worst jitter (the figures keep them: its longest period and jitter are the stop's). ", skipped, plural(skipped),
                skipped == 1 ? "is" : "are", skipped == 1 ? "it" : "them");
}

int verdict_judge(const json_t *doc, const json_t *profile, int strict, const struct report_limits *lim,
                  struct report_judgement *j)
{
    if (verdict_is_ramp(doc)) /* a headroom measurement: its own misses are not the kernel's */
        return verdict_ramp(doc, profile, j);
    struct vctx v;
    memset(&v, 0, sizeof(v));
    const json_t *sys = json_object_get(doc, "system");
    const json_t *phases = json_object_get(doc, "phases");
    v.doc = doc;
    v.audio = json_object_get(doc, "audio");
    v.sys = sys;
    v.profile = profile;
    v.frames = count(doc_num(v.audio, "period_frames"));
    v.rate_hz = doc_num(v.audio, "rate");
    v.period_us = doc_num(v.audio, "period_us");
    if (isnan(v.period_us))
        v.period_us = 0;
    v.max_xruns = lim->max_xruns >= 0 ? lim->max_xruns : count(doc_num(profile, "max_xruns"));
    v.max_missed = count(doc_num(profile, "max_deadlines_missed"));
    v.max_jitter_us = lim->max_jitter_us;
    v.min_met_pct = lim->min_deadlines_pct;
    v.max_wakeup_p99_us = lim->max_wakeup_p99_us;
    v.complete = json_is_true(json_object_get(doc, "complete"));
    v.rt = json_is_true(json_object_get(v.audio, "realtime"));
    v.worst = v.worst_jitter = -1;
    v.kernel_cleared = ladder_kernel_cleared(doc, v.below, sizeof(v.below));
    v.own_session = strcmp(doc_str(doc, "session", ""), "watch") == 0;
    v.depth = doc_str(json_object_get(doc, "ladder"), "depth", NULL);
    v.margin_us = INFINITY;
    size_t np = json_array_size(phases);
    v.ph = calloc(np ? np : 1, sizeof(*v.ph));
    if (!v.ph)
        return -1;
    size_t i;
    const json_t *p;
    long long worst_bad = -1;
    unsigned long long stops_used = 0;
    json_array_foreach(phases, i, p) {
        struct pview *pv = &v.ph[v.nph];
        const char *load = doc_str(p, "load", NULL);
        if (json_is_integer(json_object_get(p, "life"))) /* watch: a phase a life of the server */
            doc_phase_name(p, pv->name, sizeof(pv->name));
        else if (json_integer_value(json_object_get(p, "segments_in_phase")) > 1)
            snprintf(pv->name, sizeof(pv->name), "%.30s@%lld", load ? load : "?", count(doc_num(p, "period_frames")));
        else
            snprintf(pv->name, sizeof(pv->name), "%.40s", load ? load : "?");
        pv->xruns = count(phasefig_xruns(p)); /* events: one per stall, not jack2's notifications */
        pv->missed = count(doc_num(p, "deadlines_missed"));
        pv->dropped = count(doc_num(p, "dropped"));
        pv->met_pct = doc_num(p, "deadlines_met_pct");
        pv->jitter_us = sub(p, "jitter_us", "abs_max");
        pv->wakeup_p99_us = sub(p, "wakeup_us", "p99");
        pv->margin_us = sub(p, "margin_us", "min");
        pv->load_error = doc_str(p, "load_error", NULL);
        pv->frames = count(doc_num(p, "period_frames"));
        pv->rate_hz = doc_num(p, "rate");
        subtract_stops(doc, load ? load : "?", pv, &stops_used);
        v.xruns += pv->xruns;
        v.missed += pv->missed;
        v.dropped += pv->dropped;
        if (phase_fails(&v, pv))
            v.failing++;
        if (pv->xruns + pv->missed > worst_bad) {
            worst_bad = pv->xruns + pv->missed;
            v.worst = v.nph;
        }
        if (!isnan(pv->jitter_us) && (v.worst_jitter < 0 || pv->jitter_us > v.jitter_us)) {
            v.jitter_us = pv->jitter_us;
            v.worst_jitter = v.nph;
        }
        if (!isnan(pv->margin_us) && pv->margin_us < v.margin_us)
            v.margin_us = pv->margin_us;
        v.nph++;
    }
    /* Among the failing phases the worst is the one with the most trouble; without any, the worst jitter. */
    if (v.failing == 0 || worst_bad == 0)
        v.worst = v.worst_jitter;
    if (v.failing && !phase_fails(&v, &v.ph[v.worst]))
        for (int k = 0; k < v.nph; k++)
            if (phase_fails(&v, &v.ph[k])) {
                v.worst = k;
                break;
            }
    if (v.period_us > 0)
        v.timing_warn = (v.worst_jitter >= 0 && 100 * v.jitter_us / v.period_us > doc_num(profile, "warn_jitter_pct")) ||
                        (isfinite(v.margin_us) && 100 * v.margin_us / v.period_us < doc_num(profile, "warn_margin_pct"));

    struct advice adv = { .texts = json_array(), .ids = json_array() };
    int err = verdict_advise(&v, &adv);
    if (err || !adv.texts || !adv.ids) {
        json_decref(adv.texts);
        json_decref(adv.ids);
        free(v.ph);
        return -1;
    }
    /* WARN: nothing failed, but the figures are not to be trusted as they stand, or leave little margin. */
    int warn = v.timing_warn || !v.complete || !isnan(doc_num(json_object_get(doc, "run"), "longest_stop_s")) || v.dropped > 0 || verdict_load_failed(&v) ||
               verdict_period_too_long(&v) || (!v.rt && json_is_true(json_object_get(profile, "require_realtime")));
    const char *level = v.nph == 0 || v.failing ? "fail" : warn ? "warn" : "pass";
    json_t *soak = verdict_soak(doc, profile, v.period_us, strict); /* --soak: its line leads the summary */
    if (soak && !strcmp(json_string_value(json_object_get(soak, "level")), "fail"))
        level = "fail";

    char hints[400], summary[2048];
    join_hints(&adv, hints, sizeof(hints));
    size_t so = verdict_not_realtime(&v) ? vadd(summary, sizeof(summary), 0, "Not a kernel test: the audio thread "
                                                "ran without real-time scheduling. ") : 0;
    so = verdict_soak_text(soak, summary, sizeof(summary), so);
    so = stopped_text(doc, summary, sizeof(summary), so);
    build_summary(&v, level, hints, summary + so, sizeof(summary) - so);
    char setting[128];
    setting_text(&v, setting, sizeof(setting));

    int exceeded = 0;
    json_t *pname = json_object_get(profile, "name");
    j->thresholds = thresholds_object(doc, profile, strict, lim, v.max_xruns, v.max_missed,
                                      strict && strcmp(level, "fail") == 0, &exceeded);
    json_t *prof = profile ? json_deep_copy(profile) : json_null();
    json_object_del(prof, "path"); /* where this machine keeps it says nothing about the run */
    j->profile = prof;
    j->verdict = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:o, s:o, s:O}",
        "level", level, "summary", summary, "setting", setting,
        "worst_load", v.worst >= 0 ? v.ph[v.worst].name : NULL, "try", hints[0] ? hints : NULL,
        "advice", adv.texts, "advice_ids", adv.ids, "profile", pname ? pname : json_null());
    if (soak)
        json_object_set_new(j->verdict, "soak", soak);
    free(v.ph);
    return exceeded;
}
