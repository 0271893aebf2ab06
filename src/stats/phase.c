/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stats/phase_internal.h"
#include "stats/timeline.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const metric_names[M_COUNT] = { "period", "jitter", "wakeup", "callback", "margin" };

void phase_init(struct phase_stats *p)
{
    memset(p, 0, sizeof(*p));
    p->cur = -1;
    phase_lists_share(&p->lists, 1);
}

void phase_segment_free(struct segment *s)
{
    free(s->secs);
    free(s->tl.e);
    event_keep_free(&s->events);
    for (int m = 0; m < M_COUNT; m++)
        hist_release(&s->m[m].hist);
    free(s->spikes);
    free(s->buf_jit);
    free(s->buf_wake);
    free(s);
}

void phase_free(struct phase_stats *p)
{
    for (int i = 0; i < p->nseg; i++)
        phase_segment_free(p->seg[i]);
    phase_init(p);
}

static void close_second(struct segment *s)
{
    if (s->nsecs == 0 || s->buf_n == 0)
        return;
    struct second_stats *ss = &s->secs[s->nsecs - 1 - s->secs_base];
    ss->jitter_abs_p99 = select_quantile(s->buf_jit, s->buf_n, 0.99);
    if (s->buf_wn)
        ss->wakeup_p99 = select_quantile(s->buf_wake, s->buf_wn, 0.99);
    s->buf_n = 0;
    s->buf_wn = 0;
}

void phase_settle(struct phase_stats *p)
{
    for (int i = 0; i < p->nseg; i++) {
        struct segment *s = p->seg[i];
        close_second(s);
        free(s->buf_jit);
        free(s->buf_wake);
        s->buf_jit = s->buf_wake = NULL;
        s->buf_n = s->buf_wn = s->buf_cap = 0;
        s->sec_settled = 1;
        for (int m = 0; m < M_COUNT; m++) /* no value comes any more: its non-empty buckets alone */
            hist_compact(&s->m[m].hist);
        (void)timeline_settle(s); /* out of memory: the window stays, nothing is lost */
    }
}

void phase_finish(struct phase_stats *p)
{
    for (int i = 0; i < p->nseg; i++) {
        close_second(p->seg[i]);
        phase_tell_events(p, p->seg[i], 1);
    }
}

static struct segment *segment_new(const struct phase_stats *p, uint32_t nframes, uint32_t rate)
{
    struct segment *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->nframes = nframes;
    s->rate_hz = rate;
    grid_init(&s->grid, nframes, rate);
    step_init(&s->step, rate);
    for (int m = 0; m < M_COUNT; m++)
        metric_init_zeroed(&s->m[m]); /* calloc'd: untouched histogram pages stay free (main.c fixes the mmap
                                       * threshold, so a segment is always a fresh mapping) */
    s->cur_sec = -1;
    event_keep_init(&s->events);
    event_keep_set_lists(&s->events, p->lists.events_latest, p->lists.events_worst);
    s->spikes_max = p->lists.spikes;
    s->tl.alone_max = p->lists.seconds_alone;
    s->tl.last_ev = -1;
    s->last_cpu = -1;
    return s;
}

/* Grow the timeline to hold second `sec`; seconds with no cycle stay zero. The seconds that can no longer change
 * are decided into the compacted timeline first (timeline.h), so the window stays a few minutes long. */
