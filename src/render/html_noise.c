/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's section of a report page (--backend noise; html_noise.h): from each phase's "noise" object
 * alone, so the page says what the JSON says. Per CPU: the figures oslat and rtla osnoise users read (noise in all,
 * the CPU's share available, the longest gap, the gaps), each class of gap with its count, total and longest, a bar
 * chart of the gaps' lengths (their histogram, log2 buckets, counts on a log scale), and the interrupt and softirq
 * lines named. What the classes mean is in rtjitter(1), NOISE. */
#include "render/html_noise.h"
#include "render/html.h"
#include "render/text_noise.h"
#include "render/svg.h"
#include "report/access.h"
#include "util/noise_class.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* a figure as the text report writes it (text_noise.h) */
static void dur(FILE *f, double us)
{
    char b[32];
    fputs(noise_dur(b, sizeof(b), us, "µs"), f);
}

/* a bucket's bound, short: 8 µs, 16 ms */
static void bound(FILE *f, double us)
{
    if (us >= 1e6)
        fprintf(f, "%g s", us / 1e6);
    else if (us >= 1e3)
        fprintf(f, "%g ms", us / 1e3);
    else
        fprintf(f, "%g µs", us);
}

/* The gaps' histogram of one CPU ([[lo_us, hi_us, count], ...]) as bars, the count on a log scale (one gap of
 * 50 ms must show beside 28,000 of 8 µs). */
static void histogram(FILE *f, const json_t *h, int cpu)
{
    size_t n = json_array_size(h), i;
    double top = 0;
    const json_t *b;
    json_array_foreach(h, i, b) {
        double c = json_number_value(json_array_get(b, 2));
        if (c > top)
            top = c;
    }
    if (!n || !(top > 0))
        return;
    const int bw = 56, left = 10, base = 150, hmax = 120, w = left * 2 + (int)n * bw, hgt = base + 36;
    fprintf(f, "<figure>\n<svg class=\"noisehist\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
               "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"CPU %d: gaps by length\">\n", w, hgt, w, hgt,
            cpu);
    json_array_foreach(h, i, b) {
        double lo = json_number_value(json_array_get(b, 0)), c = json_number_value(json_array_get(b, 2));
        double len = c > 0 ? hmax * log10(c + 1) / log10(top + 1) : 0;
        int x = left + (int)i * bw;
        fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>", x + 4, base - len, bw - 8,
                len, svg_palette[cpu % svg_palette_n]);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%.0f</text>", x + bw / 2,
                base - len - 3, c);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", x + bw / 2, base + 14);
        bound(f, lo);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">gaps by length (from; the count on a log scale)</text>\n",
            left, base + 30);
    fputs("</svg>\n</figure>\n", f);
}

/* With the kernel trace: how many of the long gaps it classed, and who held their CPU (its top holders). */
static void html_trace(FILE *f, const json_t *tr)
{
    if (!json_is_object(tr))
        return;
    fprintf(f, "<p class=\"noisetrace\">The kernel trace classed %.0f of the gaps of ", doc_num(tr, "answered"));
    dur(f, doc_num(tr, "min_gap_us"));
    fputs(" or more by the CPU's events inside them", f);
    double left = doc_num(tr, "not_covered") + doc_num(tr, "late") + doc_num(tr, "skipped") + doc_num(tr, "no_trace");
    if (left > 0)
        fprintf(f, " (%.0f not: the counters' class kept)", left);
    size_t k;
    const json_t *h;
    json_array_foreach(json_object_get(tr, "holders"), k, h) {
        if (k >= 5)
            break;
        fputs(k ? ", " : "; held by ", f);
        fputs("<b>", f);
        html_escape(f, doc_str(h, "name", "?"));
        fputs("</b>", f);
        if (strcmp(doc_str(h, "kind", ""), "task") == 0)
            fprintf(f, " (pid %.0f)", doc_num(h, "pid"));
        else if (strcmp(doc_str(h, "kind", ""), "irq") == 0)
            fputs(" (IRQ)", f);
        fprintf(f, " %.0f gap%s, ", doc_num(h, "gaps"), doc_num(h, "gaps") == 1 ? "" : "s");
        dur(f, doc_num(h, "held_us"));
    }
    fputs(".</p>\n", f);
}

