/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder's section of a comparison page: from the comparison's "ladder" object alone (run/ladder.c), so
 * the page says what the JSON says. A table of the depths, a bar of each depth's wake-up p99 in the colour its
 * lines have in the page's plots, and the conclusion, coloured by where the trouble starts. */
#include "render/html.h"
#include "render/svg.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static void level_cell(FILE *f, const char *level)
{
    /* the page's cell marks (html.c): red for a failing depth, yellow for a warning */
    const char *mark = !level ? "" : !strcmp(level, "fail") ? " bad" : !strcmp(level, "warn") ? " warnc" : "";
    fprintf(f, "<td class=\"k%s\">", mark);
    html_escape(f, level ? level : "-");
    fputs("</td>", f);
}

static void num_cell(FILE *f, double v, int sign)
{
    fputs("<td>", f);
    if (isnan(v))
        fputs("-", f);
    else
        fprintf(f, sign ? "%+.1f" : "%.1f", v);
    fputs("</td>", f);
}

/* One horizontal bar a depth: its wake-up p99 on a scale from 0 to the largest. */
static void bars(FILE *f, const json_t *depths)
{
    size_t n = json_array_size(depths), i;
    double top = 0;
    const json_t *d;
    json_array_foreach(depths, i, d) {
        double v = doc_num(d, "wakeup_p99_us");
        if (isfinite(v) && v > top)
            top = v;
    }
    if (!(top > 0) || n == 0)
        return;
    const int w = 640, left = 90, right = 110, row = 28, h = (int)n * row + 10;
    fprintf(f, "<figure>\n<svg class=\"ladder\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
               "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"wake-up p99 at each depth\">\n", w, h, w, h);
    json_array_foreach(depths, i, d) {
        double v = doc_num(d, "wakeup_p99_us");
        int y = 5 + (int)i * row;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"13\">", left - 6, y + 17);
        html_escape(f, doc_str(d, "depth", "?"));
        fputs("</text>", f);
        if (isfinite(v) && v >= 0) {
            double len = (w - left - right) * v / top;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", left, y + 3, len, row - 8,
                    svg_palette[i % svg_palette_n]);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%.1f µs</text>\n", left + len + 5, y + 17, v);
        } else {
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">unknown</text>\n", left + 5, y + 17);
        }
    }
    fputs("</svg>\n<figcaption><b>How to read this:</b> the worst wake-up p99 over the loads at each depth, the "
          "shallowest at the top; each depth adds its layer (the driver, the audio server) to the one before it, on "
          "the same kernel under the same loads.</figcaption>\n</figure>\n", f);
}

void html_ladder(FILE *f, const json_t *cmp)
{
    const json_t *ladder = json_object_get(cmp, "ladder");
    if (!json_is_object(ladder))
        return;
    const json_t *depths = json_object_get(ladder, "depths");
    const char *at = doc_str(ladder, "trouble_starts_at", NULL);
    fputs("<section class=\"ladder\">\n<h2>Depth ladder: ", f);
    size_t i;
    const json_t *d;
    json_array_foreach(depths, i, d) {
        fputs(i ? " → " : "", f);
        html_escape(f, doc_str(d, "depth", "?"));
    }
    fprintf(f, "</h2>\n<p class=\"verdict %s\">", at ? "fail" : "pass");
    html_escape(f, doc_str(ladder, "conclusion", ""));
    fputs("</p>\n<table>\n<tr><th class=\"k\">Depth</th><th class=\"k\">Verdict</th><th>Wake-up p99 (µs)</th>"
          "<th>Added over the depth before (µs)</th><th>Xrun events</th><th class=\"k\">Worst under</th>"
          "<th class=\"k\">Its verdict</th></tr>\n", f);
    json_array_foreach(depths, i, d) {
        const char *name = doc_str(d, "depth", "?");
        fputs("<tr><td class=\"k\">", f);
        if (at && !strcmp(at, name))
            fputs("<b>", f);
        html_escape(f, name);
        fputs(at && !strcmp(at, name) ? "</b> (the trouble starts here)" : "", f);
        fputs("</td>", f);
        level_cell(f, doc_str(d, "level", NULL));
        num_cell(f, doc_num(d, "wakeup_p99_us"), 0);
        num_cell(f, doc_num(d, "over_previous_us"), 1);
        double ev = doc_num(d, "xrun_events");
        fputs("<td>", f);
        if (isnan(ev))
            fputs("-", f);
        else
            fprintf(f, "%.0f", ev);
        fputs("</td><td class=\"k\">", f);
        html_escape(f, doc_str(d, "worst_load", "-"));
        fputs("</td><td class=\"v\">", f);
        html_escape(f, doc_str(d, "summary", "-"));
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    bars(f, depths);
    fputs("</section>\n", f);
}