static int timeline_reach(struct segment *s, int64_t sec)
{
    if (sec < s->cur_sec)
        sec = s->cur_sec; /* clock never goes back; be safe anyway */
    if (sec == s->cur_sec)
        return 0;
    close_second(s);
    s->sec_settled = 0; /* a new second: its values are kept again */
    (void)timeline_compact(s); /* out of memory there: the window stays longer, nothing is lost */
    size_t need = (size_t)((uint64_t)sec + 1 - s->secs_base), have = s->nsecs - s->secs_base;
    if (need > s->secs_cap) {
        size_t cap = s->secs_cap ? s->secs_cap : 64;
        while (cap < need)
            cap *= 2;
        struct second_stats *n = realloc(s->secs, cap * sizeof(*n));
        if (!n)
            return -ENOMEM;
        memset(n + s->secs_cap, 0, (cap - s->secs_cap) * sizeof(*n));
        s->secs = n;
        s->secs_cap = cap;
    }
    for (size_t i = have; i < need; i++) {
        memset(&s->secs[i], 0, sizeof(s->secs[i]));
        s->secs[i].margin_min = INT64_MAX;
    }
    if (need > have)
        s->nsecs = s->secs_base + need;
    s->cur_sec = sec;
    return 0;
}

static int buf_push(struct segment *s, int64_t jit_abs, int64_t wake, int have_wake)
{
    if (s->sec_settled) { /* its second's p99s are decided */
        s->p99_late++;
        return 0;
    }
    if (s->buf_n == s->buf_cap) {
        size_t cap = s->buf_cap ? s->buf_cap * 2 : 4096;
        int64_t *a = realloc(s->buf_jit, cap * sizeof(*a));
        if (!a)
            return -ENOMEM;
        s->buf_jit = a;
        int64_t *b = realloc(s->buf_wake, cap * sizeof(*b));
        if (!b)
            return -ENOMEM;
        s->buf_wake = b;
        s->buf_cap = cap;
    }
    s->buf_jit[s->buf_n] = jit_abs;
    if (have_wake)
        s->buf_wake[s->buf_wn++] = wake;
    s->buf_n++;
    return 0;
}

int phase_add(struct phase_stats *p, const struct rt_record *r)
{
    return phase_add_cycle(p, r, 0, 0);
}

/* The callback figures of a disturbed cycle: its own, the previous one's of its stream, and its CPU. */
struct event_cb {
    int64_t now_ns, before_ns;
    int cpu;
};

