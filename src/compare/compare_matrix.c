/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel x machine table of a fleet's reports (see compare.h): for each pair, the latest report's headline
 * figures, from the same accessors every table uses (phasefig_xruns(): xrun events), and over all the pair's runs
 * the smallest buffer size a run was safe at (no xrun event, no missed deadline, complete) and each load's
 * dropouts per hour (its xrun events over its measured hours). Linear in the reports and cells: 1,000 reports of a
 * fleet are a few thousand comparisons of short strings. */
#include "compare/compare.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include "report/doc.h"
#include "util/utf8.h"
#include <math.h>
#include <string.h>

/* Index of the string s in the array a (appending it when new). */
static size_t index_of(json_t *a, const char *s)
{
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v)
        if (!strcmp(json_string_value(v), s))
            return i;
    json_array_append_new(a, json_string(s));
    return json_array_size(a) - 1;
}

/* A report is safe at its buffer size when it completed and no phase had an xrun event or a missed deadline. */
static int report_safe(const json_t *doc)
{
    size_t i;
    const json_t *p;
    if (!json_is_true(json_object_get(doc, "complete")) || json_array_size(json_object_get(doc, "phases")) == 0)
        return 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        double x = phasefig_xruns(p), missed = doc_num(p, "deadlines_missed"), met = doc_num(p, "deadlines_met_pct");
        if (!(x == 0) || (!isnan(missed) && missed > 0) || (isnan(missed) && !(met >= 100)))
            return 0;
    }
    return 1;
}

static json_t *cell_of(const char *path, const json_t *doc, const char *rel, size_t mi)
{
    double p99 = NAN, wmax = NAN, met = NAN, xr = 0;
    size_t i;
    const json_t *p;
    /* per load: xrun events and measured seconds, summed over the pair's runs (compare_matrix_build) */
    json_t *loads = json_object();
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        double w = doc_num(json_object_get(p, "wakeup_us"), "p99"), m = doc_num(p, "deadlines_met_pct");
        double wm = doc_num(json_object_get(p, "wakeup_us"), "max");
        double x = phasefig_xruns(p), sec = doc_num(p, "measured_s");
        if (isnan(sec))
            sec = doc_num(p, "duration_s");
        if (!isnan(w) && (isnan(p99) || w > p99))
            p99 = w;
        if (!isnan(wm) && (isnan(wmax) || wm > wmax))
            wmax = wm;
        if (!isnan(m) && (isnan(met) || m < met))
            met = m;
        if (!isnan(x))
            xr += x;
        const char *load = doc_str(p, "load", "?");
        if (!isnan(x) && sec > 0) {
            json_t *l = json_object_get(loads, load);
            if (!l)
                json_object_set_new(loads, load, l = json_pack("{s:f, s:f}", "xrun_events", 0.0, "measured_s", 0.0));
            json_object_set_new(l, "xrun_events", json_real(doc_num(l, "xrun_events") + x));
            json_object_set_new(l, "measured_s", json_real(doc_num(l, "measured_s") + sec));
        }
    }
    const json_t *audio = json_object_get(doc, "audio"), *kern = json_object_get(json_object_get(doc, "system"),
                                                                                 "kernel");
    double frames = doc_num(audio, "period_frames");
    json_t *c = json_pack("{s:o, s:I, s:o, s:o, s:i, s:o, s:f, s:o, s:o}", "kernel", utf8_json_string(rel), "machine",
                          (json_int_t)mi, "report", utf8_json_string(path), "started",
                          utf8_json_string(doc_str(doc, "started", "")), "runs", 1, "worst_wakeup_p99_us",
                          doc_number_json(p99), "xrun_events", xr, "deadlines_met_pct", doc_number_json(met), "verdict",
                          utf8_json_string(doc_str(json_object_get(doc, "verdict"), "level", "-")));
    json_object_set_new(c, "worst_wakeup_max_us", doc_number_json(wmax));
    json_object_set_new(c, "period_frames", doc_number_json(frames));
    json_object_set_new(c, "rate", doc_number_json(doc_num(audio, "rate")));
    json_object_set_new(c, "backend", utf8_json_string(doc_str(audio, "backend", "?")));
    json_object_set_new(c, "preempt", utf8_json_string(doc_str(kern, "preempt", "?")));
    json_object_set_new(c, "loads", loads);
    json_object_set_new(c, "smallest_safe_period_frames",
                        report_safe(doc) && !isnan(frames) ? json_real(frames) : json_null());
    return c;
}

