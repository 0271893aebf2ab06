/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict: plain words for a musician, from the phases of a report document, the system identity in it,
 * and a profile of thresholds (data/profiles/). Like Redis's LATENCY DOCTOR, it says what was seen, why it
 * matters and what to try, in that order. What to change in the system comes from the checks table
 * (src/checks), run on the document's identity after a poor run; what the run itself calls for (a bigger
 * buffer, real-time rights, ...) from the rules here. The advice comes in the order worth trying: the run's
 * privileges and its own set-up first, then the machine, then boot options (the checks table's order), then a
 * larger buffer; each piece once. A run without real-time scheduling says nothing about the kernel: it gets
 * no kernel advice at all. Runs on the main thread, after the measurement. */
#include "report/report.h"
#include "report/thresholds.h"
#include "util/numfmt.h"
#include "report/access.h"
#include "report/compare_verdict.h"
#include "checks/checks.h"
#include "verdict/verdict_ramp.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
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

/* Appends to b at o (clipped to n); returns the new end. */
static size_t add(char *b, size_t n, size_t o, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* One phase as the verdict sees it. */
struct pview {
    char name[48];       /* the load, with "@FRAMES" when the buffer size changed within the phase */
    long long xruns;     /* the larger of the server's count and the frame-clock gaps */
    long long missed;    /* cycles whose callback ended after the next cycle started */
    long long dropped;
    double met_pct;      /* deadlines met, %; NAN when unknown */
    double jitter_us;    /* worst |jitter| */
    double wakeup_p99_us;
    double margin_us;    /* tightest margin left before the deadline */
    const char *load_error;
};

struct vctx {
    const json_t *doc, *audio, *sys, *profile;
    struct pview *ph;
    int nph;
    long long frames;
    double rate_hz, period_us;
    long long max_xruns, max_missed; /* FAIL thresholds (profile, or --max-xruns) */
    double max_jitter_us;            /* FAIL threshold from --max-jitter-us, < 0 when not set */
    double min_met_pct, max_wakeup_p99_us; /* --min-deadlines-pct, --max-wakeup-p99-us; < 0 when not set */
    long long xruns, missed, dropped; /* totals */
    int worst;                       /* the phase with the most trouble, -1 if none */
    int worst_jitter;                /* the phase with the largest |jitter|, -1 if none */
    double jitter_us, margin_us;     /* worst over all phases */
    int failing;                     /* phases over a FAIL threshold */
    int timing_warn;                 /* jitter or margin over the profile's WARN share */
    int rt, complete;
};

static int phase_fails(const struct vctx *v, const struct pview *p)
{
    return p->xruns > v->max_xruns || p->missed > v->max_missed ||
           (v->max_jitter_us >= 0 && p->jitter_us > v->max_jitter_us) ||
           (v->min_met_pct >= 0 && !(p->met_pct >= v->min_met_pct)) ||
           (v->max_wakeup_p99_us >= 0 && !(p->wakeup_p99_us <= v->max_wakeup_p99_us));
}

/* ---- advice: first the system's, from the checks table, then the run's own rules below ---- */

/* What the verdict advises, in order: texts and ids for the report, hints for the summary's "Try ...". */
struct advice {
    json_t *texts, *ids;
    char hints[8][96];
    int nhints;
};

static void advise(struct advice *a, const char *id, const char *text, const char *hint)
{
    size_t i;
    const json_t *t;
    json_array_foreach(a->texts, i, t)
        if (json_string_value(t) && strcmp(json_string_value(t), text) == 0)
            return; /* each piece of advice once */
    json_array_append_new(a->texts, json_string(text));
    json_array_append_new(a->ids, json_string(id));
    if (hint && hint[0] && a->nhints < 8)
        snprintf(a->hints[a->nhints++], sizeof(a->hints[0]), "%s", hint);
}

/* System advice only matters when the timing was poor: a passing run needs no tuning. */
static int trouble(const struct vctx *v)
{
    return v->failing > 0 || v->timing_warn;
}

/* A heavy callback: --dsp, or requested work that did not all get done. */
static int heavy_callback(const struct vctx *v)
{
    int heavy = doc_num(v->audio, "dsp_pct") > 0;
    for (size_t i = 0; i < json_array_size(json_object_get(v->doc, "phases")); i++)
        heavy |= doc_num(json_array_get(json_object_get(v->doc, "phases"), i), "desired_cpu_pct") < 100;
    return heavy;
}

/* Whether a check's finding can explain what this run suffered (enum check_matters). */
static int matters(const struct vctx *v, enum check_matters m)
{
    if (m == CHECK_MATTERS_CHECKLIST)
        return 0;
    if (m == CHECK_MATTERS_HEAVY_CALLBACK)
        return v->failing > 0 && heavy_callback(v);
    if (m == CHECK_MATTERS_FAILURE)
        return v->failing > 0;
    return trouble(v);
}

/* The checks table's findings on the system identity, in the table's order (the machine, then boot options).
 * None for a run without real-time scheduling: its timing says nothing about the kernel. */
static int system_advice(const struct vctx *v, struct advice *a)
{
    if (!trouble(v) || (!v->rt && v->nph > 0))
        return 0;
    size_t n = checks_count();
    struct check_result *r = calloc(n, sizeof(*r));
    if (!r)
        return -ENOMEM;
    /* The identity in the document, not this machine's: the verdict judges the system the run measured. */
    int got = checks_run(v->sys, NULL, r, n);
    for (int i = 0; i < got; i++)
        if ((r[i].status == CHECK_WARN || r[i].status == CHECK_FAIL) && r[i].advice[0] &&
            matters(v, r[i].check->matters))
            advise(a, r[i].check->id, r[i].advice, r[i].hint);
    free(r);
    return 0;
}

/* The run's own rules: each says whether it applies, then why and how; hint is the few words of "Try ...". */
struct advice_rule {
    const char *id;
    int (*applies)(const struct vctx *v);
    void (*say)(const struct vctx *v, char *buf, size_t len);
    void (*hint)(const struct vctx *v, char *buf, size_t len); /* NULL: no entry in the summary's "Try" */
};

static int not_realtime(const struct vctx *v)
{
    return !v->rt && v->nph > 0;
}

/* What `run` found before measuring (checks/privileges.h: audio.privileges {why, fix}), when it says. */
static const char *priv_str(const struct vctx *v, const char *key)
{
    return doc_str(json_object_get(v->audio, "privileges"), key, NULL);
}

/* The external JACK server was started without real-time scheduling (jackd -r, --no-realtime). */
static int server_without_rt(const struct vctx *v)
{
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(v->sys, "audio_servers"), i, s) {
        const char *name = doc_str(s, "name", NULL), *cmd = doc_str(s, "cmdline", NULL);
        if (!name || !cmd || (strcmp(name, "jackd") && strcmp(name, "jackdbus")))
            continue;
        char padded[1100];
        snprintf(padded, sizeof(padded), " %.1000s ", cmd);
        if (strstr(padded, " -r ") || strstr(padded, " --no-realtime "))
            return 1;
    }
    return 0;
}

static void say_not_realtime(const struct vctx *v, char *b, size_t n)
{
    const char *why = priv_str(v, "why"), *fix = priv_str(v, "fix");
    const char *server = doc_str(v->audio, "server", NULL);
    size_t o = add(b, n, 0, "The audio thread did not run with real-time scheduling, so this run says nothing "
                   "about the kernel.");
    if (fix) {
        add(b, n, o, " %s%s%s: %s.", why ? "Why: " : "", why ? why : "", why ? ". The fix" : "The fix", fix);
        return;
    }
    /* A private server is started with real-time priority by rtjitter itself: only the login can lack it. */
    if ((!server || strcmp(server, "private") != 0) && server_without_rt(v))
        add(b, n, o, " The JACK server runs without real-time scheduling (started with -r): restart it without -r.");
    else
        add(b, n, o, " This login may not use real-time priority: rtjitter check says why (the limits files, your "
            "groups, a login that started before they were set) and gives the exact fix.");
}

static void hint_not_realtime(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "real-time scheduling first");
}

