/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A phase's "dsp_ramp" object (`--dsp ramp`), from stats/ramp.h:
 *   first_miss_pct      the DSP load (% of the period, the failing cycle's own) of the first cycle whose work was
 *                       not done in time: cut short at the guard band or a missed deadline; null: none failed
 *   one_pct_pct         the lowest step at which >= 1 % of the cycles failed; null: none
 *   first_missed_deadline_pct, first_cut_short_pct   the same, by kind
 *   reached_pct         the last step measured (the ramp ends at its 1 % point)
 *   steps [{level_pct (mean of the cycles' own levels), cycles, failed, missed_deadlines, cut_short, failed_pct,
 *           margin_min_us, margin_p1_us (99 % of the cycles kept at least this), callback_mean_us,
 *           callback_pct (mean exit - entry over the period: the independent measure of the load)}]
 * Steps without a cycle are left out. */
#ifndef RTJ_REPORT_RAMP_H
#define RTJ_REPORT_RAMP_H
#include <jansson.h>
#include "stats/ramp.h"

json_t *report_ramp_json(const struct ramp_stats *r);

#endif
