/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector: records through the real ring; server xruns go to the cycle that first carried them, so
 * those of a warm-up never count and a phase's total is exact; dropped records lose no xrun. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include "run/collector.h"
#include "stats/timeline.h"
#include "rt_sink.h"

static struct rt_record rec(int k, unsigned phase, int measuring, uint32_t xruns)
{
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.seq = (uint64_t)k;                 /* as rt_sink_cycle numbers them */
    r.t_entry_ns = (int64_t)k * 1333333;
    r.t_exit_ns = r.t_entry_ns + 1000;
    r.frame_pos = (uint64_t)k * 64;
    r.nframes = 64;
    r.rate_hz = 48000;
    r.phase = phase;
    r.flags = measuring ? RTREC_MEASURING : 0;
    r.xruns = xruns;
    return r;
}

/* A collector over a ring of cap records and two phases. */
struct rig {
    struct rt_ring ring;
    struct phase_stats ph[2];
    struct collector c;
};

static void rig_init(struct rig *g, size_t cap)
{
    memset(g, 0, sizeof(*g));
    assert_int_equal(rt_ring_init(&g->ring, cap), 0);
    phase_init(&g->ph[0]);
    phase_init(&g->ph[1]);
    g->c.ring = &g->ring;
    g->c.phases = g->ph;
    g->c.nphases = 2;
}

static void rig_free(struct rig *g)
{
    phase_free(&g->ph[0]);
    phase_free(&g->ph[1]);
    rt_ring_free(&g->ring);
}

static void test_xruns_by_record(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, 64);
    struct rt_ring *ringp = &g.ring;
    struct phase_stats *ph = g.ph;
    struct collector *cp = &g.c;
    /* the counter stands at 7 when the first record is made (xruns at activation) */
    uint32_t x = 7;
    int k = 0;
    for (; k < 10; k++) { struct rt_record r = rec(k, 0, 0, x += (k == 5)); rt_ring_push(ringp, &r); } /* warm-up: +1 */
    for (; k < 40; k++) { struct rt_record r = rec(k, 0, 1, x += (k % 10 == 0) * 2); rt_ring_push(ringp, &r); }
    collector_drain(cp);
    assert_int_equal(cp->ring_high, 40); /* the ring's high-water mark: the 40 records this test pushed */
    for (; k < 50; k++) { struct rt_record r = rec(k, 1, 0, x += (k == 45) * 3); rt_ring_push(ringp, &r); } /* warm-up: +3 */
    for (; k < 120; k++) { /* with the 10 of the warm-up, 80 records into a 64-slot ring: the last 16 are dropped,
                            * one of them carrying a new xrun */
        struct rt_record r = rec(k, 1, 1, x += (k == 117));
        rt_ring_push(ringp, &r);
    }
    assert_int_equal(rt_ring_dropped(ringp), 16);
    collector_drain(cp);
    assert_int_equal(cp->ring_high, 64); /* full */
    for (; k < 130; k++) { /* ... and the next record that gets through carries it */
        struct rt_record r = rec(k, 1, 1, x);
        rt_ring_push(ringp, &r);
    }
    collector_drain(cp);
    assert_int_equal(cp->ring_high, 64); /* the most it held, not the last */
    phase_finish(&ph[0]);
    phase_finish(&ph[1]);
    assert_int_equal(ph[0].seg[0]->xruns_reported, 6); /* k = 10, 20, 30: 2 each; not the 7 before, not the warm-up's */
    assert_int_equal(ph[1].seg[0]->xruns_reported, 1); /* not phase 1's warm-up 3 */
    uint64_t per_second = 0; /* phase 0 was settled: its seconds are in its timeline's entries */
    struct tl_entry *te;
    size_t tn;
    uint64_t tf;
    assert_int_equal(timeline_view(ph[0].seg[0], &te, &tn, &tf), 0);
    for (size_t s = 0; s < tn; s++)
        per_second += te[s].st.xruns_reported;
    free(te);
    assert_int_equal(per_second, 6);
    /* the 16 dropped records are a gap in the sequence: lost records, not a frame gap (the frames did advance) */
    assert_int_equal(cp->records_lost, 16);
    assert_int_equal(ph[1].seg[0]->records_lost, 16);
    assert_int_equal(ph[1].seg[0]->xruns_detected, 0);
    assert_int_equal(ph[1].seg[0]->skipped_cycles, 0);
    rig_free(&g);
}

