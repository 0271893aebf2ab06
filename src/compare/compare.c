/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the comparison document of `rtjitter compare`: one column per report, what differs in the system
 * identity, the settings that make runs measure different things, the table and verdicts of each load, and a
 * sentence per report. The renderers (render/compare_text.c, render/html_compare.c) only print it. */
#include "compare/compare.h"
#include "report/access.h"
#include "compare/compare_runs.h"
#include "compare/compare_verdict.h"
#include "report/phase_figures.h"
#include "report/doc.h"
#include "util/numfmt.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const json_t *compare_find_phase(const json_t *doc, const char *key)
{
    size_t i;
    const json_t *p;
    char k[PHASE_NAME_LEN];
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        phase_display_name(p, k, sizeof(k));
        if (!strcmp(k, key))
            return p;
    }
    return NULL;
}

struct flat_ctx {
    json_t *map; /* key -> array of n values (null where a report lacks the key) */
    size_t idx, n;
};

/* Keys of the identity that change from run to run on one and the same system (process ids, other audio
 * processes that happened to run, free swap): listing them as "what differs" would hide what does. */
static int identity_noise(const char *key)
{
    static const char *const prefixes[] = { "audio_servers" };
    static const char *const leaves[] = { "pid", "swap_free_mib", "mem_free_mib", "mem_available_mib", "uptime_s" };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
            return 1;
    const char *leaf = strrchr(key, '.');
    leaf = leaf ? leaf + 1 : key;
    for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
        if (!strcmp(leaf, leaves[i]))
            return 1;
    return 0;
}

static void flat_collect(const char *key, const char *value, void *arg)
{
    struct flat_ctx *c = arg;
    if (identity_noise(key))
        return;
    json_t *a = json_object_get(c->map, key);
    if (!a) {
        if (json_object_size(c->map) >= 2000) /* a hostile identity does not get to grow this without bound */
            return;
        a = json_array();
        for (size_t i = 0; i < c->n; i++)
            json_array_append_new(a, json_null());
        json_object_set_new(c->map, key, a);
    }
    json_array_set_new(a, c->idx, json_string(value));
}


/* ---- the load tables: columns, and rows formatted once for every renderer ---- */

/* A metric's figures in a column. Percentiles come from the histograms through phase_quantile(): the figures
 * the verdicts judge, so that a table row and a verdict line name one number. For jitter they are of |jitter|
 * (abs_p99, abs_p999, abs_max): a cycle early by 500 µs follows one late by as much. */
static json_t *metric_column(const json_t *p, const char *metric)
{
    char key[32];
    snprintf(key, sizeof(key), "%s_us", metric);
    const json_t *m = json_object_get(p, key);
    if (!json_is_object(m))
        return json_null();
    int fold = !strcmp(metric, "jitter");
    return json_pack("{s:o, s:o, s:o, s:o, s:o}", "mean", doc_number_json(doc_num(m, "mean")), "sd",
                     doc_number_json(doc_num(m, "sd")), fold ? "abs_p99" : "p99",
                     doc_number_json(phase_quantile(p, metric, fold, 0.99)), fold ? "abs_p999" : "p999",
                     doc_number_json(phase_quantile(p, metric, fold, 0.999)), fold ? "abs_max" : "max",
                     doc_number_json(doc_num(m, fold ? "abs_max" : "max")));
}

/* The medians of a phase's whole seconds, per measure the verdicts decide (compare_block_measures). */
static json_t *seconds_column(const json_t *p)
{
    json_t *o = json_object();
    for (size_t m = 0; m < sizeof(compare_block_measures) / sizeof(compare_block_measures[0]); m++)
        json_object_set_new(o, compare_block_measures[m].key,
                            doc_number_json(compare_block_median(p, compare_block_measures[m].key)));
    return o;
}

