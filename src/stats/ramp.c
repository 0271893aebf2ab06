/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stats/ramp.h"
#include "stats/stats.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ramp_init(struct ramp_stats *r, double step_pct, double units_per_ns)
{
    memset(r, 0, sizeof(*r));
    if (!(step_pct > 0) || step_pct > 100 || !(units_per_ns > 0))
        return -EINVAL;
    r->step_pct = step_pct;
    r->units_per_ns = units_per_ns;
    r->nsteps = (int)floor(100.0 / step_pct + 1e-9) + 1;
    r->steps = calloc((size_t)r->nsteps, sizeof(*r->steps));
    if (!r->steps)
        return -ENOMEM;
    for (int i = 0; i < r->nsteps; i++)
        r->steps[i].margin_min_ns = INT64_MAX;
    r->buf_step = -1;
    r->first_fail_step = r->first_missed_step = r->first_cut_step = r->one_pct_step = -1;
    atomic_init(&r->one_pct_seen, 0);
    atomic_init(&r->cycles_seen, 0);
    return 0;
}

void ramp_free(struct ramp_stats *r)
{
    free(r->steps);
    free(r->buf);
    r->steps = NULL;
    r->buf = NULL;
    r->nsteps = 0;
}

static double level_of(const struct ramp_stats *r, uint32_t dsp_req, uint32_t nframes, uint32_t rate_hz)
{
    if (!rate_hz || !nframes || !(r->units_per_ns > 0))
        return 0.0;
    double period_ns = (double)nframes * 1e9 / (double)rate_hz;
    return 100.0 * (double)dsp_req / (r->units_per_ns * period_ns);
}

double ramp_level_pct(const struct ramp_stats *r, const struct rt_record *rec)
{
    return level_of(r, rec->dsp_req, rec->nframes, rec->rate_hz);
}

int ramp_step_of(const struct ramp_stats *r, double level_pct)
{
    int k = (int)floor(level_pct / r->step_pct + 0.5);
    return k < 0 ? 0 : k >= r->nsteps ? r->nsteps - 1 : k;
}

static int failed_enough(const struct ramp_step *s)
{
    return s->cycles > 0 && (double)s->failed >= RAMP_ONE_PCT * (double)s->cycles;
}

/* The open step is complete (a cycle of another step came): its 1st percentile of margin, and the 1 % rule. */
static void close_step(struct ramp_stats *r)
{
    if (r->buf_step < 0)
        return;
    struct ramp_step *s = &r->steps[r->buf_step];
    if (r->buf_n) {
        s->margin_p1_ns = select_quantile(r->buf, r->buf_n, 0.01);
        s->have_p1 = 1;
    }
    if (failed_enough(s) && atomic_load_explicit(&r->one_pct_seen, memory_order_relaxed) == 0)
        atomic_store_explicit(&r->one_pct_seen, r->buf_step + 1, memory_order_release);
    r->buf_n = 0;
    r->buf_step = -1;
}

static int account(struct ramp_stats *r, const struct ramp_prev *c, int64_t margin_ns)
{
    double level = level_of(r, c->dsp_req, c->nframes, c->rate_hz);
    int k = ramp_step_of(r, level);
    struct ramp_step *s = &r->steps[k];
    int missed = margin_ns < 0, cut = c->dsp_done < c->dsp_req;
    s->cycles++;
    s->missed += (uint64_t)missed;
    s->cut_short += (uint64_t)cut;
    s->failed += (uint64_t)(missed || cut);
    s->level_sum_pct += level;
    s->callback_sum_ns += (double)c->callback_ns;
    s->period_sum_ns += (double)c->nframes * 1e9 / (double)c->rate_hz;
    if (margin_ns < s->margin_min_ns)
        s->margin_min_ns = margin_ns;
    if (missed && r->first_missed_step < 0) {
        r->first_missed_step = k;
        r->first_missed_pct = level;
    }
    if (cut && r->first_cut_step < 0) {
        r->first_cut_step = k;
        r->first_cut_pct = level;
    }
    if ((missed || cut) && r->first_fail_step < 0) {
        r->first_fail_step = k;
        r->first_fail_pct = level;
    }
    atomic_store_explicit(&r->cycles_seen, 1, memory_order_relaxed);
    /* Margins of one step at a time (the ramp's steps follow each other): a step met again after it was closed
     * (records of two threads merged a little out of order) still counts, without its percentile. */
    if (k != r->buf_step) {
        if (s->have_p1 || (r->buf_step >= 0 && k < r->buf_step))
            return 0;
        close_step(r);
        r->buf_step = k;
    }
    if (r->buf_n == r->buf_cap) {
        size_t cap = r->buf_cap ? r->buf_cap * 2 : 4096;
        int64_t *b = realloc(r->buf, cap * sizeof(*b));
        if (!b)
            return -ENOMEM;
        r->buf = b;
        r->buf_cap = cap;
    }
    r->buf[r->buf_n++] = margin_ns;
    return 0;
}

int ramp_add(struct ramp_stats *r, const struct rt_record *rec, int margin_known, int64_t margin_ns, uint64_t lost)
{
    unsigned st = rec->stream < RTREC_MAX_STREAMS ? rec->stream : RTREC_MAX_STREAMS - 1;
    struct ramp_prev *p = &r->prev[st];
    int e = 0;
    if (lost)
        p->have = 0;
    if (p->have && margin_known && p->rate_hz && p->nframes)
        e = account(r, p, margin_ns);
    p->have = 1;
    p->dsp_req = rec->dsp_req;
    p->dsp_done = rec->dsp_done;
    p->nframes = rec->nframes;
    p->rate_hz = rec->rate_hz;
    p->callback_ns = rec->t_exit_ns - rec->t_entry_ns;
    return e;
}

void ramp_finish(struct ramp_stats *r)
{
    close_step(r);
    r->one_pct_step = -1;
    for (int k = 0; k < r->nsteps && r->one_pct_step < 0; k++)
        if (failed_enough(&r->steps[k]))
            r->one_pct_step = k;
}

int ramp_one_pct_seen(const struct ramp_stats *r)
{
    return atomic_load_explicit(&r->one_pct_seen, memory_order_acquire) - 1;
}
