/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run/collector.h"
#include <malloc.h>
#include <errno.h>
#include <time.h>

#define DRAIN_BATCH 256
#define COLLECTOR_STACK (256 * 1024)

/* What the verdict counts of a phase, summed over its segments: xrun events, skipped cycles, missed deadlines. */
static void phase_counts(const struct phase_stats *p, uint64_t v[3])
{
    v[0] = v[1] = v[2] = 0;
    for (int s = 0; s < p->nseg; s++) {
        v[0] += p->seg[s]->xrun_events;
        v[1] += p->seg[s]->skipped_cycles;
        v[2] += p->seg[s]->cycles_due - p->seg[s]->deadlines_met;
    }
}

/* What the status line counts of a phase, added to v: xruns detected, reported, and xrun events. */
static void add_xruns(const struct phase_stats *p, uint64_t v[3])
{
    for (int s = 0; s < p->nseg; s++) {
        v[0] += p->seg[s]->xruns_detected;
        v[1] += p->seg[s]->xruns_reported;
        v[2] += p->seg[s]->xrun_events;
    }
}

/* Keeps gap g among the longest COLLECTOR_GAPS. */
static void keep_gap(struct collector *c, const struct collector_gap *g)
{
    int k = c->ngaps < COLLECTOR_GAPS ? c->ngaps++ : -1;
    if (k < 0) {
        k = 0;
        for (int i = 1; i < COLLECTOR_GAPS; i++)
            if (c->gaps[i].after_ns - c->gaps[i].before_ns < c->gaps[k].after_ns - c->gaps[k].before_ns)
                k = i;
        if (c->gaps[k].after_ns - c->gaps[k].before_ns >= g->after_ns - g->before_ns)
            return;
    }
    c->gaps[k] = *g;
}

void collector_flush_gap(struct collector *c)
{
    if (c->gap_open)
        keep_gap(c, &c->gap);
    c->gap_open = 0;
}

static void settle_lost(struct collector *c, int i);

/* The phases settled and named, handed to the main thread (hand_over set): their lost records settled first, their
 * xruns kept for the status line. */
static void hand_over(struct collector *c)
{
    int h = atomic_load_explicit(&c->handed, memory_order_relaxed);
    if (!c->hand_over || h >= c->named_upto)
        return;
    for (; h < c->named_upto; h++) {
        settle_lost(c, h);
        add_xruns(&c->phases[h], c->handed_xruns);
    }
    atomic_store_explicit(&c->handed, h, memory_order_release);
}

