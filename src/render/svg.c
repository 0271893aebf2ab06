/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every SVG plot of a page shares: the page-wide axis ranges, the frame (title, legend, plot area with its
 * axes written down in data-* attributes), text that never leaves the picture, decade ticks labelled as
 * durations, and the period line. The plots themselves are in svg_plots.c and svg_timeline.c. */
#include "render/svg.h"
#include "render/html.h"
#include "util/numfmt.h"
#include "util/utf8.h"
#include <math.h>
#include <string.h>

const char *const svg_palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                    "#e377c2", "#17becf" };
const size_t svg_palette_n = sizeof(svg_palette) / sizeof(svg_palette[0]);

#define M_L 84          /* room for the y tick labels ("1 in 100 k") and the y axis title */
#define M_R 22
#define M_B 46          /* tick labels and the x axis title */
#define PLOT_H 220
#define TITLE_Y 17
#define LEGEND_ROW 16

/* The smallest value a latency axis starts at: 10 ns. Below that is the clock's resolution. */
#define LAT_FLOOR_US 0.01

void svg_axes_init(struct page_axes *a)
{
    memset(a, 0, sizeof(*a));
    a->lat = (struct axis){ INFINITY, 0, 1 };
    a->tl = (struct axis){ INFINITY, 0, 1 };
}

void svg_axes_add_hist(struct page_axes *a, const struct rhist *h)
{
    for (size_t b = 0; h && b < h->n; b++) {
        double mid = (h->lo[b] + h->hi[b]) / 2;
        if (mid > 0 && mid < a->lat.lo)
            a->lat.lo = mid;
        if (h->hi[b] > a->lat.hi)
            a->lat.hi = h->hi[b];
    }
    if (h && h->total > a->cycles_max)
        a->cycles_max = h->total;
}

void svg_axes_add_period(struct page_axes *a, double period_us)
{
    if (!(period_us > 0) || !isfinite(period_us))
        return;
    a->lat.hi = fmax(a->lat.hi, period_us * 1.5);
    a->lat.lo = fmin(a->lat.lo, period_us);
    a->tl.hi = fmax(a->tl.hi, period_us * 1.5);
}

static const char *const tl_keys[] = { "jitter_abs_max_us", "jitter_abs_p99_us", "wakeup_max_us",
                                       "wakeup_p99_us" };

void svg_axes_add_timeline(struct page_axes *a, const json_t *tl, double measured_s)
{
    size_t i;
    const json_t *e;
    json_array_foreach(tl, i, e)
        for (size_t k = 0; k < sizeof(tl_keys) / sizeof(tl_keys[0]); k++) {
            double v = json_number_value(json_object_get(e, tl_keys[k]));
            if (v > 0 && isfinite(v)) {
                a->tl.lo = fmin(a->tl.lo, v);
                a->tl.hi = fmax(a->tl.hi, v);
            }
        }
    /* What the timeline covers: its seconds, the last one only as far as the phase ran. */
    double n = (double)json_array_size(tl);
    double secs = isfinite(measured_s) && measured_s > 0 ? fmin(measured_s, n > 0 ? n : measured_s) : n;
    a->tl_secs = fmax(a->tl_secs, secs);
}

/* [lo, hi] out to whole decades, lo not under floor; an empty range becomes [floor_default, 10 x that]. */
static void decades(struct axis *x, double floor_us, double dflt)
{
    if (!isfinite(x->lo) || !(x->hi > 0)) {
        x->lo = dflt;
        x->hi = dflt * 10;
    }
    double d0 = floor(log10(fmax(x->lo, floor_us))), d1 = ceil(log10(fmax(x->hi, x->lo)));
    if (d1 <= d0)
        d1 = d0 + 1;
    x->lo = pow(10, d0);
    x->hi = pow(10, fmin(d1, 9)); /* 1000 s at most */
    if (x->hi <= x->lo)
        x->hi = x->lo * 10;
    x->log = 1;
}

