/* HTML pages with inline SVG plots, rendered from report and comparison documents. No script: the page must
 * read the same in a mail attachment, a forum post or a browser with JavaScript off. */
#include "render/html.h"
#include "report/compare.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void html_escape(FILE *f, const char *s)
{
    if (!s)
        return;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        switch (c) {
        case '&': fputs("&amp;", f); p++; continue;
        case '<': fputs("&lt;", f); p++; continue;
        case '>': fputs("&gt;", f); p++; continue;
        case '"': fputs("&quot;", f); p++; continue;
        case '\'': fputs("&#39;", f); p++; continue;
        case '\t': case '\n': fputc((int)c, f); p++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7f) { /* not allowed in XML, invisible in HTML */
            fputs("\xef\xbf\xbd", f);
            p++;
            continue;
        }
        if (c < 0x80) {
            fputc((int)c, f);
            p++;
            continue;
        }
        /* A multi-byte sequence is copied only when it is valid UTF-8 (no overlong form, no surrogate). */
        size_t n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        int ok = n != 0;
        for (size_t i = 1; ok && i < n; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (ok) {
            unsigned cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
            for (size_t i = 1; i < n; i++)
                cp = (cp << 6) | (p[i] & 0x3f);
            ok = (n == 2 && cp >= 0x80) || (n == 3 && cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff) &&
                                            cp != 0xfffe && cp != 0xffff) ||
                 (n == 4 && cp >= 0x10000 && cp <= 0x10ffff);
        }
        if (!ok) {
            fputs("\xef\xbf\xbd", f);
            p++;
            continue;
        }
        fwrite(p, 1, n, f);
        p += n;
    }
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static void fnum(FILE *f, double v, int prec)
{
    if (isnan(v))
        fputs("-", f);
    else
        fprintf(f, "%.*f", prec, v);
}

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                       "#e377c2", "#17becf" };
#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

static void page_start(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    html_escape(f, title);
    fputs("</title>\n<style>\n"
          "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222;"
          "background:#fff}\n"
          "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
          "table{border-collapse:collapse;margin:.5em 0;font-size:.92em}"
          "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right;vertical-align:top}"
          "th{background:#f2f2f2}td.k,th.k{text-align:left}td.v{text-align:left;word-break:break-word}\n"
          ".verdict{padding:.8em 1em;border-radius:6px;border:2px solid #888;background:#f7f7f7}"
          ".pass{border-color:#2a8f2a;background:#eef8ee}.warn{border-color:#c98a00;background:#fff8e6}"
          ".fail{border-color:#c02020;background:#fdeeee}\n"
          ".level{font-weight:bold;font-size:1.2em}.summary{font-size:1.1em}\n"
          ".better{color:#1d7a1d;font-weight:bold}.worse{color:#b01c1c;font-weight:bold}"
          ".same{color:#555}.weak{color:#9a6a00}\n"
          ".warning{color:#8a5a00}figure{margin:.5em 0}figcaption{font-size:.9em;color:#444}"
          "svg{max-width:100%;height:auto;background:#fff}\n"
          "details summary{cursor:pointer}code{font-size:.9em}.wide{overflow-x:auto}\n"
          "</style>\n</head>\n<body>\n", f);
}

static void page_end(FILE *f, const char *version)
{
    fputs("<footer><p style=\"color:#777;font-size:.85em\">Made by rtjitter ", f);
    html_escape(f, version);
    fputs(". This page is self-contained: it loads nothing and runs no script.</p></footer>\n</body>\n</html>\n",
          f);
}

/* ---- SVG: latency histogram with a logarithmic count axis ---- */

struct series {
    const char *name;
    const struct rhist *h;
};

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
        snprintf(name, sizeof(name), "%s", names[i] ? names[i] : "");
        size_t l = strlen(name);
        if (l == sizeof(name) - 1) { /* do not leave a cut UTF-8 character */
            while (l > 0 && ((unsigned char)name[l - 1] & 0xc0) == 0x80)
                name[--l] = '\0';
            if (l > 0 && ((unsigned char)name[l - 1] & 0xc0) == 0xc0)
                name[--l] = '\0';
        }
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

static void svg_histogram(FILE *f, const char *title, const char *xlabel, const struct series *s, size_t ns)
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

