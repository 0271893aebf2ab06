/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text rendering of a comparison document: the reports, warnings, what differs in the system, one table per
 * load with its verdicts, the verdict sentences and the method; every line fitted to the reader's width. A
 * table with more reports than fit side by side is cut into blocks, each with the row names again. */
#include "render/compare_text.h"
#include "render/culprit_words.h"
#include "render/setting.h"
#include "render/textfmt.h"
#include "report/access.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_COLS 64
#define LABEL_MAX 30
/* lines of what differs in the system in the default text */
#define SHORT_DIFF 8

static void say(FILE *f, const struct render_opts *o, const char *first, int indent, const char *text)
{
    char *t = tx_dup(o, text ? text : "");
    char *h = tx_dup(o, first);
    tx_wrap(f, h ? h : first, indent, o->width, t ? t : "");
    free(t);
    free(h);
}

/* s cut to at most w columns, with "…" (or "...") where it was cut. */
static void cut(char *out, size_t len, const char *s, int w, const struct render_opts *o)
{
    if (tx_width(s) <= w) {
        snprintf(out, len, "%s", s);
        return;
    }
    const char *dots = o->ascii ? "..." : "…";
    int keep = w - tx_width(dots);
    size_t b = 0;
    for (int c = 0; s[b] && c < keep; c++) { /* keep whole characters only */
        b++;
        while (((unsigned char)s[b] & 0xc0) == 0x80)
            b++;
    }
    snprintf(out, len, "%.*s%s", (int)b, s, dots);
}

/* The part of report c's title that tells it from the others: the title without the words every title starts
 * with and the words every title ends with (a kernel they share, a label they share), into out; the whole title
 * when that would leave nothing, or when there is one report. The column's header is "[c] " and this, so that a
 * cut header still shows what differs (the list of reports above has the whole titles). */
static void distinct_title(char *out, size_t len, const json_t *reports, size_t nr, size_t c, const char *dots)
{
    const char *t = doc_str(json_array_get(reports, c), "title", "");
    size_t n = strlen(t), pre = n, suf = n;
    for (size_t k = 0; k < nr; k++) {
        const char *u = doc_str(json_array_get(reports, k), "title", "");
        size_t un = strlen(u), i = 0;
        while (i < pre && i < un && t[i] == u[i])
            i++;
        pre = i;
        for (i = 0; i < suf && i < un && t[n - 1 - i] == u[un - 1 - i];)
            i++;
        suf = i;
    }
    /* whole words only: the prefix ends after a space, the suffix starts at one */
    while (pre > 0 && t[pre - 1] != ' ')
        pre--;
    while (suf > 0 && t[n - suf] != ' ')
        suf--;
    /* a group in parentheses (the label) cut open keeps its "(": "(…run two)", not "run two)" */
    size_t open_at = n;
    for (size_t i = 0, depth = 0; i < pre; i++)
        if (t[i] == '(' && depth++ == 0)
            open_at = i;
        else if (t[i] == ')' && depth > 0)
            depth--, open_at = depth ? open_at : n;
    int opened = open_at < pre && pre < n;
    size_t close_at = n;
    for (size_t i = 0, depth = 0; i < suf; i++) {
        char ch = t[n - 1 - i];
        if (ch == ')' && depth++ == 0)
            close_at = n - 1 - i;
        else if (ch == '(' && depth > 0)
            depth--, close_at = depth ? close_at : n;
    }
    if (close_at < n && close_at + 1 > n - suf)
        suf = n - close_at - 1;
    if (nr < 2 || pre >= n || pre + suf >= n) {
        snprintf(out, len, "%s", t);
        return;
    }
    snprintf(out, len, "%s%.*s", opened ? dots : "", (int)(n - suf - pre), t + pre);
}

/* s cut to at most w columns in its middle: its start and its end, with "…" (or "...") between them, since the
 * end of a title (a time, "#3") may be what tells two columns apart. */
static void cut_middle(char *out, size_t len, const char *s, int w, const struct render_opts *o)
{
    const char *dots = o->ascii ? "..." : "…";
    int sw = tx_width(s), keep = w - tx_width(dots);
    if (sw <= w || keep < 4) {
        cut(out, len, s, w, o);
        return;
    }
    int head = (keep + 1) / 2, tail = keep - head;
    size_t b = 0, e = strlen(s);
    for (int c = 0; s[b] && c < head; c++) /* whole characters only */
        for (b++; ((unsigned char)s[b] & 0xc0) == 0x80; b++)
            ;
    for (int c = 0; c < tail && e > b; c++)
        while (e > b && ((unsigned char)s[--e] & 0xc0) == 0x80)
            ;
    snprintf(out, len, "%.*s%s%s", (int)b, s, dots, s + e);
}

