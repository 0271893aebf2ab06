/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The DSP headroom ramp of a phase (`--dsp ramp`): the margin its cycles kept (the worst, and the one 99 % kept)
 * against the DSP load of each step, on linear axes (x 0-100 % of the period, y µs from the worst margin or 0 up
 * to the period), with the deadline (margin 0), the first failing cycle and the 1 % point marked. */
#include "render/svg_ramp.h"
#include "render/html.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>

static const struct { const char *key, *name, *color, *dash; } lines[] = {
    { "margin_min_us", "margin, worst cycle of the step", "#d62728", "" },
    { "margin_p1_us", "margin 99 % of the step's cycles kept", "#1f77b4", "4 3" },
};

void svg_ramp(FILE *f, const char *title, const json_t *ramp, double period_us)
{
    const json_t *steps = json_object_get(ramp, "steps"), *s;
    size_t i;
    double ylo = 0, yhi = period_us > 0 ? period_us : 1;
    json_array_foreach(steps, i, s)
        for (size_t l = 0; l < 2; l++) {
            double v = doc_num(s, lines[l].key);
            if (isfinite(v) && v < ylo)
                ylo = v;
            if (isfinite(v) && v > yhi)
                yhi = v;
        }
    struct axis x = { 0, 100, 0 }, y = { ylo, yhi, 0 };
    struct legend_item items[4] = { { lines[0].name, lines[0].color, lines[0].dash },
                                    { lines[1].name, lines[1].color, lines[1].dash },
                                    { "first cycle whose work did not fit", "#ff7f0e", "2 2" },
                                    { "1 % of cycles failed", "#9467bd", "6 2" } };
    struct frame fr;
    svg_begin(f, &fr, title, items, 4, &x, &y);
    if (json_array_size(steps) == 0) {
        svg_empty(f, &fr, "no step measured");
        return;
    }
    for (int t = 0; t <= 100; t += 10) {
        double px = svg_x(&fr, &x, t);
        fprintf(f, "<g class=\"tick-x\" data-v=\"%d\"><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
                "stroke=\"#eee\"/>", t, px, fr.t, px, fr.b);
        char lab[16];
        snprintf(lab, sizeof(lab), "%d %%", t);
        svg_text(f, &fr, px, fr.b + 15, "middle", NULL, lab);
        fputs("</g>\n", f);
    }
    double span = yhi - ylo, step = pow(10, floor(log10(span > 0 ? span : 1)));
    if (span / step < 3)
        step /= 2;
    for (double v = ceil(ylo / step) * step; v <= yhi + 1e-9; v += step) {
        if (fabs(v) < step / 1e6)
            v = 0; /* the sum of steps lands near 0, not on it: never a "-0 µs" or "-1e-13 µs" */
        double py = svg_y(&fr, &y, v);
        char lab[32];
        snprintf(lab, sizeof(lab), "%g µs", v);
        fprintf(f, "<g class=\"tick-y\" data-v=\"%g\"><line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                "stroke=\"%s\"/>", v, fr.l, py, fr.r, py, fabs(v) < step / 1e6 ? "#000" : "#ddd");
        svg_text(f, &fr, fr.l - 5, py + 4, "end", NULL, lab);
        fputs("</g>\n", f);
    }
    svg_axis_titles(f, &fr, "DSP load: the share of the period burnt in the callback", "margin left (µs)");
    for (size_t l = 0; l < 2; l++) {
        fprintf(f, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s%s%s d=\"",
                lines[l].color, lines[l].dash[0] ? " stroke-dasharray=\"" : "", lines[l].dash,
                lines[l].dash[0] ? "\"" : "");
        int pen = 0;
        json_array_foreach(steps, i, s) {
            double v = doc_num(s, lines[l].key);
            if (!isfinite(v)) {
                pen = 0;
                continue;
            }
            fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', svg_x(&fr, &x, doc_num(s, "level_pct")), svg_y(&fr, &y, v));
            pen = 1;
        }
        fprintf(f, "\"><title>%s</title></path>\n", lines[l].name);
    }
    json_array_foreach(steps, i, s) {
        double px = svg_x(&fr, &x, doc_num(s, "level_pct")), py = svg_y(&fr, &y, doc_num(s, "margin_min_us"));
        fprintf(f, "<circle class=\"step\" data-level=\"%.3f\" data-margin-min=\"%.3f\" data-failed=\"%.0f\" "
                "cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%.1f %%: %.0f of %.0f cycles failed, worst margin "
                "%.0f µs</title></circle>\n", doc_num(s, "level_pct"), doc_num(s, "margin_min_us"),
                doc_num(s, "failed"), px, py, doc_num(s, "failed") > 0 ? "#d00" : "#2ca02c", doc_num(s, "level_pct"),
                doc_num(s, "failed"), doc_num(s, "cycles"), doc_num(s, "margin_min_us"));
    }
    const char *keys[2] = { "first_miss_pct", "one_pct_pct" };
    for (int k = 1; k >= 0; k--) { /* the first miss last, on top: it often falls on the 1 % point's step */
        double v = doc_num(ramp, keys[k]);
        if (!isfinite(v))
            continue;
        double px = svg_x(&fr, &x, v);
        fprintf(f, "<line class=\"%s\" data-v=\"%.3f\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"1.5\" stroke-dasharray=\"%s\"/>\n", keys[k], v, px, fr.t, px, fr.b, items[2 + k].color,
                items[2 + k].dash);
    }
    fputs("</svg>\n", f);
}