void html_noise(FILE *f, const json_t *doc)
{
    size_t i, k;
    const json_t *p, *c;
    int first = 1;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *nz = json_object_get(p, "noise");
        if (!json_is_object(nz))
            continue;
        if (first) {
            fputs("<h2>Noise under the audio thread's priority</h2>\n<p>A busy loop of clock reads on each CPU at the "
                  "audio thread's policy and priority (oslat's and rtla osnoise's method); each gap longer than ", f);
            dur(f, doc_num(nz, "threshold_us"));
            fputs(" is noise, classed by what the kernel counted across it. <b>below_kernel</b>: nothing the kernel "
                  "counts rose across the gap (the host, firmware or an SMI).</p>\n", f);
            first = 0;
        }
        fputs("<table class=\"noise\">\n<tr><th>load</th><th>CPU</th><th>probed</th><th>noise</th><th>available"
              "</th><th>longest</th><th>gaps</th></tr>\n", f);
        json_array_foreach(json_object_get(nz, "cpus"), k, c) {
            fputs("<tr><td>", f);
            html_escape(f, doc_str(p, "load", "?"));
            fprintf(f, "</td><td>%.0f</td><td>%.1f s</td><td>", doc_num(c, "cpu"), doc_num(c, "probed_s"));
            dur(f, doc_num(c, "total_noise_us"));
            fprintf(f, "</td><td>%.2f %%</td><td>", doc_num(c, "available_pct"));
            dur(f, doc_num(c, "max_noise_us"));
            fprintf(f, "</td><td>%.0f</td></tr>\n", doc_num(c, "gaps"));
        }
        fputs("</table>\n", f);
        /* each class that had a gap: a row per CPU, with its share of that CPU's noise */
        fputs("<table class=\"noiseclass\">\n<tr><th>load</th><th>CPU</th><th>class</th><th>gaps</th><th>total</th>"
              "<th>share of the noise</th><th>longest</th></tr>\n", f);
        json_array_foreach(json_object_get(nz, "cpus"), k, c) {
            double all = doc_num(c, "total_noise_us");
            for (int cl = 0; cl < NOISE_NCLASS; cl++) {
                const json_t *x = json_object_get(json_object_get(c, "classes"), noise_classes[cl].token);
                double n = doc_num(x, "count"), t = doc_num(x, "total_us");
                if (!(n > 0))
                    continue;
                fputs("<tr><td>", f);
                html_escape(f, doc_str(p, "load", "?"));
                fprintf(f, "</td><td>%.0f</td><td class=\"k\">", doc_num(c, "cpu"));
                html_escape(f, noise_classes[cl].token);
                fprintf(f, "</td><td>%.0f</td><td>", n);
                dur(f, t);
                fputs("</td><td>", f);
                if (all > 0 && !isnan(t))
                    fprintf(f, "%.1f %%", 100 * t / all);
                else
                    fputs("-", f);
                fputs("</td><td>", f);
                dur(f, doc_num(x, "max_us"));
                fputs("</td></tr>\n", f);
            }
        }
        fputs("</table>\n", f);
        json_array_foreach(json_object_get(nz, "cpus"), k, c) {
            fprintf(f, "<p>CPU %.0f", doc_num(c, "cpu"));
            if (json_array_size(json_object_get(nz, "cpus")) > 1 || i > 0) {
                fputs(", ", f);
                html_escape(f, doc_str(p, "load", "?"));
            }
            fputs(":</p>\n", f);
            histogram(f, json_object_get(c, "histogram"), (int)doc_num(c, "cpu"));
        }
        const json_t *l;
        if (json_array_size(json_object_get(nz, "lines"))) {
            fputs("<p class=\"noiselines\">Interrupt and softirq lines that rose across gaps (gaps): ", f);
            json_array_foreach(json_object_get(nz, "lines"), k, l) {
                if (k)
                    fputs(", ", f);
                html_escape(f, doc_str(l, "line", "?"));
                fprintf(f, " (%.0f)", doc_num(l, "gaps"));
            }
            fputs("</p>\n", f);
        }
        html_trace(f, json_object_get(nz, "trace"));
    }
}
