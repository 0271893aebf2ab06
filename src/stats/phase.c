#include "stats/phase.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const metric_names[M_COUNT] = { "period", "jitter", "wakeup", "callback", "margin" };

void phase_init(struct phase_stats *p)
{
    memset(p, 0, sizeof(*p));
    p->cur = -1;
}

void phase_free(struct phase_stats *p)
{
    for (int i = 0; i < p->nseg; i++) {
        free(p->seg[i]->secs);
        free(p->seg[i]->buf_jit);
        free(p->seg[i]->buf_wake);
        free(p->seg[i]);
    }
    phase_init(p);
}

static void close_second(struct segment *s)
{
    if (s->nsecs == 0 || s->buf_n == 0)
        return;
    struct second_stats *ss = &s->secs[s->nsecs - 1];
    ss->jitter_abs_p99 = select_quantile(s->buf_jit, s->buf_n, 0.99);
    ss->wakeup_p99 = select_quantile(s->buf_wake, s->buf_n, 0.99);
    s->buf_n = 0;
}

void phase_finish(struct phase_stats *p)
{
    for (int i = 0; i < p->nseg; i++)
        close_second(p->seg[i]);
}

static struct segment *segment_new(uint32_t nframes, uint32_t rate)
{
    struct segment *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->nframes = nframes;
    s->rate_hz = rate;
    for (int m = 0; m < M_COUNT; m++)
        metric_init(&s->m[m]);
    s->cur_sec = -1;
    return s;
}

/* Grow the timeline to hold second `sec`; seconds with no cycle stay zero. */
static int timeline_reach(struct segment *s, int64_t sec)
{
    if (sec < s->cur_sec)
        sec = s->cur_sec; /* clock never goes back; be safe anyway */
    if (sec == s->cur_sec)
        return 0;
    close_second(s);
    size_t need = (size_t)sec + 1;
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
    for (size_t i = s->nsecs; i < need; i++) {
        s->secs[i].margin_min = INT64_MAX;
    }
    if (need > s->nsecs)
        s->nsecs = need;
    s->cur_sec = sec;
    return 0;
}

static int buf_push(struct segment *s, int64_t jit_abs, int64_t wake)
{
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
    s->buf_wake[s->buf_n] = wake;
    s->buf_n++;
    return 0;
}

int phase_add(struct phase_stats *p, const struct rt_record *r)
{
    int idx = -1;
    for (int i = 0; i < p->nseg; i++)
        if (p->seg[i]->nframes == r->nframes && p->seg[i]->rate_hz == r->rate_hz)
            idx = i;
    if (idx < 0) {
        if (p->nseg == PHASE_MAX_SEGMENTS) {
            p->ignored_records++;
            return 0;
        }
        struct segment *s = segment_new(r->nframes, r->rate_hz);
        if (!s)
            return -ENOMEM;
        idx = p->nseg++;
        p->seg[idx] = s;
    }
    unsigned stream = r->stream < RTREC_MAX_STREAMS ? r->stream : RTREC_MAX_STREAMS - 1;
    int last = p->stream_seg[stream] - 1;
    if (last >= 0 && last != idx)
        p->seg[last]->prev[stream].have = 0; /* deltas never span a size change */
    p->stream_seg[stream] = (uint8_t)(idx + 1);
    p->cur = idx;
    struct segment *s = p->seg[idx];
    struct stream_prev *pv = &s->prev[stream];
    if (p->pending_xruns) {
        s->xruns_reported += p->pending_xruns;
        p->pending_xruns = 0;
    }
    if (r->nframes == 0 || r->rate_hz == 0)
        return 0;

    int64_t nominal_ns = (int64_t)r->nframes * 1000000000LL / r->rate_hz;
    if (s->cycles == 0)
        s->t0_ns = r->t_entry_ns;
    int64_t sec = (r->t_entry_ns - s->t0_ns) / 1000000000LL;
    if (timeline_reach(s, sec) < 0)
        return -ENOMEM;
    struct second_stats *ss = &s->secs[sec < s->cur_sec ? s->cur_sec : sec];
    s->cycles++;
    ss->cycles++;

    /* The provider's measured start of this cycle when it has one (JACK: from jack_frames_since_cycle_start(),
     * see rtaudio/jack/jack_client.c); otherwise the entry itself. */
    int64_t start_ns = (r->flags & RTREC_HAS_START) ? r->start_ns : r->t_entry_ns;
    int64_t jit_abs = 0;
    uint32_t adv = 0;
    if (pv->have) {
        int64_t period = r->t_entry_ns - pv->entry_ns;
        adv = (uint32_t)(r->frame_pos - pv->frame_pos);
        metric_add(&s->m[M_PERIOD], period);
        if (period > ss->period_max)
            ss->period_max = period;
        if (adv > 0) {
            int64_t expected = nominal_ns * (int64_t)adv / (int64_t)r->nframes;
            int64_t jitter = period - expected;
            metric_add(&s->m[M_JITTER], jitter);
            jit_abs = jitter < 0 ? -jitter : jitter;
            if (jit_abs > ss->jitter_abs_max)
                ss->jitter_abs_max = jit_abs;
        }
        if (adv > r->nframes) {
            s->xruns_detected++;
            ss->xruns_detected++;
            s->skipped_cycles += (adv + r->nframes / 2) / r->nframes - 1;
        }
        /* Margin of the previous cycle: its exit against the start of the cycle after it. When cycles were
         * skipped, that start is one period after its own start. */
        int64_t next_start = adv == r->nframes ? start_ns : pv->start_ns + nominal_ns;
        int64_t margin = next_start - pv->exit_ns;
        metric_add(&s->m[M_MARGIN], margin);
        if (margin < ss->margin_min)
            ss->margin_min = margin;
        if (margin >= 0)
            s->deadlines_met++;
        else
            ss->deadlines_missed++;
    }
    pv->have = 1;
    pv->entry_ns = r->t_entry_ns;
    pv->frame_pos = r->frame_pos;
    pv->exit_ns = r->t_exit_ns;
    pv->start_ns = start_ns;
    if (s->cycles == 1 || r->t_entry_ns > s->prev_entry_ns)
        s->prev_entry_ns = r->t_entry_ns;

    int64_t cb = r->t_exit_ns - r->t_entry_ns;
    metric_add(&s->m[M_CALLBACK], cb);
    if (cb > ss->callback_max)
        ss->callback_max = cb;

    int64_t wake = r->t_entry_ns - start_ns;
    metric_add(&s->m[M_WAKEUP], wake);
    if (wake > ss->wakeup_max)
        ss->wakeup_max = wake;
    if (r->flags & RTREC_DSP) {
        s->dsp_done += r->dsp_done;
        s->dsp_req += r->dsp_req;
    }
    return buf_push(s, jit_abs, wake);
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
    if (s->nsecs > 0)
        s->secs[s->nsecs - 1].xruns_reported += (uint32_t)n;
}

uint64_t phase_cycles(const struct phase_stats *p)
{
    uint64_t n = 0;
    for (int i = 0; i < p->nseg; i++)
        n += p->seg[i]->cycles;
    return n;
}
