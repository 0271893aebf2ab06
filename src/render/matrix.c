/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel x machine table (see matrix.h). A cell: the worst phase's wake-up p99 in µs, the xrun events of
 * the run, the worst phase's deadlines met, and the verdict, of the latest report of that kernel on that
 * machine; on the page also its worst wake-up, and over all the pair's runs the smallest safe buffer size and the
 * load with the most dropouts per hour (compare_matrix.c). */
#include "render/matrix.h"
#include "render/html.h"
#include "report/access.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include <errno.h>
#include <math.h>
#include <string.h>

#define KERNEL_W 18
#define CELL_W 20

/* s cut to at most w characters (code points), ending in an ellipsis when cut, padded to w. */
static void fit(char *buf, size_t len, const char *s, int w, int ascii)
{
    const char *ell = ascii ? "..." : "\xe2\x80\xa6";
    int ell_w = ascii ? 3 : 1;
    size_t n = strlen(s), i = 0;
    int chars = 0;
    while (i < n && chars < w) {
        size_t k = utf8_char(s + i, n - i, NULL);
        i += k ? k : 1;
        chars++;
    }
    size_t o;
    if (i < n) { /* cut: keep w - ell_w characters, then the ellipsis */
        size_t j = 0;
        for (int c = 0; c < w - ell_w && j < n; c++) {
            size_t k = utf8_char(s + j, n - j, NULL);
            j += k ? k : 1;
        }
        o = (size_t)snprintf(buf, len, "%.*s%s", (int)j, s, ell);
        chars = w;
    } else {
        o = (size_t)snprintf(buf, len, "%s", s);
    }
    for (; chars < w && o + 1 < len; chars++)
        buf[o++] = ' ';
    buf[o < len ? o : len - 1] = '\0';
    utf8_trim(buf);
}

static const json_t *find_cell(const json_t *m, const char *kernel, size_t mi)
{
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(m, "cells"), i, c)
        if ((size_t)json_integer_value(json_object_get(c, "machine")) == mi && !strcmp(doc_str(c, "kernel", ""), kernel))
            return c;
    return NULL;
}

static void cell_text(const json_t *c, char *buf, size_t len)
{
    if (!c) {
        snprintf(buf, len, "-");
        return;
    }
    char p99[16] = "-", met[16] = "-";
    double w = doc_num(c, "worst_wakeup_p99_us"), m = doc_num(c, "deadlines_met_pct");
    if (!isnan(w))
        snprintf(p99, sizeof(p99), "%.0f", w);
    if (!isnan(m))
        snprintf(met, sizeof(met), m >= 99.95 && m < 100 ? "%.2f" : "%.1f", m);
    snprintf(buf, len, "%5.5s %3.0f %5.5s %-4.4s", p99, doc_num(c, "xrun_events"), met, doc_str(c, "verdict", "-"));
}

static int matrix_text_body(FILE *f, const json_t *m, const struct render_opts *opts)
{
    struct render_opts o = render_opts_or_default(opts);
    const json_t *kernels = json_object_get(m, "kernels"), *machines = json_object_get(m, "machines");
    size_t nm = json_array_size(machines), nk = json_array_size(kernels);
    fprintf(f, "Kernels x machines: %zu kernel%s on %zu machine%s (the latest report of each pair)\n", nk,
            nk == 1 ? "" : "s", nm, nm == 1 ? "" : "s");
    fprintf(f, "Each cell: worst wake-up p99 (%s), xrun events, worst deadlines met (%%), verdict\n",
            o.ascii ? "us" : "\xc2\xb5s");
    int per = o.wide ? (int)(nm ? nm : 1) : (o.width - KERNEL_W) / (CELL_W + 1);
    if (per < 1)
        per = 1;
    char b[256];
    for (size_t first = 0; first < nm; first += (size_t)per) {
        size_t last = first + (size_t)per < nm ? first + (size_t)per : nm;
        fputc('\n', f);
        fit(b, sizeof(b), "kernel", KERNEL_W - 1, o.ascii);
        fputs(b, f);
        for (size_t j = first; j < last; j++) {
            fit(b, sizeof(b), doc_str(json_array_get(machines, j), "hostname", "?"), CELL_W, o.ascii);
            fprintf(f, " %s", b);
        }
        fputc('\n', f);
        fit(b, sizeof(b), "", KERNEL_W - 1, o.ascii);
        fputs(b, f);
        for (size_t j = first; j < last; j++) {
            fit(b, sizeof(b), doc_str(json_array_get(machines, j), "cpu", "?"), CELL_W, o.ascii);
            fprintf(f, " %s", b);
        }
        fputc('\n', f);
        for (size_t k = 0; k < nk; k++) {
            const char *rel = json_string_value(json_array_get(kernels, k));
            fit(b, sizeof(b), rel ? rel : "?", KERNEL_W - 1, o.ascii);
            fputs(b, f);
            for (size_t j = first; j < last; j++) {
                char c[64];
                cell_text(find_cell(m, rel ? rel : "", j), c, sizeof(c));
                fit(b, sizeof(b), c, CELL_W, o.ascii);
                fprintf(f, " %s", b);
            }
            fputc('\n', f);
        }
    }
    return 0;
}