/* An xrun in a phase's last measured cycle whose notification (jack2: another thread) is first carried by the next
 * phase's first warm-up record still belongs to the phase whose cycle saw it; one arriving later does not. */
static void test_late_notification_stays_with_its_phase(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, 256);
    struct rt_ring *ringp = &g.ring;
    struct phase_stats *ph = g.ph;
    struct collector *cp = &g.c;
    uint32_t x = 0;
    int k = 0;
    for (; k < 20; k++) { struct rt_record r = rec(k, 0, 1, x); rt_ring_push(ringp, &r); }
    x += 2; /* notified just after phase 0's last measured cycle */
    for (; k < 30; k++) { struct rt_record r = rec(k, 1, 0, x += (k == 25) * 5); rt_ring_push(ringp, &r); }
    for (; k < 40; k++) { struct rt_record r = rec(k, 1, 1, x); rt_ring_push(ringp, &r); }
    collector_drain(cp);
    phase_finish(&ph[0]);
    phase_finish(&ph[1]);
    assert_int_equal(ph[0].seg[0]->xruns_reported, 2);
    assert_int_equal(ph[0].seg[0]->xrun_events, 1);
    assert_int_equal(ph[1].seg[0]->xruns_reported, 0); /* the warm-up's own 5 count nowhere */
    rig_free(&g);
}

/* The RT side as a backend drives it: rt_sink_cycle numbers, tags and pushes each record, and counts each one the
 * full ring refuses under its tag. */
struct sinkrig {
    struct rig g;
    atomic_uint tag;
    atomic_uint_fast64_t lost[5]; /* two phases: tags 0..3, and 4 after the last */
    struct rt_sink sink;
    int k;
    atomic_uint_fast64_t xruns; /* the backend's xrun counter, which the sink copies into each record */
};

static void sinkrig_init(struct sinkrig *r, size_t cap)
{
    memset(r, 0, sizeof(*r));
    rig_init(&r->g, cap);
    r->sink.ring = &r->g.ring;
    r->sink.clock = CLOCK_MONOTONIC;
    r->sink.phase_tag = &r->tag;
    r->sink.lost_by_tag = r->lost;
    r->sink.ntags = 5;
    r->g.c.lost_by_tag = r->lost;
    r->g.c.ntags = 5;
    r->sink.xruns = &r->xruns;
}

/* n cycles under tag (phase << 1 | measuring), nothing drained meanwhile */
static void cycles(struct sinkrig *r, unsigned tag, int n)
{
    atomic_store(&r->tag, tag);
    for (int i = 0; i < n; i++, r->k++) {
        struct rt_record x = rec(r->k, 0, 0, 0);
        x.seq = 0; /* the sink numbers them */
        rt_sink_cycle(&r->sink, &x, x.t_entry_ns + 1333333);
    }
}

static uint64_t phase_lost(const struct phase_stats *p)
{
    uint64_t n = 0;
    for (int s = 0; s < p->nseg; s++)
        n += p->seg[s]->records_lost;
    return n;
}

/* Records lost where no gap between two measured records of a phase shows them: in a gap that began in the warm-up
 * (those of the warm-up count nowhere, those after its end count), at the end of a phase's measured part (the next
 * record that gets through is the next phase's warm-up), and after the last record that got through at all. The
 * truth is the construction: a ring of 8 slots, and how many cycles ran under each tag between two drains. */
