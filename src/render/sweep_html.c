/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep as a self-contained HTML page: the answer, the grid per rate (coloured by state), a plot of the margin
 * kept by 99.9 % of cycles against the buffer size (one line per load, the profile's line drawn), and every cell's
 * figures and proof. Every string from the document goes through html_escape(). */
#include "render/sweep_render.h"
#include "render/html.h"
#include "render/svg.h"
#include "report/access.h"
#include "util/numfmt.h"
#include <math.h>
#include <errno.h>
#include <string.h>

static const char *cell_class(const json_t *cell)
{
    const char *st = doc_str(cell, "state", "open");
    return !strcmp(st, "safe") ? "safe" : !strcmp(st, "unsafe") ? "bad" : !strcmp(st, "inferred_safe") ? "isafe"
         : !strcmp(st, "inferred_unsafe") ? "ibad" : "none";
}

/* Margin kept by 99.9 % of cycles, in % of the period, against the buffer size (log2 x), per load. */
static void margin_plot(FILE *f, const json_t *doc, double rate)
{
    const json_t *periods = json_object_get(doc, "periods"), *loads = json_object_get(doc, "loads");
    size_t np = json_array_size(periods), nl = json_array_size(loads);
    if (np == 0 || nl == 0)
        return;
    struct legend_item items[32];
    size_t ni = 0;
    for (size_t l = 0; l < nl && ni < 32; l++)
        items[ni++] = (struct legend_item){ json_string_value(json_array_get(loads, l)),
                                            svg_palette[l % svg_palette_n], "" };
    double lo = json_number_value(json_array_get(periods, 0)), hi = json_number_value(json_array_get(periods, np - 1));
    if (hi <= lo)
        hi = lo * 2;
    struct axis x = { lo, hi, 1 }, y = { -100, 100, 0 };
    struct frame fr;
    char title[160];
    snprintf(title, sizeof(title), "Margin kept by 99.9 %% of cycles, %% of the period, at %.0f Hz", rate);
    svg_begin(f, &fr, title, items, ni, &x, &y);
    for (double v = -100; v <= 100; v += 50) {
        double py = svg_y(&fr, &y, v);
        char lab[16];
        snprintf(lab, sizeof(lab), "%.0f %%", v);
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", fr.l, fr.r, py, py);
        svg_text(f, &fr, fr.l - 4, py + 4, "end", NULL, lab);
    }
    for (size_t p = 0; p < np; p++) {
        double fv = json_number_value(json_array_get(periods, p)), px = svg_x(&fr, &x, fv);
        char lab[16];
        snprintf(lab, sizeof(lab), "%.0f", fv);
        svg_text(f, &fr, px, fr.b + 14, "middle", NULL, lab);
    }
    double need = doc_num(json_object_get(doc, "profile"), "warn_margin_pct");
    if (!isnan(need)) {
        double py = svg_y(&fr, &y, need);
        fprintf(f, "<line class=\"need\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c02020\" "
                   "stroke-dasharray=\"6 3\"/>\n", fr.l, fr.r, py, py);
        svg_text(f, &fr, fr.r - 4, py - 4, "end", "period-label", "the profile's margin");
    }
    for (size_t l = 0; l < nl; l++) {
        const char *load = json_string_value(json_array_get(loads, l));
        fprintf(f, "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"%s\" data-load=\"", svg_palette[l % svg_palette_n]);
        html_escape(f, load);
        fputs("\" points=\"", f);
        for (size_t p = 0; p < np; p++) {
            double fv = json_number_value(json_array_get(periods, p));
            const json_t *c = text_sweep_doc_cell(doc, rate, fv, load);
            double m = doc_num(c, "margin_p999_pct");
            if (!json_is_true(json_object_get(c, "measured")) || isnan(m))
                continue;
            fprintf(f, "%.1f,%.1f ", svg_x(&fr, &x, fv), svg_y(&fr, &y, m < -100 ? -100 : m > 100 ? 100 : m));
        }
        fputs("\"/>\n", f);
        for (size_t p = 0; p < np; p++) { /* a dot per measured cell: a load measured at one size shows too */
            double fv = json_number_value(json_array_get(periods, p));
            const json_t *c = text_sweep_doc_cell(doc, rate, fv, load);
            double m = doc_num(c, "margin_p999_pct");
            if (json_is_true(json_object_get(c, "measured")) && !isnan(m))
                fprintf(f, "<circle r=\"3.5\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\"/>\n", svg_palette[l % svg_palette_n],
                        svg_x(&fr, &x, fv), svg_y(&fr, &y, m < -100 ? -100 : m > 100 ? 100 : m));
        }
    }
    svg_axis_titles(f, &fr, "buffer size, frames", "margin, % of the period");
    fputs("</svg>\n", f);
}

/* A link to the report a cell was measured in: a file: URL of its absolute path, every byte outside a safe set
 * percent-encoded (so nothing in it can close the attribute); a relative path is shown, not linked. */
static void report_link(FILE *f, const char *path)
{
    if (!path)
        return;
    const char *base = strrchr(path, '/');
    if (path[0] != '/') {
        fputs("<br><small>", f);
        html_escape(f, path);
        fputs("</small>", f);
        return;
    }
    fputs("<br><a class=\"rep\" href=\"file://", f);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
    }
    fputs("\">report ", f);
    html_escape(f, base ? base + 1 : path);
    fputs("</a>", f);
}

