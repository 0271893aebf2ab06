/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict's advice: first the run's own rules (its privileges, its set-up, what it measured and how well),
 * then what to change in the system, from the checks table (src/checks) run on the document's identity after a
 * poor run, then a larger buffer; each piece once. A run without real-time scheduling gets no kernel advice at
 * all. Like Redis's LATENCY DOCTOR: what was seen, why it matters, what to try. Main thread, after the
 * measurement. */
#include "verdict/verdict_internal.h"
#include "report/access.h"
#include "checks/checks.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *plural(long long n)
{
    return n == 1 ? "" : "s";
}

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

int verdict_not_realtime(const struct vctx *v)
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
    size_t o = vadd(b, n, 0, "The audio thread did not run with real-time scheduling, so this run says nothing "
                   "about the kernel.");
    if (fix) {
        vadd(b, n, o, " %s%s%s: %s.", why ? "Why: " : "", why ? why : "", why ? ". The fix" : "The fix", fix);
        return;
    }
    /* A private server is started with real-time priority by rtjitter itself: only the login can lack it. */
    if ((!server || strcmp(server, "private") != 0) && server_without_rt(v))
        vadd(b, n, o, " The JACK server runs without real-time scheduling (started with -r): restart it without -r.");
    else
        vadd(b, n, o, " This login may not use real-time priority: rtjitter check says why (the limits files, your "
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
    size_t o = vadd(b, n, 0, "Memory could not be locked: a page fault in the audio thread can cost a cycle.");
    /* One login, one fix: when the real-time advice gave it, it is not said twice. */
    if (fix && verdict_not_realtime(v))
        vadd(b, n, o, " The fix above gives this too.");
    else if (fix)
        vadd(b, n, o, " The fix: %s.", fix);
    else
        vadd(b, n, o, " Raise this login's memlock limit: rtjitter check names the limits file and the exact fix.");
}

static int bigger_buffer(const struct vctx *v)
{
    return v->failing > 0 && v->frames > 0 && v->frames < 8192 && !verdict_not_realtime(v);
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

int verdict_period_too_long(const struct vctx *v)
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

int verdict_load_failed(const struct vctx *v)
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
    { "realtime", verdict_not_realtime, say_not_realtime, hint_not_realtime },
    { "mlock", not_mlocked, say_not_mlocked, NULL },
    { "incomplete", incomplete, say_incomplete, NULL },
    { "dropped", dropped_records, say_dropped, NULL },
    { "load", verdict_load_failed, say_load_failed, NULL },
    { "period", verdict_period_too_long, say_period_long, NULL },
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


int verdict_advise(const struct vctx *v, struct advice *a)
{
    run_rules(v, a, advice_rules, sizeof(advice_rules) / sizeof(advice_rules[0]));
    int err = system_advice(v, a);
    if (!err)
        run_rules(v, a, last_rules, sizeof(last_rules) / sizeof(last_rules[0]));
    return err;
}
