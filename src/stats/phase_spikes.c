/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wake-up spikes, and telling the collector of xrun events and spikes as they are made (phase.h, phase_notify_fn),
 * so that the culprit engine can explain each while its history still holds the moment. Collector thread; the
 * allocation here is the collector's, never the RT thread's. */
#include "stats/phase_internal.h"
#include <errno.h>
#include <stdlib.h>

void phase_set_spike_threshold(struct phase_stats *p, int64_t ns)
{
    p->spike_threshold_ns = ns > 0 ? ns : 0;
}

void phase_set_namer(struct phase_stats *p, phase_name_fn fn, void *arg)
{
    p->namer = fn;
    p->namer_arg = arg;
}

void phase_set_notify(struct phase_stats *p, phase_notify_fn fn, void *arg)
{
    p->notify = fn;
    p->notify_arg = arg;
}

/* The default is half the period: a cycle that wakes that late has only half its time left for its work, so at a
 * usual DSP load one more disturbance makes it an xrun; it is also where the report's timeline calls a second
 * eventful (report.c, second_eventful), so a spike is never a moment the timeline folds away. A fixed figure in µs
 * would be noise at 1024 frames and blind at 16. */
int64_t phase_spike_threshold(const struct phase_stats *p, uint32_t nframes, uint32_t rate_hz)
{
    if (p->spike_threshold_ns > 0)
        return p->spike_threshold_ns;
    return rate_hz ? (int64_t)nframes * 500000000LL / rate_hz : INT64_MAX;
}

/* The least late of a full list (its index). */
static size_t least_late(const struct segment *s)
{
    size_t m = 0;
    for (size_t i = 1; i < s->nspikes; i++)
        if (s->spikes[i].wakeup_ns < s->spikes[m].wakeup_ns)
            m = i;
    return m;
}

size_t segment_spikes_max(const struct segment *s)
{
    return s->spikes_max ? s->spikes_max : SEGMENT_SPIKES_MAX;
}

int phase_spike_note(struct phase_stats *p, struct segment *s, int64_t due_ns, int64_t wake_ns, int64_t cb_ns,
                     int64_t cb_prev_ns, int cpu)
{
    if (wake_ns <= s->spike_threshold_ns)
        return 0;
    size_t most = segment_spikes_max(s);
    if (s->nspikes == s->spikes_cap && s->spikes_cap < most) {
        size_t cap = s->spikes_cap ? s->spikes_cap * 2 : 16;
        cap = cap > most ? most : cap;
        struct wake_spike *n = realloc(s->spikes, cap * sizeof(*n));
        if (!n)
            return -ENOMEM;
        s->spikes = n;
        s->spikes_cap = cap;
    }
    struct wake_spike *k;
    if (s->nspikes < s->spikes_cap) {
        k = &s->spikes[s->nspikes++];
    } else {
        /* full: the worst are kept; one no later than the least late of them is only counted */
        s->spikes_unlisted++;
        k = &s->spikes[s->spike_least];
        if (wake_ns <= k->wakeup_ns)
            return 0;
        p->telling = s;
        if (p->notify)
            p->notify(p->notify_arg, p, PH_SPIKE_DROPPED, k->t_ns, k->t_ns + k->wakeup_ns, k->cpu,
                      k->callback_max_ns);
    }
    *k = (struct wake_spike){ .t_ns = due_ns, .wakeup_ns = wake_ns, .callback_ns = cb_ns,
                              .callback_max_ns = cb_ns > cb_prev_ns ? cb_ns : cb_prev_ns, .cpu = cpu };
    if (s->nspikes == most)
        s->spike_least = least_late(s);
    p->telling = s;
    if (p->notify)
        p->notify(p->notify_arg, p, PH_SPIKE, k->t_ns, k->t_ns + k->wakeup_ns, k->cpu, k->callback_max_ns);
    return 0;
}

void phase_tell_events(struct phase_stats *p, struct segment *s, int ended)
{
    /* the newest event goes on while a disturbance within XRUN_EVENT_CLEAN cycles would join it (event_note) */
    int newest_closed = ended || s->cycles >= s->last_event_cycle + XRUN_EVENT_CLEAN;
    p->telling = s;
    uint64_t n = s->events.total;
    while (s->events_begun < n) {
        const struct xrun_event *e = event_keep_seq(&s->events, s->events_begun++);
        if (e && p->notify) /* NULL: lost to no memory (counted) */
            p->notify(p->notify_arg, p, PH_EVENT_BEGIN, e->start_ns, e->end_ns, e->cpu, e->callback_max_ns);
    }
    while (s->events_told < n && (s->events_told + 1 < n || newest_closed)) {
        const struct xrun_event *e = event_keep_seq(&s->events, s->events_told++);
        if (e && p->notify)
            p->notify(p->notify_arg, p, PH_EVENT, e->start_ns, e->end_ns, e->cpu, e->callback_max_ns);
    }
}

void phase_tell_open_events(struct phase_stats *p)
{
    for (int i = 0; i < p->nseg; i++)
        phase_tell_events(p, p->seg[i], 1);
}
