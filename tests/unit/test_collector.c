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

static void test_xruns_by_record(void **state)
{
    (void)state;
    struct rt_ring ring;
    assert_int_equal(rt_ring_init(&ring, 64), 0);
    struct phase_stats ph[2];
    phase_init(&ph[0]);
    phase_init(&ph[1]);
    struct collector c;
    memset(&c, 0, sizeof(c));
    c.ring = &ring;
    c.phases = ph;
    c.nphases = 2;
    /* the counter stands at 7 when the first record is made (xruns at activation) */
    uint32_t x = 7;
    int k = 0;
    for (; k < 10; k++) { struct rt_record r = rec(k, 0, 0, x += (k == 5)); rt_ring_push(&ring, &r); } /* warm-up: +1 */
    for (; k < 40; k++) { struct rt_record r = rec(k, 0, 1, x += (k % 10 == 0) * 2); rt_ring_push(&ring, &r); }
    collector_drain(&c);
    for (; k < 50; k++) { struct rt_record r = rec(k, 1, 0, x += (k == 45) * 3); rt_ring_push(&ring, &r); } /* warm-up: +3 */
    for (; k < 120; k++) { /* with the 10 of the warm-up, 80 records into a 64-slot ring: the last 16 are dropped,
                            * one of them carrying a new xrun */
        struct rt_record r = rec(k, 1, 1, x += (k == 117));
        rt_ring_push(&ring, &r);
    }
    assert_int_equal(rt_ring_dropped(&ring), 16);
    collector_drain(&c);
    for (; k < 130; k++) { /* ... and the next record that gets through carries it */
        struct rt_record r = rec(k, 1, 1, x);
        rt_ring_push(&ring, &r);
    }
    collector_drain(&c);
    phase_finish(&ph[0]);
    phase_finish(&ph[1]);
    assert_int_equal(ph[0].seg[0]->xruns_reported, 6); /* k = 10, 20, 30: 2 each; not the 7 before, not the warm-up's */
    assert_int_equal(ph[1].seg[0]->xruns_reported, 1); /* not phase 1's warm-up 3 */
    uint64_t per_second = 0;
    for (size_t s = 0; s < ph[0].seg[0]->nsecs; s++)
        per_second += ph[0].seg[0]->secs[s].xruns_reported;
    assert_int_equal(per_second, 6);
    /* the 16 dropped records are a gap in the sequence: lost records, not a frame gap (the frames did advance) */
    assert_int_equal(c.records_lost, 16);
    assert_int_equal(ph[1].seg[0]->records_lost, 16);
    assert_int_equal(ph[1].seg[0]->xruns_detected, 0);
    assert_int_equal(ph[1].seg[0]->skipped_cycles, 0);
    phase_free(&ph[0]);
    phase_free(&ph[1]);
    rt_ring_free(&ring);
}

/* An xrun in a phase's last measured cycle whose notification (jack2: another thread) is first carried by the next
 * phase's first warm-up record still belongs to the phase whose cycle saw it; one arriving later does not. */
static void test_late_notification_stays_with_its_phase(void **state)
{
    (void)state;
    struct rt_ring ring;
    assert_int_equal(rt_ring_init(&ring, 256), 0);
    struct phase_stats ph[2];
    phase_init(&ph[0]);
    phase_init(&ph[1]);
    struct collector c;
    memset(&c, 0, sizeof(c));
    c.ring = &ring;
    c.phases = ph;
    c.nphases = 2;
    uint32_t x = 0;
    int k = 0;
    for (; k < 20; k++) { struct rt_record r = rec(k, 0, 1, x); rt_ring_push(&ring, &r); }
    x += 2; /* notified just after phase 0's last measured cycle */
    for (; k < 30; k++) { struct rt_record r = rec(k, 1, 0, x += (k == 25) * 5); rt_ring_push(&ring, &r); }
    for (; k < 40; k++) { struct rt_record r = rec(k, 1, 1, x); rt_ring_push(&ring, &r); }
    collector_drain(&c);
    phase_finish(&ph[0]);
    phase_finish(&ph[1]);
    assert_int_equal(ph[0].seg[0]->xruns_reported, 2);
    assert_int_equal(ph[0].seg[0]->xrun_events, 1);
    assert_int_equal(ph[1].seg[0]->xruns_reported, 0); /* the warm-up's own 5 count nowhere */
    phase_free(&ph[0]);
    phase_free(&ph[1]);
    rt_ring_free(&ring);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xruns_by_record),
        cmocka_unit_test(test_late_notification_stays_with_its_phase),
    };
    return cmocka_run_group_tests_name("collector", tests, NULL, NULL);
}