/* Bins per decade of a histogram: 40 (each 6 % wide, four times a bucket's 1.6 %). */
#define BINS_PER_DECADE 40

void svg_axes_finish(struct page_axes *a, const struct rhist *const *hs, size_t nh)
{
    decades(&a->lat, LAT_FLOOR_US, 1);
    decades(&a->tl, 0.1, 1);
    /* Whole seconds; a phase that ran 2.003 s does not get a third, empty one. */
    a->tl_secs = a->tl_secs > 0 ? fmax(1, ceil(a->tl_secs - 0.01)) : 1;
    /* The histograms' count axis: the tallest bin any of them will draw. */
    double d0 = log10(a->lat.lo);
    int nbins = (int)lround((log10(a->lat.hi) - d0) * BINS_PER_DECADE);
    double bins[9 * 12 * BINS_PER_DECADE];
    if (nbins > (int)(sizeof(bins) / sizeof(bins[0])))
        nbins = (int)(sizeof(bins) / sizeof(bins[0]));
    a->count_max = 1;
    for (size_t i = 0; i < nh; i++) {
        memset(bins, 0, sizeof(bins));
        for (size_t b = 0; hs[i] && b < hs[i]->n; b++) {
            double mid = (hs[i]->lo[b] + hs[i]->hi[b]) / 2;
            double pos = mid > 0 ? (log10(mid) - d0) * BINS_PER_DECADE : 0;
            int k = pos < 0 ? 0 : pos >= nbins ? nbins - 1 : (int)pos;
            bins[k] += hs[i]->count[b];
        }
        for (int k = 0; k < nbins; k++)
            a->count_max = fmax(a->count_max, bins[k]);
    }
    if (!(a->cycles_max >= 1))
        a->cycles_max = 1;
}

/* ---- text ---- */

double svg_text_width(const char *text, double font_px)
{
    /* DejaVu Sans (what sans-serif is on Debian) averages about 0.6 em on digits and lower case; capitals and
     * m, w about 0.85, spaces and narrow punctuation about 0.35. Estimated on the wide side. */
    double em = 0;
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
        if ((*p & 0xc0) == 0x80)
            continue;
        if (*p >= 0x80)
            em += 0.75;
        else if (*p == ' ' || *p == '.' || *p == ',' || *p == ':' || *p == ';' || *p == '|' || *p == '\'' ||
                 *p == 'i' || *p == 'l' || *p == 'j' || *p == '!' || *p == '(' || *p == ')')
            em += 0.38;
        else if ((*p >= 'A' && *p <= 'Z') || *p == 'm' || *p == 'w' || *p == '%' || *p == '@')
            em += 0.9;
        else
            em += 0.65;
    }
    return em * font_px;
}

/* svg_text() with attrs (NULL, or " name=\"value\"..." written into the element as they are). */
static void text_attrs(FILE *f, const struct frame *fr, double x, double y, const char *anchor, const char *cls,
                       const char *attrs, const char *text)
{
    double w = svg_text_width(text, SVG_FONT);
    double left = !strcmp(anchor, "middle") ? x - w / 2 : !strcmp(anchor, "end") ? x - w : x;
    if (left + w > fr->w - 2)
        left = fr->w - 2 - w;
    if (left < 2)
        left = 2;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s%s%s>", left, y, cls ? " class=\"" : "", cls ? cls : "",
            cls ? "\"" : "", attrs ? attrs : "");
    html_escape(f, text);
    fputs("</text>\n", f);
}

void svg_text(FILE *f, const struct frame *fr, double x, double y, const char *anchor, const char *cls,
              const char *text)
{
    text_attrs(f, fr, x, y, anchor, cls, NULL, text);
}

/* ---- the frame ---- */

static double ax_pos(const struct axis *a, double v)
{
    double p;
    if (a->log)
        p = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
    else
        p = (v - a->lo) / (a->hi - a->lo);
    return isnan(p) ? 0 : p < 0 ? 0 : p > 1 ? 1 : p;
}

