/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text table of a report's phases, fitted to the reader's terminal. A musician reads a row for one
 * question: how close did this load bring the audio to its deadline? So the first columns are |jitter| p99 and
 * max in µs and as a share of the period, deadlines met and xruns; wakeup comes next; the statistician's
 * columns (mean ± SD, p99.9, cycles) only where there is room, or with --wide. Every figure is the report's:
 * p99 and p99.9 through phasefig_quantile(), the one value the JSON, the page, the verdict and compare show. */
#include "render/text_table.h"
#include "render/textfmt.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include "util/numfmt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL 48
#define SEP 2 /* spaces between columns */

enum col_id { C_JP99, C_JP999, C_JMAX, C_JMEAN, C_WP99, C_WP999, C_WMAX, C_WMEAN, C_MET, C_DSP, C_XRUNS, C_SKIP,
              C_DROP, C_CYCLES, NCOL };

struct col {
    const char *top;        /* header line 1; "%s" stands for ± */
    const char *unit[2];    /* header line 2, one per part; "%s" stands for the µs spelling */
    int nparts;
    int prio;               /* who gets the room first: lower first */
};

static const struct col cols[NCOL] = {
    [C_JP99] = { "|jitter| p99", { "%s", "%%" }, 2, 1 },
    [C_JP999] = { "|jitter| p99.9", { "%s" }, 1, 8 },
    [C_JMAX] = { "|jitter| max", { "%s", "%%" }, 2, 2 },
    [C_JMEAN] = { "jitter mean %s SD", { "%s" }, 1, 12 },
    [C_WP99] = { "wakeup p99", { "%s", "%%" }, 2, 5 },
    [C_WP999] = { "wakeup p99.9", { "%s" }, 1, 9 },
    [C_WMAX] = { "wakeup max", { "%s", "%%" }, 2, 7 },
    [C_WMEAN] = { "wakeup mean %s SD", { "%s" }, 1, 13 },
    [C_MET] = { "deadlines", { "met %%" }, 1, 3 },
    [C_DSP] = { "desired", { "CPU %%" }, 1, 11 },
    [C_XRUNS] = { "xruns", { "ev(rep/det)" }, 1, 4 },
    [C_SKIP] = { "skipped", { "cycles" }, 1, 6 },
    [C_DROP] = { "dropped", { "records" }, 1, 10 },
    [C_CYCLES] = { "", { "cycles" }, 1, 14 },
};

typedef char cellbuf[2][CELL];

/* Each writes at most n bytes into b: the caller's own buffer size, never a fixed CELL (a 24-byte buffer given
 * to a function that assumed 48 is what _FORTIFY_SOURCE aborted on, and a long figure overflowed it). */
static void fmt1(char *b, size_t n, double v)
{
    if (isnan(v))
        snprintf(b, n, "-");
    else
        snprintf(b, n, "%.1f", fabs(v) < 0.05 ? 0.0 : v); /* -0.04 is "0.0", never "-0.0" */
}

static void fmt0(char *b, size_t n, double v)
{
    if (isnan(v))
        snprintf(b, n, "-");
    else
        snprintf(b, n, "%.0f", v);
}

/* v as a share of the period: "2%", "311%", "<1%" for a share that would read 0 but is not. */
static void fmt_pct(char *b, size_t n, double v, double period_us)
{
    double pc = 100 * v / period_us;
    if (isnan(pc))
        snprintf(b, n, "-");
    else if (pc > 0 && pc < 0.5)
        snprintf(b, n, "<1%%");
    else
        snprintf(b, n, "%.0f%%", pc);
}

