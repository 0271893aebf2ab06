/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/text_ramp.h"
#include "render/textfmt.h"
#include "report/access.h"
#include <math.h>
#include <stdlib.h>

static void say(FILE *f, const struct render_opts *o, const char *first, const char *text)
{
    char *t = tx_dup(o, text);
    tx_wrap(f, first, 9, o->width, t ? t : text);
    free(t);
}

static void pct(char *b, size_t n, const json_t *v)
{
    if (json_is_number(v))
        snprintf(b, n, "%.0f %%", json_number_value(v));
    else
        snprintf(b, n, "none");
}

void text_ramp(FILE *f, const json_t *doc, const struct render_opts *o)
{
    const json_t *au = json_object_get(doc, "audio"), *r = json_object_get(au, "dsp_ramp");
    if (!json_is_object(r))
        return;
    const json_t *cal = json_object_get(au, "dsp_calibration");
    char line[512];
    if (json_is_object(json_object_get(cal, "in_run")))
        snprintf(line, sizeof(line), "ramp of %g %% of the period every %g s, 0 to 100 %%, until 1 %% of a step's "
                 "cycles fail; work calibrated in the run at %.2f units/µs of the RT thread's CPU time",
                 doc_num(r, "step_pct"), doc_num(r, "step_s"), doc_num(cal, "units_per_us"));
    else
        snprintf(line, sizeof(line), "ramp of %g %% of the period every %g s, 0 to 100 %%, until 1 %% of a step's "
                 "cycles fail; work calibrated at %.2f units/µs (median of %.0f tries on the main thread, CPU %.0f)",
                 doc_num(r, "step_pct"), doc_num(r, "step_s"), doc_num(cal, "units_per_us"), doc_num(cal, "tries"),
                 doc_num(cal, "cpu"));
    say(f, o, "dsp:     ", line);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *pr = json_object_get(p, "dsp_ramp");
        if (!json_is_object(pr))
            continue;
        char first[32], one[32], dl[32], cut[32];
        pct(first, sizeof(first), json_object_get(pr, "first_miss_pct"));
        pct(one, sizeof(one), json_object_get(pr, "one_pct_pct"));
        pct(dl, sizeof(dl), json_object_get(pr, "first_missed_deadline_pct"));
        pct(cut, sizeof(cut), json_object_get(pr, "first_cut_short_pct"));
        /* The RT thread's CPU time against the level, over the steps whose work all fit (dsp_ramp.steps[]). */
        double worst = -1;
        size_t k;
        const json_t *st;
        json_array_foreach(json_object_get(pr, "steps"), k, st) {
            double d = fabs(doc_num(st, "measured_pct") - doc_num(st, "level_pct"));
            if (doc_num(st, "failed") == 0 && isfinite(d) && d > worst)
                worst = d;
        }
        char cpu[128] = "";
        if (worst >= 0)
            snprintf(cpu, sizeof(cpu), "; the RT thread's CPU time within %.1f points of the level in each step whose work all fit",
                     worst);
        snprintf(line, sizeof(line), "%.40s: first cycle whose work did not fit at %s, 1 %% of cycles at %s "
                 "(first cut short at %s, first missed deadline at %s; ramp reached %.0f %%%s)",
                 doc_str(p, "load", "?"), first, one, cut, dl, doc_num(pr, "reached_pct"), cpu);
        say(f, o, "headroom ", line);
    }
}
