/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The DSP headroom ramp's step statistics (stats/ramp.c) from synthetic records whose truth is set by hand:
 * which cycle was cut short or missed its deadline, at which level, and what margins each step had. Records go
 * through phase.c first, as the collector feeds them, so each cycle is judged by phase.c's margin. Also the
 * --dsp parser and the driver's stepping and early end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "stats/phase.h"
#include "stats/ramp.h"
#include "run/ramp_driver.h"
#include "run/rt_cpu.h"

#define RATE 48000
#define FRAMES 48                                  /* 1 ms */
#define PERIOD_NS (FRAMES * 1000000000LL / RATE)
#define UNITS_PER_NS 0.01                          /* 10 units per µs: 10000 units fill a 1 ms period */
#define PER_STEP 150

struct feed {
    struct phase_stats ph;
    struct ramp_stats rs;
    uint64_t seq, frames;
    int64_t t;
};

static void feed_init(struct feed *F, double step_pct)
{
    memset(F, 0, sizeof(*F));
    phase_init(&F->ph);
    assert_int_equal(ramp_init(&F->rs, step_pct, UNITS_PER_NS), 0);
    F->t = 1000000000LL;
}

/* One timer-like cycle: it starts exactly on its deadline (RTREC_HAS_START), asks for level % of its period and
 * does `done` units of it, and runs cb_ns. */
static void cycle(struct feed *F, double level, uint32_t frames, uint32_t done_cut, int64_t cb_ns)
{
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    int64_t period = (int64_t)frames * 1000000000LL / RATE;
    r.seq = F->seq++;
    r.start_ns = F->t;
    r.t_entry_ns = F->t;
    r.t_exit_ns = F->t + cb_ns;
    r.frame_pos = F->frames;
    r.nframes = frames;
    r.rate_hz = RATE;
    r.flags = RTREC_HAS_START | RTREC_MEASURING | RTREC_DSP;
    r.dsp_req = (uint32_t)(level / 100.0 * (double)period * UNITS_PER_NS + 0.5);
    r.dsp_done = r.dsp_req - done_cut;
    assert_int_equal(phase_add_cycle(&F->ph, &r, 0, 0), 0);
    assert_int_equal(ramp_add(&F->rs, &r, F->ph.margin_known, F->ph.margin_ns, 0), 0);
    F->t += period;
    F->frames += frames;
}

static int64_t work_ns(double level)
{
    return (int64_t)(level / 100.0 * PERIOD_NS);
}

static void test_first_miss_and_one_pct(void **state)
{
    (void)state;
    struct feed *F = calloc(1, sizeof(*F));
    feed_init(F, 10);
    for (int k = 0; k <= 10; k++) {
        double level = 10.0 * k;
        for (int i = 0; i < PER_STEP; i++) {
            int cut = (k == 3 && i == 70) || (k == 6 && (i == 10 || i == 20));
            int late = k == 5 && i == 40; /* ends 0.2 ms after the next cycle's start */
            int64_t cb = late ? PERIOD_NS + 200000 : work_ns(cut ? 97 : level);
            cycle(F, level, FRAMES, cut ? 5 : 0, cb);
        }
    }
    cycle(F, 0, FRAMES, 0, 1000); /* the last cycle's margin needs the one after it */
    ramp_finish(&F->rs);
    struct ramp_stats *r = &F->rs;
    assert_int_equal(r->first_fail_step, 3);
    assert_true(r->first_fail_pct > 29.99 && r->first_fail_pct < 30.01);
    assert_int_equal(r->first_cut_step, 3);
    assert_int_equal(r->first_missed_step, 5);
    /* 1 of 150 (0.67 %) at 30 and 50 % is not the 1 % point; 2 of 150 (1.3 %) at 60 % is */
    assert_int_equal(r->one_pct_step, 6);
    assert_int_equal(ramp_one_pct_seen(r), 6);
    assert_int_equal(r->steps[3].cut_short, 1);
    assert_int_equal(r->steps[3].missed, 0);
    assert_int_equal(r->steps[5].missed, 1);
    assert_int_equal(r->steps[5].cut_short, 0);
    assert_int_equal(r->steps[5].failed, 1);
    assert_int_equal(r->steps[6].failed, 2);
    for (int k = 0; k <= 10; k++)
        assert_int_equal(r->steps[k].cycles, PER_STEP);
    /* the cut-short cycles are no missed deadlines of the phase: only the late one is */
    assert_int_equal(F->ph.seg[0]->cycles_due - F->ph.seg[0]->deadlines_met, 1);
    assert_int_equal(F->ph.seg[0]->dsp_cut_short, 3);
    ramp_free(&F->rs);
    phase_free(&F->ph);
    free(F);
}