static json_t *column(const json_t *p)
{
    if (!p)
        return json_null();
    const json_t *x = json_object_get(p, "xruns");
    json_t *tp = json_array();
    size_t i;
    const json_t *lm;
    json_array_foreach(json_object_get(p, "load_metrics"), i, lm)
        json_array_append_new(tp, json_pack("{s:s, s:o, s:s}", "name", doc_str(lm, "name", "?"),
                                            "value", doc_number_json(doc_num(lm, "value")), "unit",
                                            doc_str(lm, "unit", "")));
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "jitter", metric_column(p, "jitter"), "wakeup", metric_column(p, "wakeup"),
                     "seconds", seconds_column(p),
                     "cycles", doc_number_json(doc_num(p, "cycles")), "xruns", doc_number_json(phase_xruns(p)),
                     "xruns_reported", doc_number_json(doc_num(x, "reported")),
                     "xruns_detected", doc_number_json(doc_num(x, "detected")),
                     "deadlines_met_pct", doc_number_json(doc_num(p, "deadlines_met_pct")),
                     "deadlines_missed", doc_number_json(doc_num(p, "deadlines_missed")),
                     "throughput", tp, "load_error", utf8_json_string(doc_str(p, "load_error", NULL)),
                     "period_frames", doc_number_json(doc_num(p, "period_frames")));
}

static void fmt_num(char *buf, size_t len, double v, int prec)
{
    if (isnan(v)) {
        snprintf(buf, len, "-");
        return;
    }
    snprintf(buf, len, "%.*f", prec, v);
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)) /* -0.04 is "0.0", not "-0.0" */
        memmove(buf, buf + 1, strlen(buf));
}

/* The rows of a load's table, formatted once, for the text and HTML renderers alike. A row marked detail is
 * for the statistician: the text form shows it only with --wide. The "per second, median" rows are the figures
 * the verdicts decide on (the median of the seconds' p99s and maxima); the whole-run percentiles beside them
 * are shown, never decided: they treat cycles as independent samples. */
struct row_def {
    const char *label;
    const char *metric; /* "jitter" / "wakeup" / "seconds", or NULL for a phase-level key */
    const char *key;
    int detail;
};

static const struct row_def row_defs[] = {
    { "|jitter| p99 (µs)", "jitter", "abs_p99", 0 }, { "|jitter| p99.9 (µs)", "jitter", "abs_p999", 1 },
    { "|jitter| max (µs)", "jitter", "abs_max", 0 }, { "jitter mean ± SD (µs)", "jitter", "mean", 1 },
    { "wakeup p99 (µs)", "wakeup", "p99", 0 }, { "wakeup p99.9 (µs)", "wakeup", "p999", 1 },
    { "wakeup max (µs)", "wakeup", "max", 0 }, { "wakeup mean ± SD (µs)", "wakeup", "mean", 1 },
    { "wakeup p99/s, median (µs)", "seconds", "wakeup_p99_us", 0 },
    { "wakeup max/s, median (µs)", "seconds", "wakeup_max_us", 1 },
    { "|jitter| p99/s, median (µs)", "seconds", "jitter_abs_p99_us", 0 },
    { "|jitter| max/s, median (µs)", "seconds", "jitter_abs_max_us", 1 },
    { "deadlines met (%)", NULL, "deadlines_met_pct", 0 }, { "xrun events (reported/detected)", NULL, "xruns", 0 },
    { "cycles", NULL, "cycles", 1 },
};

static void cell_text(const json_t *col, const struct row_def *r, char *buf, size_t len)
{
    if (json_is_null(col) || !col) {
        snprintf(buf, len, "(not run)");
        return;
    }
    if (r->metric) {
        const json_t *m = json_object_get(col, r->metric);
        if (!strcmp(r->key, "mean")) {
            char a[32], b[32];
            fmt_num(a, sizeof(a), doc_num(m, "mean"), 1);
            fmt_num(b, sizeof(b), doc_num(m, "sd"), 1);
            snprintf(buf, len, "%s ± %s", a, b);
        } else {
            fmt_num(buf, len, doc_num(m, r->key), 1);
        }
        return;
    }
    if (!strcmp(r->key, "xruns")) {
        char e[32], a[32], b[32];
        fmt_num(e, sizeof(e), doc_num(col, "xruns"), 0);
        fmt_num(a, sizeof(a), doc_num(col, "xruns_reported"), 0);
        fmt_num(b, sizeof(b), doc_num(col, "xruns_detected"), 0);
        snprintf(buf, len, "%s (%s/%s)", e, a, b);
    } else if (!strcmp(r->key, "deadlines_met_pct")) {
        pct_met(buf, len, doc_num(col, r->key));
    } else {
        fmt_num(buf, len, doc_num(col, r->key), 0);
    }
}

