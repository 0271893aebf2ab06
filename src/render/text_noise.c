/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's noise probe lines (see text_noise.h). */
#include "render/text_noise.h"
#include "render/textfmt.h"
#include "report/access.h"
#include "util/noise_class.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void say(FILE *f, const struct render_opts *o, const char *first, const char *text)
{
    char *t = tx_dup(o, text);
    tx_wrap(f, first, 4, o->width, t ? t : text);
    free(t);
}

const char *noise_dur(char *b, size_t n, double us, const char *us_unit)
{
    if (isnan(us))
        snprintf(b, n, "-");
    else if (us >= 1e6)
        snprintf(b, n, "%.2f s", us / 1e6);
    else if (us >= 1e3)
        snprintf(b, n, "%.2f ms", us / 1e3);
    else
        snprintf(b, n, "%.1f %s", us, us_unit);
    return b;
}

static const char *dur(char *b, size_t n, double us, const struct render_opts *o)
{
    return noise_dur(b, n, us, o->ascii ? "us" : "µs");
}

/* With the kernel trace: how many of the long gaps it classed, and who held their CPU (its top holders). */
static void trace_line(FILE *f, const json_t *tr, const struct render_opts *o)
{
    if (!json_is_object(tr))
        return;
    char line[1024], a[32];
    int n = snprintf(line, sizeof line, "the kernel trace classed %.0f of the gaps of %s or more by the CPU's events "
                     "inside them", doc_num(tr, "answered"), dur(a, sizeof a, doc_num(tr, "min_gap_us"), o));
    double left = doc_num(tr, "not_covered") + doc_num(tr, "late") + doc_num(tr, "skipped") + doc_num(tr, "no_trace");
    if (left > 0)
        n += snprintf(line + n, sizeof line - (size_t)n, " (%.0f not: counters' class kept)", left);
    size_t k;
    const json_t *h;
    json_array_foreach(json_object_get(tr, "holders"), k, h) {
        if (k >= 5 || n >= (int)sizeof line)
            break;
        const char *kind = doc_str(h, "kind", "?");
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", k ? ", " : "; held by ", doc_str(h, "name", "?"));
        if (n < (int)sizeof line && strcmp(kind, "task") == 0)
            n += snprintf(line + n, sizeof line - (size_t)n, " (pid %.0f)", doc_num(h, "pid"));
        else if (n < (int)sizeof line && strcmp(kind, "irq") == 0)
            n += snprintf(line + n, sizeof line - (size_t)n, " (IRQ)");
        if (n < (int)sizeof line)
            n += snprintf(line + n, sizeof line - (size_t)n, " %.0f gap%s, %s", doc_num(h, "gaps"),
                          doc_num(h, "gaps") == 1 ? "" : "s", dur(a, sizeof a, doc_num(h, "held_us"), o));
    }
    if (n < (int)sizeof line)
        say(f, o, "    ", line);
}

void text_noise(FILE *f, const json_t *doc, const struct render_opts *o)
{
    size_t i, k;
    const json_t *p, *c;
    int first = 1;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *nz = json_object_get(p, "noise");
        if (!json_is_object(nz))
            continue;
        char line[1024], a[32], b[32];
        if (first) {
            fputc('\n', f);
            snprintf(line, sizeof line, "Noise under the audio thread's priority (a busy loop of clock reads on each "
                     "CPU; a gap over %s is noise):", dur(a, sizeof a, doc_num(nz, "threshold_us"), o));
            say(f, o, "", line);
            first = 0;
        }
        json_array_foreach(json_object_get(nz, "cpus"), k, c) {
            int n = snprintf(line, sizeof line, "%s, CPU %.0f: %s of noise in %.1f s probed, %.2f %% available, "
                             "longest %s, %.0f gaps", doc_str(p, "load", "?"), doc_num(c, "cpu"),
                             dur(a, sizeof a, doc_num(c, "total_noise_us"), o), doc_num(c, "probed_s"),
                             doc_num(c, "available_pct"), dur(b, sizeof b, doc_num(c, "max_noise_us"), o),
                             doc_num(c, "gaps"));
            const char *sep = ": ";
            for (int cl = 0; cl < NOISE_NCLASS; cl++) {
                const json_t *x = json_object_get(json_object_get(c, "classes"), noise_classes[cl].token);
                if (doc_num(x, "count") > 0 && n < (int)sizeof line) {
                    n += snprintf(line + n, sizeof line - (size_t)n, "%s%s %.0f (%s, longest %s)", sep,
                                  noise_classes[cl].token, doc_num(x, "count"),
                                  dur(a, sizeof a, doc_num(x, "total_us"), o),
                                  dur(b, sizeof b, doc_num(x, "max_us"), o));
                    sep = ", ";
                }
            }
            say(f, o, "  ", line);
        }
        const json_t *l;
        int n = 0;
        line[0] = '\0';
        json_array_foreach(json_object_get(nz, "lines"), k, l)
            if (n < (int)sizeof line)
                n += snprintf(line + n, sizeof line - (size_t)n, "%s%s %.0f", n ? ", " : "lines named: ",
                              doc_str(l, "line", "?"), doc_num(l, "gaps"));
        if (n)
            say(f, o, "    ", line);
        trace_line(f, json_object_get(nz, "trace"), o);
    }
    if (!first) {
        say(f, o, "  ", "below_kernel: nothing the kernel counts (its interrupts, softirqs, steal, the probe's "
                        "own scheduling) rose beyond its usual rate across the gap: the host, firmware or an SMI.");
        fputc('\n', f);
    }
}