static void fill(const json_t *doc, const json_t *p, const struct render_opts *o, cellbuf *c)
{
    const json_t *j = json_object_get(p, "jitter_us"), *w = json_object_get(p, "wakeup_us");
    const json_t *x = json_object_get(p, "xruns");
    double per = phasefig_period_us(doc, p);
    memset(c, 0, sizeof(cellbuf) * NCOL);
    double v = phasefig_quantile(p, "jitter", 1, 0.99);
    fmt1(c[C_JP99][0], sizeof(c[C_JP99][0]), v);
    fmt_pct(c[C_JP99][1], sizeof(c[C_JP99][1]), v, per);
    fmt1(c[C_JP999][0], sizeof(c[C_JP999][0]), phasefig_quantile(p, "jitter", 1, 0.999));
    v = doc_num(j, "abs_max");
    fmt1(c[C_JMAX][0], sizeof(c[C_JMAX][0]), v);
    fmt_pct(c[C_JMAX][1], sizeof(c[C_JMAX][1]), v, per);
    char a[CELL], b[CELL];
    fmt1(a, sizeof(a), doc_num(j, "mean"));
    fmt1(b, sizeof(b), doc_num(j, "sd"));
    snprintf(c[C_JMEAN][0], sizeof(c[C_JMEAN][0]), "%.20s %s %.20s", a, tx_pm(o), b);
    v = phasefig_quantile(p, "wakeup", 0, 0.99);
    fmt1(c[C_WP99][0], sizeof(c[C_WP99][0]), v);
    fmt_pct(c[C_WP99][1], sizeof(c[C_WP99][1]), v, per);
    fmt1(c[C_WP999][0], sizeof(c[C_WP999][0]), phasefig_quantile(p, "wakeup", 0, 0.999));
    v = doc_num(w, "max");
    fmt1(c[C_WMAX][0], sizeof(c[C_WMAX][0]), v);
    fmt_pct(c[C_WMAX][1], sizeof(c[C_WMAX][1]), v, per);
    fmt1(a, sizeof(a), doc_num(w, "mean"));
    fmt1(b, sizeof(b), doc_num(w, "sd"));
    snprintf(c[C_WMEAN][0], sizeof(c[C_WMEAN][0]), "%.20s %s %.20s", a, tx_pm(o), b);
    pct_met(c[C_MET][0], sizeof(c[C_MET][0]), doc_num(p, "deadlines_met_pct"));
    fmt1(c[C_DSP][0], sizeof(c[C_DSP][0]), doc_num(p, "desired_cpu_pct"));
    fmt0(a, sizeof(a), doc_num(x, "reported"));
    fmt0(b, sizeof(b), doc_num(x, "detected"));
    char ev[24];
    fmt0(ev, sizeof(ev), phasefig_xruns(p));
    snprintf(c[C_XRUNS][0], sizeof(c[C_XRUNS][0]), "%.12s(%.12s/%.12s)", ev, a, b);
    fmt0(c[C_SKIP][0], sizeof(c[C_SKIP][0]), doc_num(x, "skipped_cycles"));
    fmt0(c[C_DROP][0], sizeof(c[C_DROP][0]), doc_num(p, "dropped"));
    fmt0(c[C_CYCLES][0], sizeof(c[C_CYCLES][0]), doc_num(p, "cycles"));
}

struct layout {
    char top[NCOL][CELL], unit[NCOL][2][CELL];
    int part_w[NCOL][2], w[NCOL], shown[NCOL], prio[NCOL];
};

static void measure(struct layout *L, cellbuf *const *cells, size_t np, const struct render_opts *o)
{
    for (int k = 0; k < NCOL; k++) {
        snprintf(L->top[k], sizeof(L->top[k]), cols[k].top, tx_pm(o));
        int sum = 0;
        for (int q = 0; q < cols[k].nparts; q++) {
            snprintf(L->unit[k][q], sizeof(L->unit[k][q]), cols[k].unit[q], tx_us(o));
            int w = tx_width(L->unit[k][q]);
            for (size_t i = 0; i < np; i++) {
                int cw = tx_width(cells[i][k][q]);
                if (cw > w)
                    w = cw;
            }
            L->part_w[k][q] = w;
            sum += w + (q ? 1 : 0);
        }
        int tw = tx_width(L->top[k]);
        if (tw > sum) {
            L->part_w[k][0] += tw - sum;
            sum = tw;
        }
        L->w[k] = sum;
    }
}

/* Which columns: all with --wide; else by priority, each one that still fits. */
static int choose(struct layout *L, cellbuf *const *cells, size_t np, int lw, const struct render_opts *o)
{
    int any_dsp = 0, any_drop = 0;
    for (size_t i = 0; i < np; i++) {
        any_dsp |= strcmp(cells[i][C_DSP][0], "-") != 0;
        any_drop |= strcmp(cells[i][C_DROP][0], "0") != 0 && strcmp(cells[i][C_DROP][0], "-") != 0;
    }
    for (int k = 0; k < NCOL; k++) {
        L->prio[k] = cols[k].prio;
        L->shown[k] = o->wide;
    }
    /* Lost records make every figure of the row suspect, and --dsp is what the run was about: both then come
     * right after the xruns. */
    if (any_drop)
        L->prio[C_DROP] = 4;
    if (any_dsp)
        L->prio[C_DSP] = 4;
    if (o->wide)
        return 0;
    int used = lw, hidden = 0;
    for (int pr = 0; pr <= 20; pr++)
        for (int k = 0; k < NCOL; k++)
            if (L->prio[k] == pr) {
                if (used + SEP + L->w[k] <= o->width) {
                    L->shown[k] = 1;
                    used += SEP + L->w[k];
                } else {
                    hidden++;
                }
            }
    return hidden;
}

