/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-second timeline of a phase: for each second the worst cycle and its p99, of |jitter| and of wakeup,
 * drawn as steps over the part of the second that ran, on a logarithmic µs axis (one 12 ms spike must not
 * flatten every p99 line), with the period across and a red mark on each second with xruns or missed
 * deadlines. */
#include "render/svg.h"
#include "render/html.h"
#include "render/html_culprits.h"
#include "report/access.h"
#include "util/numfmt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TIMELINE_MAX_POINTS 1500

static const struct { const char *key, *name, *color, *dash; } lines[] = {
    { "jitter_abs_max_us", "|jitter| max", "#1f77b4", "" },
    { "jitter_abs_p99_us", "|jitter| p99", "#1f77b4", "4 3" },
    { "wakeup_max_us", "wakeup max", "#2ca02c", "" },
    { "wakeup_p99_us", "wakeup p99", "#2ca02c", "4 3" },
};
enum { NL = sizeof(lines) / sizeof(lines[0]) };

static double nice_step(double v)
{
    if (!(v > 0))
        return 1;
    double p = pow(10, floor(log10(v))), m = v / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

struct group {
    double t0, t1;      /* the seconds it covers: t1 - t0 < stride for a last second that ran in part */
    double v[NL];       /* the largest of each line's values in it, NAN when none */
    double marks;       /* xruns and missed deadlines */
    double cycles;
};

/* The groups of the timeline: each second, or `stride` seconds together for a long run (the largest values). */
static struct group *group_timeline(const json_t *tl, double measured_s, double cycles_per_s, size_t *np_out,
                                    size_t *stride_out)
{
    size_t n = json_array_size(tl);
    size_t stride = (n + TIMELINE_MAX_POINTS - 1) / TIMELINE_MAX_POINTS, np = (n + stride - 1) / stride;
    struct group *g = calloc(np ? np : 1, sizeof(*g));
    if (!g)
        return NULL;
    for (size_t k = 0; k < np; k++) {
        for (int l = 0; l < NL; l++)
            g[k].v[l] = NAN;
        g[k].t0 = (double)(k * stride);
        g[k].t1 = (double)((k + 1) * stride);
        for (size_t i = k * stride; i < n && i < (k + 1) * stride; i++) {
            const json_t *e = json_array_get(tl, i);
            for (int l = 0; l < NL; l++) {
                double x = doc_num(e, lines[l].key);
                if (x > 0 && (isnan(g[k].v[l]) || x > g[k].v[l]))
                    g[k].v[l] = x;
            }
            double xr = fmax(doc_num(e, "xruns_reported"), doc_num(e, "xruns_detected"));
            double dm = doc_num(e, "deadlines_missed"), c = doc_num(e, "cycles");
            g[k].marks += (isnan(xr) ? 0 : xr) + (isnan(dm) ? 0 : dm);
            g[k].cycles += isnan(c) ? 0 : c;
        }
    }
    /* The last second ends where the measurement ended: a phase of 4.006 s has a last second of 6 ms, drawn
     * as 6 ms wide instead of as a whole second whose maximum looks like a sudden calm. */
    if (np) {
        struct group *last = &g[np - 1];
        double end = (double)n;
        if (isfinite(measured_s) && measured_s > 0)
            end = fmin(end, measured_s);
        else if (cycles_per_s > 0) {
            const json_t *e = json_array_get(tl, n - 1);
            double c = doc_num(e, "cycles");
            if (c >= 0)
                end = (double)(n - 1) + fmin(1, c / cycles_per_s);
        }
        if (end > last->t0 && end < last->t1)
            last->t1 = end;
    }
    *np_out = np;
    *stride_out = stride;
    return g;
}

#define EVENT_COLOR "#7b2cbf"
#define SPIKE_COLOR "#ff7f0e"

/* One marker's tooltip: what it was, when, and its top culprit (name, kind, basis). Its evidence sentence is in the
 * events' and spikes' tables under the plot and in the report: a phase lists up to ~1,000 markers, and the sentence
 * on each made a run's page weigh 1.4 MB. */
static void mark_title(FILE *f, const char *what, size_t i, double t, const json_t *h)
{
    char lab[200];
    const json_t *top = html_culprit_top(h);
    html_culprit_label(lab, sizeof(lab), top);
    fprintf(f, "<title>%s %zu at %.2f s: ", what, i + 1, t);
    if (top)
        html_escape(f, lab);
    else
        fputs(json_is_false(json_object_get(h, "explained")) ? "not explained" : "no culprit listed", f);
    fputs("</title>", f);
}

/* Culprit markers: a diamond at the top for each listed xrun event, a circle at its wake-up for each listed spike
 * (svg.h). Times on the measurement clock are placed by the phase's first cycle, where its timeline starts. */
static void culprit_marks(FILE *f, const struct frame *fr, const struct axis *x, const struct axis *y,
                          const json_t *phase)
{
    const json_t *w0 = json_array_get(json_object_get(phase, "clock_window_s"), 0);
    if (!json_is_number(w0))
        return;
    double t0 = json_number_value(w0);
    size_t i;
    const json_t *h;
    /* Each kind's paint once, on a group around its markers (inherited), not on each of up to ~1,000 markers. */
    fputs("<g fill=\"" EVENT_COLOR "\" stroke=\"#fff\" stroke-width=\"0.8\">\n", f);
    json_array_foreach(json_object_get(phase, "events"), i, h) {
        double t = doc_num(h, "t_s") - t0;
        if (isnan(t))
            continue;
        double px = svg_x(fr, x, t), py = fr->t + 9;
        fprintf(f, "<g class=\"cmark event\" data-t=\"%.3f\"><path d=\"M%.1f %.1fl5 6l-5 6l-5 -6z\"/>", t, px, py - 6);
        mark_title(f, "xrun event", i, t, h);
        fputs("</g>\n", f);
    }
    fputs("</g>\n<g fill=\"#fff\" fill-opacity=\"0.6\" stroke=\"" SPIKE_COLOR "\" stroke-width=\"2\">\n", f);
    json_array_foreach(json_object_get(phase, "spikes"), i, h) {
        double t = doc_num(h, "t_s") - t0, v = doc_num(h, "wakeup_us");
        if (isnan(t) || !(v > 0))
            continue;
        fprintf(f, "<g class=\"cmark spike\" data-t=\"%.3f\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>", t,
                svg_x(fr, x, t), svg_y(fr, y, v));
        mark_title(f, "spike", i, t, h);
        fputs("</g>\n", f);
    }
    fputs("</g>\n", f);
}

void svg_timeline(FILE *f, const char *title, const json_t *tl, const struct page_axes *a, double period_us,
                  double measured_s, double cycles_per_s, const json_t *marks)
{
    struct legend_item items[NL + 4];
    for (int l = 0; l < NL; l++)
        items[l] = (struct legend_item){ lines[l].name, lines[l].color, lines[l].dash };
    items[NL] = (struct legend_item){ "period (the deadline)", "#000", "6 3" };
    items[NL + 1] = (struct legend_item){ "second with xruns or missed deadlines", "#d00", NULL };
    size_t nitems = NL + 2;
    if (marks) {
        items[nitems++] = (struct legend_item){ "xrun event (◆, its culprit on hover)", EVENT_COLOR, NULL };
        items[nitems++] = (struct legend_item){ "spike (○, at its wake-up)", SPIKE_COLOR, NULL };
    }
    struct axis x = { 0, a->tl_secs, 0 };
    struct frame fr;
    svg_begin(f, &fr, title, items, nitems, &x, &a->tl);
    size_t np = 0, stride = 1;
    struct group *g = json_array_size(tl) ? group_timeline(tl, measured_s, cycles_per_s, &np, &stride) : NULL;
    if (!g) {
        svg_empty(f, &fr, "no timeline");
        return;
    }
    /* y: decades, labelled as durations */
    for (double e = round(log10(a->tl.lo)); e <= round(log10(a->tl.hi)) + 1e-9; e++) {
        double v = pow(10, e), py = svg_y(&fr, &a->tl, v);
        char lab[48];
        dur_human(lab, sizeof(lab), v, "µs");
        fprintf(f, "<g class=\"tick-y\" data-v=\"%.6g\"><line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                "stroke=\"#ddd\"/>", v, fr.l, py, fr.r, py);
        svg_text(f, &fr, fr.l - 5, py + 4, "end", NULL, lab);
        fputs("</g>\n", f);
    }
    double step = nice_step(a->tl_secs / 8);
    for (double s = 0; s <= a->tl_secs + 1e-9; s += step) {
        char lab[32];
        snprintf(lab, sizeof(lab), "%g", s);
        double px = svg_x(&fr, &x, s);
        fprintf(f, "<g class=\"tick-x\" data-v=\"%g\"><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
                "stroke=\"#eee\"/>", s, px, fr.t, px, fr.b);
        svg_text(f, &fr, px, fr.b + 15, "middle", NULL, lab);
        fputs("</g>\n", f);
    }
    svg_axis_titles(f, &fr, "seconds into the phase", "latency (log scale)");
    /* The part of the last second that did not run. */
    struct group *last = &g[np - 1];
    if (last->t1 < last->t0 + (double)stride - 1e-6 && last->t1 < a->tl_secs) {
        double x0 = svg_x(&fr, &x, last->t1), x1 = svg_x(&fr, &x, last->t0 + (double)stride);
        fprintf(f, "<rect class=\"partial\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eee\">"
                "<title>the phase ended %.3f s into its last second (%.0f cycles in it)</title></rect>\n", x0,
                fr.t, x1 - x0 > 0 ? x1 - x0 : 0, fr.b - fr.t, last->t1 - last->t0, last->cycles);
    }
    size_t nmarks = 0;
    for (size_t k = 0; k < np; k++)
        if (g[k].marks > 0) {
            double px = svg_x(&fr, &x, (g[k].t0 + g[k].t1) / 2);
            fprintf(f, "<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d00\" "
                    "stroke-width=\"1.5\" stroke-opacity=\"0.5\"/><path d=\"M%.1f %.1fl-4 -7h8z\" fill=\"#d00\"/>"
                    "<title>second %.0f: %.0f xruns or missed deadlines</title></g>\n", px, fr.t, px, fr.b, px,
                    fr.t, g[k].t0, g[k].marks);
            nmarks++;
        }
    for (int l = 0; l < NL; l++) {
        fprintf(f, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s%s%s d=\"",
                lines[l].color, lines[l].dash[0] ? " stroke-dasharray=\"" : "", lines[l].dash,
                lines[l].dash[0] ? "\"" : "");
        int pen = 0;
        for (size_t k = 0; k < np; k++) {
            double v = g[k].v[l];
            /* A last second that ran only in part stands alone: joined to the full second before it, its
             * smaller maximum would read as a sudden calm. */
            if (isnan(v) || (k + 1 == np && g[k].t1 < g[k].t0 + (double)stride - 1e-6)) {
                pen = 0;
                if (isnan(v))
                    continue;
            }
            double py = svg_y(&fr, &a->tl, v);
            fprintf(f, "%c%.1f %.1fL%.1f %.1f", pen ? 'L' : 'M', svg_x(&fr, &x, g[k].t0), py,
                    svg_x(&fr, &x, g[k].t1), py);
            pen = 1;
        }
        fprintf(f, "\"><title>%s</title></path>\n", lines[l].name);
    }
    svg_period_y(f, &fr, &a->tl, period_us);
    if (marks)
        culprit_marks(f, &fr, &x, &a->tl, marks);
    if (nmarks == 0)
        svg_text(f, &fr, fr.l + 6, fr.t + 14, "start", "ok-note", "no xrun, no missed deadline");
    fputs("</svg>\n", f);
    free(g);
}