static void svg_timeline(FILE *f, const char *title, const json_t *tl)
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
                double x = num(e, lines[l].key);
                if (!isnan(x) && (isnan(v[g * NL + l]) || x > v[g * NL + l]))
                    v[g * NL + l] = x;
            }
            double xr = fmax(num(e, "xruns_reported"), num(e, "xruns_detected"));
            double dm = num(e, "deadlines_missed");
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

/* ---- pieces of the report page ---- */

static void kv_row(const char *key, const char *value, void *arg)
{
    FILE *f = arg;
    fputs("<tr><td class=\"k\">", f);
    html_escape(f, key);
    fputs("</td><td class=\"v\">", f);
    html_escape(f, value);
    fputs("</td></tr>\n", f);
}

static void kv_table(FILE *f, const json_t *o)
{
    fputs("<table>\n", f);
    if (json_is_object(o))
        flatten_json(o, "", 0, kv_row, f);
    fputs("</table>\n", f);
}

static const char *level_class(const char *level)
{
    if (level && !strcmp(level, "pass"))
        return "pass";
    if (level && !strcmp(level, "warn"))
        return "warn";
    if (level && !strcmp(level, "fail"))
        return "fail";
    return "";
}

static void identity_line(FILE *f, const json_t *doc)
{
    const json_t *sys = json_object_get(doc, "system");
    const json_t *k = json_object_get(sys, "kernel"), *cpu = json_object_get(sys, "cpu");
    const json_t *au = json_object_get(doc, "audio");
    char buf[512];
    fputs("<p><b>Kernel</b> ", f);
    html_escape(f, str(k, "release") ? str(k, "release") : "unknown");
    static const char *const kkeys[] = { "preempt", "hz" };
    for (size_t i = 0; i < 2; i++) {
        const json_t *v = json_object_get(k, kkeys[i]);
        if (!v || json_is_object(v) || json_is_array(v))
            continue;
        fputs(", ", f);
        html_escape(f, kkeys[i]);
        fputc(' ', f);
        if (json_is_string(v))
            html_escape(f, json_string_value(v));
        else if (json_is_number(v))
            fprintf(f, "%g", json_number_value(v));
    }
    const char *model = str(cpu, "model");
    if (model) {
        fputs(" · <b>CPU</b> ", f);
        html_escape(f, model);
    }
    if (str(sys, "hostname")) {
        fputs(" · <b>host</b> ", f);
        html_escape(f, str(sys, "hostname"));
    }
    snprintf(buf, sizeof(buf), "%.0f frames @ %.0f Hz = %.3f ms", num(au, "period_frames"), num(au, "rate"),
             num(au, "period_us") / 1000.0);
    fputs("<br><b>Audio</b> ", f);
    html_escape(f, buf);
    fputs(", ", f);
    html_escape(f, str(au, "provider") ? str(au, "provider") : "?");
    fputc(' ', f);
    html_escape(f, str(au, "provider_version"));
    fputs(", ", f);
    html_escape(f, str(au, "server"));
    fputs(" server, ", f);
    html_escape(f, json_is_true(json_object_get(au, "realtime")) ? "real-time scheduling" :
                "NOT real-time scheduling");
    fputs("</p>\n", f);
}

static void phase_name(const json_t *p, char *buf, size_t len)
{
    compare_phase_key(p, buf, len);
}