static void phase_extras(FILE *f, const json_t *p, int lw, const struct render_opts *o)
{
    const json_t *lm;
    size_t li;
    char lead[64];
    snprintf(lead, sizeof(lead), "%*s", lw + SEP < 40 ? lw + SEP : 40, "");
    json_array_foreach(json_object_get(p, "load_metrics"), li, lm) {
        char val[96], line[512];
        char *unit = tx_dup(o, doc_str(lm, "unit", ""));
        num_human_unit(val, sizeof(val), doc_num(lm, "value"), unit ? unit : "");
        free(unit);
        snprintf(line, sizeof(line), "%.300s %s", doc_str(lm, "name", "?"), val);
        char *t = tx_dup(o, line);
        tx_wrap(f, lead, (int)strlen(lead) + 2, o->width, t ? t : "");
        free(t);
    }
    if (json_string_value(json_object_get(p, "load_error"))) {
        char *t = tx_dup(o, doc_str(p, "load_error", ""));
        char first[80];
        snprintf(first, sizeof(first), "%sload: ", lead);
        tx_wrap(f, first, (int)strlen(lead) + 2, o->width, t ? t : "");
        free(t);
    }
}

void text_phase_table(FILE *f, const json_t *doc, const struct render_opts *o)
{
    const json_t *phases = json_object_get(doc, "phases");
    size_t np = json_array_size(phases), i;
    cellbuf **cells = calloc(np ? np : 1, sizeof(*cells));
    struct layout *L = calloc(1, sizeof(*L));
    if (!cells || !L)
        goto out;
    const json_t *p;
    int lw = 4, maxw = o->wide ? 24 : 16;
    json_array_foreach(phases, i, p) {
        cells[i] = malloc(sizeof(cellbuf) * NCOL);
        if (!cells[i])
            goto out;
        fill(doc, p, o, cells[i]);
        char name[PHASE_NAME_LEN];
        doc_phase_name(p, name, sizeof(name));
        int n = tx_width(name);
        if (n > lw)
            lw = n > maxw ? maxw : n;
    }
    measure(L, (cellbuf *const *)cells, np, o);
    int hidden = choose(L, (cellbuf *const *)cells, np, lw, o);
    /* Two header lines: what, then the unit of each part. */
    fprintf(f, "%*s", lw, "");
    for (int k = 0; k < NCOL; k++)
        if (L->shown[k]) {
            fprintf(f, "%*s", SEP, "");
            tx_cell(f, L->top[k], L->w[k], 1);
        }
    fputc('\n', f);
    tx_cell(f, "Load", lw, 0);
    for (int k = 0; k < NCOL; k++)
        if (L->shown[k]) {
            fprintf(f, "%*s", SEP, "");
            for (int q = 0; q < cols[k].nparts; q++) {
                if (q)
                    fputc(' ', f);
                tx_cell(f, L->unit[k][q], L->part_w[k][q], 1);
            }
        }
    fputc('\n', f);
    json_array_foreach(phases, i, p) {
        char name[PHASE_NAME_LEN];
        doc_phase_name(p, name, sizeof(name));
        char *shown = tx_dup(o, name);
        if (tx_width(shown ? shown : name) > lw) { /* a long name gets a line of its own */
            tx_wrap(f, "", 0, o->width, shown ? shown : name);
            fprintf(f, "%*s", lw, "");
        } else {
            tx_cell(f, shown ? shown : name, lw, 0);
        }
        free(shown);
        for (int k = 0; k < NCOL; k++)
            if (L->shown[k]) {
                fprintf(f, "%*s", SEP, "");
                for (int q = 0; q < cols[k].nparts; q++) {
                    if (q)
                        fputc(' ', f);
                    tx_cell(f, cells[i][k][q], L->part_w[k][q], 1);
                }
            }
        fputc('\n', f);
        phase_extras(f, p, lw, o);
    }
    /* What the columns mean, in one wrapped note. */
    const json_t *p0 = json_array_get(phases, 0);
    double per = phasefig_period_us(doc, p0);
    char note[512], pers[48];
    dur_human(pers, sizeof(pers), per, tx_us(o));
    int n = snprintf(note, sizeof(note), "%% = share of the period (%s), the time each cycle has. xruns ev(rep/det): "
                     "events, one per stall (rep: the server's notifications, det: gaps in the frame clock); "
                     "skipped: the cycles lost in those gaps.", pers);
    if (hidden && n > 0 && (size_t)n < sizeof(note))
        snprintf(note + n, sizeof(note) - (size_t)n, " %d more column%s with --wide.", hidden,
                 hidden == 1 ? "" : "s");
    if (np)
        tx_wrap(f, "", 0, o->width, note);
out:
    for (i = 0; cells && i < np; i++)
        free(cells[i]);
    free(cells);
    free(L);
}