/* One record, with graph_xruns of the graph's disturbances folded into it (collector_graph.c). */
void collector_record(struct collector *c, const struct rt_record *r, uint32_t graph_xruns)
{
    /* Server xruns since the previous record belong to this cycle: the first that could see them. */
    uint32_t new_xruns = (c->records_seen ? r->xruns - c->last_xruns : 0) + graph_xruns;
    /* A jump in the stream's sequence is records lost to a full ring, never a frame gap. */
    struct collector_stream *ls = &c->last[r->stream < RTREC_MAX_STREAMS ? r->stream : RTREC_MAX_STREAMS - 1];
    unsigned tag = r->phase << 1 | ((r->flags & RTREC_MEASURING) ? 1u : 0u);
    uint64_t lost = ls->have && r->seq > ls->seq + 1 ? r->seq - ls->seq - 1 : 0;
    c->records_lost += lost;
    /* With the producer's counts by tag, a gap across a tag change (the lost records may carry either
     * tag) goes to no phase here: collector_settle_lost gives each phase its own. */
    if (c->lost_by_tag && ls->tag != tag)
        lost = 0;
    ls->have = 1;
    ls->tag = tag;
    ls->seq = r->seq;
    c->last_xruns = r->xruns;
    c->records_seen++;
    if (c->gap_open && r->t_entry_ns > c->gap.after_ns + COLLECTOR_GAP_TAIL_NS)
        collector_flush_gap(c);
    if (c->prev_entry_ns && r->t_entry_ns - c->prev_entry_ns >= COLLECTOR_GAP_MIN_NS) {
        collector_flush_gap(c);
        c->gap = (struct collector_gap){ .before_ns = c->prev_entry_ns, .after_ns = r->t_entry_ns,
                                         .phase = (int)r->phase,
                                         .measuring = (r->flags & RTREC_MEASURING) != 0 };
        c->gap_open = 1;
    }
    if (r->t_entry_ns > c->prev_entry_ns)
        c->prev_entry_ns = r->t_entry_ns;
    if (c->on_cpu && r->cpu >= 0 && r->cpu < 64 && !(c->cpus_told >> r->cpu & 1u)) {
        c->cpus_told |= 1ull << r->cpu;
        c->on_cpu(c->on_cpu_arg, r->cpu);
    }
    /* A phase's measured part has ended (a record of another phase, past the two that may still carry its
     * notifications, below): its open xrun events are closed, and told now rather than at the run's end. */
    if (c->last_phase1 > 0 && c->told_open1 != c->last_phase1 && (int)r->phase != c->last_phase1 - 1 &&
        r->seq > c->last_measured_seq + 2) {
        c->told_open1 = c->last_phase1;
        phase_tell_open_events(&c->phases[c->last_phase1 - 1]);
    }
    if (!(r->flags & RTREC_MEASURING) && (int)r->phase < c->nphases)
        phase_observe(&c->phases[r->phase], r); /* the warm-up fits the grid the phase starts with */
    if (!(r->flags & RTREC_MEASURING) || (int)r->phase >= c->nphases) {
        /* jack2 notifies from another thread, a little after the cycle: xruns first carried by one of
         * the two records just after a phase's last measured cycle belong to that phase. Not the graph's: they
         * were placed by their own time, this unmeasured record's (our node leaving the graph as the run
         * ends is profiled unfinished). */
        uint32_t told = new_xruns - graph_xruns;
        if (told && c->last_phase1 > 0 && (int)r->phase != c->last_phase1 - 1 &&
            r->seq <= c->last_measured_seq + 2)
            phase_add_reported_xruns(&c->phases[c->last_phase1 - 1], told);
        return;
    }
    if ((int)r->phase < atomic_load_explicit(&c->handed, memory_order_relaxed)) {
        c->handed_late++; /* its phase is the main thread's now (none while records come in time order) */
        return;
    }
    struct phase_stats *p = &c->phases[r->phase];
    /* the phases before a measured one are over: their last seconds are decided and their values freed (the
     * warm-up between, 0.1 s at least, lies between their records and this one, which come in time order) */
    if (c->settled < (int)r->phase) {
        while (c->settled < (int)r->phase)
            phase_settle(&c->phases[c->settled++]);
        /* what the phase freed (its values, its seconds' window, its dense histograms' spread) and what the culprit
         * engine forgot meanwhile, given back once a phase: the heap's top always; the whole free pages inside it
         * only where memory is not locked (madvise refuses a locked page: measured, a run that locked its memory
         * keeps them and reuses them for the next phase) */
        malloc_trim(0);
    }
    /* the events a settled phase summed before their culprit was known: summed to it once known (about a second
     * later), so that the culprit engine forgets them and the waiting list goes, not at the run's end */
    if (c->named_upto < c->settled && r->t_entry_ns - c->named_at_ns >= 1000000000LL) {
        c->named_at_ns = r->t_entry_ns;
        while (c->named_upto < c->settled && phase_names_known(&c->phases[c->named_upto]) == 0)
            c->named_upto++;
        hand_over(c);
    }
    c->last_phase1 = (int)r->phase + 1;
    c->last_measured_seq = r->seq;
    /* What the records just after a long gap add is the gap's (a timer first reports the deadline it woke
     * for, late, and its next cycle the ones skipped meanwhile; each CPU's stream does so). */
    int tail = c->gap_open && c->gap.measuring && c->gap.phase == (int)r->phase;
    uint64_t before[3], after[3];
    if (tail)
        phase_counts(p, before);
    int e = phase_add_cycle(p, r, new_xruns, lost);
    if (tail) {
        phase_counts(p, after);
        c->gap.events += after[0] - before[0];
        c->gap.skipped += after[1] - before[1];
        c->gap.missed += after[2] - before[2];
    }
    if (e == 0 && c->ramps)
        e = ramp_add(&c->ramps[r->phase], r, p->margin_known, p->margin_ns, lost);
    if (e == 0 && c->soak && r->phase == 0 && p->wake_known &&
        soak_add(c->soak, p->wake_ns, r->t_entry_ns, r->stream, r->cpu))
        atomic_store_explicit(&c->soak_tripped, 1, memory_order_release);
    if (e < 0 && !atomic_load_explicit(&c->error, memory_order_relaxed))
        atomic_store_explicit(&c->error, e, memory_order_relaxed);
    int64_t j = p->cur >= 0 ? p->seg[p->cur]->m[M_JITTER].abs_max : 0;
    if (j > atomic_load_explicit(&c->st_worst_jitter_ns, memory_order_relaxed))
        atomic_store_explicit(&c->st_worst_jitter_ns, j, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->st_cycles, 1, memory_order_relaxed);
}

