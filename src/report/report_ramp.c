/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "report/report_ramp.h"

static json_t *step_level(const struct ramp_stats *r, int k)
{
    if (k < 0 || k >= r->nsteps || r->steps[k].cycles == 0)
        return json_null();
    return json_real(r->steps[k].level_sum_pct / (double)r->steps[k].cycles);
}

json_t *report_ramp_json(const struct ramp_stats *r)
{
    json_t *steps = json_array();
    int reached = -1;
    for (int k = 0; k < r->nsteps; k++) {
        const struct ramp_step *s = &r->steps[k];
        if (!s->cycles)
            continue;
        reached = k;
        double n = (double)s->cycles;
        json_array_append_new(steps, json_pack("{s:f, s:I, s:I, s:I, s:I, s:f, s:f, s:o, s:f, s:f}",
            "level_pct", s->level_sum_pct / n, "cycles", (json_int_t)s->cycles, "failed", (json_int_t)s->failed,
            "missed_deadlines", (json_int_t)s->missed, "cut_short", (json_int_t)s->cut_short,
            "failed_pct", 100.0 * (double)s->failed / n, "margin_min_us", (double)s->margin_min_ns / 1000.0,
            "margin_p1_us", s->have_p1 ? json_real((double)s->margin_p1_ns / 1000.0) : json_null(),
            "callback_mean_us", s->callback_sum_ns / n / 1000.0,
            "callback_pct", s->period_sum_ns > 0 ? 100.0 * s->callback_sum_ns / s->period_sum_ns : 0.0));
    }
    return json_pack("{s:f, s:o, s:o, s:o, s:o, s:o, s:o}", "step_pct", r->step_pct,
                     "first_miss_pct", r->first_fail_step >= 0 ? json_real(r->first_fail_pct) : json_null(),
                     "one_pct_pct", step_level(r, r->one_pct_step),
                     "first_missed_deadline_pct", r->first_missed_step >= 0 ? json_real(r->first_missed_pct)
                                                                            : json_null(),
                     "first_cut_short_pct", r->first_cut_step >= 0 ? json_real(r->first_cut_pct) : json_null(),
                     "reached_pct", step_level(r, reached), "steps", steps);
}
