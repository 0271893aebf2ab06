/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's section of the HTML report: see svg_soak.h. */
#include "render/svg_soak.h"
#include "render/html.h"
#include "report/access.h"
#include <math.h>
#include <string.h>

#define SW 640
#define SH 220
#define ML 60
#define MR 12
#define MT 28
#define MB 34

/* 1, 2 or 5 times a power of ten at or above v. */
static double nice_top(double v)
{
    if (!(v > 0))
        return 1;
    double p = pow(10, floor(log10(v)));
    return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

void html_soak(FILE *f, const json_t *doc)
{
    const json_t *s = NULL, *p, *w;
    size_t i;
    json_array_foreach(json_object_get(doc, "phases"), i, p)
        if (!s && json_is_object(json_object_get(p, "soak")))
            s = json_object_get(p, "soak");
    if (!s)
        return;
    const json_t *v = json_object_get(json_object_get(doc, "verdict"), "soak");
    const json_t *wins = json_object_get(s, "windows");
    size_t n = json_array_size(wins);
    double win_s = doc_num(s, "window_s"), thr = doc_num(v, "threshold_us"), top = 0;
    json_array_foreach(wins, i, w)
        if (doc_num(w, "max_us") > top)
            top = doc_num(w, "max_us");
    if (!isnan(thr) && thr > top)
        top = thr;
    top = nice_top(top * 1.05);
    fputs("<h2>Soak</h2>\n<p class=\"soak\">", f);
    html_escape(f, doc_str(v, "line", "No verdict on the soak."));
    fprintf(f, " %lld cycles in 1 µs bins up to %.0f µs, %lld beyond (overflow); %zu windows of %g s.</p>\n",
            (long long)json_integer_value(json_object_get(s, "count")), doc_num(s, "range_us"),
            (long long)json_integer_value(json_object_get(s, "overflow")), n, win_s);
    double l = ML, r = SW - MR, t = MT, b = SH - MB;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n<title>Maximum wake-up per %g s window</title>\n",
            SW, SH, SW, SH, win_s);
    fprintf(f, "<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fcfcfc\" stroke=\"#999\" "
            "data-x-min=\"0\" data-x-max=\"%zu\" data-x-scale=\"linear\" data-y-min=\"0\" data-y-max=\"%.6g\" "
            "data-y-scale=\"linear\"/>\n", l, t, r - l, b - t, n, top);
    fprintf(f, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">Maximum wake-up per %g s window (µs)</text>\n",
            ML, win_s);
    for (int k = 0; k <= 4; k++) { /* the y axis: 0, 1/4 ... top */
        double y = b - (b - t) * k / 4.0;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", l, r, y, y, l - 4, y + 4, top * k / 4.0);
    }
    double bw = n ? (r - l) / (double)n : 0;
    json_array_foreach(wins, i, w) {
        double m = doc_num(w, "max_us");
        if (isnan(m))
            continue;
        double h = (b - t) * fmin(m, top) / top, x = l + bw * (double)i;
        int over = !isnan(thr) && m > thr;
        fprintf(f, "<rect class=\"soak-window\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                "data-window=\"%zu\" data-max-us=\"%.6g\"><title>window %zu (from %g s): %.1f µs</title></rect>\n",
                x + bw * 0.1, b - h, bw * 0.8, h, over ? "#c0392b" : "#2e86c1", i, m, i + 1, win_s * (double)i, m);
    }
    if (!isnan(thr)) {
        double y = b - (b - t) * thr / top;
        fprintf(f, "<line class=\"soak-threshold\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" "
                "stroke-dasharray=\"4 3\" data-us=\"%.6g\"/>\n", l, r, y, y, thr);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">window (%g s each; %zu)</text>\n</svg>\n",
            (l + r) / 2, SH - 8, win_s, n);
}
