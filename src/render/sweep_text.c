/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep as text: a grid per rate (buffer size down, load across), the answer, then one line per measured cell
 * saying how long it was measured and what that proves. */
#include "render/sweep_render.h"
#include "render/textfmt.h"
#include "report/access.h"
#include "util/numfmt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const json_t *sweep_doc_cell(const json_t *doc, double rate, double frames, const char *load)
{
    const json_t *c;
    size_t i;
    json_array_foreach(json_object_get(doc, "cells"), i, c)
        if (doc_num(c, "rate") == rate && doc_num(c, "period_frames") == frames &&
            strcmp(doc_str(c, "load", ""), load) == 0)
            return c;
    return NULL;
}

const char *sweep_cell_word(const json_t *cell)
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
    const char *w = sweep_cell_word(cell);
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

static void put(FILE *f, const struct render_opts *o, const char *s)
{
    char *t = tx_dup(o, s);
    fputs(t ? t : s, f);
    free(t);
}

int sweep_print_text(FILE *f, const json_t *doc, const struct render_opts *opts)
{
    struct render_opts o = render_opts_or_default(opts);
    const json_t *audio = json_object_get(doc, "audio"), *loads = json_object_get(doc, "loads");
    const json_t *prof = json_object_get(doc, "profile");
    char line[1024];
    snprintf(line, sizeof(line), "\nBuffer-size sweep: --backend %s%s%s, size changed %s, profile %s (safe: no "
             "xrun, no missed deadline, 99.9 %% of cycles keep >= %.0f %% of the period)\n",
             doc_str(audio, "backend", "?"), doc_str(audio, "server", NULL) ? ", server " : "",
             doc_str(audio, "server", ""), doc_str(audio, "buffer_change", "?"), doc_str(prof, "name", "?"),
             doc_num(prof, "warn_margin_pct"));
    put(f, &o, line);
    if (!json_is_true(json_object_get(doc, "complete"))) {
        snprintf(line, sizeof(line), "INCOMPLETE: %s\n", doc_str(doc, "incomplete_reason", "?"));
        put(f, &o, line);
    }
    const json_t *ans;
    size_t ai;
    json_array_foreach(json_object_get(doc, "smallest_safe"), ai, ans) {
        double rate = doc_num(ans, "rate");
        fprintf(f, "\n%-16s", "");
        size_t li;
        const json_t *l;
        json_array_foreach(loads, li, l)
            fprintf(f, " %-16.16s", json_string_value(l));
        fputc('\n', f);
        const json_t *p;
        size_t pi;
        json_array_foreach(json_object_get(doc, "periods"), pi, p) {
            double frames = json_number_value(p);
            snprintf(line, sizeof(line), "%5.0f (%.2f ms)", frames, 1000.0 * frames / rate);
            fprintf(f, "%-16s", line);
            json_array_foreach(loads, li, l) {
                char w[40];
                grid_word(w, sizeof(w), sweep_doc_cell(doc, rate, frames, json_string_value(l)));
                fprintf(f, " %-16s", w);
            }
            fputc('\n', f);
        }
        fprintf(f, "at %.0f Hz, the smallest safe buffer:", rate);
        const json_t *e;
        json_array_foreach(json_object_get(ans, "per_load"), li, e) {
            const json_t *s = json_object_get(e, "smallest_safe");
            if (json_is_null(s) || !s)
                fprintf(f, "%s %s none of these", li ? "," : "", doc_str(e, "load", "?"));
            else
                fprintf(f, "%s %s %.0f frames (%.2f ms)", li ? "," : "", doc_str(e, "load", "?"),
                        doc_num(s, "frames"), doc_num(s, "ms"));
        }
        const json_t *all = json_object_get(ans, "overall");
        if (json_is_null(all) || !all)
            fprintf(f, ".\n  Under every load: none of the sizes tried is safe.\n");
        else
            fprintf(f, ".\n  Under every load: %.0f frames (%.2f ms per period).\n", doc_num(all, "frames"),
                    doc_num(all, "ms"));
    }
    fprintf(f, "\nSAFE/unsafe: measured; (safe)/(unsafe): skipped, inferred from a neighbour; -: not measured; ?: "
               "not reached.\n\nWhat each measured cell proves:\n");
    const json_t *c;
    size_t ci;
    json_array_foreach(json_object_get(doc, "cells"), ci, c) {
        if (!json_is_true(json_object_get(c, "measured")))
            continue;
        char wk[32], wm[32], mg[32];
        dur_human(wk, sizeof(wk), doc_num(c, "wakeup_p999_us"), tx_us(&o));
        dur_human(wm, sizeof(wm), doc_num(c, "wakeup_max_us"), tx_us(&o));
        dur_human(mg, sizeof(mg), doc_num(c, "margin_p999_us"), tx_us(&o));
        snprintf(line, sizeof(line), "  %s @ %.0f (%.0f Hz): %s. Wake-up p99.9 %s, max %s; margin kept by 99.9 %% "
                 "%s (%.0f %%); deadlines met %.2f %%.\n", doc_str(c, "load", "?"), doc_num(c, "period_frames"),
                 doc_num(c, "rate"), doc_str(json_object_get(c, "proof"), "text", "?"), wk, wm, mg,
                 doc_num(c, "margin_p999_pct"), doc_num(c, "deadlines_met_pct"));
        put(f, &o, line);
    }
    return 0;
}