static int not_mlocked(const struct vctx *v)
{
    return json_is_false(json_object_get(v->audio, "mlocked"));
}

static void say_not_mlocked(const struct vctx *v, char *b, size_t n)
{
    const char *fix = priv_str(v, "fix");
    size_t o = add(b, n, 0, "Memory could not be locked: a page fault in the audio thread can cost a cycle.");
    /* One login, one fix: when the real-time advice gave it, it is not said twice. */
    if (fix && not_realtime(v))
        add(b, n, o, " The fix above gives this too.");
    else if (fix)
        add(b, n, o, " The fix: %s.", fix);
    else
        add(b, n, o, " Raise this login's memlock limit: rtjitter check names the limits file and the exact fix.");
}

static int bigger_buffer(const struct vctx *v)
{
    return v->failing > 0 && v->frames > 0 && v->frames < 8192 && !not_realtime(v);
}

static void say_bigger_buffer(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "A larger buffer gives each cycle more time: %lld frames at %.0f Hz is %.2f ms per period "
             "(twice the latency of this test).", v->frames * 2, v->rate_hz, v->period_us * 2 / 1000.0);
}

static void hint_bigger_buffer(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "%lld frames", v->frames * 2);
}

static int little_headroom(const struct vctx *v)
{
    return v->failing == 0 && v->timing_warn;
}

