/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML page of a comparison: the verdict sentences and the reports, warnings, what differs in the system,
 * and per load the side-by-side table, every report's histograms overlaid, and the verdicts. */
#include "render/html.h"
#include "render/culprit_words.h"
#include "render/setting.h"
#include "render/svg.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include "report/rhist.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare_table(FILE *f, const json_t *load, const json_t *reports)
{
    fputs("<div class=\"wide\"><table>\n<tr><th class=\"k\"></th>", f);
    size_t i;
    const json_t *r;
    json_array_foreach(reports, i, r) {
        fprintf(f, "<th class=\"title\">[%zu] ", i + 1);
        html_escape(f, doc_str(r, "title", NULL));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    const json_t *row;
    json_array_foreach(json_object_get(load, "rows"), i, row) {
        fputs("<tr><td class=\"k\">", f);
        html_escape(f, doc_str(row, "label", NULL));
        fputs("</td>", f);
        size_t c;
        const json_t *cell;
        json_array_foreach(json_object_get(row, "cells"), c, cell) {
            fputs("<td>", f);
            html_escape(f, json_string_value(cell));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table></div>\n", f);
}

/* The axes of the whole page: every report's wakeup and |jitter| of every load, and every period. */
static void page_axes(json_t *const *docs, size_t n, struct page_axes *a)
{
    svg_axes_init(a);
    for (size_t i = 0; i < n; i++) {
        size_t j;
        const json_t *p;
        json_array_foreach(json_object_get(docs[i], "phases"), j, p) {
            for (int m = 0; m < 2; m++) {
                struct rhist h;
                if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), m ? "jitter" : "wakeup"), m,
                                    &h) == 0) {
                    svg_axes_add_hist(a, &h);
                    rhist_free(&h);
                }
            }
            svg_axes_add_period(a, phasefig_period_us(docs[i], p));
        }
    }
    svg_axes_finish(a, NULL, 0);
}

/* One exceedance plot of a load: a line per report that ran it. */
static void exceedance(FILE *f, const char *load, const char *metric, int fold, const char *what,
                       json_t *const *docs, const json_t *reports, size_t n, const struct page_axes *a)
{
    struct rhist *h = calloc(n ? n : 1, sizeof(*h));
    struct series *s = calloc(n ? n : 1, sizeof(*s));
    char (*names)[240] = calloc(n ? n : 1, sizeof(*names));
    double periods[16];
    size_t ns = 0, np = 0;
    if (!h || !s || !names)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const json_t *p = phasefig_find(docs[i], load);
        if (!p)
            continue;
        if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), metric), fold, &h[ns]) < 0)
            continue;
        snprintf(names[ns], sizeof(names[ns]), "[%zu] %.200s", i + 1,
                 doc_str(json_array_get(reports, i), "title", ""));
        /* Series keep the report's colour on every plot of the page, whichever reports ran this load. */
        s[ns] = (struct series){ names[ns], &h[ns], svg_palette[i % svg_palette_n] };
        ns++;
        double per = phasefig_period_us(docs[i], p);
        int seen = 0;
        for (size_t k = 0; k < np; k++)
            seen |= fabs(periods[k] - per) < 1e-6;
        if (!seen && per > 0 && np < sizeof(periods) / sizeof(periods[0]))
            periods[np++] = per;
    }
    char cap[256];
    snprintf(cap, sizeof(cap), "%s under %.*s: share of cycles later than x", what, utf8_prefix(load, 100), load);
    fputs("<figure>\n", f);
    svg_ccdf(f, cap, s, ns, a, periods, np);
    fputs("<figcaption><b>How to read this:</b> each line is one report. Its height at a point on the time axis is "
          "the share of cycles that came later than that; where a line crosses the dashed period line is the share "
          "of cycles a whole period late. Lower and further left is better. A line ends at its report's single "
          "worst cycle.</figcaption>\n</figure>\n", f);
out:
    for (size_t i = 0; h && i < ns; i++)
        rhist_free(&h[i]);
    free(h);
    free(s);
    free(names);
}

/* One row of a load's culprit changes: what changed, who, and its counts in the baseline and in the report (a
 * culprit absent from a run shows "-" there). */
