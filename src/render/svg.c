/* SVG plots for the HTML pages: a latency histogram on a logarithmic count axis (one or several series
 * overlaid), and the per-second timeline with a mark on every second that had xruns or missed deadlines. */
#include "render/svg.h"
#include "render/html.h"
#include "report/access.h"
#include "util/utf8.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                       "#e377c2", "#17becf" };
#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))


#define SVG_W 760
#define SVG_H 300
#define M_L 64
#define M_R 16
#define M_T 44
#define M_B 46
#define BINS_PER_DECADE 40

static double nice_ceil(double v)
{
    if (!(v > 0))
        return 1;
    double p = pow(10, floor(log10(v)));
    double m = v / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void count_label(char *buf, size_t len, double v)
{
    if (v >= 1e9)
        snprintf(buf, len, "%.0fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.0fM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, len, "%.0fk", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}

static void svg_open(FILE *f, const char *title)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n<title>", SVG_W, SVG_H, SVG_W, SVG_H);
    html_escape(f, title);
    fprintf(f, "</title>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fcfcfc\" stroke=\"#999\"/>\n",
            M_L, M_T, SVG_W - M_L - M_R, SVG_H - M_T - M_B);
    fprintf(f, "<text x=\"%d\" y=\"15\" font-size=\"13\" font-weight=\"bold\">", M_L);
    html_escape(f, title);
    fputs("</text>\n", f);
}

/* dashes: NULL, or per entry "" for a filled swatch and a dash pattern for a line sample. */
static void svg_legend(FILE *f, const char *const *names, const char *const *colors, const char *const *dashes,
                       size_t n)
{
    /* One row under the title, left to right; names are cut so that the row stays inside the picture. */
    double x = M_L;
    for (size_t i = 0; i < n; i++) {
        char name[48];
        const char *full = names[i] ? names[i] : "";
        snprintf(name, sizeof(name), "%.*s", utf8_prefix(full, sizeof(name) - 1), full);
        size_t l = strlen(name);
        double w = 6.2 * (double)l + 28;
        if (x + w > SVG_W - M_R)
            break;
        if (dashes && dashes[i] && dashes[i][0])
            fprintf(f, "<line x1=\"%.1f\" y1=\"27\" x2=\"%.1f\" y2=\"27\" stroke=\"%s\" stroke-width=\"2\" "
                    "stroke-dasharray=\"%s\"/>", x, x + 12, colors[i], dashes[i]);
        else
            fprintf(f, "<rect x=\"%.1f\" y=\"22\" width=\"12\" height=\"10\" fill=\"%s\" fill-opacity=\"0.5\" "
                    "stroke=\"%s\"/>", x, colors[i], colors[i]);
        fprintf(f, "<text x=\"%.1f\" y=\"31\">", x + 16);
        html_escape(f, name);
        fputs("</text>\n", f);
        x += w;
    }
}

void svg_histogram(FILE *f, const char *title, const char *xlabel, const struct series *s, size_t ns)
{
    double xmin = INFINITY, xmax = 0, total = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t b = 0; b < s[i].h->n; b++) {
            double mid = (s[i].h->lo[b] + s[i].h->hi[b]) / 2;
            if (mid > 0 && mid < xmin)
                xmin = mid;
            if (s[i].h->hi[b] > xmax)
                xmax = s[i].h->hi[b];
            total += s[i].h->count[b];
        }
    svg_open(f, title);
    if (!(total > 0) || !isfinite(xmin) || !(xmax > 0)) {
        fprintf(f, "<text x=\"%d\" y=\"%d\">no data</text>\n</svg>\n", SVG_W / 2 - 30, SVG_H / 2);
        return;
    }
    /* Whole decades on the x axis from 1 µs (below that nothing matters to audio: it piles into the first bin)
     * to at most 1000 s. */
    double d0 = floor(log10(fmax(xmin, 1.0))), d1 = ceil(log10(fmin(fmax(xmax, xmin * 10), 1e9)));
    if (d1 <= d0)
        d1 = d0 + 1;
    int nbins = (int)((d1 - d0) * BINS_PER_DECADE);
    double *bins = calloc((size_t)nbins * ns, sizeof(double));
    if (!bins) {
        fputs("</svg>\n", f);
        return;
    }
    double cmax = 1;
    for (size_t i = 0; i < ns; i++)
        for (size_t b = 0; b < s[i].h->n; b++) {
            double mid = (s[i].h->lo[b] + s[i].h->hi[b]) / 2;
            double pos = mid > 0 ? (log10(mid) - d0) * BINS_PER_DECADE : 0;
            int k = pos < 0 ? 0 : pos >= nbins ? nbins - 1 : (int)pos;
            bins[i * (size_t)nbins + (size_t)k] += s[i].h->count[b];
        }
    for (int k = 0; k < nbins * (int)ns; k++)
        cmax = fmax(cmax, bins[k]);
    double ytop = ceil(log10(cmax));
    if (ytop < 1)
        ytop = 1;
    double pw = SVG_W - M_L - M_R, ph = SVG_H - M_T - M_B, y0 = SVG_H - M_B;
#define XP(bin) (M_L + pw * (double)(bin) / nbins)
#define YP(c) (y0 - ph * log10(c) / ytop - 0.0)
    /* grid and axes */
    for (double d = d0; d <= d1; d++) {
        double x = M_L + pw * (d - d0) / (d1 - d0);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", x, M_T, x, y0);
        char lab[32];
        double v = pow(10, d);
        if (v >= 1e6)
            snprintf(lab, sizeof(lab), "%.0f s", v / 1e6);
        else if (v >= 1e3)
            snprintf(lab, sizeof(lab), "%.0f ms", v / 1e3);
        else
            snprintf(lab, sizeof(lab), "%g µs", v);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x, y0 + 15, lab);
    }
    for (double e = 0; e <= ytop; e++) {
        double y = y0 - ph * e / ytop;
        char lab[32];
        count_label(lab, sizeof(lab), pow(10, e));
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
                "text-anchor=\"end\">%s</text>\n", M_L, y, SVG_W - M_R, y, M_L - 5, y + 4, lab);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", M_L + pw / 2, SVG_H - 8);
    html_escape(f, xlabel);
    fprintf(f, "</text><text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">cycles "
            "(log scale)</text>\n", M_T + ph / 2, M_T + ph / 2);
    /* One step outline per series, dropping to the axis where a bin is empty (a count of 1 sits just above
     * it: log 1 = 0, so such bins are drawn 2 px tall to stay visible). */
    const char *names[PALETTE_N], *colors[PALETTE_N];
    size_t nl = 0;
    for (size_t i = 0; i < ns; i++) {
        const char *col = palette[i % PALETTE_N];
        fprintf(f, "<path fill=\"%s\" fill-opacity=\"%s\" stroke=\"%s\" stroke-width=\"1.2\" d=\"M%.1f %.1f",
                col, ns > 1 ? "0.15" : "0.35", col, XP(0), y0);
        for (int k = 0; k < nbins; k++) {
            double c = bins[i * (size_t)nbins + (size_t)k];
            double y = c > 0 ? fmin(YP(c), y0 - 2) : y0;
            fprintf(f, "L%.1f %.1fL%.1f %.1f", XP(k), y, XP(k + 1), y);
        }
        fprintf(f, "L%.1f %.1fZ\"><title>", XP(nbins), y0);
        html_escape(f, s[i].name);
        fputs("</title></path>\n", f);
        if (nl < PALETTE_N) {
            names[nl] = s[i].name;
            colors[nl++] = col;
        }
    }
#undef XP
#undef YP
    svg_legend(f, names, colors, NULL, nl);
    fputs("</svg>\n", f);
    free(bins);
}