/* The entry of the text form: every string the matrix holds (a label, a hostname, a warning, a load's error,
 * a file's name) is shown visibly (util/termtext.h) before it reaches a terminal; the layout below measures the
 * visible form. */
int matrix_text(FILE *f, const json_t *m, const struct render_opts *opts)
{
    json_t *safe = term_safe_json(m);
    if (!safe)
        return -ENOMEM;
    int rc = matrix_text_body(f, safe, opts);
    json_decref(safe);
    return rc;
}

int matrix_html(FILE *f, const json_t *m)
{
    const json_t *kernels = json_object_get(m, "kernels"), *machines = json_object_get(m, "machines");
    html_page_start(f, "rtjitter: kernels x machines");
    fputs("<h1>Kernels &times; machines</h1>\n<p>The latest report of each kernel on each machine. Each cell: the "
          "worst phase's wake-up p99 (&micro;s), xrun events, the worst phase's deadlines met (%), verdict, the "
          "worst wake-up; over all the runs of the pair, the smallest buffer a run was safe at (no xrun, no missed "
          "deadline) and the most dropouts per hour, under which load.</p>\n"
          "<div class=\"wide\"><table class=\"matrix\">\n<tr><th class=\"k\">kernel</th>", f);
    size_t i, k;
    const json_t *mc, *kv;
    json_array_foreach(machines, i, mc) {
        fputs("<th class=\"mach\">", f);
        html_escape(f, doc_str(mc, "hostname", "?"));
        fputs("<br><small>", f);
        html_escape(f, doc_str(mc, "cpu", "?"));
        fputs("</small></th>", f);
    }
    fputs("</tr>\n", f);
    json_array_foreach(kernels, k, kv) {
        const char *rel = json_string_value(kv);
        fputs("<tr><th class=\"k\">", f);
        html_escape(f, rel);
        fputs("</th>", f);
        json_array_foreach(machines, i, mc) {
            const json_t *c = find_cell(m, rel ? rel : "", i);
            if (!c) {
                fputs("<td>-</td>", f);
                continue;
            }
            const char *v = doc_str(c, "verdict", "-");
            fputs("<td class=\"", f);
            html_escape(f, !strcmp(v, "pass") ? "pass" : !strcmp(v, "fail") ? "bad" : "warnc");
            fputs("\" title=\"", f);
            html_escape(f, doc_str(c, "report", ""));
            fputs("\">", f);
            html_num(f, doc_num(c, "worst_wakeup_p99_us"), 1);
            /* One figure a line: a column stays narrow, so a fleet's many machines fit across the page. */
            fputs(" &micro;s<br>", f);
            html_num(f, doc_num(c, "xrun_events"), 0);
            fputs(" xruns<br>", f);
            html_num(f, doc_num(c, "deadlines_met_pct"), 2);
            fputs(" %<br>", f);
            html_escape(f, v);
            /* Over all the pair's runs: where it was safe, and the load that dropped out most often. */
            fputs("<br>max ", f);
            html_num(f, doc_num(c, "worst_wakeup_max_us"), 0);
            fputs(" &micro;s<br>", f);
            double safe = doc_num(c, "smallest_safe_period_frames");
            if (isnan(safe)) {
                fputs("no safe buffer", f);
            } else {
                fputs("safe at ", f);
                html_num(f, safe, 0);
                fputs(" frames", f);
            }
            const char *wl = NULL, *k;
            double wr = -1;
            const json_t *l;
            json_object_foreach((json_t *)json_object_get(c, "loads"), k, l)
                if (doc_num(l, "per_hour") > wr) {
                    wr = doc_num(l, "per_hour");
                    wl = k;
                }
            if (wl) {
                fputs("<br>", f);
                html_num(f, wr, 0);
                fputs("/h under ", f);
                html_escape(f, wl);
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table></div>\n", f);
    html_page_end(f, doc_str(json_object_get(m, "tool"), "version", "?"));
    return 0;
}
