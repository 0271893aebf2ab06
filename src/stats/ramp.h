/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The DSP headroom ramp (`rtjitter run --dsp ramp`): per step of DSP load, what the cycles of that load did.
 *
 * The load of a cycle comes from its own record: dsp_req (the work units it was asked for) against the
 * calibration (units per ns) and its period (nframes / rate_hz), never from when the orchestrator changed the
 * share. A cycle "fails" when the work it was asked for did not get done in time: either the burn was cut short at
 * its guard band (dsp_done < dsp_req: a plugin that size would not have finished) or the callback ended after the
 * next cycle's start (margin < 0: a missed deadline). The two are counted apart; "failed" is either. The margin of
 * a cycle is the one phase.c measures (phase_stats.margin_ns, one deadline estimate for every figure).
 *
 * Fed by the collector thread; ramp_one_pct_step() may be read by the orchestrator meanwhile (an atomic). */
#ifndef RTJ_RAMP_H
#define RTJ_RAMP_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "record.h"

#define RAMP_ONE_PCT 0.01       /* the share of failed cycles that makes the "1 %" point */

struct ramp_step {
    uint64_t cycles;            /* cycles of this step whose margin is known */
    uint64_t missed;            /* of them: margin < 0 (a missed deadline) */
    uint64_t cut_short;         /* of them: the burn stopped at the guard band */
    uint64_t failed;            /* of them: either */
    double level_sum_pct;       /* sum of the cycles' own DSP levels, % of their period */
    double callback_sum_ns;     /* sum of exit - entry: the independent measure of the work done */
    double period_sum_ns;       /* sum of the cycles' nominal periods */
    int64_t margin_min_ns;
    int64_t margin_p1_ns;       /* 99 % of the step's cycles kept at least this margin (its 1st percentile) */
    int have_p1;
};

struct ramp_stats {
    double step_pct;            /* the ramp's step, % of the period */
    double units_per_ns;        /* the calibration the records' dsp_req are in */
    int nsteps;                 /* 100 / step_pct + 1 */
    struct ramp_step *steps;
    struct ramp_prev {          /* each stream's previous cycle, waiting for its margin */
        int have;
        uint32_t dsp_req, dsp_done, nframes, rate_hz;
        int64_t callback_ns;
    } prev[RTREC_MAX_STREAMS];
    int64_t *buf;               /* margins of the open step, for its 1st percentile */
    size_t buf_n, buf_cap;
    int buf_step;               /* the open step, -1 none */
    int first_fail_step, first_missed_step, first_cut_step; /* -1 none */
    double first_fail_pct, first_missed_pct, first_cut_pct; /* the failing cycle's own level */
    int one_pct_step;           /* lowest step with >= 1 % failed, after ramp_finish; -1 none */
    atomic_int one_pct_seen;    /* 1 + the first closed step with >= 1 % failed, 0 before: for the orchestrator */
    atomic_int cycles_seen;     /* any cycle accounted (for the orchestrator's patience) */
};

/* step_pct in (0, 100]; units_per_ns > 0. Returns 0 or -ENOMEM / -EINVAL. */
int ramp_init(struct ramp_stats *r, double step_pct, double units_per_ns);
void ramp_free(struct ramp_stats *r);
/* The DSP level of one record, % of its own period (0 when it asked for none). */
double ramp_level_pct(const struct ramp_stats *r, const struct rt_record *rec);
/* The step a level belongs to (nearest), clamped to the ramp. */
int ramp_step_of(const struct ramp_stats *r, double level_pct);
/* Account a measured record: margin_known/margin_ns are the margin phase.c just measured for this record's
 * stream's previous cycle (which is then accounted), and rec becomes that stream's previous cycle.
 * lost > 0 (records lost before it) forgets the previous cycle. Returns 0 or -ENOMEM. */
int ramp_add(struct ramp_stats *r, const struct rt_record *rec, int margin_known, int64_t margin_ns, uint64_t lost);
/* Close the open step and find the 1 % point. */
void ramp_finish(struct ramp_stats *r);
/* For the orchestrator (any thread): the first closed step with >= 1 % failed, or -1. */
int ramp_one_pct_seen(const struct ramp_stats *r);

#endif
