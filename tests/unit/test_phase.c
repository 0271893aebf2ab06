/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-cycle metrics from synthetic records whose truth is known: period, jitter, frame gaps, wake-up,
 * margin, deadlines, buffer-size changes and the per-second timeline. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "stats/phase.h"

#define RATE 48000
#define FRAMES 64
#define FRAME_NS (1000000000LL / RATE)          /* 20833 ns */
#define PERIOD_NS (FRAMES * 1000000000LL / RATE) /* 1333333 ns */

/* A cycle starting at start_ns (true start), entered `wake_frames` frames later (+ 0.5 frame, the middle of
 * what jack_frames_since_cycle_start() would say), busy for cb_ns. */
static struct rt_record cyc(int64_t start_ns, uint32_t frame_time, uint32_t wake_frames, int64_t cb_ns,
                            uint32_t nframes)
{
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.t_entry_ns = start_ns + wake_frames * FRAME_NS + FRAME_NS / 2;
    r.t_exit_ns = r.t_entry_ns + cb_ns;
    r.frame_pos = frame_time;
    r.start_ns = start_ns; /* what the JACK backend derives from jack_frames_since_cycle_start() */
    r.flags = RTREC_HAS_START;
    r.nframes = nframes;
    r.rate_hz = RATE;
    r.flags |= RTREC_MEASURING;
    return r;
}

static void test_steady_cycles(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    for (int k = 0; k < 48000 / FRAMES * 3; k++) { /* 3 s */
        struct rt_record r = cyc(k * PERIOD_NS, (uint32_t)(k * FRAMES), 2, 10000, FRAMES);
        assert_int_equal(phase_add(&p, &r), 0);
    }
    phase_finish(&p);
    assert_int_equal(p.nseg, 1);
    struct segment *s = p.seg[0];
    assert_int_equal(s->cycles, 2250);
    assert_int_equal(s->m[M_PERIOD].count, 2249);
    assert_true(llabs((long long)s->m[M_PERIOD].w.mean - PERIOD_NS) < 2);
    assert_true(s->m[M_JITTER].abs_max < 2);
    assert_int_equal(s->xruns_detected, 0);
    assert_int_equal(s->deadlines_met, s->m[M_MARGIN].count);
    /* wake-up: 2 frames + half a frame after the start, recovered to within a frame */
    assert_true(llabs(s->m[M_WAKEUP].max - (2 * FRAME_NS + FRAME_NS / 2)) < FRAME_NS);
    /* margin = next start - exit = period - wake - callback */
    int64_t want = PERIOD_NS - 2 * FRAME_NS - FRAME_NS / 2 - 10000;
    assert_true(llabs(s->m[M_MARGIN].min - want) < FRAME_NS);
    assert_int_equal(s->nsecs, 3);
    assert_int_equal(s->secs[0].cycles + s->secs[1].cycles + s->secs[2].cycles, 2250);
    phase_free(&p);
}

/* One stall, one event (issue 19 item 1): disturbances before XRUN_EVENT_CLEAN (8) clean cycles have run belong to
 * the event before; each event says when it began (its first skipped cycle's start), how long it lasted, what it
 * spanned. The truth is the schedule of gaps and notifications this test makes. */
static void test_one_stall_one_event(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    /* cycles (frame clock) that never run: 100-102, then 107-108 (4 clean cycles after the first: the same event),
     * 400-401 (a new event), and a notification on cycle 405 (the same), one on cycle 700 (a new one) */
    int k = 0;
    for (int n = 0; n < 1000; n++, k++) {
        if (k == 100 || k == 107 || k == 400)
            k += k == 100 ? 3 : 2;
        struct rt_record r = cyc(k * PERIOD_NS, (uint32_t)(k * FRAMES), 1, 10000, FRAMES);
        uint64_t nx = k == 405 || k == 700;
        assert_int_equal(phase_add_cycle(&p, &r, nx, 0), 0);
    }
    phase_finish(&p);
    struct segment *s = p.seg[0];
    assert_int_equal(s->xruns_detected, 3);
    assert_int_equal(s->xrun_events, 3);
    assert_int_equal(s->events.nlatest, 3);
    const struct xrun_event *e = s->events.latest;
    assert_int_equal(e[0].skipped, 5);
    assert_int_equal(e[0].notifications, 0);
    assert_true(llabs(e[0].start_ns - 100 * PERIOD_NS) < FRAME_NS);     /* when cycle 100 was due */
    assert_int_equal(e[0].frame0, 100 * FRAMES);
    assert_int_equal(e[0].frame1, 109 * FRAMES);                         /* the cycle after the second gap */
    assert_int_equal(e[1].skipped, 2);
    assert_int_equal(e[1].notifications, 1);
    assert_int_equal(e[1].frame1, 405 * FRAMES);
    assert_int_equal(e[2].skipped, 0);
    assert_int_equal(e[2].notifications, 1);
    assert_int_equal(s->events.summarised, 0);
    /* the timeline: one event in second 0 (cycles 100-109), one in second 0 too (400 * 1.33 ms = 0.53 s), one
     * in second 0 (700: 0.93 s) */
    assert_int_equal(s->secs[0].xrun_events, 3);
    phase_free(&p);
}

