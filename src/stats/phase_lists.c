/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a phase's segments list at most, a run's lists shared among its phases (phase.h, struct phase_lists), and the
 * naming of the events that left them before their culprit was known (eventkeep.h). Collector thread, and the main
 * thread's phase_names_settle. */
#include "stats/phase_internal.h"
#include "stats/timeline.h"

/* whole / n rounded up, n taken between 1 and PHASE_LISTS_FLOOR_DIV */
static uint32_t share(uint32_t whole, int n)
{
    uint32_t d = n < 1 ? 1 : n > PHASE_LISTS_FLOOR_DIV ? PHASE_LISTS_FLOOR_DIV : (uint32_t)n;
    return (whole + d - 1) / d;
}

void phase_lists_share(struct phase_lists *l, int nphases)
{
    l->events_latest = share(EVENT_KEEP_LATEST, nphases);
    l->events_worst = share(EVENT_KEEP_WORST, nphases);
    l->spikes = share(SEGMENT_SPIKES_MAX, nphases);
    l->seconds_alone = share(TL_DETAIL_MAX, nphases);
}

static uint32_t clamp(uint32_t v, uint32_t whole)
{
    return v < 1 ? 1 : v > whole ? whole : v;
}

void phase_set_lists(struct phase_stats *p, const struct phase_lists *l)
{
    p->lists.events_latest = clamp(l->events_latest, EVENT_KEEP_LATEST);
    p->lists.events_worst = clamp(l->events_worst, EVENT_KEEP_WORST);
    p->lists.spikes = clamp(l->spikes, SEGMENT_SPIKES_MAX);
    p->lists.seconds_alone = clamp(l->seconds_alone, TL_DETAIL_MAX);
}

int phase_name_event(void *arg, int64_t start_ns, int force, char *kind, size_t kind_len, char *name,
                     size_t name_len)
{
    const struct phase_stats *p = arg;
    return p->namer(p->namer_arg, p, start_ns, force, kind, kind_len, name, name_len);
}

void phase_names_settle(struct phase_stats *p)
{
    for (int i = 0; p->namer && i < p->nseg; i++)
        event_keep_settle(&p->seg[i]->events, phase_name_event, p);
}

size_t phase_names_known(struct phase_stats *p)
{
    size_t n = 0;
    for (int i = 0; p->namer && i < p->nseg; i++)
        n += event_keep_name_known(&p->seg[i]->events, phase_name_event, p);
    return n;
}
