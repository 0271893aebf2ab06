/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep as text: the answer first (one line per rate), a grid per rate (buffer size down, load across), the
 * smallest safe size per load, then one line per measured cell
 * saying how long it was measured and what that proves. */
#include "render/sweep_render.h"
#include "render/textfmt.h"
#include "report/access.h"
#include "util/numfmt.h"
#include "util/termtext.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const json_t *text_sweep_doc_cell(const json_t *doc, double rate, double frames, const char *load)
{
    const json_t *c;
    size_t i;
    json_array_foreach(json_object_get(doc, "cells"), i, c)
        if (doc_num(c, "rate") == rate && doc_num(c, "period_frames") == frames &&
            strcmp(doc_str(c, "load", ""), load) == 0)
            return c;
    return NULL;
}

const char *text_sweep_cell_word(const json_t *cell)
{
    const char *st = doc_str(cell, "state", "open");
    if (!strcmp(st, "safe"))
        return "SAFE";
    if (!strcmp(st, "unsafe"))
        return "unsafe";
    if (!strcmp(st, "inferred_safe"))
        return "(safe)";
    if (!strcmp(st, "inferred_unsafe"))
        return "(unsafe)";
    if (!strcmp(st, "not_measured"))
        return "-";
    return "?";
}

/* "SAFE", or "unsafe 12 xr" with the events that made it so */
static void grid_word(char *buf, size_t len, const json_t *cell)
{
    const char *w = text_sweep_cell_word(cell);
    double ev = doc_num(cell, "xrun_events"), miss = doc_num(cell, "deadlines_missed");
    if (!strcmp(w, "unsafe") && ev > 0)
        snprintf(buf, len, "unsafe %.0f xr", ev);
    else if (!strcmp(w, "unsafe") && miss > 0)
        snprintf(buf, len, "unsafe %.0f late", miss);
    else if (!strcmp(w, "unsafe"))
        snprintf(buf, len, "unsafe margin");
    else
        snprintf(buf, len, "%s", w);
}

/* text, as o's reader sees it (ASCII when needed), wrapped at o's width after first, the next lines indented. */
static void put(FILE *f, const struct render_opts *o, const char *first, int indent, const char *text)
{
    char *t = tx_dup(o, text);
    tx_wrap(f, first, indent, o->width, t ? t : text);
    free(t);
}

/* The grid of one rate: sizes down, loads across; a column as wide as its load's name (at least a cell's word). */
static void grid(FILE *f, const json_t *doc, double rate)
{
    const json_t *loads = json_object_get(doc, "loads"), *p, *l;
    size_t pi, li;
    fprintf(f, "\n%-16s", "buffer");
    json_array_foreach(loads, li, l)
        fprintf(f, " %-14.24s", json_string_value(l));
    fputc('\n', f);
    json_array_foreach(json_object_get(doc, "periods"), pi, p) {
        double frames = json_number_value(p);
        char line[64];
        snprintf(line, sizeof(line), "%5.0f (%.2f ms)", frames, 1000.0 * frames / rate);
        fprintf(f, "%-16s", line);
        json_array_foreach(loads, li, l) {
            char w[40];
            int lw = tx_width(json_string_value(l));
            grid_word(w, sizeof(w), text_sweep_doc_cell(doc, rate, frames, json_string_value(l)));
            fprintf(f, " %-*s", lw < 14 ? 14 : lw > 24 ? 24 : lw, w);
        }
        fputc('\n', f);
    }
}

/* The largest size of the grid. */
static double largest_period(const json_t *doc)
{
    double m = 0;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "periods"), i, p)
        if (json_number_value(p) > m)
            m = json_number_value(p);
    return m;
}

const char *text_sweep_answer(const json_t *doc, const json_t *ans, char *line, size_t len)
{
    double rate = doc_num(ans, "rate");
    const json_t *all = json_object_get(ans, "overall");
    if (json_is_object(all)) {
        snprintf(line, len, "At %.0f Hz, %.0f frames (%.2f ms per period) is the smallest buffer safe under every "
                 "load.", rate, doc_num(all, "frames"), doc_num(all, "ms"));
    } else if (!json_is_true(json_object_get(doc, "complete"))) {
        snprintf(line, len, "At %.0f Hz, no size was found safe under every load before the sweep stopped.", rate);
    } else {
        double top = largest_period(doc), next = 2 * top;
        if (top > 0 && next <= 8192)
            snprintf(line, len, "At %.0f Hz, no size up to %.0f frames was safe under every load: try %.0f frames "
                     "(%.2f ms), rtjitter sweep --periods %.0f.", rate, top, next, 1000 * next / rate, next);
        else
            snprintf(line, len, "At %.0f Hz, no size up to %.0f frames was safe under every load, and there is no "
                     "larger one to try: look at the culprits of the runs below.", rate, top);
    }
    return line;
}

const char *text_sweep_cell_words(const json_t *cell)
{
    static const char *const words[][2] = {
        { "safe", "safe" }, { "unsafe", "unsafe" }, { "inferred_safe", "safe (inferred)" },
        { "inferred_unsafe", "unsafe (inferred)" }, { "not_measured", "not measured" },
    };
    const char *st = doc_str(cell, "state", "open");
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (!strcmp(st, words[i][0]))
            return words[i][1];
    return "not reached";
}

