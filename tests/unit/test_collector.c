/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector: records through the real ring; server xruns go to the cycle that first carried them, so
 * those of a warm-up never count and a phase's total is exact; dropped records lose no xrun. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "run/collector.h"

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
    for (; k < 50; k++) { struct rt_record r = rec(k, 1, 0, x += (k == 45) * 3); rt_ring_push(ringp, &r); } /* warm-up: +3 */
    for (; k < 120; k++) { /* with the 10 of the warm-up, 80 records into a 64-slot ring: the last 16 are dropped,
                            * one of them carrying a new xrun */
        struct rt_record r = rec(k, 1, 1, x += (k == 117));
        rt_ring_push(ringp, &r);
    }
    assert_int_equal(rt_ring_dropped(ringp), 16);
    collector_drain(cp);
    for (; k < 130; k++) { /* ... and the next record that gets through carries it */
        struct rt_record r = rec(k, 1, 1, x);
        rt_ring_push(ringp, &r);
    }
    collector_drain(cp);
    phase_finish(&ph[0]);
    phase_finish(&ph[1]);
    assert_int_equal(ph[0].seg[0]->xruns_reported, 6); /* k = 10, 20, 30: 2 each; not the 7 before, not the warm-up's */
    assert_int_equal(ph[1].seg[0]->xruns_reported, 1); /* not phase 1's warm-up 3 */
    uint64_t per_second = 0;
    for (size_t s = 0; s < ph[0].seg[0]->nsecs; s++)
        per_second += ph[0].seg[0]->secs[s].xruns_reported;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xruns_by_record),
        cmocka_unit_test(test_late_notification_stays_with_its_phase),
    };
    return cmocka_run_group_tests_name("collector", tests, NULL, NULL);
}