static void say_headroom(const struct vctx *v, char *b, size_t n)
{
    double pj = doc_num(v->profile, "warn_jitter_pct"), pm = doc_num(v->profile, "warn_margin_pct");
    snprintf(b, n, "Every deadline was met, but with little to spare: the worst jitter was %.0f µs (%.0f %% of the "
             "period; this profile accepts %.0f %%) and the tightest cycle left %.0f µs (%.0f %%; it asks for %.0f "
             "%%). A busier moment could cost a dropout.", v->jitter_us, 100 * v->jitter_us / v->period_us, pj,
             v->margin_us, 100 * v->margin_us / v->period_us, pm);
}

static int period_too_long(const struct vctx *v)
{
    double lim = doc_num(v->profile, "warn_period_ms");
    return v->period_us > 0 && v->period_us / 1000.0 > lim;
}

static void say_period_long(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "%.2f ms per period is more latency than the %s profile accepts (%.1f ms): test a smaller "
             "buffer.", v->period_us / 1000.0, doc_str(v->profile, "name", NULL), doc_num(v->profile, "warn_period_ms"));
}

static int dropped_records(const struct vctx *v)
{
    return v->dropped > 0;
}

static void say_dropped(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "%lld measurement record%s were dropped (the collector fell behind): the statistics miss "
             "those cycles.", v->dropped, plural(v->dropped));
}

static int load_failed(const struct vctx *v)
{
    for (int i = 0; i < v->nph; i++)
        if (v->ph[i].load_error)
            return 1;
    return 0;
}

static void say_load_failed(const struct vctx *v, char *b, size_t n)
{
    for (int i = 0; i < v->nph; i++)
        if (v->ph[i].load_error) {
            snprintf(b, n, "The %s load did not run as planned (%s): that phase measured a quieter machine.",
                     v->ph[i].name, v->ph[i].load_error);
            return;
        }
}

static int incomplete(const struct vctx *v)
{
    return !v->complete;
}

static void say_incomplete(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "The run did not complete: the figures cover only the part that ran.");
}

/* Before the system's advice: the run's privileges, then its own set-up (what it measured, and how well). */
static const struct advice_rule advice_rules[] = {
    { "realtime", not_realtime, say_not_realtime, hint_not_realtime },
    { "mlock", not_mlocked, say_not_mlocked, NULL },
    { "incomplete", incomplete, say_incomplete, NULL },
    { "dropped", dropped_records, say_dropped, NULL },
    { "load", load_failed, say_load_failed, NULL },
    { "period", period_too_long, say_period_long, NULL },
    { "headroom", little_headroom, say_headroom, NULL },
};

/* After it: a larger buffer, the last thing worth trying. */
static const struct advice_rule last_rules[] = {
    { "buffer", bigger_buffer, say_bigger_buffer, hint_bigger_buffer },
};

static void run_rules(const struct vctx *v, struct advice *adv, const struct advice_rule *rules, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        if (!rules[r].applies(v))
            continue;
        char text[1600], hint[96] = "";
        rules[r].say(v, text, sizeof(text));
        if (rules[r].hint)
            rules[r].hint(v, hint, sizeof(hint));
        advise(adv, rules[r].id, text, hint);
    }
}

/* ---- the summary ---- */

static size_t add(char *b, size_t n, size_t o, const char *fmt, ...)
{
    if (o >= n)
        return o;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b + o, n - o, fmt, ap);
    va_end(ap);
    return k < 0 ? o : o + (size_t)k >= n ? n - 1 : o + (size_t)k;
}

