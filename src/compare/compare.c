/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the comparison document of `rtjitter compare`: one column per report, what differs in the system
 * identity, the settings that make runs measure different things, the table and verdicts of each load, and a
 * sentence per report. The renderers (render/compare_text.c, render/html_compare.c) only print it. Its parts: the
 * set-up identity (compare_setup.c), the load tables (compare_table.c), the verdicts (compare_verdict.c, on
 * compare_runs.c's runs) and the sentences (compare_summary.c). */
#include "compare/compare.h"
#include "compare/compare_answer.h"
#include "compare/compare_culprits.h"
#include "compare/compare_runs.h"
#include "compare/compare_setup.h"
#include "compare/compare_summary.h"
#include "compare/compare_table.h"
#include "compare/compare_verdict.h"
#include "report/access.h"
#include "report/doc.h"
#include "report/phase_figures.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More columns than this cannot be read side by side anyway. */
#define MAX_REPORTS 64
#define TITLE_LEN 200

static void title_of(const json_t *doc, size_t i, char *buf, size_t len)
{
    const char *rel = doc_str(json_object_get(json_object_get(doc, "system"), "kernel"), "release", NULL);
    const char *label = doc_str(doc, "label", NULL);
    snprintf(buf, len, "%.100s%s%.60s%s", rel ? rel : "unknown kernel", label ? " (" : "", label ? label : "",
             label ? ")" : "");
    utf8_trim(buf);
    (void)i;
}

/* Titles: kernel release and label, or the caller's (given[i]). Reports that would share one (the same kernel, no
 * label or the same) are all told apart by their start time, and by their number when even that is the same. */
static void make_titles(json_t *const *docs, const char *const *given, size_t n, char (*titles)[TITLE_LEN])
{
    for (size_t i = 0; i < n; i++) {
        if (given && given[i]) /* the caller's (a ladder's depths): a start time would not tell them apart better */
            snprintf(titles[i], sizeof(titles[i]), "%.190s", given[i]);
        else
            title_of(docs[i], i, titles[i], sizeof(titles[i]));
    }
    int clash[MAX_REPORTS] = { 0 };
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
}

/* A report's entry in "reports": where it came from (name), its title, what it ran, and the other runs of its set-up
 * found beside it (rep, or NULL). NULL when out of memory. */
static json_t *report_entry(const json_t *doc, const char *name, const char *title, const json_t *rep)
{
    const json_t *au = json_object_get(doc, "audio");
    const char *be = doc_str(au, "backend", NULL), *pv = doc_str(au, "provider", NULL);
    /* A file name is bytes, not necessarily UTF-8: what is not becomes U+FFFD. */
    char file[1024];
    snprintf(file, sizeof(file), "%.*s", utf8_prefix(name, sizeof(file) - 1), name);
    /* the other runs of its set-up found beside it: the verdicts' run-to-run noise */
    json_t *others = json_array();
    size_t j;
    const json_t *rj;
    json_array_foreach(rep, j, rj) {
        const char *rn = doc_str(rj, "file", "");
        char rfile[1024];
        snprintf(rfile, sizeof(rfile), "%.*s", utf8_prefix(rn, sizeof(rfile) - 1), rn);
        json_array_append_new(others, utf8_json_string(rfile));
    }
    return json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
        "file", utf8_json_string(file), "title", title,
        "release", json_incref(json_object_get(json_object_get(json_object_get(doc, "system"), "kernel"),
                                               "release") ?: json_null()),
        "label", json_incref(json_object_get(doc, "label") ?: json_null()),
        "started", json_incref(json_object_get(doc, "started") ?: json_null()),
        "backend", be ? json_string(be) : json_null(), "provider", pv ? json_string(pv) : json_null(),
        "rate", doc_number_json(doc_num(au, "rate")),
        "period_frames", doc_number_json(doc_num(au, "period_frames")),
        "period_us", doc_number_json(doc_num(au, "period_us")),
        "complete", json_is_true(json_object_get(doc, "complete")),
        "replicates", others);
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

/* Settings that make two runs measure different things, and incomplete runs: appended to warnings. */
static void setting_warnings(json_t *const *docs, const char (*titles)[TITLE_LEN], size_t n, json_t *warnings)
{
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
            /* a change of buffer size alone (the same backend, provider and rate) is what a musician tries: its
             * dropouts are counted as they are, and its lateness weighed as a share of each run's own period */
            int period_only = differ && !isnan(p0) && !isnan(p) && p0 != p && !(!isnan(r0) && !isnan(r) && r0 != r) &&
                              !(b0 && b && strcmp(b0, b)) && !(v0 && v && strcmp(v0, v));
            if (period_only) {
                snprintf(w, sizeof(w), "[%zu] ran at %.0f frames, the baseline at %.0f: a change of buffer size; "
                         "lateness is weighed as a share of each run's own period", i + 1, p, p0);
                json_array_append_new(warnings, json_string(w));
            } else if (differ) {
                char s0[80], s1[80];
                setting_words(a0, s0, sizeof(s0));
                setting_words(au, s1, sizeof(s1));
                /* the provider after the backend unless it only repeats it ("timer timer") */
                const char *pv = v && (!b || strcmp(v, b)) ? v : "", *pv0 = v0 && (!b0 || strcmp(v0, b0)) ? v0 : "";
                snprintf(w, sizeof(w), "%.200s ran %s on %.40s%s%.40s, the baseline %.200s %s on %.40s%s%.40s: the "
                         "figures are not measured under the same setting", titles[i], s1, b ? b : "?", *pv ? " " : "",
                         pv, titles[0], s0, b0 ? b0 : "?", *pv0 ? " " : "", pv0);
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
}

/* Loads: every phase key met in any report, in order of first appearance (at most 256). */
static json_t *load_keys(json_t *const *docs, size_t n)
{
    json_t *keys = json_array();
    for (size_t i = 0; i < n; i++) {
        size_t j;
        const json_t *p;
        json_array_foreach(json_object_get(docs[i], "phases"), j, p) {
            char k[PHASE_NAME_LEN];
            doc_phase_name(p, k, sizeof(k));
            int seen = 0;
            size_t x;
            const json_t *e;
            json_array_foreach(keys, x, e)
                seen |= !strcmp(json_string_value(e), k);
            if (!seen && json_array_size(keys) < 256)
                json_array_append_new(keys, json_string(k));
        }
    }
    return keys;
}

/* The table and verdicts of every load, each report counted into tallies[i]. The verdicts weigh the run-level p of
 * every measure of every load, adjusted per report in two families, the dropouts and the lateness (compare_runs.h). */
static json_t *loads_json(json_t *const *docs, const char *const *ids, const json_t *const *reps, size_t n,
                          struct tally *tallies)
{
    json_t *keys = load_keys(docs, n);
    json_t *loads = json_array();
    static double rows[128][RUN_VALUES]; /* not re-entrant: compare is one thread */
    size_t nkeys = json_array_size(keys);
    int fam[2 * MAX_REPORTS] = { 0 };
    double *pfam = compare_family_p(docs, ids, reps, n, keys, fam);
    size_t li;
    const json_t *kv;
    json_array_foreach(keys, li, kv) {
        const char *k = json_string_value(kv);
        json_t *columns = json_array(), *verdicts = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(columns, compare_column(phasefig_find(docs[i], k)));
        const json_t *pa = phasefig_find(docs[0], k);
        for (size_t i = 1; i < n && pa; i++) {
            const json_t *pb = phasefig_find(docs[i], k);
            if (pb) {
                struct run_groups g;
                compare_gather_runs(docs, ids, reps, i, k, rows, &g);
                g.p_family = pfam ? pfam + (i * nkeys + li) * RUN_VALUES : NULL;
                g.family = fam[2 * i];
                g.family_drops = fam[2 * i + 1];
                compare_load_verdicts(pa, pb, &g, i, verdicts, &tallies[i]);
            }
        }
        json_t *lo = json_pack("{s:s, s:o, s:o, s:o}", "load", k, "columns", columns, "rows",
                               compare_rows(columns), "verdicts", verdicts);
        /* Culprits that came or went: only when a run names any, so that a load without them reads as before. */
        json_t *cu = compare_culprits(docs, n, k);
        if (cu && lo)
            json_object_set_new(lo, "culprits", cu);
        else
            json_decref(cu);
        json_array_append_new(loads, lo);
    }
    json_decref(keys);
    free(pfam);
    return loads;
}

/* How the verdicts are reached, in words: the document's "method". */
static const char method_text[] =
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
    "(Holm-adjusted over the comparison's measures in two families: the dropouts of every load, on which the "
    "answer rests, and the lateness of every load; when both reports are of one set-up, its other runs give the "
    "noise only). When the periods differ, lateness is weighed as a share of each run's own period: a longer "
    "period allows more microseconds, and that is not worse. With no other run (or too few), "
    "a difference of the two runs is \"worse in this pair\" or \"better in this pair\": said first, counted "
    "apart, not a call on the set-ups; a per-second latency measure must then also have moved by a tenth of the "
    "period in every half of either run. The whole-run percentiles and maxima in the table are shown, never "
    "decided. A verdict says the set-ups' runs differ, not why: whatever else the machine did during them is "
    "part of it.";

static json_t *build(json_t *const *docs, const char *const *names, const char *const *ids,
                     const json_t *const *reps, const char *const *given, size_t n)
{
    if (n == 0)
        return NULL; /* the baseline is docs[0]: there must be one */
    json_t *cmp = doc_begin(COMPARE_SCHEMA, 0);
    json_t *reports = json_array(), *warnings = json_array();
    if (!cmp || !reports || !warnings)
        goto fail;
    if (n > MAX_REPORTS)
        n = MAX_REPORTS;
    char titles[MAX_REPORTS][TITLE_LEN];
    const char *tp[MAX_REPORTS];
    make_titles(docs, given, n, titles);
    for (size_t i = 0; i < n; i++) {
        tp[i] = titles[i];
        json_t *r = report_entry(docs[i], names && names[i] ? names[i] : "", titles[i], reps ? reps[i] : NULL);
        /* A report missing from the document would be compared silently with one report fewer. */
        if (json_array_append_new(reports, r) < 0)
            goto fail;
    }
    json_object_set_new(cmp, "reports", reports);
    if (n < 2)
        json_array_append_new(warnings, json_string("only one report: nothing to compare it with"));
    setting_warnings(docs, (const char (*)[TITLE_LEN])titles, n, warnings);
    json_object_set_new(cmp, "system_diff", compare_system_diff(docs, n));
    struct tally tallies[MAX_REPORTS] = { { 0 } };
    json_t *loads = loads_json(docs, ids, reps, n, tallies);
    json_object_set_new(cmp, "loads", loads);
    /* Plain words first: the answer of each report against the baseline (dropouts first), then its sentence of
     * measures, which starts with that answer (a page or a reader of "summary" alone sees the answer first). */
    json_t *answers = compare_answers(reports, loads, n), *summary = compare_summary(loads, tallies, tp, n);
    size_t si;
    json_t *sv;
    json_array_foreach(summary, si, sv) {
        char line[4096];
        snprintf(line, sizeof(line), "%s Measure by measure, %s",
                 doc_str(json_array_get(answers, si), "text", ""), json_string_value(sv));
        utf8_trim(line);
        json_string_set(sv, line);
    }
    json_object_set_new(cmp, "answers", answers);
    json_object_set_new(cmp, "summary", summary);
    json_object_set_new(cmp, "warnings", warnings);
    json_object_set_new(cmp, "method", json_string(method_text));
    return cmp;
fail:
    json_decref(cmp);
    json_decref(reports);
    json_decref(warnings);
    return NULL;
}

json_t *compare_build_runs(json_t *const *docs, const char *const *names, const char *const *ids,
                           const json_t *const *reps, size_t n)
{
    return build(docs, names, ids, reps, NULL, n);
}

json_t *compare_build(json_t *const *docs, const char *const *names, size_t n)
{
    return compare_build_runs(docs, names, NULL, NULL, n);
}

json_t *compare_build_titled(json_t *const *docs, const char *const *names, const char *const *titles, size_t n)
{
    return build(docs, names, NULL, NULL, titles, n);
}