static json_t *build_rows(const json_t *columns)
{
    json_t *rows = json_array();
    char buf[128];
    for (size_t r = 0; r < sizeof(row_defs) / sizeof(row_defs[0]); r++) {
        json_t *cells = json_array();
        size_t i;
        const json_t *c;
        json_array_foreach(columns, i, c) {
            cell_text(c, &row_defs[r], buf, sizeof(buf));
            json_array_append_new(cells, json_string(buf));
        }
        json_array_append_new(rows, json_pack("{s:s, s:o, s:b}", "label", row_defs[r].label, "cells", cells,
                                              "detail", row_defs[r].detail));
    }
    /* Throughput: one row per load metric name met in any column, in order of appearance. */
    json_t *names = json_object();
    size_t i;
    const json_t *c;
    json_array_foreach(columns, i, c) {
        size_t j;
        const json_t *t;
        json_array_foreach(json_object_get(c, "throughput"), j, t) {
            char label[160];
            snprintf(label, sizeof(label), "%.80s (%.40s)", doc_str(t, "name", NULL), doc_str(t, "unit", NULL));
            utf8_trim(label);
            if (json_object_size(names) < 64 && !json_object_get(names, label))
                json_object_set_new(names, label, json_string(doc_str(t, "name", NULL)));
        }
    }
    const char *label;
    const json_t *name;
    json_object_foreach(names, label, name) {
        json_t *cells = json_array();
        json_array_foreach(columns, i, c) {
            const char *s = "-";
            if (json_is_null(c))
                s = "(not run)";
            size_t j;
            const json_t *t;
            json_array_foreach(json_object_get(c, "throughput"), j, t)
                if (!strcmp(doc_str(t, "name", NULL), json_string_value(name))) {
                    num_human(buf, sizeof(buf), doc_num(t, "value")); /* 1323, 961 k: numbers for people */
                    s = buf;
                    break;
                }
            json_array_append_new(cells, json_string(s));
        }
        json_array_append_new(rows, json_pack("{s:s, s:o, s:b}", "label", label, "cells", cells, "detail", 0));
    }
    json_decref(names);
    return rows;
}


/* ---- the document ---- */

static void title_of(const json_t *doc, size_t i, char *buf, size_t len)
{
    const char *rel = doc_str(json_object_get(json_object_get(doc, "system"), "kernel"), "release", NULL);
    const char *label = doc_str(doc, "label", NULL);
    snprintf(buf, len, "%.100s%s%.60s%s", rel ? rel : "unknown kernel", label ? " (" : "", label ? label : "",
             label ? ")" : "");
    utf8_trim(buf);
    (void)i;
}

static void flat_one(const char *key, const char *value, void *arg)
{
    if (!identity_noise(key) && json_object_size(arg) < 2000)
        json_object_set_new(arg, key, json_string(value));
}

/* What makes two reports of one set-up (compare_same_setup()), as one object: equal objects, one set-up. */
static json_t *setup_json(const json_t *doc)
{
    json_t *o = json_object(), *sys = json_object(), *au = json_object();
    flatten_json(json_object_get(doc, "system"), "", 0, flat_one, sys);
    /* what the user set for the run: a private server's name changes from run to run and is left out */
    static const char *const keys[] = { "backend", "provider", "rate", "period_frames", "nperiods", "device", "driver",
                                        "wakeup_method", "interval_us", "cpus", "realtime", "sched_policy",
                                        "priority_requested", "dsp_pct" };
    const json_t *x = json_object_get(doc, "audio");
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const json_t *u = json_object_get(x, keys[i]);
        if (u)
            json_object_set_new(au, keys[i], json_deep_copy(u));
    }
    json_object_set_new(o, "system", sys);
    json_object_set_new(o, "audio", au);
    /* the timer backend's threads: their number was chosen, their figures were measured */
    json_object_set_new(o, "threads", json_integer((json_int_t)json_array_size(json_object_get(x, "threads"))));
    const json_t *la = json_object_get(doc, "label");
    if (la)
        json_object_set_new(o, "label", json_deep_copy(la));
    return o;
}

int compare_same_setup(const json_t *doc, const json_t *rep)
{
    json_t *a = setup_json(doc), *b = setup_json(rep);
    int same = json_equal(a, b);
    json_decref(a);
    json_decref(b);
    return same;
}