static void setting_text(const struct vctx *v, char *b, size_t n)
{
    if (v->frames > 0 && v->rate_hz > 0)
        snprintf(b, n, "%lld frames at %g kHz (%.2f ms per period)", v->frames, v->rate_hz / 1000.0,
                 v->period_us / 1000.0);
    else
        snprintf(b, n, "an unknown buffer size");
}

static void phase_trouble(const struct pview *p, char *b, size_t n)
{
    size_t o = add(b, n, 0, "Under %s: ", p->name);
    if (p->xruns)
        o = add(b, n, o, "%lld xrun%s", p->xruns, plural(p->xruns));
    if (p->missed)
        o = add(b, n, o, "%s%lld missed deadline%s", p->xruns ? ", " : "", p->missed, plural(p->missed));
    if (!isnan(p->met_pct) && p->missed) {
        char met[32];
        pct_met(met, sizeof(met), p->met_pct); /* rounded down: one miss never reads 100.00 */
        o = add(b, n, o, " (%s %% met)", met);
    }
    if (!p->xruns && !p->missed)
        o = add(b, n, o, "jitter %.0f µs", p->jitter_us);
    add(b, n, o, ".");
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
        o = add(b, n, 0, "At %s, every deadline was met under every load (", setting);
        for (int i = 0; i < v->nph; i++)
            o = add(b, n, o, "%s%s", i ? ", " : "", v->ph[i].name);
        o = add(b, n, o, ")%s.", v->xruns ? "" : ", with no xrun");
        if (v->xruns || v->missed)
            o = add(b, n, o, " %lld xrun%s and %lld missed deadline%s, within what this profile accepts.",
                    v->xruns, plural(v->xruns), v->missed, plural(v->missed));
        if (v->worst_jitter >= 0)
            o = add(b, n, o, " Worst jitter %.0f µs (%.0f %% of the period), under %s.", v->jitter_us,
                    v->period_us > 0 ? 100 * v->jitter_us / v->period_us : 0, v->ph[v->worst_jitter].name);
        if (v->timing_warn && v->period_us > 0) {
            double pj = doc_num(v->profile, "warn_jitter_pct");
            if (100 * v->jitter_us / v->period_us > pj)
                o = add(b, n, o, " That is more jitter than the %s profile accepts (%g %%).",
                        doc_str(v->profile, "name", NULL), pj);
            else
                o = add(b, n, o, " The tightest cycle left %.0f µs, less than the %s profile asks (%g %% of the "
                        "period).", v->margin_us, doc_str(v->profile, "name", NULL), doc_num(v->profile, "warn_margin_pct"));
        }
        if (strcmp(level, "pass") == 0 && v->frames > 16)
            add(b, n, o, " Next: try %lld frames.", v->frames / 2);
        else if (hints[0])
            add(b, n, o, " Try %s.", hints);
        return;
    }
    /* Say what happened: our own callback late (missed deadlines), cycles lost in the server (xruns), or, with
     * neither, a jitter over the limit the user set. */
    o = add(b, n, 0, "At %s, %s. ", setting,
            v->missed && v->xruns ? "deadlines were missed and the server had xruns"
            : v->missed           ? "deadlines were missed"
            : v->xruns            ? "the server had xruns (audio was lost), although our callback met its deadlines"
                                  : "every deadline was met and no audio was lost, but the jitter went over the limit");
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
        o = add(b, n, o, "Even with no load the machine is not quiet: %s ", part);
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
        o = add(b, n, o, "%s%s", shown ? " " : "", part);
    }
    if (v->failing - base_fails > shown)
        o = add(b, n, o, " And %d more load%s.", v->failing - base_fails - shown,
                plural(v->failing - base_fails - shown));
    if (v->failing < v->nph) {
        int others = v->nph - v->failing, listed = 0;
        if (others > 4) {
            o = add(b, n, o, " The other %d loads met every deadline.", others);
        } else {
            o = add(b, n, o, " Every deadline was met under ");
            for (int i = 0; i < v->nph; i++)
                if (!phase_fails(v, &v->ph[i])) {
                    listed++;
                    o = add(b, n, o, "%s%s", listed == 1 ? "" : listed == others ? " and " : ", ", v->ph[i].name);
                }
            o = add(b, n, o, ".");
        }
    }
    if (hints[0])
        add(b, n, o, " Try %s.", hints);
}

