/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel x machine table of a fleet's reports (see compare.h): for each pair, the latest report's headline
 * figures, from the same accessors every table uses (phasefig_xruns(): xrun events). */
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

static json_t *cell_of(const char *path, const json_t *doc, const char *rel, size_t mi)
{
    double p99 = NAN, met = NAN, xr = 0;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        double w = doc_num(json_object_get(p, "wakeup_us"), "p99"), m = doc_num(p, "deadlines_met_pct");
        double x = phasefig_xruns(p);
        if (!isnan(w) && (isnan(p99) || w > p99))
            p99 = w;
        if (!isnan(m) && (isnan(met) || m < met))
            met = m;
        if (!isnan(x))
            xr += x;
    }
    return json_pack("{s:o, s:I, s:o, s:o, s:i, s:o, s:f, s:o, s:o}", "kernel", utf8_json_string(rel), "machine",
                     (json_int_t)mi, "report", utf8_json_string(path), "started",
                     utf8_json_string(doc_str(doc, "started", "")), "runs", 1, "worst_wakeup_p99_us",
                     doc_number_json(p99), "xrun_events", xr, "deadlines_met_pct", doc_number_json(met), "verdict",
                     utf8_json_string(doc_str(json_object_get(doc, "verdict"), "level", "-")));
}

json_t *compare_matrix_build(const char *const *paths, json_t *const *docs, size_t n)
{
    json_t *m = doc_begin(MATRIX_SCHEMA, 1);
    json_t *kernels = json_array(), *machines = json_array(), *ids = json_array(), *cells = json_array();
    if (!m || !kernels || !machines || !ids || !cells) {
        json_decref(m);
        json_decref(kernels);
        json_decref(machines);
        json_decref(ids);
        json_decref(cells);
        return NULL;
    }
    /* docs are oldest first: a later report of a pair replaces the earlier one in its cell, and counts. */
    for (size_t r = 0; r < n; r++) {
        const json_t *sys = json_object_get(docs[r], "system");
        const char *host = doc_str(sys, "hostname", "?"), *cpu = doc_str(json_object_get(sys, "cpu"), "model", "?");
        const char *rel = doc_str(json_object_get(sys, "kernel"), "release", "?");
        char id[600];
        snprintf(id, sizeof(id), "%.255s | %.255s", host, cpu);
        utf8_trim(id);
        size_t before = json_array_size(ids), mi = index_of(ids, id);
        if (json_array_size(ids) > before)
            json_array_append_new(machines, json_pack("{s:o, s:o, s:o}", "id", utf8_json_string(id), "hostname",
                                                      utf8_json_string(host), "cpu", utf8_json_string(cpu)));
        index_of(kernels, rel);
        json_t *c = cell_of(paths[r], docs[r], rel, mi);
        size_t i;
        json_t *old;
        int runs = 1;
        json_array_foreach(cells, i, old)
            if (json_integer_value(json_object_get(old, "machine")) == (json_int_t)mi &&
                !strcmp(doc_str(old, "kernel", ""), rel)) {
                runs += (int)json_integer_value(json_object_get(old, "runs"));
                json_array_remove(cells, i);
                break;
            }
        json_object_set_new(c, "runs", json_integer(runs));
        json_array_append_new(cells, c);
    }
    json_decref(ids);
    json_object_set_new(m, "kernels", kernels);
    json_object_set_new(m, "machines", machines);
    json_object_set_new(m, "cells", cells);
    return m;
}