/* A run's setting in words for a warning: "at 64 frames / 48000 Hz", or, for a run with no frames (an imported
 * cyclictest run), "at a 0.500 ms interval"; never a number that is not in the report. */
static void setting_words(const json_t *au, char *b, size_t n)
{
    double r = doc_num(au, "rate"), p = doc_num(au, "period_frames"), us = doc_num(au, "period_us");
    if (!isnan(r) && !isnan(p))
        snprintf(b, n, "at %.0f frames / %.0f Hz", p, r);
    else if (!isnan(us))
        snprintf(b, n, "at a %.3f ms interval", us / 1000.0);
    else
        snprintf(b, n, "at an unknown setting");
}

json_t *compare_identity(const json_t *doc)
{
    char key[1024];
    if (compare_setup_key(doc, key, sizeof(key)) < 0)
        key[sizeof(key) - 1] = '\0'; /* cut: still the same for one set-up */
    const json_t *la = json_object_get(doc, "label");
    return json_pack("{s:o, s:s, s:s, s:o}", "setup", setup_json(doc), "key", key, "host",
                     doc_str(json_object_get(doc, "system"), "hostname", "?"), "label",
                     json_is_string(la) ? json_deep_copy(la) : json_null());
}

int compare_identity_same_setup(const json_t *a, const json_t *b)
{
    return json_equal(json_object_get(a, "setup"), json_object_get(b, "setup"));
}

json_t *compare_build(json_t *const *docs, const char *const *names, size_t n)
{
    return compare_build_runs(docs, names, NULL, NULL, n);
}

static json_t *build(json_t *const *docs, const char *const *names, const char *const *ids,
                     const json_t *const *reps, const char *const *given, size_t n);

json_t *compare_build_runs(json_t *const *docs, const char *const *names, const char *const *ids,
                           const json_t *const *reps, size_t n)
{
    return build(docs, names, ids, reps, NULL, n);
}

json_t *compare_build_titled(json_t *const *docs, const char *const *names, const char *const *titles, size_t n)
{
    return build(docs, names, NULL, NULL, titles, n);
}

