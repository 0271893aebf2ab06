/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's part of PipeWire's graph accounting (collector.h, issue 33 item 2): the profiler tells each
 * cycle of the graph some 5-50 ms after it ran, our records come sooner; so records are held until the profiler
 * has told every cycle before them, and each disturbance is folded into the first of our cycles that could see it
 * (its entry no earlier than half a period before the disturbance: the same cycle, or the first one after a gap),
 * as jack2's xrun notifications are (collector_record). One stall is then one event by phase.c's rule. Collector
 * thread; never the RT thread. */
#include "run/collector.h"
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#define TAKE_BATCH 64
#define LAST_WAIT_NS 300000000LL
#define POP_BATCH 256

int collector_graph_init(struct collector *c)
{
    c->hold = calloc(COLLECTOR_HOLD, sizeof(*c->hold));
    c->pend = calloc(COLLECTOR_PEND, sizeof(*c->pend));
    if (!c->hold || !c->pend) {
        collector_graph_free(c);
        return -ENOMEM;
    }
    return 0;
}

void collector_graph_free(struct collector *c)
{
    free(c->hold);
    free(c->pend);
    c->hold = NULL;
    c->pend = NULL;
}

static int64_t now_ns(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* What the profiler has told since the last call, into pend. */
static void pull(struct collector *c)
{
    struct pwgraph_dist d[TAKE_BATCH];
    int n;
    do {
        int64_t known = 0;
        n = c->graph_take(c->graph_arg, d, TAKE_BATCH, &known);
        for (int i = 0; i < n; i++) {
            if (c->pend_n == COLLECTOR_PEND) {
                c->graph_dropped++;
                continue;
            }
            c->pend[(c->pend_first + c->pend_n++) % COLLECTOR_PEND] = d[i];
        }
        if (known > c->graph_known_ns)
            c->graph_known_ns = known;
    } while (n == TAKE_BATCH);
}

/* The disturbances the held record r is the first to see, taken out of pend. */
static uint32_t fold(struct collector *c, const struct rt_record *r)
{
    int64_t half = r->rate_hz ? (int64_t)r->nframes * 500000000LL / r->rate_hz : 0;
    uint32_t n = 0;
    while (c->pend_n && c->pend[c->pend_first].t_ns <= r->t_entry_ns + half) {
        const struct pwgraph_dist *d = &c->pend[c->pend_first];
        if (c->records_seen && d->t_ns + d->period_ns + half < c->prev_entry_ns)
            c->graph_late++; /* its cycle's record was accounted before the profiler told it */
        n++;
        c->pend_first = (c->pend_first + 1) % COLLECTOR_PEND;
        c->pend_n--;
    }
    c->graph_xruns += n;
    return n;
}

void collector_graph_drain(struct collector *c)
{
    for (;;) {
        pull(c);
        struct rt_record batch[POP_BATCH];
        size_t room = COLLECTOR_HOLD - c->hold_n, n = 0;
        if (room)
            n = rt_ring_pop(c->ring, batch, room < POP_BATCH ? room : POP_BATCH);
        for (size_t i = 0; i < n; i++)
            c->hold[(c->hold_first + c->hold_n++) % COLLECTOR_HOLD] = batch[i];
        int64_t now = now_ns(c->clock);
        size_t done = 0;
        while (c->hold_n) {
            const struct rt_record *r = &c->hold[c->hold_first];
            if (!c->final && c->hold_n < COLLECTOR_HOLD && r->t_entry_ns >= c->graph_known_ns &&
                now - r->t_entry_ns < COLLECTOR_HOLD_NS)
                break; /* the profiler has not told its cycle yet */
            collector_record(c, r, fold(c, r));
            c->hold_first = (c->hold_first + 1) % COLLECTOR_HOLD;
            c->hold_n--;
            done++;
        }
        if (n == 0 && done == 0)
            return;
    }
}

void collector_graph_last(struct collector *c)
{
    if (!c->graph_take)
        return;
    const struct timespec nap = { 0, 10 * 1000 * 1000 };
    int64_t t0 = now_ns(CLOCK_MONOTONIC);
    while (now_ns(CLOCK_MONOTONIC) - t0 < LAST_WAIT_NS) {
        collector_graph_drain(c);
        if (!c->hold_n)
            return;
        nanosleep(&nap, NULL);
    }
}