static void load_table(FILE *f, const json_t *load, const json_t *reports, const struct render_opts *o)
{
    size_t nr = json_array_size(reports);
    if (nr > MAX_COLS)
        nr = MAX_COLS;
    const json_t *rows = json_object_get(load, "rows");
    /* Rows: every one with --wide; else those without "detail". */
    int lw = 8, cw[MAX_COLS];
    size_t j;
    const json_t *row;
    json_array_foreach(rows, j, row) {
        if (!o->wide && json_is_true(json_object_get(row, "detail")))
            continue;
        char *l = tx_dup(o, doc_str(row, "label", ""));
        int w = tx_width(l);
        free(l);
        if (w > lw)
            lw = w > LABEL_MAX ? LABEL_MAX : w;
    }
    for (size_t c = 0; c < nr; c++) {
        char head[16];
        snprintf(head, sizeof(head), "[%zu]", c + 1);
        cw[c] = o->wide ? tx_width(doc_str(json_array_get(reports, c), "title", "")) : 10;
        if (cw[c] > 40)
            cw[c] = 40;
        json_array_foreach(rows, j, row) {
            char *t = tx_dup(o, json_string_value(json_array_get(json_object_get(row, "cells"), c)));
            int w = tx_width(t);
            free(t);
            if (w > cw[c])
                cw[c] = w;
        }
    }
    /* Blocks of columns that fit next to the row names (with --wide, one block: wide means wide). */
    for (size_t c0 = 0; c0 < nr;) {
        size_t c1 = c0;
        int used = lw;
        while (c1 < nr && (c1 == c0 || o->wide || used + 2 + cw[c1] <= o->width))
            used += 2 + cw[c1++];
        /* Room left in the line goes to the titles that were cut, a column at a time. */
        for (int grew = 1; grew && !o->wide && used < o->width;) {
            grew = 0;
            for (size_t c = c0; c < c1 && used < o->width; c++) {
                char head[256], d[210];
                distinct_title(d, sizeof(d), reports, nr, c, o->ascii ? "(..." : "(…");
                snprintf(head, sizeof(head), "[%zu] %.200s", c + 1, d);
                if (tx_width(head) > cw[c]) {
                    cw[c]++;
                    used++;
                    grew = 1;
                }
            }
        }
        /* Header: [i] and the title, cut to the column. */
        tx_cell(f, "", lw, 0);
        for (size_t c = c0; c < c1; c++) {
            char head[256], shown[256], d[210];
            distinct_title(d, sizeof(d), reports, nr, c, o->ascii ? "(..." : "(…");
            char *t = tx_dup(o, d);
            snprintf(head, sizeof(head), "[%zu] %.200s", c + 1, t ? t : "");
            free(t);
            cut_middle(shown, sizeof(shown), head, cw[c], o);
            fputs("  ", f);
            tx_cell(f, shown, cw[c], c1 - c0 > 1 || o->wide ? 1 : 0);
        }
        fputc('\n', f);
        json_array_foreach(rows, j, row) {
            if (!o->wide && json_is_true(json_object_get(row, "detail")))
                continue;
            char label[256];
            char *l = tx_dup(o, doc_str(row, "label", ""));
            cut(label, sizeof(label), l ? l : "", lw, o);
            free(l);
            tx_cell(f, label, lw, 0);
            for (size_t c = c0; c < c1; c++) {
                char *t = tx_dup(o, json_string_value(json_array_get(json_object_get(row, "cells"), c)));
                fputs("  ", f);
                tx_cell(f, t ? t : "", cw[c], 1);
                free(t);
            }
            fputc('\n', f);
        }
        c0 = c1;
        if (c0 < nr)
            fputc('\n', f);
    }
}

/* One culprit that came, went or stayed, in words: "spin (real-time task): 4 events, 2 spikes", or for one that
 * stayed "stall (client of the graph): events 1 → 2, spikes 0 → 0". */