/* An 8 ms stall inside cycle 1000's callback: the server skips cycles; our next entry comes late. */
static void test_stall_shows_as_gap_miss_and_timeline(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    int64_t stall = 8000000;
    uint32_t skipped = 0;
    for (int k = 0; k < 2000; k++) {
        int64_t cb = k == 1000 ? stall : 10000;
        if (k == 1001) /* the cycles that started during the stall were lost to us */
            skipped = (uint32_t)(stall / PERIOD_NS);
        int kk = k + (int)skipped;
        struct rt_record r = cyc(kk * PERIOD_NS, (uint32_t)(kk * FRAMES), 1, cb, FRAMES);
        assert_int_equal(phase_add(&p, &r), 0);
    }
    phase_finish(&p);
    struct segment *s = p.seg[0];
    assert_int_equal(s->xruns_detected, 1);
    assert_int_equal(s->skipped_cycles, skipped);  /* 6 cycles of 1.33 ms fit in 8 ms */
    assert_int_equal(skipped, 6);
    assert_int_equal(s->m[M_MARGIN].count - s->deadlines_met, 1);      /* one callback finished late */
    /* ... and the 6 cycles that never ran missed theirs too: deadlines are counted against the cycles the frame
     * clock says should have run (1999 after the first, 6 of them skipped) */
    assert_int_equal(s->cycles_due, 1999 + skipped);
    assert_int_equal(s->cycles_due - s->deadlines_met, 1 + skipped);
    assert_int_equal(s->xrun_events, 1);
    assert_true(s->m[M_MARGIN].min < -(stall - 2 * PERIOD_NS));          /* by about the stall */
    assert_true(s->m[M_CALLBACK].max == stall);
    /* jitter is measured against the frames that really advanced: the gap itself is not jitter */
    assert_true(s->m[M_JITTER].abs_max < 2);
    /* cycle 1000 starts at 1.333 s: second 1 of the timeline has the miss and the long callback */
    assert_int_equal(s->secs[1].deadlines_missed, 1 + skipped);
    assert_int_equal(s->secs[1].callback_max, stall);
    assert_int_equal(s->secs[0].deadlines_missed, 0);
    assert_int_equal(s->secs[1].xruns_detected, 1);
    phase_free(&p);
}

/* A late wake-up of 1 ms (less than a period: cycles stay in order) with no lost frames: jitter +1 ms then -1 ms;
 * the wake-up shows it. */
static void test_late_wakeup_is_jitter(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    for (int k = 0; k < 100; k++) {
        uint32_t wake = k == 50 ? (uint32_t)(1000000 / FRAME_NS) : 1;
        struct rt_record r = cyc(k * PERIOD_NS, (uint32_t)(k * FRAMES), wake, 1000, FRAMES);
        phase_add(&p, &r);
    }
    struct segment *s = p.seg[0];
    assert_true(s->m[M_JITTER].max > 1000000 - 2 * FRAME_NS);
    assert_true(s->m[M_JITTER].min < -(1000000 - 2 * FRAME_NS));
    assert_true(s->m[M_WAKEUP].max > 1000000 - FRAME_NS);
    assert_int_equal(s->xruns_detected, 0);
    phase_free(&p);
}