static void test_margins_per_step(void **state)
{
    (void)state;
    struct feed *F = calloc(1, sizeof(*F));
    feed_init(F, 25);
    for (int k = 0; k <= 4; k++)
        for (int i = 0; i < PER_STEP; i++) {
            int64_t extra = k == 2 && i == 5 ? 200000 : k == 2 && i == 99 ? 100000 : 0;
            cycle(F, 25.0 * k, FRAMES, 0, work_ns(25.0 * k) + extra);
        }
    cycle(F, 0, FRAMES, 0, 1000);
    ramp_finish(&F->rs);
    const struct ramp_step *s = &F->rs.steps[2];
    /* margin = period - callback; its worst and its 1st percentile (nearest rank 2 of 150) */
    assert_int_equal(s->margin_min_ns, PERIOD_NS - work_ns(50) - 200000);
    assert_true(s->have_p1);
    assert_int_equal(s->margin_p1_ns, PERIOD_NS - work_ns(50) - 100000);
    assert_int_equal(F->rs.steps[1].margin_min_ns, PERIOD_NS - work_ns(25));
    assert_true(s->level_sum_pct / (double)s->cycles > 49.99 && s->level_sum_pct / (double)s->cycles < 50.01);
    assert_int_equal(F->rs.first_fail_step, -1);
    assert_int_equal(F->rs.one_pct_step, -1);
    ramp_free(&F->rs);
    phase_free(&F->ph);
    free(F);
}

static void test_level_follows_the_record(void **state)
{
    (void)state;
    struct ramp_stats r;
    assert_int_equal(ramp_init(&r, 2, UNITS_PER_NS), 0);
    assert_int_equal(r.nsteps, 51);
    struct rt_record a = { .nframes = 64, .rate_hz = 48000 }, b = { .nframes = 128, .rate_hz = 48000 };
    a.dsp_req = rt_dsp_units(400000, UNITS_PER_NS, a.nframes, a.rate_hz); /* 40 % */
    b.dsp_req = rt_dsp_units(400000, UNITS_PER_NS, b.nframes, b.rate_hz);
    assert_true(b.dsp_req > a.dsp_req * 2 - 2 && b.dsp_req < a.dsp_req * 2 + 2);
    assert_true(ramp_level_pct(&r, &a) > 39.9 && ramp_level_pct(&r, &a) < 40.1);
    assert_true(ramp_level_pct(&r, &b) > 39.9 && ramp_level_pct(&r, &b) < 40.1);
    assert_int_equal(ramp_step_of(&r, 40.0), 20);
    assert_int_equal(ramp_step_of(&r, 140.0), 50);
    assert_int_equal(ramp_step_of(&r, -3.0), 0);
    assert_int_equal(rt_dsp_units(0, UNITS_PER_NS, 64, 48000), 0);
    assert_int_equal(rt_dsp_guard_ns(64, 48000), 1333333 / 32);
    assert_int_equal(rt_dsp_guard_ns(16, 192000), 10000);
    ramp_free(&r);
    assert_int_equal(ramp_init(&r, 0, UNITS_PER_NS), -EINVAL);
    assert_int_equal(ramp_init(&r, 2, 0), -EINVAL);
}

static void test_parse_dsp(void **state)
{
    (void)state;
    double pct, step, secs;
    char err[160];
    assert_int_equal(rampdrv_parse_dsp("ramp", &pct, &step, &secs, err, sizeof(err)), 0);
    assert_true(step == 2 && secs == 1 && pct == 0);
    assert_int_equal(rampdrv_parse_dsp("ramp:5:0.25", &pct, &step, &secs, err, sizeof(err)), 0);
    assert_true(step == 5 && secs == 0.25);
    assert_int_equal(rampdrv_parse_dsp("50", &pct, &step, &secs, err, sizeof(err)), 0);
    assert_true(pct == 50 && step == 0);
    /* above 95, up to 120: an overrun test (ramp_driver.h) */
    assert_int_equal(rampdrv_parse_dsp("120", &pct, &step, &secs, err, sizeof(err)), 0);
    assert_true(pct == 120 && step == 0);
    const char *bad[] = { "ramp:0", "ramp:x", "120.5", "-1", "ramp:5:0.25:1", "ramp:5:100", "rampx", "ramp:", "" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = 0;
        assert_int_equal(rampdrv_parse_dsp(bad[i], &pct, &step, &secs, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "--dsp"));
    }
}

struct fake_wait {
    struct rt_dsp_ctl *d;
    struct ramp_stats *rs;
    unsigned seen[64];
    int n, stop_at;
};

