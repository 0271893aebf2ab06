/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load tables of a comparison: columns, and rows formatted once for every renderer. See compare_table.h. */
#include "compare/compare_table.h"
#include "compare/compare_blocks.h"
#include "compare/compare_verdict.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include "util/numfmt.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A metric's figures in a column. Percentiles are the report's own through phasefig_quantile(): the values its
 * JSON, text, page and verdict show, so that a table row and a report name one number. For jitter they are of |jitter|
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
                     doc_number_json(phasefig_quantile(p, metric, fold, 0.99)), fold ? "abs_p999" : "p999",
                     doc_number_json(phasefig_quantile(p, metric, fold, 0.999)), fold ? "abs_max" : "max",
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

json_t *compare_column(const json_t *p)
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
    json_t *col = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "jitter", metric_column(p, "jitter"), "wakeup", metric_column(p, "wakeup"),
                     "seconds", seconds_column(p),
                     "cycles", doc_number_json(doc_num(p, "cycles")), "xruns", doc_number_json(phasefig_xruns(p)),
                     "xruns_reported", doc_number_json(doc_num(x, "reported")),
                     "xruns_detected", doc_number_json(doc_num(x, "detected")),
                     "deadlines_met_pct", doc_number_json(doc_num(p, "deadlines_met_pct")),
                     "deadlines_missed", doc_number_json(doc_num(p, "deadlines_missed")),
                     "throughput", tp, "load_error", utf8_json_string(doc_str(p, "load_error", NULL)),
                     "period_frames", doc_number_json(doc_num(p, "period_frames")));
    /* what the answer's table reads: the seconds measured (events per minute) and the period (lateness as a share) */
    if (col) {
        json_object_set_new(col, "measured_s", doc_number_json(blocks_measured_s(p)));
        json_object_set_new(col, "period_us", doc_number_json(phasefig_period_us(NULL, p)));
    }
    return col;
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

json_t *compare_rows(const json_t *columns)
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