static void test_buffer_size_change_makes_segments(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    uint32_t ft = 0;
    int64_t t = 0;
    for (int k = 0; k < 300; k++) {
        uint32_t n = k < 100 ? 64 : k < 200 ? 128 : 64;
        struct rt_record r = cyc(t, ft, 1, 1000, n);
        phase_add(&p, &r);
        t += n * 1000000000LL / RATE;
        ft += n;
    }
    phase_add_reported_xruns(&p, 2);
    assert_int_equal(p.nseg, 2);
    assert_int_equal(p.seg[0]->nframes, 64);
    assert_int_equal(p.seg[1]->nframes, 128);
    assert_int_equal(p.seg[0]->cycles, 200);
    assert_int_equal(p.seg[1]->cycles, 100);
    /* never mixed: each segment's mean period is its own nominal one */
    assert_true(llabs((long long)p.seg[0]->m[M_PERIOD].w.mean - 1333333) < 2);
    assert_true(llabs((long long)p.seg[1]->m[M_PERIOD].w.mean - 2666666) < 2);
    assert_int_equal(p.seg[0]->xruns_detected + p.seg[1]->xruns_detected, 0);
    assert_int_equal(p.seg[0]->xruns_reported, 2); /* to the segment in force */
    phase_free(&p);
}

static void test_reported_before_first_record(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    phase_add_reported_xruns(&p, 3);
    struct rt_record r = cyc(0, 0, 1, 1000, 64);
    phase_add(&p, &r);
    assert_int_equal(p.seg[0]->xruns_reported, 3);
    phase_free(&p);
}

/* Two streams (the timer backend on two CPUs) interleaved in batches, as its relay delivers them: stream 1's
 * grid is offset by 300 µs and it has one gap of 3 periods. Deltas must stay inside each stream: the mean period
 * is the nominal one, no jitter, exactly one frame gap, its skipped cycles, and both streams' wake-ups pooled. */
static void test_streams_never_mixed(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    const int64_t off = 300000;
    int k1 = 0;
    for (int batch = 0; batch < 40; batch++)
        for (int st = 0; st < 2; st++)
            for (int i = 0; i < 25; i++) {
                int k = batch * 25 + i;
                struct rt_record r;
                if (st == 0) {
                    r = cyc(k * PERIOD_NS, (uint32_t)(k * FRAMES), 1, 1000, FRAMES);
                } else {
                    if (k1 == 500)
                        k1 += 3; /* three periods skipped by stream 1 only */
                    r = cyc(k1 * PERIOD_NS + off, (uint32_t)(k1 * FRAMES), 3, 1000, FRAMES);
                    k1++;
                }
                r.stream = (uint16_t)st;
                assert_int_equal(phase_add(&p, &r), 0);
            }
    phase_finish(&p);
    assert_int_equal(p.nseg, 1);
    struct segment *s = p.seg[0];
    assert_int_equal(s->cycles, 2000);
    assert_int_equal(s->xruns_detected, 1);
    assert_int_equal(s->skipped_cycles, 3);
    assert_true(s->m[M_JITTER].abs_max < 2);
    assert_int_equal(s->m[M_PERIOD].count, 1998); /* one delta fewer per stream */
    assert_true(s->m[M_PERIOD].min > PERIOD_NS - 2);
    assert_true(s->m[M_PERIOD].max > 4 * PERIOD_NS - 2 && s->m[M_PERIOD].max < 4 * PERIOD_NS + 2);
    /* wake-ups: 1.5 frames for stream 0, 3.5 for stream 1, pooled half and half; the cycle after stream 1's gap
     * keeps its lateness from when the first skipped cycle was due: 3 periods more */
    assert_true(llabs(s->m[M_WAKEUP].min - (FRAME_NS + FRAME_NS / 2)) < 2);
    assert_true(llabs(s->m[M_WAKEUP].max - (3 * PERIOD_NS + 3 * FRAME_NS + FRAME_NS / 2)) < 2);
    assert_int_equal(s->m[M_MARGIN].count - s->deadlines_met, 0);
    /* the clock window ends at the latest entry of any stream */
    assert_int_equal(s->prev_entry_ns, (int64_t)(k1 - 1) * PERIOD_NS + off + 3 * FRAME_NS + FRAME_NS / 2);
    phase_free(&p);
}

/* Issue 19, item 2: no wake-up is reported earlier than its cycle by more than WAKE_EARLY_TOL_NS. JACK-like records
 * (whole-frame starts, the fitted grid): every cycle enters 30 us after its true start, then one enters at 20 us,
 * 10 us before the grid the earlier ones set: the grid is lowered to it (its wake-up 0: the earliest cycle), and the
 * cycles after it measure 10 us, their lateness beyond it. One entering 0.7 periods before the grid (a grid whole
 * periods off) is left out of the wake-up figures and counted. */