static int sweep_text(FILE *f, const json_t *doc, const struct render_opts *opts)
{
    struct render_opts o = render_opts_or_default(opts);
    const json_t *audio = json_object_get(doc, "audio");
    const json_t *prof = json_object_get(doc, "profile");
    char line[1024];
    int complete = json_is_true(json_object_get(doc, "complete"));
    const json_t *ans;
    size_t ai;
    /* the answer first: one line per rate */
    json_array_foreach(json_object_get(doc, "smallest_safe"), ai, ans)
        put(f, &o, "", 0, text_sweep_answer(doc, ans, line, sizeof(line)));
    if (!complete) {
        snprintf(line, sizeof(line), "%s", doc_str(doc, "incomplete_reason", "?"));
        put(f, &o, "INCOMPLETE: ", 2, line);
    }
    const char *how = doc_str(audio, "buffer_change", "?");
    how = !strcmp(how, "direct") ? "the backend takes each size directly"
        : !strcmp(how, "set_buffer_size") ? "sizes set with jack_set_buffer_size"
        : !strcmp(how, "restart") ? "the server restarted at each size"
        : !strcmp(how, "pipewire_force_quantum") ? "PipeWire's quantum forced per size (clock.force-quantum)" : how;
    snprintf(line, sizeof(line), "--backend %s%s%s, %s. Profile %s: safe means no xrun, no missed deadline, and "
             "99.9%% of cycles keep at least %.0f%% of the period.", doc_str(audio, "backend", "?"),
             doc_str(audio, "server", NULL) ? ", server " : "", doc_str(audio, "server", ""), how,
             doc_str(prof, "name", "?"), doc_num(prof, "warn_margin_pct"));
    fputs("\nBuffer-size sweep", f);
    if (doc_str(doc, "label", NULL))
        put(f, &o, ": ", 2, doc_str(doc, "label", NULL));
    else
        fputc('\n', f);
    put(f, &o, "", 0, line);
    json_array_foreach(json_object_get(doc, "smallest_safe"), ai, ans) {
        double rate = doc_num(ans, "rate");
        grid(f, doc, rate);
        int o_ = snprintf(line, sizeof(line), "Smallest safe buffer per load at %.0f Hz:", rate);
        const json_t *e;
        size_t li;
        json_array_foreach(json_object_get(ans, "per_load"), li, e) {
            const json_t *s = json_object_get(e, "smallest_safe");
            if (o_ < 0 || (size_t)o_ >= sizeof(line))
                break;
            if (!json_is_object(s))
                o_ += snprintf(line + o_, sizeof(line) - (size_t)o_, "%s %s: %s", li ? ";" : "",
                               doc_str(e, "load", "?"), complete ? "no size tried is safe" : "none found before the stop");
            else
                o_ += snprintf(line + o_, sizeof(line) - (size_t)o_, "%s %s: %.0f frames (%.2f ms)", li ? ";" : "",
                               doc_str(e, "load", "?"), doc_num(s, "frames"), doc_num(s, "ms"));
        }
        put(f, &o, "", 2, line);
    }
    fputc('\n', f);
    put(f, &o, "", 0, "SAFE/unsafe: measured; (safe)/(unsafe): not measured, inferred from a neighbour that passed "
        "with margin or failed clearly; -: not measured; ?: not reached.");
    fputs("\nWhat each measured cell proves:\n", f);
    const json_t *c;
    size_t ci;
    json_array_foreach(json_object_get(doc, "cells"), ci, c) {
        if (!json_is_true(json_object_get(c, "measured")))
            continue;
        char wk[32], wm[32], mg[32];
        dur_human(wk, sizeof(wk), doc_num(c, "wakeup_p999_us"), tx_us(&o));
        dur_human(wm, sizeof(wm), doc_num(c, "wakeup_max_us"), tx_us(&o));
        dur_human(mg, sizeof(mg), doc_num(c, "margin_p999_us"), tx_us(&o));
        char wake[96];
        if (isnan(doc_num(c, "wakeup_p999_us")))
            snprintf(wake, sizeof(wake), "Wake-up max %s", wm);
        else
            snprintf(wake, sizeof(wake), "Wake-up p99.9 %s, max %s", wk, wm);
        /* a margin below zero is a deadline missed: said so, never "-0% of the period" */
        char margin[160];
        double mus = doc_num(c, "margin_p999_us"), mpct = doc_num(c, "margin_p999_pct");
        if (mus < 0) {
            char past[32];
            dur_human(past, sizeof(past), -mus, tx_us(&o));
            snprintf(margin, sizeof(margin), "the slowest 0.1%% of cycles ended %s past their deadline", past);
        } else if (isnan(mus)) {
            snprintf(margin, sizeof(margin), "margin not known");
        } else {
            snprintf(margin, sizeof(margin), "margin kept by 99.9%% of cycles %s (%.0f%% of the period)", mg,
                     floor(mpct));
        }
        snprintf(line, sizeof(line), "%s @ %.0f frames, %.0f Hz: %s. %s; %s; deadlines met %.2f%%.",
                 doc_str(c, "load", "?"), doc_num(c, "period_frames"), doc_num(c, "rate"),
                 doc_str(json_object_get(c, "proof"), "text", "?"), wake, margin, doc_num(c, "deadlines_met_pct"));
        put(f, &o, "- ", 2, line);
        const char *rep = doc_str(c, "report", NULL);
        if (rep) /* the run this cell was measured in, with the loads measured at its size */
            put(f, &o, "  from ", 4, rep);
    }
    return 0;
}

/* The entry of the text form: every string the document holds (a label, a hostname, a warning, a load's error,
 * a file's name) is shown visibly (util/termtext.h) before it reaches a terminal; the layout below measures the
 * visible form. */
int text_sweep_print(FILE *f, const json_t *doc, const struct render_opts *opts)
{
    json_t *safe = term_safe_json(doc);
    if (!safe)
        return -ENOMEM;
    int rc = sweep_text(f, safe, opts);
    json_decref(safe);
    return rc;
}