static int64_t max3(int64_t a, int64_t b, int64_t c)
{
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

/* eventkeep's namer: the phase's, told which phase. */
/* A disturbance on the current cycle (a gap of `skipped` cycles due from due_ns, and/or n notifications): a new
 * event, or the current one goes on (XRUN_EVENT_CLEAN, phase_internal.h); every event is counted and kept or summed
 * (stats/eventkeep.h). Collector thread. */

static void event_note(struct phase_stats *p, struct segment *s, struct second_stats *ss, int64_t due_ns,
                       int64_t entry_ns, uint64_t frame0, uint64_t frame1, uint32_t skipped, uint64_t n,
                       struct event_cb cb)
{
    int same = s->last_event_cycle && s->cycles <= s->last_event_cycle + XRUN_EVENT_CLEAN;
    s->last_event_cycle = s->cycles;
    int64_t pending = s->event_cb_pending;
    s->event_cb_pending = 0;
    struct xrun_event *e = event_keep_newest(&s->events);
    if (same && e) {
        e->end_ns = entry_ns > e->start_ns ? entry_ns : e->start_ns; /* never before its start (a moved grid) */
        e->frame1 = frame1;
        e->skipped += skipped;
        e->notifications += (uint32_t)n;
        e->callback_max_ns = max3(e->callback_max_ns, pending, cb.now_ns); /* the cycles between are its own */
        return;
    }
    if (same)
        return;
    s->xrun_events++;
    if (ss)
        ss->xrun_events++;
    /* the one it pushes out of the latest was told long ago (phase_tell_events runs after every cycle) */
    (void)event_keep_push(&s->events, &(struct xrun_event){ .start_ns = due_ns, .end_ns = entry_ns,
                                                            .frame0 = frame0, .frame1 = frame1, .skipped = skipped,
                                                            .notifications = (uint32_t)n, .cpu = cb.cpu,
                                                            .callback_max_ns = max3(cb.now_ns, cb.before_ns, 0) },
                          s->t0_ns, p->namer ? phase_name_event : NULL, p); /* no memory: counted in events.lost */
}
/* Consecutive cycles whose whole-frame start disagrees with the grid by more than half a period before the grid is
 * fitted anew whatever the step detector says: two step windows. */
#define REPHASE_RUN (2 * STEP_HALF)
/* Do the provider's whole-frame start and the fitted grid disagree by more than half a period (50 µs at least,
 * well beyond the half frame of rounding and the provider's own wake-up jitter)? */
static int coarse_disagrees(int64_t coarse_ns, int64_t grid_ns, int64_t nominal_ns)
{
    int64_t d = coarse_ns - grid_ns, tol = nominal_ns / 2 > 50000 ? nominal_ns / 2 : 50000;
    return d > tol || d < -tol;
}

/* A frame advance that the time between two entries cannot explain: the frame clock jumped (a PipeWire driver
 * change, a server restart, a counter that went back). A real gap advances frames as time passes. */
static int frame_jump(int64_t adv, int64_t elapsed_ns, int64_t nominal_ns, uint32_t nframes, uint32_t rate)
{
    if (adv < 0)
        return 1;
    int64_t adv_ns = adv * 1000000000LL / rate;
    int64_t diff = adv_ns > elapsed_ns ? adv_ns - elapsed_ns : elapsed_ns - adv_ns;
    (void)nframes;
    return diff > elapsed_ns / 2 + 2 * nominal_ns;
}

/* The segment this record belongs to (its size and rate), made when it is the first; the stream's bookkeeping moved
 * to it. NULL with *err 0: a segment too many, the record ignored (counted); with *err -ENOMEM: no memory. */
static struct segment *segment_for(struct phase_stats *p, const struct rt_record *r, int *err)
{
    int idx = -1;
    *err = 0;
    for (int i = 0; i < p->nseg; i++)
        if (p->seg[i]->nframes == r->nframes && p->seg[i]->rate_hz == r->rate_hz)
            idx = i;
    if (idx < 0) {
        if (p->nseg == PHASE_MAX_SEGMENTS) {
            p->ignored_records++;
            return NULL;
        }
        struct segment *s = segment_new(p, r->nframes, r->rate_hz);
        if (!s) {
            *err = -ENOMEM;
            return NULL;
        }
        if (p->warm.have_base && p->warm_nframes == r->nframes && p->warm_rate == r->rate_hz)
        {
            s->grid = p->warm; /* the grid the warm-up fitted, and where its re-phase detector stands */
            s->step = p->warm_step;
        }
        s->spike_threshold_ns = phase_spike_threshold(p, r->nframes, r->rate_hz);
        idx = p->nseg++;
        p->seg[idx] = s;
    }
    unsigned stream = r->stream < RTREC_MAX_STREAMS ? r->stream : RTREC_MAX_STREAMS - 1;
    int last = p->stream_seg[stream] - 1;
    if (last >= 0 && last != idx)
        p->seg[last]->prev[stream].have = 0; /* deltas never span a size change */
    p->stream_seg[stream] = (uint8_t)(idx + 1);
    p->cur = idx;
    if (stream == 0 && last >= 0 && last != idx) { /* the audio thread's own cycles changed size */
        /* the old size's open event has ended: its cycles stopped (else it was told only after 8 more cycles at that
         * size, or at the phase's end: watch said its end minutes late); a disturbance if that size comes back is a
         * new event */
        phase_tell_events(p, p->seg[last], 1);
        p->seg[last]->last_event_cycle = 0;
        if (p->notify) {
            p->telling = p->seg[idx];
            p->notify(p->notify_arg, p, PH_BUFFER, r->t_entry_ns, r->t_entry_ns, -1, 0);
        }
    }
    return p->seg[idx];
}

/* A catch-up duplicate (the same frame time twice): not a cycle of its own. It is folded into the gap before it: its
 * callback counts, its exit is the one the next deadline is measured from. */
static void cycle_duplicate(struct segment *s, struct second_stats *ss, struct stream_prev *pv,
                            const struct rt_record *r, uint64_t new_xruns)
{
    s->duplicates++;
    int64_t cb = r->t_exit_ns - r->t_entry_ns;
    metric_add(&s->m[M_CALLBACK], cb);
    if (cb > ss->callback_max)
        ss->callback_max = cb;
    pv->exit_ns = r->t_exit_ns;
    if (new_xruns) {
        s->xruns_reported += new_xruns;
        ss->xruns_reported += (uint32_t)new_xruns;
    }
}

/* The start of this cycle: the provider's own when it is exact (a timer's deadline); else (JACK knows it to whole
 * frames only, or nothing) the frame clock's fitted grid, at ns resolution (see grid.h). Sets *start_ns (the
 * deadlines and margins) and *wake_ref (what wake-up is measured from); returns whether the grid was used. */
static int cycle_start(struct segment *s, const struct rt_record *r, int64_t nominal_ns, int64_t *start_ns,
                       int64_t *wake_ref)
{
    int use_grid = !(r->flags & RTREC_HAS_START) || (r->flags & RTREC_START_COARSE);
    *start_ns = r->start_ns; /* the provider's own start when it gives one */
    *wake_ref = r->start_ns;
    if (!use_grid) {
        s->wake_provider++;
        return 0;
    }
    int64_t g = grid_start(&s->grid, r->frame_pos);
    if (!(r->flags & RTREC_HAS_START))
        *start_ns = g == INT64_MIN ? r->t_entry_ns : g;
    *wake_ref = g == INT64_MIN ? *start_ns : g;
    int disagree = (r->flags & RTREC_START_COARSE) && g != INT64_MIN && coarse_disagrees(r->start_ns, g, nominal_ns);
    if (disagree) {
        /* The provider's whole-frame start and the grid disagree by more than half a period: the provider
         * started this cycle off its schedule (a driver that woke late), or its frame clock has just re-phased
         * and the step detector below has not seen enough cycles yet. This cycle is measured from the
         * provider's own start, the one it ran on. */
        *wake_ref = r->start_ns;
        s->wake_coarse++;
    }
    s->mismatch_run = disagree ? s->mismatch_run + 1 : 0;
    /* A disagreement that lasts (REPHASE_RUN cycles) is a grid on the wrong phase, however it came about: it is
     * fitted anew, as after a step. */
    if (s->mismatch_run >= REPHASE_RUN) {
        grid_reset(&s->grid);
        s->step.have_base = 0;
        s->rephases++;
        s->mismatch_run = 0;
    } else if ((r->flags & RTREC_START_COARSE) && step_observe(&s->step, r->frame_pos, r->start_ns)) {
        /* The frame clock re-phased against real time (jack2's dummy driver re-anchors its schedule after an
         * overrun, by however late that cycle ended, while its frame clock goes on by one period per cycle):
         * the grid is fitted anew from here. */
        grid_reset(&s->grid);
        s->rephases++;
    }
    grid_observe(&s->grid, r->frame_pos, r->t_entry_ns);
    s->wake_grid++;
    return 1;
}

/* What the step from the previous cycle of this stream shows: the period and its jitter, the cycles the frame
 * clock says were skipped (a gap), and the previous cycle's margin to the start after it. */
struct cycle_step {
    int64_t jit_abs;
    int64_t due_ns;       /* when this cycle's work was due: its start, or the first skipped one's */
    int64_t gap_from_ns;  /* a gap: when its first skipped cycle was due */
    uint32_t gap_skipped;
    int gap;
};

static void cycle_delta(struct phase_stats *p, struct segment *s, struct second_stats *ss,
                        const struct stream_prev *pv, const struct rt_record *r, int64_t adv, int64_t nominal_ns,
                        int use_grid, int64_t start_ns, struct cycle_step *c)
{
    int64_t period = r->t_entry_ns - pv->entry_ns;
    metric_add(&s->m[M_PERIOD], period);
    if (period > ss->period_max)
        ss->period_max = period;
    int64_t expected = nominal_ns * adv / (int64_t)r->nframes;
    int64_t jitter = period - expected;
    metric_add(&s->m[M_JITTER], jitter);
    c->jit_abs = jitter < 0 ? -jitter : jitter;
    if (c->jit_abs > ss->jitter_abs_max)
        ss->jitter_abs_max = c->jit_abs;
    /* Cycles the frame clock says should have run since the previous one. */
    uint64_t due = (uint64_t)((adv + r->nframes / 2) / r->nframes);
    if (due < 1)
        due = 1;
    s->cycles_due += due;
    if (adv > (int64_t)r->nframes) {
        c->gap = 1;
        s->xruns_detected++;
        ss->xruns_detected++;
        s->skipped_cycles += due - 1;
        ss->deadlines_missed += (uint32_t)(due - 1); /* the cycles that never ran missed theirs */
        /* The work of the first skipped cycle was due one period after the previous start: a thread that
         * woke k periods late keeps that lateness, instead of looking prompt inside a frame gap (JACK runs
         * the late callback for the current cycle). Unless that cycle had begun before the previous one
         * exited: then the previous cycle's own lateness or overrun made the skip (a timer reports the
         * deadline it woke for, then skips the ones that passed while it was late), it is counted there, and
         * this cycle is measured from its own start. */
        int64_t first_skipped = use_grid ? grid_start(&s->grid, pv->frame_pos + r->nframes)
                                         : pv->start_ns + nominal_ns;
        if (first_skipped >= pv->exit_ns)
            c->due_ns = first_skipped;
        c->gap_from_ns = first_skipped == INT64_MIN ? pv->entry_ns + nominal_ns : first_skipped;
        c->gap_skipped = (uint32_t)(due - 1);
    }
    /* Margin of the previous cycle: its exit against the start of the cycle after it. When cycles were
     * skipped, that start is the first skipped one's. */
    int64_t next_start = !c->gap ? start_ns
                         : !(r->flags & RTREC_HAS_START) ? grid_start(&s->grid, pv->frame_pos + r->nframes)
                                                         : pv->start_ns + nominal_ns;
    int64_t margin = next_start - pv->exit_ns;
    p->margin_known = 1;
    p->margin_ns = margin;
    metric_add(&s->m[M_MARGIN], margin);
    if (margin < ss->margin_min)
        ss->margin_min = margin;
    if (margin >= 0)
        s->deadlines_met++;
    else
        ss->deadlines_missed++;
}

/* The wake-up of this cycle, from when its work was due; returns whether it is counted in the wake-up figures. */
static int cycle_wake(struct segment *s, struct second_stats *ss, const struct rt_record *r, int64_t nominal_ns,
                      int use_grid, int64_t due_ns, int64_t wake_ref, int64_t *wake_out)
{
    int64_t wake = r->t_entry_ns - due_ns;
    int have_wake = 1;
    if (wake < -WAKE_EARLY_TOL_NS) {
        /* Before its own start: what it was measured from is off, never the cycle. Against the fitted grid by less
         * than half a period, the grid was too high (it is a lower envelope of the cycles seen so far): it is
         * lowered to this cycle, which is then its earliest, wake-up 0. Half a period or more (a grid whole
         * periods off after the driver re-phased, before enough cycles refitted it; or a provider's start that
         * is wrong), it cannot tell: the cycle is left out of the wake-up figures and counted, and a grid is
         * re-anchored to it. */
        if (use_grid && due_ns == wake_ref)
            grid_lower(&s->grid, r->frame_pos, r->t_entry_ns);
        if (use_grid && due_ns == wake_ref && wake > -(nominal_ns / 2)) {
            s->wake_reanchored++;
            wake = 0;
        } else {
            s->wake_left_out++;
            have_wake = 0;
        }
    }
    if (have_wake) {
        metric_add(&s->m[M_WAKEUP], wake);
        if (wake > ss->wakeup_max)
            ss->wakeup_max = wake;
    }
    *wake_out = wake;
    return have_wake;
}

int phase_add_cycle(struct phase_stats *p, const struct rt_record *r, uint64_t new_xruns, uint64_t lost)
{
    p->margin_known = 0;
    p->wake_known = 0;
    int err;
    struct segment *s = segment_for(p, r, &err);
    if (!s)
        return err;
    unsigned stream = r->stream < RTREC_MAX_STREAMS ? r->stream : RTREC_MAX_STREAMS - 1;
    struct stream_prev *pv = &s->prev[stream]; /* this stream's previous record: deltas never mix streams */
    if (p->pending_xruns) {
        s->xruns_reported += p->pending_xruns;
        p->pending_xruns = 0;
    }
    if (lost) {
        /* Records lost to a full ring: the cycles ran, we only did not see them. Never a frame gap. */
        s->records_lost += lost;
        pv->have = 0;
    }
    if (r->nframes == 0 || r->rate_hz == 0)
        return 0;

    int64_t nominal_ns = (int64_t)r->nframes * 1000000000LL / r->rate_hz;
    if (s->cycles == 0)
        s->t0_ns = r->t_entry_ns;
    int64_t sec = (r->t_entry_ns - s->t0_ns) / 1000000000LL;
    if (sec < 0)
        sec = 0;
    struct second_stats *ss;
    if (s->tl_final && s->tl.n) {
        /* its phase was settled, its window decided and freed (timeline_settle): a cycle that still comes is in
         * its last entry, as it would have been in its last second (the current one) */
        ss = &s->tl.e[s->tl.n - 1].st;
    } else {
        if (timeline_reach(s, sec) < 0)
            return -ENOMEM;
        ss = &s->secs[(uint64_t)(sec < s->cur_sec ? s->cur_sec : sec) - s->secs_base];
    }

    int64_t adv = 0;
    if (pv->have) {
        adv = (int64_t)(r->frame_pos - pv->frame_pos);
        if (adv == 0) {
            cycle_duplicate(s, ss, pv, r, new_xruns);
            return 0;
        }
        /* Time that passed between the two cycles: between their starts when the provider gives them (an entry can
         * be late: a timer that woke 8 periods late, then skipped to the next deadline), else their entries. */
        int64_t elapsed = (r->flags & RTREC_HAS_START) && pv->start_ns ? r->start_ns - pv->start_ns
                                                                       : r->t_entry_ns - pv->entry_ns;
        if (frame_jump(adv, elapsed, nominal_ns, r->nframes, r->rate_hz)) {
            s->discontinuities++;
            pv->have = 0;
            grid_reset(&s->grid);
            s->step.have_base = 0; /* a jump, not a re-phase: both start over */
        }
    }
    s->cycles++;
    ss->cycles++;

    int64_t start_ns, wake_ref;
    int use_grid = cycle_start(s, r, nominal_ns, &start_ns, &wake_ref);
    struct cycle_step c = { .due_ns = wake_ref };
    if (pv->have)
        cycle_delta(p, s, ss, pv, r, adv, nominal_ns, use_grid, start_ns, &c);
    int64_t cb = r->t_exit_ns - r->t_entry_ns, cb_prev = pv->have ? pv->exit_ns - pv->entry_ns : 0;
    if (c.gap || new_xruns)
        event_note(p, s, ss, c.gap ? c.gap_from_ns : wake_ref, r->t_entry_ns,
                   c.gap ? pv->frame_pos + r->nframes : r->frame_pos, r->frame_pos, c.gap_skipped, new_xruns,
                   (struct event_cb){ .now_ns = cb, .before_ns = cb_prev, .cpu = r->cpu });
    else if (cb > s->event_cb_pending)
        s->event_cb_pending = cb;
    s->last_frame = r->frame_pos;
    if (new_xruns) {
        s->xruns_reported += new_xruns;
        ss->xruns_reported += (uint32_t)new_xruns;
    }
    pv->have = 1;
    pv->entry_ns = r->t_entry_ns;
    pv->frame_pos = r->frame_pos;
    pv->exit_ns = r->t_exit_ns;
    pv->start_ns = start_ns;
    pv->wake_ref = wake_ref;
    if (s->cycles == 1 || r->t_entry_ns > s->prev_entry_ns)
        s->prev_entry_ns = r->t_entry_ns;

    metric_add(&s->m[M_CALLBACK], cb);
    if (cb > ss->callback_max)
        ss->callback_max = cb;
    s->last_cpu = r->cpu;
    s->last_cb_ns = cb;

    int64_t wake;
    int have_wake = cycle_wake(s, ss, r, nominal_ns, use_grid, c.due_ns, wake_ref, &wake);
    /* a disturbed cycle is its event's: a spike is a late cycle that was not (yet) an xrun */
    if (have_wake && !c.gap && !new_xruns && phase_spike_note(p, s, c.due_ns, wake, cb, cb_prev, r->cpu) < 0)
        return -ENOMEM;
    phase_tell_events(p, s, 0);
    p->wake_known = have_wake;
    p->wake_ns = wake;
    if (r->flags & RTREC_DSP) {
        s->dsp_done += r->dsp_done;
        s->dsp_req += r->dsp_req;
        if (r->dsp_done < r->dsp_req)
            s->dsp_cut_short++; /* the burn stopped at its guard band: not a missed deadline of its own */
    }
    return buf_push(s, c.jit_abs, wake, have_wake);
}

void phase_observe(struct phase_stats *p, const struct rt_record *r)
{
    if (r->nframes == 0 || r->rate_hz == 0 || ((r->flags & RTREC_HAS_START) && !(r->flags & RTREC_START_COARSE)))
        return;
    if (!p->warm.ns_per_frame || p->warm_nframes != r->nframes || p->warm_rate != r->rate_hz) {
        grid_init(&p->warm, r->nframes, r->rate_hz);
        step_init(&p->warm_step, r->rate_hz);
        p->warm_nframes = r->nframes;
        p->warm_rate = r->rate_hz;
    }
    /* A re-phase in the warm-up (a load starting can make the server overrun) must not leave the measured part
     * on the old grid. */
    if ((r->flags & RTREC_START_COARSE) && step_observe(&p->warm_step, r->frame_pos, r->start_ns))
        grid_reset(&p->warm);
    grid_observe(&p->warm, r->frame_pos, r->t_entry_ns);
}

void phase_add_reported_xruns(struct phase_stats *p, uint64_t n)
{
    if (n == 0)
        return;
    if (p->cur < 0) {
        p->pending_xruns += n;
        return;
    }
    struct segment *s = p->seg[p->cur];
    s->xruns_reported += n;
    struct second_stats *ss = s->nsecs > s->secs_base ? &s->secs[s->nsecs - 1 - s->secs_base] : NULL;
    if (ss)
        ss->xruns_reported += (uint32_t)n;
    /* no cycle of its own: at the latest cycle's entry and frame, with its callback and CPU */
    event_note(p, s, ss, s->prev_entry_ns, s->prev_entry_ns, s->last_frame, s->last_frame, 0, n,
               (struct event_cb){ .now_ns = s->last_cb_ns, .before_ns = 0, .cpu = s->last_cpu });
    phase_tell_events(p, s, 0);
}

uint64_t phase_cycles(const struct phase_stats *p)
{
    uint64_t n = 0;
    for (int i = 0; i < p->nseg; i++)
        n += p->seg[i]->cycles;
    return n;
}
