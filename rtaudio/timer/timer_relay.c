/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timer backend's relay (several CPUs only): a normal-priority thread that drains each RT thread's own
 * ring and pushes the records, merged in entry-time order, into the run's ring. It is the only producer of the
 * run's ring, so every ring keeps exactly one producer and one consumer; it also keeps the run's sink up to date
 * (cycles, the scheduling the threads got) since no RT thread writes that sink. Not RT: it runs every 5 ms. */
#include "timer/timer.h"
#include <sched.h>
#include <time.h>

#define RELAY_NAP_NS (5 * 1000 * 1000)

/* The run reads one scheduling policy: the worst any thread got (one that is not real-time), else stream 0's. */
static void publish_sched(struct timer_backend *b)
{
    struct rt_sink *run = b->sink;
    if (atomic_load_explicit(&run->sched_known, memory_order_acquire))
        return;
    int pick = 0;
    for (int i = 0; i < b->nstreams; i++) {
        struct rt_sink *s = &b->streams[i].own_sink;
        if (!atomic_load_explicit(&s->sched_known, memory_order_acquire))
            return; /* wait until every thread has run its first cycle */
        int pol = atomic_load_explicit(&s->sched_policy, memory_order_relaxed);
        if (pol != SCHED_FIFO && pol != SCHED_RR)
            pick = i;
    }
    struct rt_sink *s = &b->streams[pick].own_sink;
    atomic_store_explicit(&run->sched_policy, atomic_load(&s->sched_policy), memory_order_relaxed);
    atomic_store_explicit(&run->sched_priority, atomic_load(&s->sched_priority), memory_order_relaxed);
    atomic_store_explicit(&run->tid, atomic_load(&s->tid), memory_order_relaxed); /* the culprits' audio thread */
    atomic_store_explicit(&run->sched_known, 1, memory_order_release);
}

/* Relay thread (or stop, once the RT threads are joined). */
void timer_relay_drain(struct timer_backend *b)
{
    size_t n[RTREC_MAX_STREAMS], at[RTREC_MAX_STREAMS];
    uint64_t dropped = 0;
    for (int i = 0; i < b->nstreams; i++) {
        n[i] = rt_ring_pop(&b->streams[i].own_ring, b->batch + (size_t)i * b->batch_cap, b->batch_cap);
        at[i] = 0;
        b->relayed += n[i];
        dropped += rt_ring_dropped(&b->streams[i].own_ring);
    }
    /* Merge by entry time: each ring is in order, so the run's ring gets (nearly) one time line. */
    for (;;) {
        int best = -1;
        for (int i = 0; i < b->nstreams; i++)
            if (at[i] < n[i] && (best < 0 || b->batch[(size_t)i * b->batch_cap + at[i]].t_entry_ns <
                                                 b->batch[(size_t)best * b->batch_cap + at[best]].t_entry_ns))
                best = i;
        if (best < 0)
            break;
        const struct rt_record *r = &b->batch[(size_t)best * b->batch_cap + at[best]++];
        if (!rt_ring_push(b->sink->ring, r) && b->lost) {
            unsigned tag = r->phase << 1 | ((r->flags & RTREC_MEASURING) ? 1u : 0u);
            atomic_uint_fast64_t *mine = b->lost + (size_t)b->nstreams * b->sink->ntags;
            if (tag < b->sink->ntags)
                atomic_store_explicit(&mine[tag], atomic_load_explicit(&mine[tag], memory_order_relaxed) + 1,
                                      memory_order_relaxed);
        }
    }
    if (dropped > b->own_dropped) {
        rt_ring_add_dropped(b->sink->ring, dropped - b->own_dropped);
        b->own_dropped = dropped;
    }
    /* The run's sink's lost records by tag: the relay's own and each thread's (the relay is their one writer). */
    for (unsigned t = 0; b->lost && t < b->sink->ntags; t++) {
        uint64_t n = 0;
        for (int i = 0; i <= b->nstreams; i++)
            n += atomic_load_explicit(&b->lost[(size_t)i * b->sink->ntags + t], memory_order_acquire);
        atomic_store_explicit(&b->sink->lost_by_tag[t], n, memory_order_release);
    }
    atomic_store_explicit(&b->sink->cycles, b->relayed + dropped, memory_order_relaxed);
    publish_sched(b);
}

void *timer_relay_thread(void *arg)
{
    struct timer_backend *b = arg;
    const struct timespec nap = { 0, RELAY_NAP_NS };
    while (!atomic_load_explicit(&b->relay_stop, memory_order_acquire)) {
        timer_relay_drain(b);
        nanosleep(&nap, NULL);
    }
    return NULL;
}