static struct rt_record coarse(int64_t start_ns, uint32_t frame_time, int64_t wake_ns)
{
    struct rt_record r = cyc(start_ns, frame_time, 0, 10000, FRAMES);
    r.t_entry_ns = start_ns + wake_ns;
    r.t_exit_ns = r.t_entry_ns + 10000;
    r.flags |= RTREC_START_COARSE;
    return r;
}

static void test_grid_never_before_cycle(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    int k = 0;
    for (; k < 1500; k++) { /* 2 s: the grid is fitted */
        struct rt_record r = coarse(k * PERIOD_NS, (uint32_t)(k * FRAMES), 30000);
        assert_int_equal(phase_add(&p, &r), 0);
    }
    struct rt_record r = coarse(k * PERIOD_NS, (uint32_t)(k * FRAMES), 20000);
    assert_int_equal(phase_add(&p, &r), 0);
    k++;
    struct segment *s = p.seg[0];
    assert_int_equal(s->wake_reanchored, 1);
    assert_true(s->m[M_WAKEUP].min >= -WAKE_EARLY_TOL_NS);
    double sum0 = s->m[M_WAKEUP].w.mean * (double)s->m[M_WAKEUP].count;
    for (int j = 0; j < 10; j++, k++) {
        r = coarse(k * PERIOD_NS, (uint32_t)(k * FRAMES), 30000);
        assert_int_equal(phase_add(&p, &r), 0);
    }
    double sum1 = s->m[M_WAKEUP].w.mean * (double)s->m[M_WAKEUP].count;
    assert_true(fabs((sum1 - sum0) / 10 - 10000) < 1000); /* each of the ten: 10 us beyond the new best */
    uint64_t counted = s->m[M_WAKEUP].count;
    /* 0.7 periods before the grid: the frame clock says this cycle's start is a period on, its entry is early */
    r = coarse(k * PERIOD_NS, (uint32_t)(k * FRAMES), 20000 - PERIOD_NS * 7 / 10);
    assert_int_equal(phase_add(&p, &r), 0);
    assert_int_equal(s->wake_left_out, 1);
    assert_int_equal(s->m[M_WAKEUP].count, counted);
    assert_true(s->m[M_WAKEUP].min >= -WAKE_EARLY_TOL_NS);
    phase_finish(&p);
    phase_free(&p);
}

/* PipeWire-like records with the driver's exact start (its scheduled time): the server stops for 30 ms, then runs
 * the cycles that fell due meanwhile back to back, 20 us apart. Each is measured from its own scheduled start: no
 * discontinuity, nothing negative, and the first one due in the stall keeps the stall's lateness. */
static void test_exact_start_catch_up(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    int64_t resume = 0;
    for (int k = 0; k < 1500; k++) {
        int64_t start = k * PERIOD_NS, entry = start + 40000;
        if (k == 1000)
            resume = start + 30000000;
        if (k >= 1000 && entry < resume + (k - 1000) * 20000)
            entry = resume + (k - 1000) * 20000;
        struct rt_record r = cyc(start, (uint32_t)(k * FRAMES), 0, 10000, FRAMES);
        r.t_entry_ns = entry;
        r.t_exit_ns = entry + 10000;
        assert_int_equal(phase_add(&p, &r), 0);
    }
    phase_finish(&p);
    struct segment *s = p.seg[0];
    assert_int_equal(s->discontinuities, 0);
    assert_int_equal(s->wake_provider, 1500);
    assert_int_equal(s->wake_left_out, 0);
    assert_int_equal(s->m[M_WAKEUP].min, 40000);
    assert_int_equal(s->m[M_WAKEUP].max, 30000000);
    phase_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steady_cycles),
        cmocka_unit_test(test_stall_shows_as_gap_miss_and_timeline),
        cmocka_unit_test(test_one_stall_one_event),
        cmocka_unit_test(test_late_wakeup_is_jitter),
        cmocka_unit_test(test_buffer_size_change_makes_segments),
        cmocka_unit_test(test_reported_before_first_record),
        cmocka_unit_test(test_streams_never_mixed),
        cmocka_unit_test(test_grid_never_before_cycle),
        cmocka_unit_test(test_exact_start_catch_up),
    };
    return cmocka_run_group_tests_name("phase", tests, NULL, NULL);
}
