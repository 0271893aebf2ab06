/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SVG plots inside the HTML pages: latency histograms (svg_plots.c), exceedance curves (svg_plots.c) and the
 * per-second timeline (svg_timeline.c), on the frame, axes and legend of svg.c. Every text in them goes
 * through html_escape().
 *
 * One axis range per page and metric: a page computes its struct page_axes once from every phase (or every
 * report) it shows and hands it to each plot, so that two loads, or two kernels, compare by eye. Every plot
 * draws the period, the deadline a musician looks for first, and says how its axes run in data-* attributes
 * of its plot area (<rect class="plot" data-x-min ... data-x-scale="log">), so that a test can check what is
 * drawn against the report without trusting this code. */
#ifndef RTJ_SVG_H
#define RTJ_SVG_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include "report/rhist.h"

struct axis {
    double lo, hi;  /* data values at the two ends; on a log axis powers of ten */
    int log;
};

/* The ranges every plot of one page shares. */
struct page_axes {
    struct axis lat;    /* latency in µs (histograms, exceedance curves): wakeup and |jitter| alike */
    double count_max;   /* histograms: the largest count of a drawn bin, for the count axis */
    double cycles_max;  /* exceedance curves: the most cycles of one series (1 in that many at the bottom) */
    struct axis tl;     /* timeline y: µs, log */
    double tl_secs;     /* timeline x: 0 .. this many seconds */
};

/* One histogram of a plot, named in its legend. */
struct series {
    const char *name;
    const struct rhist *h;
    const char *color;  /* NULL: the palette's, in order */
};

/* Empty ranges, to be widened by the svg_axes_* calls and closed by svg_axes_finish(). */
void svg_axes_init(struct page_axes *a);
/* Widen the latency range by histogram h (wakeup, or |jitter| folded) and by a period of period_us. */
void svg_axes_add_hist(struct page_axes *a, const struct rhist *h);
void svg_axes_add_period(struct page_axes *a, double period_us);
/* Widen the timeline's range by a phase's timeline array and its measured seconds (NAN: from the array). */
void svg_axes_add_timeline(struct page_axes *a, const json_t *tl, double measured_s);
/* Round the ranges out to whole decades (whole seconds), and the histograms' count axis to the bins that
 * svg_histogram() will draw of hs[0..nh). */
void svg_axes_finish(struct page_axes *a, const struct rhist *const *hs, size_t nh);

/* Latency histogram on a->lat: x logarithmic in µs, count axis logarithmic so that one late cycle still shows;
 * one outline per series; the period as a vertical line. Values under the axis (0, or below 10 ns) are drawn
 * in the leftmost bin; *below gets how many there were (may be NULL). */
void svg_histogram(FILE *f, const char *title, const struct series *s, size_t ns, const struct page_axes *a,
                   double period_us, double *below);
/* Exceedance curves (CCDF, log-log): for each series, the share of its cycles later than x; one line per
 * series, told apart by colour and dash; the periods (n_periods of them, usually one) as vertical lines. */
void svg_ccdf(FILE *f, const char *title, const struct series *s, size_t ns, const struct page_axes *a,
              const double *periods_us, size_t n_periods);
/* The per-second timeline of a phase ("timeline" array of a report): the max and p99 of |jitter| and wakeup
 * as steps over each second on a logarithmic µs axis, the period as a horizontal line, a red mark on each
 * second with xruns or missed deadlines. A last second that ran only in part (measured_s, else its cycles
 * against cycles_per_s) is drawn over that part only. */
void svg_timeline(FILE *f, const char *title, const json_t *tl, const struct page_axes *a, double period_us,
                  double measured_s, double cycles_per_s, const json_t *marks);
/* With marks (a report's phase that carries culprits; NULL: none, and the plot is as it always was), a purple
 * diamond at the top for each of its listed xrun events and an orange circle at its wake-up for each listed spike,
 * at its time into the phase (t_s less clock_window_s[0]), each with its top culprit as its tooltip (<g
 * class="cmark event|spike" data-t="seconds">). */

/* ---- for the plot files (svg.c) ---- */

#define SVG_W 960
#define SVG_FONT 11

/* A plot's frame: the picture's size and its plot area's edges, in px. */
struct frame {
    double w, h;
    double l, r, t, b;   /* left, right, top, bottom of the plot area */
};

struct legend_item {
    const char *name;
    const char *color;
    const char *dash;    /* line sample with this dash pattern ("" solid); NULL: a filled swatch */
};

/* Opens an <svg> with its title and legend (rows under the title, as many as the names need), and the plot
 * area: fr gets the geometry. x and y say how the plot area's axes run (data-* attributes). */
void svg_begin(FILE *f, struct frame *fr, const char *title, const struct legend_item *items, size_t n,
               const struct axis *x, const struct axis *y);
/* Position of v on an axis, in px. Values outside the range are clamped to its ends. */
double svg_x(const struct frame *fr, const struct axis *a, double v);
double svg_y(const struct frame *fr, const struct axis *a, double v);
/* Text at (x, y) with anchor "start", "middle" or "end", moved inwards as much as needed to stay inside the
 * picture (its width is estimated from its characters); cls is a class name or NULL. */
void svg_text(FILE *f, const struct frame *fr, double x, double y, const char *anchor, const char *cls,
              const char *text);
/* The estimated width in px of text at SVG_FONT (bold: a little wider). */
double svg_text_width(const char *text, double font_px);
/* Decade ticks and grid on a log x axis, labelled as durations (µs, ms, s). */
void svg_lat_ticks_x(FILE *f, const struct frame *fr, const struct axis *a);
/* The axis title under the plot area, and the y axis title written upwards at the left. */
void svg_axis_titles(FILE *f, const struct frame *fr, const char *xtitle, const char *ytitle);
/* The period as a vertical (x axis in µs) or horizontal (y axis in µs) line, labelled; a vertical one's label on
 * text row `row` from the top (0 for the first period of a plot, 1 for the next, ...). */
void svg_period_x(FILE *f, const struct frame *fr, const struct axis *a, double period_us, int row);
void svg_period_y(FILE *f, const struct frame *fr, const struct axis *a, double period_us);
/* A "no data" note and the end of the picture. */
void svg_empty(FILE *f, const struct frame *fr, const char *why);

extern const char *const svg_palette[];
extern const size_t svg_palette_n;

#endif