static json_t *build(json_t *const *docs, const char *const *names, const char *const *ids,
                     const json_t *const *reps, const char *const *given, size_t n)
{
    if (n == 0)
        return NULL; /* the baseline is docs[0]: there must be one */
    json_t *cmp = doc_begin(COMPARE_SCHEMA, 0);
    json_t *reports = json_array(), *warnings = json_array();
    if (!cmp || !reports || !warnings)
        goto fail;
    char titles[64][200];
    if (n > 64)
        n = 64; /* more columns than this cannot be read side by side anyway */
    /* Titles: kernel release and label. Reports that would share one (the same kernel, no label or the same)
     * are all told apart by their start time, and by their number when even that is the same. */
    for (size_t i = 0; i < n; i++) {
        if (given && given[i]) /* the caller's (a ladder's depths): a start time would not tell them apart better */
            snprintf(titles[i], sizeof(titles[i]), "%.190s", given[i]);
        else
            title_of(docs[i], i, titles[i], sizeof(titles[i]));
    }
    int clash[64] = { 0 };
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            clash[i] |= j != i && !strcmp(titles[i], titles[j]);
    for (size_t i = 0; i < n; i++)
        if (clash[i]) {
            size_t l = strlen(titles[i]);
            const char *st = doc_str(docs[i], "started", NULL);
            char when[40] = "";
            if (st && strlen(st) >= 19) /* 2026-01-05T10:00:00Z: shown as "2026-01-05 10:00:00" */
                snprintf(when, sizeof(when), "%.10s %.8s", st, st + 11);
            snprintf(titles[i] + l, sizeof(titles[i]) - l, " %s", when[0] ? when : "(no start time)");
            utf8_trim(titles[i]);
        }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(titles[i], titles[j])) {
                size_t l = strlen(titles[i]);
                snprintf(titles[i] + l, sizeof(titles[i]) - l, " #%zu", i + 1);
                break;
            }
    for (size_t i = 0; i < n; i++) {
        const json_t *au = json_object_get(docs[i], "audio");
        const char *be = doc_str(au, "backend", NULL), *pv = doc_str(au, "provider", NULL);
        /* A file name is bytes, not necessarily UTF-8: what is not becomes U+FFFD. */
        const char *name = names && names[i] ? names[i] : "";
        char file[1024];
        snprintf(file, sizeof(file), "%.*s", utf8_prefix(name, sizeof(file) - 1), name);
        /* the other runs of its set-up found beside it: the verdicts' run-to-run noise */
        json_t *others = json_array();
        size_t j;
        const json_t *rj;
        json_array_foreach(reps ? reps[i] : NULL, j, rj) {
            const char *rn = doc_str(rj, "file", "");
            char rfile[1024];
            snprintf(rfile, sizeof(rfile), "%.*s", utf8_prefix(rn, sizeof(rfile) - 1), rn);
            json_array_append_new(others, utf8_json_string(rfile));
        }
        json_t *r = json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
            "file", utf8_json_string(file), "title", titles[i],
            "release", json_incref(json_object_get(json_object_get(json_object_get(docs[i], "system"), "kernel"),
                                                   "release") ?: json_null()),
            "label", json_incref(json_object_get(docs[i], "label") ?: json_null()),
            "started", json_incref(json_object_get(docs[i], "started") ?: json_null()),
            "backend", be ? json_string(be) : json_null(), "provider", pv ? json_string(pv) : json_null(),
            "rate", doc_number_json(doc_num(au, "rate")),
            "period_frames", doc_number_json(doc_num(au, "period_frames")),
            "period_us", doc_number_json(doc_num(au, "period_us")),
            "complete", json_is_true(json_object_get(docs[i], "complete")),
            "replicates", others);
        /* A report missing from the document would be compared silently with one report fewer. */
        if (json_array_append_new(reports, r) < 0)
            goto fail;
    }
    json_object_set_new(cmp, "reports", reports);
    if (n < 2)
        json_array_append_new(warnings, json_string("only one report: nothing to compare it with"));
    /* Settings that make two runs measure different things. */
    const json_t *a0 = json_object_get(docs[0], "audio");
    char w[1024];
    for (size_t i = 0; i < n; i++) {
        const json_t *au = json_object_get(docs[i], "audio");
        if (i > 0) {
            double r0 = doc_num(a0, "rate"), r = doc_num(au, "rate"), p0 = doc_num(a0, "period_frames"),
                   p = doc_num(au, "period_frames");
            const char *b0 = doc_str(a0, "backend", NULL), *b = doc_str(au, "backend", NULL);
            const char *v0 = doc_str(a0, "provider", NULL), *v = doc_str(au, "provider", NULL);
            int differ = (!isnan(r0) && !isnan(r) && r0 != r) || (!isnan(p0) && !isnan(p) && p0 != p) ||
                         (b0 && b && strcmp(b0, b)) || (v0 && v && strcmp(v0, v));
            if (differ) {
                char s0[80], s1[80];
                setting_words(a0, s0, sizeof(s0));
                setting_words(au, s1, sizeof(s1));
                snprintf(w, sizeof(w), "%.200s ran %s on %.40s %.40s, the baseline %.200s %s on %.40s %.40s: the "
                         "figures are not measured under the same setting", titles[i], s1, b ? b : "?", v ? v : "",
                         titles[0], s0, b0 ? b0 : "?", v0 ? v0 : "");
                utf8_trim(w);
                json_array_append_new(warnings, json_string(w));
            }
        }
        if (!json_is_true(json_object_get(docs[i], "complete"))) {
            const char *why = doc_str(docs[i], "incomplete_reason", NULL);
            snprintf(w, sizeof(w), "%.200s is an incomplete run (%.200s): its figures cover only the part that ran",
                     titles[i], why ? why : "interrupted");
            utf8_trim(w);
            json_array_append_new(warnings, json_string(w));
        }
    }
    /* What differs in the system identity, key by key, whatever keys exist. */
    struct flat_ctx fc = { json_object(), 0, n };
    for (size_t i = 0; i < n; i++) {
        fc.idx = i;
        const json_t *sys = json_object_get(docs[i], "system");
        if (json_is_object(sys))
            flatten_json(sys, "", 0, flat_collect, &fc);
    }
    json_t *diff = json_array();
    const char *key;
    json_t *vals;
    json_object_foreach(fc.map, key, vals) {
        int same = 1;
        for (size_t i = 1; i < n; i++)
            same &= json_equal(json_array_get(vals, 0), json_array_get(vals, i));
        if (!same)
            json_array_append_new(diff, json_pack("{s:s, s:O}", "key", key, "values", vals));
    }
    json_decref(fc.map);
    json_object_set_new(cmp, "system_diff", diff);

    /* Loads: every phase key met in any report, in order of first appearance. */
    json_t *keys = json_array();
    for (size_t i = 0; i < n; i++) {
        size_t j;
        const json_t *p;
        json_array_foreach(json_object_get(docs[i], "phases"), j, p) {
            char k[PHASE_NAME_LEN];
            phase_display_name(p, k, sizeof(k));
            int seen = 0;
            size_t x;
            const json_t *e;
            json_array_foreach(keys, x, e)
                seen |= !strcmp(json_string_value(e), k);
            if (!seen && json_array_size(keys) < 256)
                json_array_append_new(keys, json_string(k));
        }
    }
    json_t *loads = json_array();
    struct tally tallies[64] = { { 0 } };
    static double rows[128][RUN_VALUES]; /* not re-entrant: compare is one thread */
    /* the run-level p of every measure of every load, adjusted together per report (compare_runs.h) */
    size_t nkeys = json_array_size(keys);
    int fam[64] = { 0 };
    double *pfam = compare_family_p(docs, ids, reps, n, keys, fam);
    size_t li;
    const json_t *kv;
    json_array_foreach(keys, li, kv) {
        const char *k = json_string_value(kv);
        json_t *columns = json_array(), *verdicts = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(columns, column(compare_find_phase(docs[i], k)));
        const json_t *pa = compare_find_phase(docs[0], k);
        for (size_t i = 1; i < n && pa; i++) {
            const json_t *pb = compare_find_phase(docs[i], k);
            if (pb) {
                struct run_groups g;
                compare_gather_runs(docs, ids, reps, i, k, rows, &g);
                g.p_family = pfam ? pfam + (i * nkeys + li) * RUN_VALUES : NULL;
                g.family = fam[i];
                compare_load_verdicts(pa, pb, &g, i, verdicts, &tallies[i]);
            }
        }
        json_array_append_new(loads, json_pack("{s:s, s:o, s:o, s:o}", "load", k, "columns", columns, "rows",
                                               build_rows(columns), "verdicts", verdicts));
    }
    json_decref(keys);
    free(pfam);
    json_object_set_new(cmp, "loads", loads);

    /* Plain words first: one sentence per report against the baseline. A difference of the two runs alone (worse or
     * better in this pair) is said first when there is one, and counted apart: it is not a call on the set-ups, and
     * it is not "no clear difference" either. */
    json_t *summary = json_array();
    for (size_t i = 1; i < n; i++) {
        /* the measures of each outcome, in the words of the tables and verdict lines (|jitter|), at most 6 named */
        static const char *const onames[4] = { "worse", "better", "worse_in_pair", "better_in_pair" };
        json_t *named[4];
        for (int L = 0; L < 4; L++)
            named[L] = json_array();
        json_array_foreach(loads, li, kv) {
            size_t j;
            const json_t *v;
            json_array_foreach(json_object_get(kv, "verdicts"), j, v) {
                if ((size_t)json_integer_value(json_object_get(v, "report")) != i)
                    continue;
                const char *o = doc_str(v, "outcome", "");
                char s[200];
                const char *metric = doc_str(v, "metric", "");
                int jit = !strncmp(metric, "jitter", 6);
                snprintf(s, sizeof(s), "%s%s under %s", jit ? "|jitter|" : "", jit ? metric + 6 : metric,
                         doc_str(kv, "load", NULL));
                utf8_trim(s);
                for (int L = 0; L < 4; L++)
                    if (!strcmp(o, onames[L]) && json_array_size(named[L]) < 6)
                        json_array_append_new(named[L], json_string(s));
            }
        }
        char line[3072];
        size_t off = 0;
#define SAY(...)                                                                                                       \
    do {                                                                                                               \
        if (off < sizeof(line)) {                                                                                      \
            int k_ = snprintf(line + off, sizeof(line) - off, __VA_ARGS__);                                            \
            off = k_ < 0 ? sizeof(line) : off + (size_t)k_;                                                            \
        }                                                                                                              \
    } while (0)
        const struct tally *ty = &tallies[i];
        SAY("%s against %s: ", titles[i], titles[0]);
        if (ty->worse_pair || ty->better_pair) {
            if (ty->worse_pair)
                SAY("worse in %d measure%s in this pair", ty->worse_pair, ty->worse_pair == 1 ? "" : "s");
            if (ty->better_pair)
                SAY("%sbetter in %d measure%s in this pair", ty->worse_pair ? ", " : "", ty->better_pair,
                    ty->better_pair == 1 ? "" : "s");
            SAY(", not yet confirmed across runs: run each set-up twice more, into one directory, and compare again.");
            for (int L = 2; L < 4; L++) {
                size_t j;
                const json_t *s;
                json_array_foreach(named[L], j, s)
                    SAY("%s%s", j ? ", " : L == 2 ? " Worse in this pair: " : " Better in this pair: ",
                        json_string_value(s));
                if (json_array_size(named[L]))
                    SAY(".");
            }
            SAY(" Across runs: ");
        }
        SAY("better in %d measure%s, worse in %d, no clear difference in %d", ty->better, ty->better == 1 ? "" : "s",
            ty->worse, ty->same);
        if (ty->na)
            SAY(", not compared in %d (too few seconds, or no count per second)", ty->na);
        SAY(".");
        for (int L = 0; L < 2; L++) {
            size_t j;
            const json_t *s;
            json_array_foreach(named[L], j, s)
                SAY("%s%s", j ? ", " : L == 0 ? " Worse: " : " Better: ", json_string_value(s));
            if (json_array_size(named[L]))
                SAY(".");
        }
        if (!ty->better && !ty->worse && !ty->worse_pair && !ty->better_pair)
            SAY(" Nothing here is beyond run-to-run noise.");
#undef SAY
        utf8_trim(line);
        json_array_append_new(summary, json_string(line));
        for (int L = 0; L < 4; L++)
            json_decref(named[L]);
    }
    json_object_set_new(cmp, "summary", summary);
    json_object_set_new(cmp, "warnings", warnings);
    json_object_set_new(cmp, "method", json_string(
        "Units: the seconds of each phase's timeline, not its cycles (latency comes in bursts: cycles are not "
        "independent, seconds nearly are), and the runs of each set-up (a whole run can land in a better or worse "
        "state of the machine and stay there). Wake-up and |jitter| p99 and maximum of each second: Mann-Whitney rank "
        "test of the two runs' seconds (exact below 26 seconds a side without ties) and the Hodges-Lehmann shift "
        "(the median of every difference between a second of one run and one of the other); the two runs differ "
        "when p < 0.01, the shift is at least 10 % of the baseline's median second and 5 µs, and it holds between "
        "every half of one run and every half of the other (each half-shift clears that floor and half the shift: "
        "a burst of the machine's other work in one run is not a difference of set-ups). Xrun events and missed "
        "deadlines: their counts per second, by a permutation test of the seconds' ranks (exact up to 60 seconds, "
        "else seeded random splits, up to 20000, stopped at the 100th as far as the runs seen; events come in bursts, "
        "and a second is one unit however many it holds), "
        "p < 0.01, at least twice the rate, half against half too. Then across runs: the other runs of each set-up "
        "found beside the reports (same machine identity, kernel, audio settings and label) each give one value per "
        "measure (the median of its seconds; for counts, its events per second); a t-test on their logarithms, with "
        "the run-to-run variance pooled over the runs of each set-up, must find the same difference at p < 0.01 "
        "(when both reports are of one set-up, its other runs give the noise only). With no other run (or too few), "
        "a difference of the two runs is \"worse in this pair\" or \"better in this pair\": said first, counted "
        "apart, not a call on the set-ups; a per-second latency measure must then also have moved by a tenth of the "
        "period in every half of either run. The whole-run percentiles and maxima in the table are shown, never "
        "decided. A verdict says the set-ups' runs differ, not why: whatever else the machine did during them is "
        "part of it."));
    return cmp;
fail:
    json_decref(cmp);
    json_decref(reports);
    json_decref(warnings);
    return NULL;
}