static void test_lost_at_the_edges_of_a_phase(void **state)
{
    (void)state;
    struct sinkrig r;
    sinkrig_init(&r, 8);
    struct collector *c = &r.g.c;
    cycles(&r, 0, 4);        /* phase 0 warm-up */
    collector_drain(c);
    cycles(&r, 0, 10);       /* 8 stored, 2 of the warm-up lost */
    cycles(&r, 1, 5);        /* measuring: 5 lost in the same gap            -> phase 0: 5 */
    collector_drain(c);
    for (int i = 0; i < 5; i++) {
        cycles(&r, 1, 4);    /* none lost */
        collector_drain(c);
    }
    cycles(&r, 1, 12);       /* 8 stored, 4 lost at the end of its measured part -> phase 0: 9 */
    cycles(&r, 2, 3);        /* phase 1 warm-up: 3 lost in the same gap */
    collector_drain(c);
    cycles(&r, 2, 2);
    cycles(&r, 3, 4);        /* phase 1 measuring */
    collector_drain(c);
    cycles(&r, 3, 10);       /* 8 stored, 2 lost */
    collector_drain(c);
    cycles(&r, 3, 1);        /* a gap between two measured records       -> phase 1: 2 */
    collector_drain(c);
    cycles(&r, 3, 11);       /* 8 stored, the last 3 lost: no record after them -> phase 1: 5 */
    collector_drain(c);
    assert_int_equal(rt_ring_dropped(&r.g.ring), 2 + 5 + 4 + 3 + 2 + 3);
    collector_settle_lost(c);
    collector_settle_lost(c); /* once only */
    assert_int_equal(r.g.ph[0].nseg, 1);
    assert_int_equal(r.g.ph[1].nseg, 1);
    assert_int_equal(phase_lost(&r.g.ph[0]), 9);
    assert_int_equal(phase_lost(&r.g.ph[1]), 5);
    /* the sink's counts by tag: what a run reports as each phase's `dropped` */
    assert_int_equal(atomic_load(&r.lost[0]), 2);
    assert_int_equal(atomic_load(&r.lost[1]), 9);
    assert_int_equal(atomic_load(&r.lost[2]), 3);
    assert_int_equal(atomic_load(&r.lost[3]), 5);
    assert_int_equal(atomic_load(&r.lost[4]), 0);
    /* no lost record is a frame gap or an xrun */
    assert_int_equal(r.g.ph[0].seg[0]->xrun_events + r.g.ph[1].seg[0]->xrun_events, 0);
    assert_int_equal(r.g.ph[0].seg[0]->skipped_cycles + r.g.ph[1].seg[0]->skipped_cycles, 0);
    phase_finish(&r.g.ph[0]);
    phase_finish(&r.g.ph[1]);
    rig_free(&r.g);
}

/* Several RT threads (the timer backend, one per CPU) merged into one ring: each numbers its own records, so a
 * gap is one stream's, and two streams at different counts lose nothing. */
/* Handing a finished phase over (run/run_spill.h): once a later phase's records have come for a second (its events
 * named), the collector settles the phase's lost records, keeps its xruns for the status line and hands it over;
 * from then on it never touches it: the main thread frees it, the status line keeps its counts, a late record of it
 * is counted apart, and the run's end settles no lost record into it again. The truth is the construction. */
static void test_phase_handed_over(void **state)
{
    (void)state;
    static struct sinkrig r;
    sinkrig_init(&r, 8);
    struct collector *c = &r.g.c;
    c->hand_over = 1;
    cycles(&r, 1, 3);        /* phase 0 measuring */
    atomic_store(&r.xruns, 2); /* the server told of two xruns: one event */
    cycles(&r, 1, 3);
    collector_drain(c);
    cycles(&r, 1, 11);       /* 8 stored, 3 lost at the end of its measured part */
    cycles(&r, 2, 2);        /* phase 1's warm-up: lost in the same gap */
    collector_drain(c);
    assert_int_equal(atomic_load(&c->handed), 0); /* not before a later phase is measured */
    for (int i = 0; i < 200; i++) { /* phase 1 measuring: 800 cycles, 1.07 s */
        cycles(&r, 3, 4);
        collector_drain(c);
    }
    assert_int_equal(atomic_load(&c->handed), 1);
    assert_int_equal(r.g.ph[0].nseg, 1);
    assert_int_equal(phase_lost(&r.g.ph[0]), 3); /* settled as it was handed */
    assert_int_equal(r.g.ph[0].seg[0]->cycles, 6 + 8);
    /* phase 0's xruns: what the status line shows must not fall when phase 0 is freed */
    uint64_t ev = atomic_load(&c->st_events), rep = atomic_load(&c->st_reported);
    assert_int_equal(ev, 1);
    assert_int_equal(rep, 2);
    phase_free(&r.g.ph[0]); /* the main thread's now */
    cycles(&r, 3, 4);
    collector_drain(c);
    assert_int_equal(atomic_load(&c->st_events), ev);
    assert_int_equal(atomic_load(&c->st_reported), rep);
    /* a late record of phase 0: counted apart, the freed phase left alone */
    struct rt_record late = rec(r.k + 1, 0, 1, 0);
    rt_ring_push(&r.g.ring, &late);
    collector_drain(c);
    assert_int_equal(c->handed_late, 1);
    assert_int_equal(r.g.ph[0].nseg, 0);
    collector_settle_lost(c);
    assert_int_equal(r.g.ph[0].nseg, 0);
    assert_int_equal(phase_lost(&r.g.ph[1]), 0);
    rig_free(&r.g);
}

