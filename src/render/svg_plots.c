/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency plots: a histogram of one phase (wakeup and |jitter| on one logarithmic µs axis, counts on a
 * logarithmic axis so that a single late cycle still shows), and the exceedance curves of a comparison (for
 * each report the share of cycles later than x, log-log), both with the period drawn where it falls. */
#include "render/svg.h"
#include "render/html.h"
#include "util/numfmt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BINS_PER_DECADE 40 /* as svg_axes_finish() counts them */

/* Decade ticks on a log y axis, labelled by label(). */
static void y_ticks(FILE *f, const struct frame *fr, const struct axis *y,
                    void (*label)(char *, size_t, double))
{
    for (double e = ceil(log10(y->lo) - 1e-9); e <= log10(y->hi) + 1e-9; e++) {
        double v = pow(10, e), py = svg_y(fr, y, v);
        char lab[48];
        label(lab, sizeof(lab), v);
        fprintf(f, "<g class=\"tick-y\" data-v=\"%.6g\"><line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                "stroke=\"#ddd\"/>", v, fr->l, py, fr->r, py);
        svg_text(f, fr, fr->l - 5, py + 4, "end", NULL, lab);
        fputs("</g>\n", f);
    }
}

static void count_label(char *buf, size_t len, double v)
{
    num_human(buf, len, v);
}

static const char *series_color(const struct series *s, size_t i)
{
    return s[i].color ? s[i].color : svg_palette[i % svg_palette_n];
}

void svg_histogram(FILE *f, const char *title, const struct series *s, size_t ns, const struct page_axes *a,
                   double period_us, double *below)
{
    struct legend_item items[9];
    size_t nl = 0;
    for (size_t i = 0; i < ns && nl < 8; i++)
        items[nl++] = (struct legend_item){ s[i].name, series_color(s, i), NULL };
    items[nl++] = (struct legend_item){ "period (the deadline)", "#000", "6 3" };
    /* Counts from 1 up; the axis starts half a count lower so that a bin of one cycle has a visible height. */
    struct axis y = { pow(10, -0.3), pow(10, ceil(log10(fmax(a->count_max, 10)) - 1e-9)), 1 };
    struct frame fr;
    svg_begin(f, &fr, title, items, nl, &a->lat, &y);
    if (below)
        *below = 0;
    double total = 0;
    for (size_t i = 0; i < ns; i++)
        total += s[i].h ? s[i].h->total : 0;
    if (!(total > 0)) {
        svg_empty(f, &fr, "no data");
        return;
    }
    double d0 = log10(a->lat.lo);
    int nbins = (int)lround((log10(a->lat.hi) - d0) * BINS_PER_DECADE);
    double *bins = calloc((size_t)nbins, sizeof(double));
    if (!bins) {
        fputs("</svg>\n", f);
        return;
    }
    svg_lat_ticks_x(f, &fr, &a->lat);
    y_ticks(f, &fr, &y, count_label);
    svg_axis_titles(f, &fr, "latency (log scale)", "cycles (log scale)");
    for (size_t i = 0; i < ns; i++) {
        memset(bins, 0, (size_t)nbins * sizeof(double));
        for (size_t b = 0; s[i].h && b < s[i].h->n; b++) {
            double mid = (s[i].h->lo[b] + s[i].h->hi[b]) / 2;
            double pos = mid > 0 ? (log10(mid) - d0) * BINS_PER_DECADE : -1;
            if (pos < 0 && below)
                *below += s[i].h->count[b];
            int k = pos < 0 ? 0 : pos >= nbins ? nbins - 1 : (int)pos;
            bins[k] += s[i].h->count[b];
        }
        /* A step outline, down to the axis where a bin is empty: a level is drawn once however many bins share
         * it (H to where it ends, V to the next), not twice per bin (most bins are empty: 11 kB a plot). */
        const char *col = series_color(s, i);
        fprintf(f, "<path class=\"series\" fill=\"%s\" fill-opacity=\"0.22\" stroke=\"%s\" stroke-width=\"1.2\" "
                "d=\"M%.1f %.1f", col, col, fr.l, fr.b);
        double level = fr.b;
        for (int k = 0; k < nbins; k++) {
            double py = bins[k] > 0 ? svg_y(&fr, &y, bins[k]) : fr.b;
            char a[16], b[16];
            snprintf(a, sizeof(a), "%.1f", py);
            snprintf(b, sizeof(b), "%.1f", level);
            if (strcmp(a, b)) /* as printed: a level that rounds to the last one goes on */
                fprintf(f, "H%.1fV%s", fr.l + (fr.r - fr.l) * k / nbins, a);
            level = py;
        }
        fprintf(f, "H%.1fV%.1fZ\"><title>", fr.r, fr.b);
        html_escape(f, s[i].name);
        fputs("</title></path>\n", f);
    }
    free(bins);
    svg_period_x(f, &fr, &a->lat, period_us, 0);
    fputs("</svg>\n", f);
}