/* ---- SVG: the per-second timeline, max and p99, with xrun marks ---- */

#define TIMELINE_MAX_POINTS 1500

void svg_timeline(FILE *f, const char *title, const json_t *tl)
{
    static const struct { const char *key, *name; const char *dash; } lines[] = {
        { "jitter_abs_max_us", "|jitter| max", "" }, { "jitter_abs_p99_us", "|jitter| p99", "4 3" },
        { "wakeup_max_us", "wakeup max", "" }, { "wakeup_p99_us", "wakeup p99", "4 3" },
    };
    enum { NL = sizeof(lines) / sizeof(lines[0]) };
    static const char *const colors[NL] = { "#1f77b4", "#1f77b4", "#2ca02c", "#2ca02c" };
    size_t n = json_array_size(tl);
    svg_open(f, title);
    if (n == 0) {
        fprintf(f, "<text x=\"%d\" y=\"%d\">no timeline</text>\n</svg>\n", SVG_W / 2 - 30, SVG_H / 2);
        return;
    }
    /* Long runs are reduced to TIMELINE_MAX_POINTS groups, each keeping the largest value of its seconds. */
    size_t stride = (n + TIMELINE_MAX_POINTS - 1) / TIMELINE_MAX_POINTS, np = (n + stride - 1) / stride;
    double *v = malloc(np * NL * sizeof(double)), *marks = calloc(np, sizeof(double));
    if (!v || !marks) {
        free(v);
        free(marks);
        fputs("</svg>\n", f);
        return;
    }
    double ymax = 0;
    for (size_t g = 0; g < np; g++) {
        for (int l = 0; l < NL; l++)
            v[g * NL + l] = NAN;
        for (size_t i = g * stride; i < n && i < (g + 1) * stride; i++) {
            const json_t *e = json_array_get(tl, i);
            for (int l = 0; l < NL; l++) {
                double x = doc_num(e, lines[l].key);
                if (!isnan(x) && (isnan(v[g * NL + l]) || x > v[g * NL + l]))
                    v[g * NL + l] = x;
            }
            double xr = fmax(doc_num(e, "xruns_reported"), doc_num(e, "xruns_detected"));
            double dm = doc_num(e, "deadlines_missed");
            marks[g] += (isnan(xr) ? 0 : xr) + (isnan(dm) ? 0 : dm);
        }
        for (int l = 0; l < NL; l++)
            if (!isnan(v[g * NL + l]))
                ymax = fmax(ymax, fabs(v[g * NL + l]));
    }
    ymax = nice_ceil(ymax);
    double pw = SVG_W - M_L - M_R, ph = SVG_H - M_T - M_B, y0 = SVG_H - M_B;
    double span = (double)np; /* groups on the x axis; seconds = group * stride */
    for (int t = 0; t <= 5; t++) {
        double y = y0 - ph * t / 5.0;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
                "text-anchor=\"end\">%g</text>\n", M_L, y, SVG_W - M_R, y, M_L - 5, y + 4, ymax * t / 5.0);
    }
    double secs = (double)n, step = nice_ceil(secs / 8);
    for (double s = 0; s <= secs; s += step) {
        double x = M_L + pw * (s / (double)stride) / span;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, y0 + 15, s);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">seconds into the phase</text>"
            "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">µs</text>\n",
            M_L + pw / 2, SVG_H - 8, M_T + ph / 2, M_T + ph / 2);
    size_t nmarks = 0;
    for (size_t g = 0; g < np; g++)
        if (marks[g] > 0) {
            double x = M_L + pw * ((double)g + 0.5) / span;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d00\" stroke-width=\"1.5\" "
                    "stroke-opacity=\"0.6\"/><path d=\"M%.1f %dl-4 -7h8z\" fill=\"#d00\"><title>second %zu: %.0f "
                    "xruns / missed deadlines</title></path>\n", x, M_T, x, y0, x, M_T, g * stride, marks[g]);
            nmarks++;
        }
    for (int l = 0; l < NL; l++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s%s%s points=\"", colors[l],
                lines[l].dash[0] ? " stroke-dasharray=\"" : "", lines[l].dash, lines[l].dash[0] ? "\"" : "");
        for (size_t g = 0; g < np; g++) {
            double y = v[g * NL + l];
            if (isnan(y))
                continue;
            fprintf(f, "%.1f,%.1f ", M_L + pw * ((double)g + 0.5) / span, y0 - ph * fmin(fabs(y), ymax) / ymax);
        }
        fputs("\"/>\n", f);
        if (np <= 120) /* a short run: show the points themselves, a polyline of one point draws nothing */
            for (size_t g = 0; g < np; g++)
                if (!isnan(v[g * NL + l]))
                    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>", M_L + pw * ((double)g + 0.5)
                            / span, y0 - ph * fmin(fabs(v[g * NL + l]), ymax) / ymax, colors[l]);
        fputc('\n', f);
    }
    const char *names[NL + 1], *cols[NL + 1], *dashes[NL + 1];
    for (int l = 0; l < NL; l++) {
        names[l] = lines[l].name;
        cols[l] = colors[l];
        dashes[l] = lines[l].dash[0] ? lines[l].dash : "1 0"; /* a line sample: solid or dashed */
    }
    names[NL] = "xrun / missed deadline";
    cols[NL] = "#d00";
    dashes[NL] = "";
    svg_legend(f, names, cols, dashes, NL + 1);
    if (nmarks == 0)
        fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#2a8f2a\">no xrun, no missed deadline</text>\n", M_L + 6,
                M_T + 14);
    fputs("</svg>\n", f);
    free(v);
    free(marks);
}