/* The pair's earlier runs into its latest cell c: their loads' events and seconds, their smallest safe size. */
static void carry(json_t *c, const json_t *old)
{
    const char *k;
    const json_t *ol;
    json_t *loads = json_object_get(c, "loads");
    json_object_foreach((json_t *)json_object_get(old, "loads"), k, ol) {
        json_t *l = json_object_get(loads, k);
        if (!l) {
            json_object_set_new(loads, k, json_deep_copy(ol));
            continue;
        }
        json_object_set_new(l, "xrun_events", json_real(doc_num(l, "xrun_events") + doc_num(ol, "xrun_events")));
        json_object_set_new(l, "measured_s", json_real(doc_num(l, "measured_s") + doc_num(ol, "measured_s")));
    }
    double a = doc_num(c, "smallest_safe_period_frames"), b = doc_num(old, "smallest_safe_period_frames");
    if (!isnan(b) && (isnan(a) || b < a))
        json_object_set_new(c, "smallest_safe_period_frames", json_real(b));
}

/* Each load's dropouts per hour over the pair's runs: xrun events / measured hours. */
static void rates(json_t *c)
{
    const char *k;
    json_t *l;
    json_object_foreach(json_object_get(c, "loads"), k, l) {
        double s = doc_num(l, "measured_s");
        json_object_set_new(l, "per_hour", s > 0 ? json_real(doc_num(l, "xrun_events") * 3600.0 / s) : json_null());
    }
}

/* The table so far: its kernels, machines (their ids apart) and cells. */
struct matrix_acc {
    json_t *kernels, *machines, *ids, *cells;
};

/* One report into the table (oldest first): a later report of a pair replaces the earlier one in its cell, and
 * counts. Only the cell's figures are kept, not the report: a fleet's 1,000 reports are read one at a time. */
static void matrix_add(struct matrix_acc *a, const char *path, const json_t *doc)
{
    const json_t *sys = json_object_get(doc, "system");
    const char *host = doc_str(sys, "hostname", "?"), *cpu = doc_str(json_object_get(sys, "cpu"), "model", "?");
    const char *rel = doc_str(json_object_get(sys, "kernel"), "release", "?");
    char id[600];
    snprintf(id, sizeof(id), "%.255s | %.255s", host, cpu);
    utf8_trim(id);
    size_t before = json_array_size(a->ids), mi = index_of(a->ids, id);
    if (json_array_size(a->ids) > before)
        json_array_append_new(a->machines, json_pack("{s:o, s:o, s:o}", "id", utf8_json_string(id), "hostname",
                                                     utf8_json_string(host), "cpu", utf8_json_string(cpu)));
    index_of(a->kernels, rel);
    json_t *c = cell_of(path, doc, rel, mi);
    size_t i;
    json_t *old;
    int runs = 1;
    json_array_foreach(a->cells, i, old)
        if (json_integer_value(json_object_get(old, "machine")) == (json_int_t)mi &&
            !strcmp(doc_str(old, "kernel", ""), rel)) {
            runs += (int)json_integer_value(json_object_get(old, "runs"));
            carry(c, old);
            json_array_remove(a->cells, i);
            break;
        }
    json_object_set_new(c, "runs", json_integer(runs));
    json_array_append_new(a->cells, c);
}

static json_t *matrix_make(const char *const *paths, json_t *const *docs, size_t n, compare_matrix_reader read,
                           void *arg)
{
    json_t *m = doc_begin(MATRIX_SCHEMA, 1);
    struct matrix_acc a = { json_array(), json_array(), json_array(), json_array() };
    if (!m || !a.kernels || !a.machines || !a.ids || !a.cells) {
        json_decref(m);
        json_decref(a.kernels);
        json_decref(a.machines);
        json_decref(a.ids);
        json_decref(a.cells);
        return NULL;
    }
    for (size_t r = 0; r < n; r++) {
        if (docs) {
            matrix_add(&a, paths[r], docs[r]);
            continue;
        }
        json_t *doc = read(paths[r], arg); /* NULL: the reader said why, the report is left out */
        if (doc)
            matrix_add(&a, paths[r], doc);
        json_decref(doc);
    }
    size_t ci;
    json_t *cc;
    json_array_foreach(a.cells, ci, cc)
        rates(cc);
    json_decref(a.ids);
    json_object_set_new(m, "kernels", a.kernels);
    json_object_set_new(m, "machines", a.machines);
    json_object_set_new(m, "cells", a.cells);
    return m;
}

json_t *compare_matrix_build(const char *const *paths, json_t *const *docs, size_t n)
{
    return matrix_make(paths, docs, n, NULL, NULL);
}

json_t *compare_matrix_read(const char *const *paths, size_t n, compare_matrix_reader read, void *arg)
{
    return matrix_make(paths, NULL, n, read, arg);
}