double svg_x(const struct frame *fr, const struct axis *a, double v)
{
    return fr->l + (fr->r - fr->l) * ax_pos(a, v);
}

double svg_y(const struct frame *fr, const struct axis *a, double v)
{
    return fr->b - (fr->b - fr->t) * ax_pos(a, v);
}

/* A legend name that fits in max_px, cut with "…" when it does not. */
static void fit_name(char *out, size_t len, const char *name, double max_px)
{
    snprintf(out, len, "%.*s", utf8_prefix(name, len - 4), name); /* room for "…": never cut it */
    while (svg_text_width(out, SVG_FONT) > max_px && strlen(out) > 4) {
        size_t l = strlen(out);
        if (l >= 3 && !strcmp(out + l - 3, "…"))
            l -= 3;
        do /* one whole character less */
            l--;
        while (l > 0 && ((unsigned char)out[l] & 0xc0) == 0x80);
        snprintf(out + l, len - l, "…");
    }
}

#define LEG_SAMPLE 18
#define LEG_GAP 16

void svg_begin(FILE *f, struct frame *fr, const char *title, const struct legend_item *items, size_t n,
               const struct axis *x, const struct axis *y)
{
    /* Lay the legend out first: its rows decide where the plot area starts. */
    char names[24][160];
    double xs[24];
    int rows[24], nrows = n ? 1 : 0;
    double pos = M_L, avail = SVG_W - M_R - M_L;
    if (n > 24)
        n = 24;
    for (size_t i = 0; i < n; i++) {
        fit_name(names[i], sizeof(names[i]), items[i].name ? items[i].name : "", avail - LEG_SAMPLE - 4);
        double w = LEG_SAMPLE + 4 + svg_text_width(names[i], SVG_FONT);
        if (pos > M_L && pos + w > SVG_W - M_R) {
            nrows++;
            pos = M_L;
        }
        xs[i] = pos;
        rows[i] = nrows - 1;
        pos += w + LEG_GAP;
    }
    fr->w = SVG_W;
    fr->l = M_L;
    fr->r = SVG_W - M_R;
    fr->t = TITLE_Y + 10 + nrows * LEGEND_ROW;
    fr->b = fr->t + PLOT_H;
    fr->h = fr->b + M_B;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\" font-family=\"sans-serif\" font-size=\"%d\">\n<title>", fr->w, fr->h, fr->w, fr->h,
            SVG_FONT);
    html_escape(f, title);
    fputs("</title>\n", f);
    fprintf(f, "<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fcfcfc\" "
            "stroke=\"#999\" data-x-min=\"%.6g\" data-x-max=\"%.6g\" data-x-scale=\"%s\" data-y-min=\"%.6g\" "
            "data-y-max=\"%.6g\" data-y-scale=\"%s\"/>\n", fr->l, fr->t, fr->r - fr->l, fr->b - fr->t, x->lo,
            x->hi, x->log ? "log" : "linear", y->lo, y->hi, y->log ? "log" : "linear");
    /* The title: bold and 13 px, cut like a legend name if it must be. */
    char t[256];
    fit_name(t, sizeof(t), title ? title : "", (SVG_W - 4 - M_L) / 1.3);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">", M_L, TITLE_Y);
    html_escape(f, t);
    fputs("</text>\n", f);
    for (size_t i = 0; i < n; i++) {
        double ly = TITLE_Y + 10 + rows[i] * LEGEND_ROW + 8;
        if (items[i].dash)
            fprintf(f, "<line class=\"legend\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    "stroke-width=\"2\"%s%s%s/>", xs[i], ly - 4, xs[i] + LEG_SAMPLE, ly - 4, items[i].color,
                    items[i].dash[0] ? " stroke-dasharray=\"" : "", items[i].dash, items[i].dash[0] ? "\"" : "");
        else
            fprintf(f, "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\" "
                    "fill-opacity=\"0.5\" stroke=\"%s\"/>", xs[i] + 3, ly - 9, items[i].color, items[i].color);
        svg_text(f, fr, xs[i] + LEG_SAMPLE + 4, ly, "start", "legend", names[i]);
    }
}