static void test_streams_have_their_own_sequence(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, 256);
    for (int k = 0; k < 40; k++) {
        struct rt_record a = rec(k, 0, 1, 0), b = rec(k, 0, 1, 0);
        a.seq = (uint64_t)k + 1000; /* stream 0 began long before stream 1 (or stream 1 skipped periods) */
        b.stream = 1;
        b.t_entry_ns += 1000;
        b.t_exit_ns += 1000;
        if (k == 30)
            continue; /* ... but one of stream 1's records was lost (both 30s: a skip would give none) */
        rt_ring_push(&g.ring, &a);
        rt_ring_push(&g.ring, &b);
    }
    collector_drain(&g.c);
    phase_finish(&g.ph[0]);
    assert_int_equal(g.c.records_lost, 2);
    assert_int_equal(g.ph[0].seg[0]->records_lost, 2);
    rig_free(&g);
}

/* A stop of the whole process (SIGSTOP): 3 s without a record in a measured phase, then the frame clock 2250
 * periods on. The gap is kept with its ends and what the records of its tail added: one xrun event and the
 * 2249 cycles that never ran; a 50 ms gap is not kept; the longest COLLECTOR_GAPS are. */
static void test_long_gap_kept(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, 4096);
    const int64_t stop = 3000000000LL;
    int k = 0;
    for (; k < 100; k++) {
        struct rt_record r = rec(k, 0, 1, 0);
        rt_ring_push(&g.ring, &r);
    }
    for (; k < 200; k++) { /* after the stop: time and frames 2249 periods further (k = 2250 periods in 3 s) */
        struct rt_record r = rec(k + 2249, 0, 1, 0);
        r.seq = (uint64_t)k;
        rt_ring_push(&g.ring, &r);
    }
    collector_drain(&g.c);
    assert_int_equal(g.c.ngaps, 1); /* closed by the first record past its 50 ms tail */
    collector_flush_gap(&g.c);
    assert_int_equal(g.c.ngaps, 1);
    const struct collector_gap *gp = &g.c.gaps[0];
    assert_true(gp->before_ns == 99 * 1333333LL);
    assert_true(gp->after_ns == (100 + 2249) * 1333333LL);
    assert_true(gp->after_ns - gp->before_ns > stop - 1333333 && gp->after_ns - gp->before_ns < stop + 1333333);
    assert_int_equal(gp->phase, 0);
    assert_int_equal(gp->measuring, 1);
    assert_int_equal(gp->skipped, 2249);
    assert_int_equal(gp->events, 1);
    assert_int_equal(gp->missed, 2249); /* the cycles that never ran (the one before them ended in time) */
    assert_int_equal(g.ph[0].seg[0]->skipped_cycles, 2249);
    /* a gap under COLLECTOR_GAP_MIN_NS is none; then COLLECTOR_GAPS + 5 longer ones: the longest are kept */
    int64_t t = (int64_t)(199 + 2249) * 1333333LL; /* the last record so far */
    for (int i = 0; i < COLLECTOR_GAPS + 5; i++) {
        struct rt_record r = rec(0, 1, 0, 0);
        r.seq = (uint64_t)(1000 + i);
        r.t_entry_ns = t += (i == 0 ? 50000000LL : COLLECTOR_GAP_MIN_NS + i * 1000000LL);
        rt_ring_push(&g.ring, &r);
    }
    collector_drain(&g.c);
    collector_flush_gap(&g.c);
    assert_int_equal(g.c.ngaps, COLLECTOR_GAPS);
    int64_t shortest = INT64_MAX;
    int has_stop = 0;
    for (int i = 0; i < g.c.ngaps; i++) {
        int64_t len = g.c.gaps[i].after_ns - g.c.gaps[i].before_ns;
        shortest = len < shortest ? len : shortest;
        has_stop |= len > stop - 1333333;
    }
    assert_true(has_stop);
    assert_true(shortest == COLLECTOR_GAP_MIN_NS + 6 * 1000000LL); /* of 37 gaps >= 100 ms, the 5 shortest went */
    phase_finish(&g.ph[0]);
    phase_finish(&g.ph[1]);
    rig_free(&g);
}