static void culprit_words(char *buf, size_t len, const json_t *c)
{
    const json_t *ev = json_object_get(c, "events"), *sp = json_object_get(c, "spikes");
    char counts[96];
    if (json_is_array(ev))
        snprintf(counts, sizeof(counts), "events %lld → %lld, spikes %lld → %lld",
                 (long long)json_integer_value(json_array_get(ev, 0)),
                 (long long)json_integer_value(json_array_get(ev, 1)),
                 (long long)json_integer_value(json_array_get(sp, 0)),
                 (long long)json_integer_value(json_array_get(sp, 1)));
    else
        culprit_counts_words(counts, sizeof(counts), (long long)json_integer_value(ev),
                             (long long)json_integer_value(sp));
    /* The kind only where it says more than the name: not "run delay (run delay)", not for "nothing on this
     * machine" (kind none). */
    const char *name = doc_str(c, "name", "?"), *kind = doc_str(c, "kind", ""), *words = culprit_kind_words(kind);
    if (!strcmp(kind, "none") || !strcasecmp(name, words))
        snprintf(buf, len, "%.100s: %s", name, counts);
    else
        snprintf(buf, len, "%.100s (%s): %s", name, words, counts);
}

/* A load's culprits that came or went (loads[].culprits), one line each, under the verdicts. */
static void culprit_lines(FILE *f, const struct render_opts *o, const json_t *load)
{
    size_t i, j;
    const json_t *e, *c;
    char line[512];
    json_array_foreach(json_object_get(load, "culprits"), i, e) {
        size_t ri = (size_t)json_integer_value(json_object_get(e, "report"));
        snprintf(line, sizeof(line), "Culprits of [%zu] against the baseline [1]:", ri + 1);
        say(f, o, "  ", 4, line);
        const json_t *sought = json_object_get(e, "sought");
        if (!json_is_true(json_array_get(sought, 0)) || !json_is_true(json_array_get(sought, 1))) {
            int base_looked = json_is_true(json_array_get(sought, 0));
            snprintf(line, sizeof(line), "[%zu] did not look for culprits; [%zu] named:", base_looked ? ri + 1 : 1,
                     base_looked ? 1 : ri + 1);
            say(f, o, "    ", 6, line);
            json_array_foreach(json_object_get(e, "seen"), j, c) {
                culprit_words(line, sizeof(line), c);
                say(f, o, "      ", 8, line);
            }
            continue;
        }
        static const char *const parts[][2] = { { "came", "came:   " }, { "went", "went:   " },
                                                 { "stayed", "stayed: " } };
        for (size_t k = 0; k < 3; k++)
            json_array_foreach(json_object_get(e, parts[k][0]), j, c) {
                char first[32];
                snprintf(first, sizeof(first), "    %s", parts[k][1]);
                culprit_words(line, sizeof(line), c);
                say(f, o, first, 12, line);
            }
    }
}

/* What differs in the system: a line per key, at most max of them (the rest counted). */
static void system_diff(FILE *f, const struct render_opts *o, const json_t *diff, size_t nreports, size_t max)
{
    size_t i;
    const json_t *s;
    if (json_array_size(diff)) {
        fprintf(f, "\nWhat differs in the system:\n");
        json_array_foreach(diff, i, s) {
            if (i >= max) {
                fprintf(f, "  ... and %zu more%s\n", json_array_size(diff) - i, max < 60 ? " (--wide)" : "");
                break;
            }
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            if (!m)
                break;
            size_t j;
            const json_t *v;
            json_array_foreach(json_object_get(s, "values"), j, v) {
                const char *t = json_string_value(v);
                fprintf(m, "%s%.*s", j ? " → " : "", t ? utf8_prefix(t, 120) : 8, t ? t : "(absent)");
            }
            fclose(m);
            char first[64];
            snprintf(first, sizeof(first), "  %-28.40s ", doc_str(s, "key", ""));
            say(f, o, first, 6, buf);
            free(buf);
        }
    } else if (nreports > 1) {
        fprintf(f, "\nThe system identity is the same in every report.\n");
    }
}

/* The answers, one per report against the baseline: the first lines of the text in either form. */
static void answer_lines(FILE *f, const struct render_opts *o, const json_t *cmp)
{
    size_t i;
    const json_t *a;
    char first[64];
    json_array_foreach(json_object_get(cmp, "answers"), i, a) {
        snprintf(first, sizeof(first), "[%lld] against [1]: ", (long long)json_integer_value(json_object_get(a, "report")) + 1);
        say(f, o, first, 4, doc_str(a, "text", ""));
    }
}

/* One cell of the answer's table: v with prec decimals, "-" when unknown. */
static void num_cell(char *b, size_t len, double v, int prec)
{
    if (isnan(v))
        snprintf(b, len, "-");
    else
        snprintf(b, len, "%.*f", v >= 1000 ? 0 : prec, v);
}

/* The answer's one table: per load, each report's xrun events and missed deadlines per minute and its wake-up p99
 * (the median of its seconds') as a share of its own period; reports in blocks that fit the width. */