static void culprit_row(FILE *f, const char *change, const char *cls, const json_t *c)
{
    fprintf(f, "<tr class=\"%s\"><td class=\"k %s\">%s</td><td class=\"k\"><b>", change, cls, change);
    html_escape(f, doc_str(c, "name", "?"));
    fputs("</b></td><td class=\"k\">", f);
    html_escape(f, culprit_kind_words(doc_str(c, "kind", NULL)));
    fputs("</td>", f);
    for (int k = 0; k < 2; k++) {
        const json_t *v = json_object_get(c, k ? "spikes" : "events");
        fputs("<td>", f);
        if (json_is_array(v))
            fprintf(f, "%lld → %lld", (long long)json_integer_value(json_array_get(v, 0)),
                    (long long)json_integer_value(json_array_get(v, 1)));
        else if (!strcmp(change, "came"))
            fprintf(f, "- → %lld", (long long)json_integer_value(v));
        else
            fprintf(f, "%lld → -", (long long)json_integer_value(v));
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
}

/* A load's culprits that came or went (loads[].culprits): per report against the baseline, a table. */
static void culprit_changes(FILE *f, const json_t *load, const json_t *reports)
{
    size_t i, j;
    const json_t *e, *c;
    json_array_foreach(json_object_get(load, "culprits"), i, e) {
        size_t ri = (size_t)json_integer_value(json_object_get(e, "report"));
        fprintf(f, "<h3 class=\"culprit-changes\">Culprits that came or went: [%zu] ", ri + 1);
        html_escape(f, doc_str(json_array_get(reports, ri), "title", NULL));
        fputs(" against the baseline [1]</h3>\n", f);
        const json_t *sought = json_object_get(e, "sought");
        int sa = json_is_true(json_array_get(sought, 0)), sb = json_is_true(json_array_get(sought, 1));
        if (!sa || !sb) {
            fprintf(f, "<p>[%zu] did not look for culprits: nothing can be said to have come or gone. [%zu] named: ",
                    sa ? ri + 1 : 1, sa ? (size_t)1 : ri + 1);
            json_array_foreach(json_object_get(e, "seen"), j, c) {
                char counts[96];
                culprit_counts_words(counts, sizeof(counts), json_integer_value(json_object_get(c, "events")),
                                     json_integer_value(json_object_get(c, "spikes")));
                fputs(j ? "; " : "", f);
                html_escape(f, doc_str(c, "name", "?"));
                fprintf(f, " (%s, %s)", culprit_kind_words(doc_str(c, "kind", NULL)), counts);
            }
            fputs(".</p>\n", f);
            continue;
        }
        fprintf(f, "<table class=\"culprit-changes\" data-report=\"%zu\">\n<tr><th class=\"k\">change</th>"
                "<th class=\"k\">culprit</th><th class=\"k\">kind</th><th>events [1] → [%zu]</th>"
                "<th>spikes [1] → [%zu]</th></tr>\n", ri, ri + 1, ri + 1);
        static const char *const parts[][2] = { { "came", "worse" }, { "went", "better" }, { "stayed", "same" } };
        for (size_t k = 0; k < 3; k++)
            json_array_foreach(json_object_get(e, parts[k][0]), j, c)
                culprit_row(f, parts[k][0], parts[k][1], c);
        fputs("</table>\n", f);
    }
}

void html_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n)
{
    const json_t *reports = json_object_get(cmp, "reports");
    char title[256];
    snprintf(title, sizeof(title), "rtjitter compare: %zu reports", json_array_size(reports));
    html_page_start(f, title);
    /* The header's colour follows the plain answer: any "worse", across runs or in this pair, is a warning; nothing
     * decided is neutral. */
    int better = 0, worse = 0;
    size_t i, j;
    const json_t *load, *v;
    json_array_foreach(json_object_get(cmp, "loads"), i, load)
        json_array_foreach(json_object_get(load, "verdicts"), j, v) {
            const char *o = doc_str(v, "outcome", "");
            better += !strcmp(o, "better");
            worse += !strcmp(o, "worse") || !strcmp(o, "worse_in_pair");
        }
    fprintf(f, "<header class=\"verdict %s\">\n<h1>", worse ? "warn" : better ? "pass" : "");
    html_escape(f, title);
    fputs("</h1>\n", f);
    const json_t *s;
    json_array_foreach(json_object_get(cmp, "summary"), i, s) {
        fputs("<p class=\"summary\">", f);
        html_escape(f, json_string_value(s));
        fputs("</p>\n", f);
    }
    fputs("<table>\n<tr><th>#</th><th class=\"k\">Kernel (label)</th><th class=\"k\">Started</th><th>Setting</th>"
          "<th class=\"k\">File</th></tr>\n", f);
    const json_t *r;
    json_array_foreach(reports, i, r) {
        fprintf(f, "<tr><td>%zu%s</td><td class=\"k\">", i + 1, i == 0 ? " (baseline)" : "");
        html_escape(f, doc_str(r, "title", NULL));
        fputs("</td><td class=\"k\">", f);
        html_escape(f, doc_str(r, "started", NULL));
        fputs("</td><td>", f);
        char setting[128];
        html_escape(f, render_setting(setting, sizeof(setting), r, 0));
        fputs(", ", f);
        html_escape(f, doc_str(r, "provider", NULL) ? doc_str(r, "provider", NULL) : doc_str(r, "backend", NULL));
        fputs("</td><td class=\"file\"><code>", f);
        html_escape(f, doc_str(r, "file", NULL));
        fputs("</code>", f);
        size_t nrep = json_array_size(json_object_get(r, "replicates"));
        if (nrep) {
            fprintf(f, "<br>%zu other run%s of this set-up beside it (run-to-run noise), newest <code>", nrep,
                    nrep == 1 ? "" : "s");
            html_escape(f, json_string_value(json_array_get(json_object_get(r, "replicates"), 0)));
            fputs("</code>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</header>\n", f);
    html_ladder(f, cmp);
    if (json_array_size(json_object_get(cmp, "warnings"))) {
        fputs("<h2>Warnings</h2>\n", f);
        html_strings_list(f, json_object_get(cmp, "warnings"), "warning");
    }
    fputs("<h2>What differs in the system</h2>\n", f);
    const json_t *diff = json_object_get(cmp, "system_diff");
    if (!json_array_size(diff)) {
        fputs("<p>The system identity is the same in every report.</p>\n", f);
    } else {
        fputs("<table>\n<tr><th class=\"k\">key</th>", f);
        json_array_foreach(reports, i, r) {
            fprintf(f, "<th class=\"title k\">[%zu] ", i + 1);
            html_escape(f, doc_str(r, "title", NULL));
            fputs("</th>", f);
        }
        fputs("</tr>\n", f);
        json_array_foreach(diff, i, s) {
            fputs("<tr><td class=\"k\">", f);
            html_escape(f, doc_str(s, "key", NULL));
            fputs("</td>", f);
            json_array_foreach(json_object_get(s, "values"), j, v) {
                fputs("<td class=\"v\">", f);
                html_escape(f, json_string_value(v) ? json_string_value(v) : "(absent)");
                fputs("</td>", f);
            }
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    struct page_axes axes;
    page_axes(docs, n, &axes);
    json_array_foreach(json_object_get(cmp, "loads"), i, load) {
        const char *name = doc_str(load, "load", "?");
        fputs("<h2>Load: ", f);
        html_escape(f, name);
        fputs("</h2>\n", f);
        compare_table(f, load, reports);
        exceedance(f, name, "wakeup", 0, "Wakeup latency", docs, reports, n, &axes);
        exceedance(f, name, "jitter", 1, "|Period jitter|", docs, reports, n, &axes);
        if (json_array_size(json_object_get(load, "verdicts"))) {
            size_t last = 0;
            json_array_foreach(json_object_get(load, "verdicts"), j, v) {
                size_t ri = (size_t)json_integer_value(json_object_get(v, "report"));
                if (ri != last) {
                    fputs(last ? "</ul>\n<p>" : "<p>", f);
                    fprintf(f, "[%zu] ", ri + 1);
                    html_escape(f, doc_str(json_array_get(reports, ri), "title", NULL));
                    fputs(" against the baseline [1]:</p>\n<ul>\n", f);
                    last = ri;
                }
                /* The line says its outcome in words; its colour says it at a glance (in this pair: a colour of
                 * its own, neither a call nor "no clear difference"). */
                const char *o = doc_str(v, "outcome", "n/a");
                fprintf(f, "<li class=\"%s\">", !strcmp(o, "better") ? "better" : !strcmp(o, "worse") ? "worse"
                        : !strcmp(o, "worse_in_pair") ? "worse-pair" : !strcmp(o, "better_in_pair") ? "better-pair"
                        : "same");
                html_escape(f, doc_str(v, "text", NULL));
                fputs("</li>\n", f);
            }
            if (last)
                fputs("</ul>\n", f);
        }
        culprit_changes(f, load, reports);
    }
    fputs("<h2>How the verdicts are reached</h2>\n<p>", f);
    html_escape(f, doc_str(cmp, "method", NULL));
    fputs("</p>\n", f);
    html_page_end(f, RTJ_VERSION);
}