static void cell_row(FILE *f, const json_t *c)
{
    fprintf(f, "<tr><td class=\"k\">");
    html_escape(f, doc_str(c, "load", "?"));
    fprintf(f, "</td><td>%.0f</td><td>%.0f</td><td class=\"%s\">", doc_num(c, "period_frames"), doc_num(c, "rate"),
            cell_class(c));
    html_escape(f, text_sweep_cell_words(c)); /* words, not the document's tokens (inferred_unsafe) */
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "measured_s"), 1);
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "cycles"), 0);
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "xrun_events"), 0);
    fputs("</td><td>", f);
    char met[32];
    fputs(pct_met(met, sizeof(met), doc_num(c, "deadlines_met_pct")), f);
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "wakeup_p999_us"), 1);
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "wakeup_max_us"), 1);
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "margin_p999_us"), 1);
    fputs("</td><td>", f);
    html_num(f, doc_num(c, "margin_min_us"), 1);
    fputs("</td></tr>\n<tr class=\"why\"><td></td><td colspan=\"11\" class=\"v\">", f);
    const char *proof = doc_str(json_object_get(c, "proof"), "text", NULL);
    html_escape(f, proof ? proof : "");
    if (proof)
        fputs("<br>", f);
    html_escape(f, doc_str(c, "why", ""));
    report_link(f, doc_str(c, "report", NULL));
    fputs("</td></tr>\n", f);
}