/* PipeWire's graph accounting (collector_graph.c): a stand-in for the profiler hands disturbances with their times
 * and says up to when it has told every cycle. Records are held until then (or COLLECTOR_HOLD_NS), and each
 * disturbance is folded into the first record that could see it: three unfinished cycles in a row (one stall) are
 * one event with three notifications; one more 40 cycles later is a second event; one told after its record was
 * accounted goes to the next record and is counted late. */
struct fake_graph {
    struct pwgraph_dist d[8];
    int n, given;
    int64_t known_ns;
};

static int fake_take(void *arg, struct pwgraph_dist *out, int max, int64_t *known_ns)
{
    struct fake_graph *f = arg;
    int n = 0;
    while (f->given < f->n && n < max)
        out[n++] = f->d[f->given++];
    *known_ns = f->known_ns;
    return n;
}

static void test_graph_held_and_folded(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, 1024);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const int64_t P = 1333333, base = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec; /* records "now": held */
    struct fake_graph f = { .known_ns = base + 10 * P };
    for (int i = 0; i < 3; i++) /* cycles 20, 21, 22: a node signalled 30 us after our cycle's start */
        f.d[f.n++] = (struct pwgraph_dist){ base + (20 + i) * P + 30000, P, "stall" };
    f.d[f.n++] = (struct pwgraph_dist){ base + 62 * P + 30000, P, "stall" };
    g.c.graph_take = fake_take;
    g.c.graph_arg = &f;
    g.c.clock = CLOCK_MONOTONIC;
    assert_int_equal(collector_graph_init(&g.c), 0);
    for (int k = 0; k < 100; k++) {
        struct rt_record r = rec(k, 0, 1, 0);
        r.t_entry_ns += base + 100000; /* our entry 100 us after the cycle's start */
        rt_ring_push(&g.ring, &r);
    }
    collector_drain(&g.c);
    assert_int_equal(phase_cycles(&g.ph[0]), 10); /* those before what the profiler told */
    f.known_ns = base + 50 * P;
    collector_drain(&g.c);
    assert_int_equal(phase_cycles(&g.ph[0]), 50);
    assert_int_equal(g.ph[0].seg[0]->xrun_events, 1);
    assert_int_equal(g.ph[0].seg[0]->xruns_reported, 3);
    f.known_ns = base + 100 * P;
    collector_drain(&g.c);
    assert_int_equal(phase_cycles(&g.ph[0]), 100);
    assert_int_equal(g.ph[0].seg[0]->xrun_events, 2);
    assert_int_equal(g.c.graph_xruns, 4);
    assert_int_equal(g.c.graph_late, 0);
    /* told late: its cycle (80) was accounted already; it goes to the next record, counted */
    f.d[f.n++] = (struct pwgraph_dist){ base + 80 * P + 30000, P, "stall" };
    struct rt_record r = rec(100, 0, 1, 0);
    r.t_entry_ns += base + 100000;
    rt_ring_push(&g.ring, &r);
    f.known_ns = base + 101 * P;
    collector_drain(&g.c);
    assert_int_equal(g.c.graph_late, 1);
    assert_int_equal(g.ph[0].seg[0]->xruns_reported, 5);
    /* the last drain accounts what is held, told or not */
    for (int k = 101; k < 110; k++) {
        struct rt_record q = rec(k, 0, 1, 0);
        q.t_entry_ns += base + 100000;
        rt_ring_push(&g.ring, &q);
    }
    g.c.final = 1;
    collector_drain(&g.c);
    assert_int_equal(phase_cycles(&g.ph[0]), 110);
    collector_graph_free(&g.c);
    phase_finish(&g.ph[0]);
    phase_finish(&g.ph[1]);
    rig_free(&g);
}

/* A phase whose last cycle came is settled when a later phase's first measured cycle comes: its current second is
 * decided then and the values kept for its p99 freed (16 frames at 192 kHz: 256 KiB a phase, held to the run's end
 * before). Its per-second p99s are those of a twin collector that kept the values to the end; a cycle of the
 * settled second that still comes is counted apart and moves no p99. */