static void answer_table(FILE *f, const struct render_opts *o, const json_t *cmp)
{
    const json_t *reports = json_object_get(cmp, "reports"), *loads = json_object_get(cmp, "loads");
    size_t nr = json_array_size(reports);
    if (nr > MAX_COLS)
        nr = MAX_COLS;
    enum { CW = 8 };
    int lw = 6;
    size_t li;
    const json_t *l;
    json_array_foreach(loads, li, l) {
        char *t = tx_dup(o, doc_str(l, "load", ""));
        int w = t ? tx_width(t) : 0;
        free(t);
        if (w > lw)
            lw = w > 16 ? 16 : w;
    }
    /* reports per block: three cells each (and a space), beside the load names */
    size_t per = (size_t)((o->width - lw) / (3 * (CW + 1) + 2));
    if (per < 1)
        per = 1;
    fputc('\n', f);
    say(f, o, "", 0, "Per load: xrun events a minute (xr/min), missed deadlines a minute (miss/min), and the "
        "wake-up p99 of the seconds as % of each run's own period (late%):");
    for (size_t c0 = 0; c0 < nr; c0 += per) {
        size_t c1 = c0 + per < nr ? c0 + per : nr;
        tx_cell(f, "", lw, 0);
        for (size_t c = c0; c < c1; c++) {
            /* [i] and what tells its title from the others', cut to the block */
            char head[256], shown[256], d[210];
            distinct_title(d, sizeof(d), reports, nr, c, o->ascii ? "(..." : "(…");
            char *t = tx_dup(o, d);
            snprintf(head, sizeof(head), "[%zu] %.200s", c + 1, t ? t : "");
            free(t);
            cut_middle(shown, sizeof(shown), head, 3 * (CW + 1) - 1, o);
            fputs("  ", f);
            tx_cell(f, shown, c + 1 < c1 ? 3 * (CW + 1) - 1 : 0, 0);
        }
        fputc('\n', f);
        tx_cell(f, "load", lw, 0);
        for (size_t c = c0; c < c1; c++) {
            fputs("  ", f);
            tx_cell(f, "xr/min", CW, 1);
            fputc(' ', f);
            tx_cell(f, "miss/min", CW, 1);
            fputc(' ', f);
            tx_cell(f, "late%", CW, 1);
        }
        fputc('\n', f);
        json_array_foreach(loads, li, l) {
            char name[128];
            char *t = tx_dup(o, doc_str(l, "load", ""));
            cut(name, sizeof(name), t ? t : "", lw, o);
            free(t);
            tx_cell(f, name, lw, 0);
            for (size_t c = c0; c < c1; c++) {
                const json_t *col = json_array_get(json_object_get(l, "columns"), c);
                double s = doc_num(col, "measured_s"), per_us = doc_num(col, "period_us");
                double x = doc_num(col, "xruns"), m = doc_num(col, "deadlines_missed");
                double late = doc_num(json_object_get(col, "seconds"), "wakeup_p99_us");
                char b1[32], b2[32], b3[32];
                num_cell(b1, sizeof(b1), s > 0 ? x * 60 / s : NAN, 1);
                num_cell(b2, sizeof(b2), s > 0 ? m * 60 / s : NAN, 1);
                num_cell(b3, sizeof(b3), per_us > 0 ? late * 100 / per_us : NAN, 1);
                fputs("  ", f);
                tx_cell(f, json_is_object(col) ? b1 : "", CW, 1);
                fputc(' ', f);
                tx_cell(f, json_is_object(col) ? b2 : "", CW, 1);
                fputc(' ', f);
                tx_cell(f, json_is_object(col) ? b3 : "", CW, 1);
            }
            fputc('\n', f);
        }
    }
}

/* The default form: the answers, the reports in a line each, the warnings, a few lines of what differs, and one
 * table; the rest (each load's measures and verdicts, the culprits, the method) with --wide and in the page. */
static void compare_short(FILE *f, const json_t *cmp, const struct render_opts *o)
{
    const json_t *reports = json_object_get(cmp, "reports");
    size_t i;
    const json_t *r, *s;
    char line[2048];
    if (json_array_size(json_object_get(cmp, "answers"))) {
        answer_lines(f, o, cmp);
        fputc('\n', f);
    }
    json_array_foreach(reports, i, r) {
        char first[32], setting[128];
        snprintf(first, sizeof(first), "[%zu] ", i + 1);
        snprintf(line, sizeof(line), "%.200s, %s%s  %.1000s", doc_str(r, "title", ""),
                 render_setting(setting, sizeof(setting), r, 0), i ? "" : " (the baseline)", doc_str(r, "file", ""));
        say(f, o, first, 4, line);
    }
    json_array_foreach(json_object_get(cmp, "warnings"), i, s)
        say(f, o, "warning: ", 9, json_string_value(s) ? json_string_value(s) : "");
    system_diff(f, o, json_object_get(cmp, "system_diff"), json_array_size(reports), SHORT_DIFF);
    answer_table(f, o, cmp);
    say(f, o, "\n", 0, "Each load's measures, verdicts and culprits, and how compare decides: --wide, or the page "
        "(--format html).");
}