static void share_label(char *buf, size_t len, double v)
{
    if (v >= 0.999) {
        snprintf(buf, len, "every cycle");
        return;
    }
    char n[32];
    num_human(n, sizeof(n), 1 / v);
    snprintf(buf, len, "1 in %s", n);
}

/* Told apart by colour and by dash, for readers who do not see the colours. */
static const char *const dashes[] = { "", "7 3", "2 2", "9 3 2 3" };

void svg_ccdf(FILE *f, const char *title, const struct series *s, size_t ns, const struct page_axes *a,
              const double *periods_us, size_t n_periods)
{
    struct legend_item items[24];
    size_t nl = 0;
    for (size_t i = 0; i < ns && nl < 20; i++)
        items[nl++] = (struct legend_item){ s[i].name, series_color(s, i), dashes[(i + i / svg_palette_n) % 4] };
    if (n_periods)
        items[nl++] = (struct legend_item){ "period (the deadline)", "#000", "6 3" };
    struct axis y = { pow(10, -ceil(log10(fmax(a->cycles_max, 10)) - 1e-9)), 1, 1 };
    struct frame fr;
    svg_begin(f, &fr, title, items, nl, &a->lat, &y);
    if (ns == 0) {
        svg_empty(f, &fr, "no report ran this load with a histogram");
        return;
    }
    svg_lat_ticks_x(f, &fr, &a->lat);
    y_ticks(f, &fr, &y, share_label);
    svg_axis_titles(f, &fr, "later than this (log scale)", "share of cycles");
    for (size_t i = 0; i < ns; i++) {
        const struct rhist *h = s[i].h;
        if (!h || !(h->total > 0))
            continue;
        fprintf(f, "<path class=\"series\" data-name=\"");
        html_escape(f, s[i].name);
        fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s%s%s d=\"", series_color(s, i),
                dashes[(i + i / svg_palette_n) % 4][0] ? " stroke-dasharray=\"" : "",
                dashes[(i + i / svg_palette_n) % 4], dashes[(i + i / svg_palette_n) % 4][0] ? "\"" : "");
        /* S(x), the share above x: flat between buckets, falling across each; after the last bucket none is
         * left, which a log axis shows as a drop to its bottom. */
        double above = h->total;
        fprintf(f, "M%.1f %.1f", fr.l, svg_y(&fr, &y, 1));
        for (size_t b = 0; b < h->n; b++) {
            fprintf(f, "L%.1f %.1f", svg_x(&fr, &a->lat, h->lo[b]), svg_y(&fr, &y, above / h->total));
            above -= h->count[b];
            double sh = above / h->total;
            fprintf(f, "L%.1f %.1f", svg_x(&fr, &a->lat, h->hi[b]), sh > 0 ? svg_y(&fr, &y, sh) : fr.b);
        }
        fputs("\"><title>", f);
        html_escape(f, s[i].name);
        fputs("</title></path>\n", f);
    }
    for (size_t k = 0; k < n_periods; k++)
        svg_period_x(f, &fr, &a->lat, periods_us[k], (int)k);
    fputs("</svg>\n", f);
}