void svg_lat_ticks_x(FILE *f, const struct frame *fr, const struct axis *a)
{
    for (double d = round(log10(a->lo)); d <= round(log10(a->hi)) + 1e-9; d++) {
        double v = pow(10, d), x = svg_x(fr, a, v);
        char lab[48];
        dur_human(lab, sizeof(lab), v, "µs");
        fprintf(f, "<g class=\"tick-x\" data-v=\"%.6g\">", v);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\"/>", x, fr->t, x, fr->b);
        svg_text(f, fr, x, fr->b + 15, "middle", NULL, lab);
        fputs("</g>\n", f);
    }
}

void svg_axis_titles(FILE *f, const struct frame *fr, const char *xtitle, const char *ytitle)
{
    svg_text(f, fr, (fr->l + fr->r) / 2, fr->h - 8, "middle", NULL, xtitle);
    double cy = (fr->t + fr->b) / 2, w = svg_text_width(ytitle, SVG_FONT);
    /* Written upwards: its extent is vertical, so it is placed by its height, centred on the plot area. */
    fprintf(f, "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\" "
            "data-extent=\"%.0f\">", cy, cy, w);
    html_escape(f, ytitle);
    fputs("</text>\n", f);
}

static void period_label(char *buf, size_t len, double period_us)
{
    char d[48];
    dur_human(d, sizeof(d), period_us, "µs");
    snprintf(buf, len, "period %s", d);
}

void svg_period_x(FILE *f, const struct frame *fr, const struct axis *a, double period_us, int row)
{
    if (!(period_us > 0) || !isfinite(period_us))
        return;
    double x = svg_x(fr, a, period_us);
    char lab[64];
    period_label(lab, sizeof(lab), period_us);
    fprintf(f, "<line class=\"period\" data-us=\"%.6g\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
            "stroke=\"#000\" stroke-width=\"1.6\" stroke-dasharray=\"6 3\"/>\n", period_us, x, fr->t, x, fr->b);
    /* The label beside the line, on the side with room; each period's on a row of its own, so that the labels
     * of periods a few pixels apart (64 and 128 frames in compare) do not write over each other. */
    double w = svg_text_width(lab, SVG_FONT), y = fr->t + 13 + 13 * row;
    /* A halo of the plot's background under the letters, where another period's line passes behind them. */
    static const char halo[] = " stroke=\"#fcfcfc\" stroke-width=\"3\" paint-order=\"stroke\"";
    if (x + 4 + w <= fr->r)
        text_attrs(f, fr, x + 4, y, "start", "period-label", halo, lab);
    else
        text_attrs(f, fr, x - 4, y, "end", "period-label", halo, lab);
}

void svg_period_y(FILE *f, const struct frame *fr, const struct axis *a, double period_us)
{
    if (!(period_us > 0) || !isfinite(period_us))
        return;
    double y = svg_y(fr, a, period_us);
    char lab[64];
    period_label(lab, sizeof(lab), period_us);
    fprintf(f, "<line class=\"period\" data-us=\"%.6g\" x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
            "stroke=\"#000\" stroke-width=\"1.6\" stroke-dasharray=\"6 3\"/>\n", period_us, fr->l, y, fr->r, y);
    svg_text(f, fr, fr->r - 4, y > fr->t + 14 ? y - 4 : y + 13, "end", "period-label", lab);
}

void svg_empty(FILE *f, const struct frame *fr, const char *why)
{
    svg_text(f, fr, (fr->l + fr->r) / 2, (fr->t + fr->b) / 2, "middle", NULL, why);
    fputs("</svg>\n", f);
}