int html_sweep_body(FILE *f, void *arg)
{
    const json_t *doc = arg;
    const json_t *audio = json_object_get(doc, "audio"), *loads = json_object_get(doc, "loads");
    html_page_start(f, "rtjitter buffer-size sweep");
    fputs("<style>td.safe{background:#cfeccf;font-weight:bold}td.isafe{background:#e8f6e8;color:#555}"
          "td.ibad{background:#fbe6e6;color:#555}td.none{color:#888}td small{display:block;font-weight:normal}"
          "tr.why td{border-top:none;color:#333}table.results th{white-space:normal}a.rep{font-size:.9em}</style>\n<h1>Which buffer size can I use?</h1>\n",
          f);
    if (doc_str(doc, "label", NULL)) {
        fputs("<p class=\"note\"><b>", f);
        html_escape(f, doc_str(doc, "label", NULL));
        fputs("</b></p>\n", f);
    }
    fputs("<p class=\"note\">Backend ", f);
    html_escape(f, doc_str(audio, "backend", "?"));
    const char *how = doc_str(audio, "buffer_change", "?");
    fputs(!strcmp(how, "direct") ? ", which takes each size directly" : !strcmp(how, "set_buffer_size")
          ? ", sizes set with jack_set_buffer_size" : !strcmp(how, "restart") ? ", the server restarted at each size"
          : !strcmp(how, "pipewire_force_quantum") ? ", PipeWire's quantum forced per size (clock.force-quantum)"
          : ", size changed by ", f);
    if (strcmp(how, "direct") && strcmp(how, "set_buffer_size") && strcmp(how, "restart") &&
        strcmp(how, "pipewire_force_quantum"))
        html_escape(f, how);
    fputs(", profile ", f);
    html_escape(f, doc_str(json_object_get(doc, "profile"), "name", "?"));
    fputs(". Kernel ", f);
    html_escape(f, doc_str(json_object_get(json_object_get(doc, "system"), "kernel"), "release", "?"));
    fputs(", started ", f);
    html_escape(f, doc_str(doc, "started", "?"));
    fputs(".</p>\n", f);
    if (!json_is_true(json_object_get(doc, "complete"))) {
        fputs("<p class=\"verdict fail\">Incomplete: ", f);
        html_escape(f, doc_str(doc, "incomplete_reason", "?"));
        fputs("</p>\n", f);
    }
    const json_t *ans;
    size_t ai;
    json_array_foreach(json_object_get(doc, "smallest_safe"), ai, ans) {
        double rate = doc_num(ans, "rate");
        const json_t *all = json_object_get(ans, "overall");
        fprintf(f, "<h2>%.0f Hz</h2>\n<p class=\"verdict %s\"><span class=\"summary\">", rate,
                json_is_object(all) ? "pass" : "fail");
        char answer[512];
        html_escape(f, text_sweep_answer(doc, ans, answer, sizeof(answer)));
        fputs("</span></p>\n<table><tr><th class=\"k\">buffer</th>", f);
        size_t li;
        const json_t *l;
        json_array_foreach(loads, li, l) {
            fputs("<th>", f);
            html_escape(f, json_string_value(l));
            const json_t *s = json_object_get(json_array_get(json_object_get(ans, "per_load"), li), "smallest_safe");
            if (json_is_object(s))
                fprintf(f, "<small>smallest safe %.0f (%.2f ms)</small>", doc_num(s, "frames"), doc_num(s, "ms"));
            else
                fputs("<small>none safe</small>", f);
            fputs("</th>", f);
        }
        fputs("</tr>\n", f);
        const json_t *p;
        size_t pi;
        json_array_foreach(json_object_get(doc, "periods"), pi, p) {
            double frames = json_number_value(p);
            fprintf(f, "<tr><th class=\"k\">%.0f <small>%.2f ms</small></th>", frames, 1000.0 * frames / rate);
            json_array_foreach(loads, li, l) {
                const json_t *c = text_sweep_doc_cell(doc, rate, frames, json_string_value(l));
                fprintf(f, "<td class=\"%s\" title=\"", cell_class(c));
                html_escape(f, doc_str(c, "why", ""));
                fputs("\">", f);
                html_escape(f, text_sweep_cell_word(c));
                double ev = doc_num(c, "xrun_events"), miss = doc_num(c, "deadlines_missed");
                if (!strcmp(doc_str(c, "state", ""), "unsafe"))
                    fprintf(f, "<small>%s</small>", ev > 0 ? "xruns" : miss > 0 ? "late" : "margin");
                fputs("</td>", f);
            }
            fputs("</tr>\n", f);
        }
        fputs("</table>\n<figure>\n", f);
        margin_plot(f, doc, rate);
        fputs("<figcaption>Each measured cell's margin kept by 99.9 % of its cycles; below the dashed line a size is "
              "not safe by the profile even without an xrun.</figcaption></figure>\n", f);
    }
    fputs("<h2>Every cell</h2>\n<div class=\"wide\"><table class=\"results\"><tr><th class=\"k\">load</th>"
          "<th>frames</th><th>rate</th><th>state</th><th>measured s</th><th>cycles</th><th>xrun events</th>"
          "<th>deadlines met %</th><th>wake-up p99.9 µs</th><th>wake-up max µs</th><th>margin p99.9 µs</th>"
          "<th>margin min µs</th></tr>\n", f);
    const json_t *c;
    size_t ci;
    json_array_foreach(json_object_get(doc, "cells"), ci, c)
        cell_row(f, c);
    fputs("</table></div>\n", f);
    html_page_end(f, doc_str(json_object_get(doc, "tool"), "version", "?"));
    return ferror(f) ? -EIO : 0;
}