/* "a, b, or c" from the hints of the advice given. */
static void join_hints(const struct advice *a, char *b, size_t n)
{
    size_t o = 0;
    int k = a->nhints;
    b[0] = '\0';
    for (int i = 0; i < k; i++)
        o = add(b, n, o, "%s%s", i == 0 ? "" : i == k - 1 ? (k > 2 ? ", or " : " or ") : ", ", a->hints[i]);
}

int report_verdict(json_t *doc, const json_t *profile, int strict, int64_t max_xruns, double max_jitter_us)
{
    struct report_limits lim = REPORT_LIMITS_NONE;
    lim.max_xruns = max_xruns;
    lim.max_jitter_us = max_jitter_us;
    return report_verdict_limits(doc, profile, strict, &lim);
}

int report_verdict_limits(json_t *doc, const json_t *profile, int strict, const struct report_limits *lim)
{
    if (verdict_is_ramp(doc)) /* a headroom measurement: its own misses are not the kernel's */
        return verdict_ramp(doc, profile);
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
    v.margin_us = INFINITY;
    size_t np = json_array_size(phases);
    v.ph = calloc(np ? np : 1, sizeof(*v.ph));
    if (!v.ph)
        return -1;
    size_t i;
    const json_t *p;
    long long worst_bad = -1;
    json_array_foreach(phases, i, p) {
        struct pview *pv = &v.ph[v.nph];
        const char *load = doc_str(p, "load", NULL);
        if (json_integer_value(json_object_get(p, "segments_in_phase")) > 1)
            snprintf(pv->name, sizeof(pv->name), "%.30s@%lld", load ? load : "?", count(doc_num(p, "period_frames")));
        else
            snprintf(pv->name, sizeof(pv->name), "%.40s", load ? load : "?");
        pv->xruns = count(compare_xruns(p)); /* events: one per stall, not jack2's notifications */
        pv->missed = count(doc_num(p, "deadlines_missed"));
        pv->dropped = count(doc_num(p, "dropped"));
        pv->met_pct = doc_num(p, "deadlines_met_pct");
        pv->jitter_us = sub(p, "jitter_us", "abs_max");
        pv->wakeup_p99_us = sub(p, "wakeup_us", "p99");
        pv->margin_us = sub(p, "margin_us", "min");
        pv->load_error = doc_str(p, "load_error", NULL);
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
    run_rules(&v, &adv, advice_rules, sizeof(advice_rules) / sizeof(advice_rules[0]));
    int err = system_advice(&v, &adv);
    if (!err)
        run_rules(&v, &adv, last_rules, sizeof(last_rules) / sizeof(last_rules[0]));
    if (err || !adv.texts || !adv.ids) {
        json_decref(adv.texts);
        json_decref(adv.ids);
        free(v.ph);
        return -1;
    }
    /* WARN: nothing failed, but the figures are not to be trusted as they stand, or leave little margin. */
    int warn = v.timing_warn || !v.complete || v.dropped > 0 || load_failed(&v) || period_too_long(&v) ||
           (!v.rt && json_is_true(json_object_get(profile, "require_realtime")));
    const char *level = v.nph == 0 || v.failing ? "fail" : warn ? "warn" : "pass";

    char hints[400], summary[2048];
    join_hints(&adv, hints, sizeof(hints));
    size_t so = not_realtime(&v) ? add(summary, sizeof(summary), 0, "Not a kernel test: the audio thread ran "
                                       "without real-time scheduling. ") : 0;
    build_summary(&v, level, hints, summary + so, sizeof(summary) - so);
    char setting[128];
    setting_text(&v, setting, sizeof(setting));

    int exceeded = 0;
    json_t *pname = json_object_get(profile, "name");
    json_t *th = thresholds_object(doc, profile, strict, lim, v.max_xruns, v.max_missed,
                                   strict && strcmp(level, "fail") == 0, &exceeded);
    json_object_set_new(doc, "thresholds", th);
    json_t *prof = profile ? json_deep_copy(profile) : json_null();
    json_object_del(prof, "path"); /* where this machine keeps it says nothing about the run */
    json_object_set_new(doc, "profile", prof);
    json_object_set_new(doc, "verdict", json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:o, s:o, s:O}",
        "level", level, "summary", summary, "setting", setting,
        "worst_load", v.worst >= 0 ? v.ph[v.worst].name : NULL, "try", hints[0] ? hints : NULL,
        "advice", adv.texts, "advice_ids", adv.ids, "profile", pname ? pname : json_null()));
    free(v.ph);
    return exceeded;
}