static void phases_table(FILE *f, const json_t *doc)
{
    fputs("<div class=\"wide\"><table>\n<tr><th class=\"k\">Load</th><th>Jitter mean ± SD (µs)</th><th>p99</th><th>p99.9</th>"
          "<th>|max|</th><th>Wakeup mean ± SD (µs)</th><th>p99</th><th>p99.9</th><th>max</th><th>Deadlines met "
          "%</th><th>Xruns reported / detected</th><th>Cycles</th><th class=\"k\">Throughput</th></tr>\n", f);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        char name[128];
        phase_name(p, name, sizeof(name));
        const json_t *j = json_object_get(p, "jitter_us"), *w = json_object_get(p, "wakeup_us");
        const json_t *x = json_object_get(p, "xruns");
        fputs("<tr><td class=\"k\">", f);
        html_escape(f, name);
        fputs("</td><td>", f);
        fnum(f, num(j, "mean"), 1);
        fputs(" ± ", f);
        fnum(f, num(j, "sd"), 1);
        fputs("</td><td>", f);
        fnum(f, num(j, "p99"), 1);
        fputs("</td><td>", f);
        fnum(f, num(j, "p999"), 1);
        fputs("</td><td>", f);
        fnum(f, num(j, "abs_max"), 1);
        fputs("</td><td>", f);
        fnum(f, num(w, "mean"), 1);
        fputs(" ± ", f);
        fnum(f, num(w, "sd"), 1);
        fputs("</td><td>", f);
        fnum(f, num(w, "p99"), 1);
        fputs("</td><td>", f);
        fnum(f, num(w, "p999"), 1);
        fputs("</td><td>", f);
        fnum(f, num(w, "max"), 1);
        fputs("</td><td>", f);
        fnum(f, num(p, "deadlines_met_pct"), 3);
        fputs("</td><td>", f);
        fnum(f, num(x, "reported"), 0);
        fputs(" / ", f);
        fnum(f, num(x, "detected"), 0);
        fputs("</td><td>", f);
        fnum(f, num(p, "cycles"), 0);
        fputs("</td><td class=\"v\">", f);
        size_t li;
        const json_t *lm;
        json_array_foreach(json_object_get(p, "load_metrics"), li, lm) {
            if (li)
                fputs("<br>", f);
            html_escape(f, str(lm, "name"));
            fputs(": ", f);
            fprintf(f, "%.4g ", num(lm, "value"));
            html_escape(f, str(lm, "unit"));
        }
        if (str(p, "load_error")) {
            fputs("<span class=\"warning\">", f);
            html_escape(f, str(p, "load_error"));
            fputs("</span>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
}

static void strings_list(FILE *f, const json_t *a, const char *cls)
{
    if (!json_array_size(a))
        return;
    fprintf(f, "<ul class=\"%s\">\n", cls);
    size_t i;
    const json_t *s;
    json_array_foreach(a, i, s) {
        fputs("<li>", f);
        html_escape(f, json_string_value(s));
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

void html_report(FILE *f, const json_t *doc)
{
    const json_t *k = json_object_get(json_object_get(doc, "system"), "kernel");
    char title[512];
    const char *label = str(doc, "label");
    snprintf(title, sizeof(title), "rtjitter report: %.200s%s%.200s%s", str(k, "release") ? str(k, "release") : "?",
             label ? " (" : "", label ? label : "", label ? ")" : "");
    page_start(f, title);
    const json_t *v = json_object_get(doc, "verdict");
    const char *level = str(v, "level");
    fprintf(f, "<header class=\"verdict %s\">\n<h1>", level_class(level));
    html_escape(f, title);
    fputs("</h1>\n<p class=\"summary\"><span class=\"level\">", f);
    html_escape(f, level ? (!strcmp(level, "pass") ? "PASS" : !strcmp(level, "warn") ? "WARN"
                            : !strcmp(level, "fail") ? "FAIL" : level) : "NO VERDICT");
    fputs("</span> ", f);
    html_escape(f, str(v, "summary") ? str(v, "summary") : "This report carries no verdict.");
    fputs("</p>\n", f);
    strings_list(f, json_object_get(v, "advice"), "advice");
    if (!json_is_true(json_object_get(doc, "complete"))) {
        fputs("<p class=\"warning\"><b>Incomplete run:</b> ", f);
        html_escape(f, str(doc, "incomplete_reason") ? str(doc, "incomplete_reason") : "interrupted");
        fputs("</p>\n", f);
    }
    identity_line(f, doc);
    fputs("<p>Started ", f);
    html_escape(f, str(doc, "started"));
    fputs(", finished ", f);
    html_escape(f, str(doc, "finished"));
    fputs(". Command: <code>", f);
    html_escape(f, str(doc, "command"));
    fputs("</code></p>\n</header>\n", f);
    if (json_array_size(json_object_get(doc, "warnings"))) {
        fputs("<h2>Warnings</h2>\n", f);
        strings_list(f, json_object_get(doc, "warnings"), "warning");
    }
    fputs("<h2>Results per load</h2>\n", f);
    phases_table(f, doc);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        char name[128], cap[256];
        phase_name(p, name, sizeof(name));
        fputs("<h2>Load: ", f);
        html_escape(f, name);
        fputs("</h2>\n", f);
        struct rhist hw, hj;
        const json_t *hs = json_object_get(p, "histograms");
        if (rhist_from_json(json_object_get(hs, "wakeup"), 0, &hw) == 0) {
            if (rhist_from_json(json_object_get(hs, "jitter"), 1, &hj) == 0) {
                struct series s[2] = { { "wakeup latency", &hw }, { "|period jitter|", &hj } };
                snprintf(cap, sizeof(cap), "Latency histogram under %.100s", name);
                fputs("<figure>\n", f);
                svg_histogram(f, cap, "µs (log scale)", s, 2);
                fputs("<figcaption>Cycles per latency bucket; the count axis is logarithmic, so a single late "
                      "cycle still shows.</figcaption>\n</figure>\n", f);
                rhist_free(&hj);
            }
            rhist_free(&hw);
        }
        snprintf(cap, sizeof(cap), "Per-second maximum and p99 under %.100s", name);
        fputs("<figure>\n", f);
        svg_timeline(f, cap, json_object_get(p, "timeline"));
        fputs("<figcaption>Solid: the worst cycle of each second; dashed: its p99. Red marks: seconds with xruns "
              "or missed deadlines.</figcaption>\n</figure>\n", f);
    }
    fputs("<h2>System identity</h2>\n", f);
    kv_table(f, json_object_get(doc, "system"));
    fputs("<h2>Audio set-up</h2>\n", f);
    kv_table(f, json_object_get(doc, "audio"));
    page_end(f, str(json_object_get(doc, "tool"), "version"));
}

/* ---- the comparison page ---- */

static void compare_table(FILE *f, const json_t *load, const json_t *reports)
{
    fputs("<div class=\"wide\"><table>\n<tr><th class=\"k\"></th>", f);
    size_t i;
    const json_t *r;
    json_array_foreach(reports, i, r) {
        fputs("<th>", f);
        html_escape(f, str(r, "title"));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    const json_t *row;
    json_array_foreach(json_object_get(load, "rows"), i, row) {
        fputs("<tr><td class=\"k\">", f);
        html_escape(f, str(row, "label"));
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

static void overlay(FILE *f, const char *load, const char *metric, int fold, const char *what,
                    json_t *const *docs, const json_t *reports, size_t n)
{
    struct rhist *h = calloc(n, sizeof(*h));
    struct series *s = calloc(n, sizeof(*s));
    size_t ns = 0;
    if (!h || !s)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const json_t *p = compare_find_phase(docs[i], load);
        if (!p)
            continue;
        if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), metric), fold, &h[ns]) < 0)
            continue;
        s[ns].name = str(json_array_get(reports, i), "title");
        s[ns].h = &h[ns];
        ns++;
    }
    char cap[256];
    snprintf(cap, sizeof(cap), "%s under %.100s, every report", what, load);
    fputs("<figure>\n", f);
    svg_histogram(f, cap, "µs (log scale)", s, ns);
    fputs("</figure>\n", f);
out:
    for (size_t i = 0; h && i < ns; i++)
        rhist_free(&h[i]);
    free(h);
    free(s);
}

void html_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n)
{
    const json_t *reports = json_object_get(cmp, "reports");
    char title[256];
    snprintf(title, sizeof(title), "rtjitter compare: %zu reports", json_array_size(reports));
    page_start(f, title);
    /* The header's colour follows the plain answer: any "worse" is a warning, nothing decided is neutral. */
    int better = 0, worse = 0;
    size_t i, j;
    const json_t *load, *v;
    json_array_foreach(json_object_get(cmp, "loads"), i, load)
        json_array_foreach(json_object_get(load, "verdicts"), j, v) {
            better += !strcmp(str(v, "outcome") ? str(v, "outcome") : "", "better");
            worse += !strcmp(str(v, "outcome") ? str(v, "outcome") : "", "worse");
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
        html_escape(f, str(r, "title"));
        fputs("</td><td class=\"k\">", f);
        html_escape(f, str(r, "started"));
        fputs("</td><td>", f);
        fnum(f, num(r, "period_frames"), 0);
        fputs(" frames @ ", f);
        fnum(f, num(r, "rate"), 0);
        fputs(" Hz, ", f);
        html_escape(f, str(r, "provider") ? str(r, "provider") : str(r, "backend"));
        fputs("</td><td class=\"k\"><code>", f);
        html_escape(f, str(r, "file"));
        fputs("</code>", f);
        if (str(r, "noise_from")) {
            fputs("<br>run-to-run noise from <code>", f);
            html_escape(f, str(r, "noise_from"));
            fputs("</code>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</header>\n", f);
    if (json_array_size(json_object_get(cmp, "warnings"))) {
        fputs("<h2>Warnings</h2>\n", f);
        strings_list(f, json_object_get(cmp, "warnings"), "warning");
    }
    fputs("<h2>What differs in the system</h2>\n", f);
    const json_t *diff = json_object_get(cmp, "system_diff");
    if (!json_array_size(diff)) {
        fputs("<p>The system identity is the same in every report.</p>\n", f);
    } else {
        fputs("<table>\n<tr><th class=\"k\">key</th>", f);
        json_array_foreach(reports, i, r) {
            fputs("<th class=\"k\">", f);
            html_escape(f, str(r, "title"));
            fputs("</th>", f);
        }
        fputs("</tr>\n", f);
        json_array_foreach(diff, i, s) {
            fputs("<tr><td class=\"k\">", f);
            html_escape(f, str(s, "key"));
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
    json_array_foreach(json_object_get(cmp, "loads"), i, load) {
        const char *name = str(load, "load") ? str(load, "load") : "?";
        fputs("<h2>Load: ", f);
        html_escape(f, name);
        fputs("</h2>\n", f);
        compare_table(f, load, reports);
        overlay(f, name, "wakeup", 0, "Wakeup latency", docs, reports, n);
        overlay(f, name, "jitter", 1, "|Period jitter|", docs, reports, n);
        if (json_array_size(json_object_get(load, "verdicts"))) {
            size_t last = 0;
            json_array_foreach(json_object_get(load, "verdicts"), j, v) {
                size_t ri = (size_t)json_integer_value(json_object_get(v, "report"));
                if (ri != last) {
                    fputs(last ? "</ul>\n<p>" : "<p>", f);
                    html_escape(f, str(json_array_get(reports, ri), "title"));
                    fputs(" against the baseline:</p>\n<ul>\n", f);
                    last = ri;
                }
                const char *o = str(v, "outcome") ? str(v, "outcome") : "n/a";
                fprintf(f, "<li><span class=\"%s\">", !strcmp(o, "better") ? "better" : !strcmp(o, "worse")
                        ? "worse" : !strcmp(o, "weak") ? "weak" : "same");
                html_escape(f, o);
                fputs("</span> ", f);
                html_escape(f, str(v, "text"));
                fputs("</li>\n", f);
            }
            if (last)
                fputs("</ul>\n", f);
        }
    }
    fputs("<h2>How the verdicts are reached</h2>\n<p>", f);
    html_escape(f, str(cmp, "method"));
    fputs("</p>\n", f);
    page_end(f, RTJ_VERSION);
}

/* ---- files ---- */

struct render {
    const json_t *doc, *cmp;
    json_t *const *docs;
    size_t n;
};

static int write_atomically(const char *path, const struct render *r)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp-%d", path, (int)getpid()) >= (int)sizeof(tmp))
        return -ENAMETOOLONG;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -errno;
    if (r->cmp)
        html_compare(f, r->cmp, r->docs, r->n);
    else
        html_report(f, r->doc);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        int e = errno ? errno : EIO;
        unlink(tmp);
        return -e;
    }
    if (rename(tmp, path) < 0) {
        int e = errno;
        unlink(tmp);
        return -e;
    }
    return 0;
}

int html_report_file(const char *path, const json_t *doc)
{
    struct render r = { doc, NULL, NULL, 0 };
    return write_atomically(path, &r);
}

int html_compare_file(const char *path, const json_t *cmp, json_t *const *docs, size_t n)
{
    struct render r = { NULL, cmp, docs, n };
    return write_atomically(path, &r);
}