void collector_drain(struct collector *c)
{
    if (c->ring) {
        size_t fill = rt_ring_fill(c->ring);
        if (fill > c->ring_high)
            c->ring_high = fill;
    }
    if (c->graph_take) {
        collector_graph_drain(c);
    } else {
        struct rt_record batch[DRAIN_BATCH]; /* 20 KiB of the collector's 256 KiB stack */
        size_t n;
        while ((n = rt_ring_pop(c->ring, batch, DRAIN_BATCH)) > 0)
            for (size_t i = 0; i < n; i++)
                collector_record(c, &batch[i], 0);
    }
    uint64_t v[3] = { c->handed_xruns[0], c->handed_xruns[1], c->handed_xruns[2] };
    for (int i = atomic_load_explicit(&c->handed, memory_order_relaxed); i < c->nphases; i++)
        add_xruns(&c->phases[i], v);
    atomic_store_explicit(&c->st_detected, v[0], memory_order_relaxed);
    atomic_store_explicit(&c->st_reported, v[1], memory_order_relaxed);
    atomic_store_explicit(&c->st_events, v[2], memory_order_relaxed);
}

/* Phase i's records lost while it measured (its measured tag's counter, final once it has ended): those no sequence
 * gap showed go to the segment of its last record. */
static void settle_lost(struct collector *c, int i)
{
    unsigned tag = (unsigned)i << 1 | 1u;
    struct phase_stats *p = &c->phases[i];
    if (!c->lost_by_tag || tag >= c->ntags || p->cur < 0)
        return; /* a phase with no measured record that got through: only its `dropped` can say */
    uint64_t lost = atomic_load_explicit(&c->lost_by_tag[tag], memory_order_acquire), seen = 0;
    for (int s = 0; s < p->nseg; s++)
        seen += p->seg[s]->records_lost;
    if (lost > seen)
        p->seg[p->cur]->records_lost += lost - seen;
}

void collector_settle_lost(struct collector *c)
{
    if (!c->lost_by_tag || c->lost_settled)
        return;
    c->lost_settled = 1;
    for (int i = atomic_load_explicit(&c->handed, memory_order_relaxed); i < c->nphases; i++)
        settle_lost(c, i); /* a handed phase's were settled as it was handed */
}

static void *collector_main(void *arg)
{
    struct collector *c = arg;
    const struct timespec nap = { 0, 50 * 1000 * 1000 };
    while (!atomic_load_explicit(&c->stop, memory_order_acquire)) {
        collector_drain(c);
        nanosleep(&nap, NULL);
    }
    collector_graph_last(c); /* the profiler's last batch, for the last cycles */
    c->final = 1;
    collector_drain(c);
    struct timespec cpu;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
        c->cpu_ns = (int64_t)cpu.tv_sec * 1000000000LL + cpu.tv_nsec;
    return NULL;
}

int collector_start(struct collector *c)
{
    atomic_store(&c->stop, 0);
    if (c->graph_take && collector_graph_init(c) < 0)
        return -ENOMEM;
    /* A small stack: under mlockall(MCL_FUTURE) a default 8 MiB one would be made resident and locked. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, COLLECTOR_STACK);
    int e = pthread_create(&c->thread, &attr, collector_main, c);
    pthread_attr_destroy(&attr);
    if (e == 0) /* named for top and ps */
        pthread_setname_np(c->thread, "rtj-collect");
    if (e)
        return -e;
    c->running = 1;
    return 0;
}

int collector_stop(struct collector *c)
{
    if (!c->running)
        return 0;
    atomic_store_explicit(&c->stop, 1, memory_order_release);
    pthread_join(c->thread, NULL);
    c->running = 0;
    collector_graph_free(c);
    collector_flush_gap(c);
    collector_settle_lost(c);
    for (int i = 0; i < c->nphases; i++) {
        phase_finish(&c->phases[i]);
        if (c->ramps)
            ramp_finish(&c->ramps[i]);
    }
    return atomic_load(&c->error);
}