static void compare_text(FILE *f, const json_t *cmp, const struct render_opts *given)
{
    struct render_opts o = render_opts_or_default(given);
    if (!o.wide) {
        compare_short(f, cmp, &o);
        return;
    }
    const json_t *reports = json_object_get(cmp, "reports");
    size_t i;
    const json_t *r;
    char line[2048];
    if (json_array_size(json_object_get(cmp, "answers"))) {
        answer_lines(f, &o, cmp);
        fputc('\n', f);
    }
    snprintf(line, sizeof(line), "Comparing %zu report%s (the first is the baseline):", json_array_size(reports),
             json_array_size(reports) == 1 ? "" : "s");
    say(f, &o, "", 0, line);
    json_array_foreach(reports, i, r) {
        char first[32];
        snprintf(first, sizeof(first), "  [%zu] ", i + 1);
        /* The start time, unless the title already carries it (reports of one kernel are told apart by it). */
        const char *st = doc_str(r, "started", "?"), *title = doc_str(r, "title", "");
        char when[64];
        snprintf(when, sizeof(when), "%.10s %.8s", st, strlen(st) >= 19 ? st + 11 : "");
        char setting[128];
        snprintf(line, sizeof(line), "%.200s%s%.40s, %s  %.1000s", title, strstr(title, when) ? "" : ", started ",
                 strstr(title, when) ? "" : st, render_setting(setting, sizeof(setting), r, 0), doc_str(r, "file", ""));
        say(f, &o, first, 6, line);
        size_t nrep = json_array_size(json_object_get(r, "replicates"));
        if (nrep) {
            snprintf(line, sizeof(line), "%zu other run%s of this set-up beside it (run-to-run noise), newest: "
                     "%.1000s", nrep, nrep == 1 ? "" : "s",
                     json_string_value(json_array_get(json_object_get(r, "replicates"), 0)) ?: "");
            say(f, &o, "      ", 8, line);
        }
    }
    const json_t *s;
    json_array_foreach(json_object_get(cmp, "warnings"), i, s)
        say(f, &o, "warning: ", 9, json_string_value(s) ? json_string_value(s) : "");
    system_diff(f, &o, json_object_get(cmp, "system_diff"), json_array_size(reports), 60);
    const json_t *load;
    json_array_foreach(json_object_get(cmp, "loads"), i, load) {
        fprintf(f, "\n");
        say(f, &o, "Load: ", 6, doc_str(load, "load", ""));
        load_table(f, load, reports, &o);
        const json_t *v;
        size_t j, last = 0;
        json_array_foreach(json_object_get(load, "verdicts"), j, v) {
            size_t ri = (size_t)json_integer_value(json_object_get(v, "report"));
            if (ri != last) {
                snprintf(line, sizeof(line), "[%zu] %.200s against the baseline [1]:", ri + 1,
                         doc_str(json_array_get(reports, ri), "title", ""));
                say(f, &o, "  ", 4, line);
            }
            last = ri;
            say(f, &o, "    - ", 6, doc_str(v, "text", ""));
        }
        culprit_lines(f, &o, load);
    }
    if (json_array_size(json_object_get(cmp, "summary")))
        fprintf(f, "\nVerdict:\n");
    json_array_foreach(json_object_get(cmp, "summary"), i, s)
        say(f, &o, "  ", 4, json_string_value(s) ? json_string_value(s) : "");
    fputc('\n', f);
    say(f, &o, "Method: ", 2, doc_str(cmp, "method", ""));
}

/* The entry of the text form: every string the comparison holds (a label, a hostname, a warning, a load's error,
 * a file's name) is shown visibly (util/termtext.h) before it reaches a terminal; the layout below measures the
 * visible form. */
void compare_print_text_opts(FILE *f, const json_t *cmp, const struct render_opts *given)
{
    json_t *safe = term_safe_json(cmp);
    if (!safe) {
        fputs("rtjitter: out of memory\n", f);
        return;
    }
    compare_text(f, safe, given);
    json_decref(safe);
}

void compare_print_text(FILE *f, const json_t *cmp)
{
    struct render_opts o;
    render_opts_detect(&o, f);
    compare_print_text_opts(f, cmp, &o);
}