static int fake_wait(void *ctx, double secs)
{
    struct fake_wait *w = ctx;
    assert_true(secs == 0.5);
    w->seen[w->n++] = atomic_load(&w->d->share_ppm);
    if (w->n == w->stop_at) /* the collector closed a step with >= 1 % failed */
        atomic_store(&w->rs->one_pct_seen, 4);
    return 0;
}

static void test_driver_steps_and_stops(void **state)
{
    (void)state;
    struct rt_dsp_ctl d;
    memset(&d, 0, sizeof(d));
    struct ramp_stats rs;
    assert_int_equal(ramp_init(&rs, 20, UNITS_PER_NS), 0);
    struct fake_wait w = { .d = &d, .rs = &rs, .stop_at = -1 };
    assert_int_equal(rampdrv_drive(&d, &rs, 20, 0.5, fake_wait, &w), 0);
    assert_int_equal(w.n, 6); /* 0, 20 ... 100 % */
    for (int k = 0; k < 6; k++)
        assert_int_equal(w.seen[k], 200000u * (unsigned)k);
    assert_int_equal(atomic_load(&d.share_ppm), 0); /* back to none after the ramp */
    ramp_free(&rs);
    assert_int_equal(ramp_init(&rs, 20, UNITS_PER_NS), 0);
    struct fake_wait w2 = { .d = &d, .rs = &rs, .stop_at = 5 };
    rampdrv_drive(&d, &rs, 20, 0.5, fake_wait, &w2);
    assert_int_equal(w2.n, 5); /* ended at the step the 1 % point was seen */
    assert_int_equal(atomic_load(&d.share_ppm), 0);
    ramp_free(&rs);
}

/* The in-run calibration: units over the CPU time they took, less the thread's CPU time per cycle without DSP. */
static void test_in_run_units(void **state)
{
    (void)state;
    /* 100 idle cycles used 1 ms (10 us each); 200 burning cycles used 402 ms of which 2 ms were overhead: 2e6 units
     * in 400 ms of work -> 0.005 units/ns */
    assert_float_equal(rampdrv_units_per_ns(1000000, 100, 402000000, 200, 2000000), 0.005, 1e-12);
    assert_true(rampdrv_units_per_ns(1000000, 0, 402000000, 200, 2000000) == 0);   /* no idle cycle */
    assert_true(rampdrv_units_per_ns(1000000, 100, 402000000, 200, 0) == 0);       /* no unit done */
    assert_true(rampdrv_units_per_ns(10000000, 100, 10000000, 200, 2000000) == 0); /* no CPU time left for them */
}

/* schedstat's line, and the share between two readings over cycles x the nominal period. */
static void test_rt_cpu_share(void **state)
{
    (void)state;
    uint64_t c = 0, d = 0;
    assert_int_equal(rt_cpu_parse_schedstat("859913770 11052449 315\n", &c, &d), 0);
    assert_true(c == 859913770u && d == 11052449u);
    assert_int_equal(rt_cpu_parse_schedstat("x 1 2", &c, &d), -EINVAL);
    assert_int_equal(rt_cpu_parse_schedstat("12", &c, &d), -EINVAL);
    struct rt_cpu_reading a = { .threads = 1, .clean = 1, .cpu_ns = 1000, .delay_ns = 0, .cycles = 10 };
    struct rt_cpu_reading b = { .threads = 1, .clean = 1, .cpu_ns = 1000 + 250000000, .delay_ns = 5000000,
                                .cycles = 110 };
    struct rt_cpu_share sh;
    assert_int_equal(rt_cpu_between(&a, &b, 5e6, &sh), 0); /* 100 cycles of 5 ms: 250 ms of CPU is 50 % */
    assert_float_equal(sh.cpu_pct, 50.0, 1e-9);
    assert_float_equal(sh.delay_pct, 1.0, 1e-9);
    assert_true(sh.cycles == 100 && sh.clean);
    b.threads = 2; /* a thread came or went: nothing to tell */
    assert_int_equal(rt_cpu_between(&a, &b, 5e6, &sh), -1);
    b.threads = 1;
    b.cycles = 10; /* no cycle */
    assert_int_equal(rt_cpu_between(&a, &b, 5e6, &sh), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_run_units),
        cmocka_unit_test(test_rt_cpu_share),
        cmocka_unit_test(test_first_miss_and_one_pct),
        cmocka_unit_test(test_margins_per_step),
        cmocka_unit_test(test_level_follows_the_record),
        cmocka_unit_test(test_parse_dsp),
        cmocka_unit_test(test_driver_steps_and_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