static void push_phase0(struct rig *g, int n)
{
    for (int k = 0; k < n; k++) {
        struct rt_record r = rec(k, 0, 1, 0);
        r.t_entry_ns += (int64_t)((k * 7919) % 97) * 1500; /* up to 0.14 ms late, in no order */
        r.t_exit_ns = r.t_entry_ns + 1000;
        rt_ring_push(&g->ring, &r);
        if (k % 1000 == 999)
            collector_drain(&g->c);
    }
    collector_drain(&g->c);
}

static void test_settled_phase_frees_its_values(void **state)
{
    (void)state;
    static struct rig a, b; /* twins: a sees phase 1 begin, b does not */
    const int n = 1900;     /* 2.53 s at 64 frames / 48 kHz: the last second is open */
    rig_init(&a, 2048);
    rig_init(&b, 2048);
    push_phase0(&a, n);
    push_phase0(&b, n);
    struct segment *sa = a.ph[0].seg[0], *sb = b.ph[0].seg[0];
    assert_non_null(sa->buf_jit);
    assert_true(sa->buf_n > 0);
    for (int k = n; k < n + 80; k++) { /* phase 1's warm-up, then its first measured cycles */
        struct rt_record r = rec(k, 1, k >= n + 75, 0);
        rt_ring_push(&a.ring, &r);
    }
    collector_drain(&a.c);
    assert_null(sa->buf_jit);
    assert_null(sa->buf_wake);
    assert_int_equal(sa->buf_cap, 0);
    assert_int_equal(a.c.settled, 1);
    phase_finish(&b.ph[0]); /* the twin decides its last second at the end, from the values it kept */
    assert_int_equal(sa->nsecs, sb->nsecs);
    assert_int_equal(sa->nsecs, 3);
    /* the settled one's window was decided and freed (timeline_settle): its entries are the twin's */
    assert_null(sa->secs);
    struct tl_entry *ea, *eb;
    size_t na, nb;
    uint64_t fa, fb;
    assert_int_equal(timeline_view(sa, &ea, &na, &fa), 0);
    assert_int_equal(timeline_view(sb, &eb, &nb, &fb), 0);
    assert_int_equal(na, 3);
    assert_int_equal(nb, 3);
    for (size_t i = 0; i < na; i++) {
        assert_int_equal(ea[i].st.jitter_abs_p99, eb[i].st.jitter_abs_p99);
        assert_int_equal(ea[i].st.wakeup_p99, eb[i].st.wakeup_p99);
        assert_int_equal(ea[i].st.cycles, eb[i].st.cycles);
    }
    assert_true(ea[na - 1].st.jitter_abs_p99 > 0);
    /* a cycle of the settled second that still comes: in the phase's figures and its last second's count, not in
     * the decided p99 */
    int64_t p99 = ea[na - 1].st.jitter_abs_p99;
    uint32_t last_cycles = ea[na - 1].st.cycles;
    free(ea);
    free(eb);
    uint64_t cycles = sa->cycles;
    struct rt_record late = rec(n, 0, 1, 0);
    late.t_entry_ns += 900000; /* 0.9 ms late */
    rt_ring_push(&a.ring, &late);
    collector_drain(&a.c);
    assert_int_equal(sa->cycles, cycles + 1);
    assert_int_equal(sa->p99_late, 1);
    assert_null(sa->buf_jit);
    assert_int_equal(timeline_view(sa, &ea, &na, &fa), 0);
    assert_int_equal(ea[na - 1].st.cycles, last_cycles + 1);
    assert_int_equal(ea[na - 1].st.jitter_abs_p99, p99);
    free(ea);
    phase_finish(&a.ph[0]);
    phase_finish(&a.ph[1]);
    assert_int_equal(timeline_view(sa, &ea, &na, &fa), 0);
    assert_int_equal(ea[na - 1].st.jitter_abs_p99, p99);
    free(ea);
    rig_free(&a);
    rig_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xruns_by_record),
        cmocka_unit_test(test_late_notification_stays_with_its_phase),
        cmocka_unit_test(test_lost_at_the_edges_of_a_phase),
        cmocka_unit_test(test_phase_handed_over),
        cmocka_unit_test(test_streams_have_their_own_sequence),
        cmocka_unit_test(test_long_gap_kept),
        cmocka_unit_test(test_graph_held_and_folded),
        cmocka_unit_test(test_settled_phase_frees_its_values),
    };
    return cmocka_run_group_tests_name("collector", tests, NULL, NULL);
}
