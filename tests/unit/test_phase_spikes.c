/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wake-up spikes and what the collector is told (stats/phase_spikes.c): from synthetic records whose truth is the
 * lateness, callback and CPU this test injects. A spike is a cycle that woke later than the threshold (half the
 * period by default, or the one set), never a disturbed cycle of an xrun event; events are told once closed, with
 * the CPU of their first disturbed cycle and the largest callback of their cycles and the one before. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "stats/phase.h"
#include "report/report_culprits.h"
#include <jansson.h>

#define RATE 48000
#define FRAMES 64
#define PERIOD_NS (FRAMES * 1000000000LL / RATE) /* 1333333 ns */

/* Cycle k with an exact provider start (a timer's deadline), entered late_ns after it, busy cb_ns, on cpu. */
static struct rt_record cyc(int k, int64_t late_ns, int64_t cb_ns, int cpu)
{
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.start_ns = 1000000000LL + k * PERIOD_NS;
    r.t_entry_ns = r.start_ns + late_ns;
    r.t_exit_ns = r.t_entry_ns + cb_ns;
    r.frame_pos = (uint64_t)k * FRAMES;
    r.flags = RTREC_HAS_START | RTREC_MEASURING;
    r.nframes = FRAMES;
    r.rate_hz = RATE;
    r.cpu = (int16_t)cpu;
    return r;
}

struct told {
    int begun;            /* PH_EVENT_BEGIN notifications, counted apart */
    int begun_cycles[4];  /* the segment's cycles when each was told */
    int n;
    enum phase_happening what[16];
    int64_t start[16], end[16], cb[16];
    int cpu[16];
    int cycles_when[16];  /* the segment's cycles when it was told */
    char order[32];       /* every notification in order: B begun, E event, S spike, Z buffer */
    int norder;
};

static void tell(void *arg, const struct phase_stats *p, enum phase_happening what, int64_t start_ns,
                 int64_t end_ns, int cpu, int64_t cb_ns)
{
    struct told *t = arg;
    if (t->norder < (int)sizeof(t->order) - 1)
        t->order[t->norder++] = "ESBZ"[what];
    if (what == PH_EVENT_BEGIN) {
        assert_true(t->begun < 4);
        t->begun_cycles[t->begun++] = p->nseg ? (int)p->seg[0]->cycles : -1;
        return;
    }
    assert_true(t->n < 16);
    t->what[t->n] = what;
    t->start[t->n] = start_ns;
    t->end[t->n] = end_ns;
    t->cpu[t->n] = cpu;
    t->cb[t->n] = cb_ns;
    t->cycles_when[t->n] = p->nseg ? (int)p->seg[0]->cycles : -1;
    t->n++;
}

/* One cycle injected 900 µs late (above half the 1333 µs period), one 600 µs late (below): one spike, the first,
 * at its due time, with its lateness, callback and CPU; told once, when its cycle is accounted. */
static void test_injected_late_cycle_is_a_spike(void **state)
{
    (void)state;
    struct phase_stats p;
    struct told t = { 0 };
    phase_init(&p);
    phase_set_notify(&p, tell, &t);
    for (int k = 0; k < 1000; k++) {
        int64_t late = k == 300 ? 900000 : k == 600 ? 600000 : 20000;
        struct rt_record r = cyc(k, late, k == 300 ? 70000 : k == 299 ? 90000 : 10000, k == 300 ? 3 : 1);
        assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
    }
    phase_finish(&p);
    const struct segment *s = p.seg[0];
    assert_int_equal(s->spike_threshold_ns, PERIOD_NS / 2);
    assert_int_equal(s->nspikes, 1);
    assert_int_equal(s->spikes_unlisted, 0);
    assert_int_equal(s->spikes[0].t_ns, 1000000000LL + 300 * PERIOD_NS);
    assert_int_equal(s->spikes[0].wakeup_ns, 900000);
    assert_int_equal(s->spikes[0].callback_ns, 70000);
    assert_int_equal(s->spikes[0].callback_max_ns, 90000); /* the cycle before it ran longer */
    assert_int_equal(s->spikes[0].cpu, 3);
    assert_int_equal(t.n, 1);
    assert_int_equal(t.what[0], PH_SPIKE);
    assert_int_equal(t.start[0], s->spikes[0].t_ns);
    assert_int_equal(t.end[0], s->spikes[0].t_ns + 900000);
    assert_int_equal(t.cpu[0], 3);
    assert_int_equal(t.cycles_when[0], 301);
    phase_free(&p);
}

/* The threshold set by the lead: 100 µs makes the 150 µs cycle a spike, not the 90 µs one; the cap lists
 * SEGMENT_SPIKES_MAX and counts the rest (all equally late here: the first stay, a later one only counted). */
static void test_threshold_and_cap(void **state)
{
    (void)state;
    struct phase_stats p;
    phase_init(&p);
    phase_set_spike_threshold(&p, 100000);
    for (int k = 0; k < 100; k++) {
        struct rt_record r = cyc(k, k == 10 ? 150000 : k == 20 ? 90000 : 20000, 10000, 0);
        assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
    }
    assert_int_equal(p.seg[0]->spike_threshold_ns, 100000);
    assert_int_equal(p.seg[0]->nspikes, 1);
    assert_int_equal(p.seg[0]->spikes[0].wakeup_ns, 150000);
    phase_free(&p);
    phase_init(&p);
    int late = SEGMENT_SPIKES_MAX + 76;
    for (int k = 0; k < 2 * late; k++) {
        struct rt_record r = cyc(k, k % 2 ? 800000 : 20000, 10000, 0); /* every other cycle 800 µs late */
        assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
    }
    assert_int_equal(p.seg[0]->nspikes, SEGMENT_SPIKES_MAX);
    assert_int_equal(p.seg[0]->spikes_unlisted, 76);
    phase_free(&p);
}

/* What the worst-kept list was told: every spike as it entered, every one pushed out. */
struct worst_told {
    int64_t entered[1024], dropped[1024];
    int nentered, ndropped, other;
};

static void worst_tell(void *arg, const struct phase_stats *p, enum phase_happening what, int64_t start_ns,
                       int64_t end_ns, int cpu, int64_t cb_ns)
{
    (void)p, (void)end_ns, (void)cpu, (void)cb_ns;
    struct worst_told *t = arg;
    if (what == PH_SPIKE && t->nentered < 1024)
        t->entered[t->nentered++] = start_ns;
    else if (what == PH_SPIKE_DROPPED && t->ndropped < 1024)
        t->dropped[t->ndropped++] = start_ns;
    else
        t->other++;
}

static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

static int has(const int64_t *v, int n, int64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* 3 x SEGMENT_SPIKES_MAX + 1 spikes of distinct lateness in a shuffled order (every other cycle): the list holds the
 * SEGMENT_SPIKES_MAX latest-waking of them (the truth: this test's own sort of what it injected), counts the rest;
 * every spike that entered and was pushed out was told dropped once, none listed was; the report lists them in
 * time order. */
static void worst_spikes_kept(int MAX)
{
    enum { N = 3 * SEGMENT_SPIKES_MAX + 1 };
    struct phase_stats p;
    static struct worst_told t;
    memset(&t, 0, sizeof(t));
    phase_init(&p);
    if (MAX != SEGMENT_SPIKES_MAX) { /* a phase's share of a run's lists (phase_set_lists) */
        struct phase_lists l;
        phase_lists_share(&l, 1);
        l.spikes = (uint32_t)MAX;
        phase_set_lists(&p, &l);
    }
    const int NN = 3 * MAX + 1;
    phase_set_notify(&p, worst_tell, &t);
    static int64_t wake[N], due[N], sorted[N];
    for (int i = 0; i < NN; i++) {
        wake[i] = 700000 + (int64_t)((i * 7919) % NN) * 100; /* 700.0 .. 738.4 µs, each once (7919 prime) */
        sorted[i] = wake[i];
        struct rt_record r = cyc(2 * i + 1, wake[i], 10000, 1);
        due[i] = r.start_ns;
        struct rt_record q = cyc(2 * i, 20000, 10000, 1);
        assert_int_equal(phase_add_cycle(&p, &q, 0, 0), 0);
        assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
    }
    qsort(sorted, (size_t)NN, sizeof(sorted[0]), cmp_desc);
    int64_t least = sorted[MAX - 1];
    const struct segment *s = p.seg[0];
    assert_int_equal(s->nspikes, MAX);
    assert_int_equal(s->spikes_unlisted, NN - MAX);
    int64_t listed[SEGMENT_SPIKES_MAX];
    for (size_t k = 0; k < s->nspikes; k++) {
        assert_true(s->spikes[k].wakeup_ns >= least);
        listed[k] = s->spikes[k].t_ns;
    }
    for (int i = 0; i < NN; i++) {
        int in = has(listed, MAX, due[i]), entered = has(t.entered, t.nentered, due[i]);
        assert_int_equal(in, wake[i] >= least);
        if (in)
            assert_false(has(t.dropped, t.ndropped, due[i]));
        else
            assert_int_equal(has(t.dropped, t.ndropped, due[i]), entered);
    }
    assert_int_equal(t.nentered - t.ndropped, MAX);
    assert_true(t.ndropped > 0);
    assert_int_equal(t.other, 0);
    json_t *a = report_spikes_json(s, 0, NULL, 0);
    assert_int_equal(json_array_size(a), MAX);
    for (size_t k = 1; k < json_array_size(a); k++)
        assert_true(json_real_value(json_object_get(json_array_get(a, k - 1), "t_s")) <
                    json_real_value(json_object_get(json_array_get(a, k), "t_s")));
    json_decref(a);
    phase_free(&p);
}

static void test_worst_spikes_kept(void **state)
{
    (void)state;
    worst_spikes_kept(SEGMENT_SPIKES_MAX);
}

/* The same with an eighth of the list, a phase's share in a run of eight (stats/phase.h, struct phase_lists). */
static void test_worst_spikes_kept_shared(void **state)
{
    (void)state;
    struct phase_lists l;
    phase_lists_share(&l, 8);
    assert_int_equal(l.spikes, SEGMENT_SPIKES_MAX / 8);
    worst_spikes_kept((int)l.spikes);
}

/* A stall: cycle 500's callback runs 5 ms on CPU 2 (four periods), the next cycle comes after a gap; a notification
 * 3 cycles later joins the event. Told once, after XRUN_EVENT_CLEAN clean cycles, with CPU 2 (the first disturbed
 * cycle's: the one after the gap) and the 5 ms callback (the cycle before it); the gap cycle is no spike. A second
 * event by notification alone is told at the phase's end, with the latest cycle's CPU and callback. */
static void test_event_told_when_closed(void **state)
{
    (void)state;
    struct phase_stats p;
    struct told t = { 0 };
    phase_init(&p);
    phase_set_notify(&p, tell, &t);
    int k = 0;
    for (int n = 0; n < 900; n++, k++) {
        if (k == 501)
            k += 4; /* cycles 501-504 never ran */
        int64_t cb = k == 500 ? 5000000 : k == 507 ? 400000 : 10000;
        struct rt_record r = cyc(k, 20000, cb, k == 505 ? 2 : 1);
        assert_int_equal(phase_add_cycle(&p, &r, k == 508, 0), 0);
    }
    struct rt_record r = cyc(k, 20000, 30000, 5);
    assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
    phase_add_reported_xruns(&p, 1); /* after the last cycle: an event of its own */
    const struct segment *s = p.seg[0];
    assert_int_equal(s->events.nlatest, 2);
    assert_int_equal(s->nspikes, 0);
    assert_int_equal(t.n, 1);                  /* the first told, the second still open */
    assert_int_equal(t.begun, 2);              /* both told as begun when their first disturbed cycle counted: */
    assert_int_equal(t.begun_cycles[0], 502);  /* the 502nd counted cycle, the one after the gap */
    assert_int_equal(t.what[0], PH_EVENT);
    /* its last disturbed cycle, k = 508, is the 505th counted: told when the 8th clean one after it was */
    assert_int_equal(t.cycles_when[0], 505 + 8);
    assert_int_equal(t.start[0], s->events.latest[0].start_ns);
    assert_int_equal(t.start[0], 1000000000LL + 501 * PERIOD_NS);
    assert_int_equal(t.end[0], 1000000000LL + 508 * PERIOD_NS + 20000);
    assert_int_equal(t.cpu[0], 2);
    assert_int_equal(t.cb[0], 5000000);
    assert_int_equal(s->events.latest[0].callback_max_ns, 5000000);
    assert_int_equal(s->events.latest[0].cpu, 2);
    phase_tell_open_events(&p); /* the next phase's records begin */
    assert_int_equal(t.n, 2);
    phase_finish(&p);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.what[1], PH_EVENT);
    assert_int_equal(t.cpu[1], 5);
    assert_int_equal(t.cb[1], 30000);
    phase_finish(&p); /* told once */
    assert_int_equal(t.n, 2);
    phase_free(&p);
}

/* The cycles change size (64 -> 128 frames) right after a stall at 64: the stall's event is told as begun and as
 * closed before the size change (rtjitter watch prints its lines in that order; before, its end waited for 8 more
 * cycles at 64, or the phase's end), the change once, at the first cycle of the new size, telling its segment; back
 * to 64 is a change again. */
static void test_buffer_change_told_in_order(void **state)
{
    (void)state;
    struct phase_stats p;
    struct told t = { 0 };
    phase_init(&p);
    phase_set_notify(&p, tell, &t);
    uint64_t pos = 0;
    int64_t at = 1000000000LL;
    int64_t change_at = 0, back_at = 0;
    for (int k = 0; k < 1200; k++) {
        unsigned frames = k >= 503 && k < 900 ? 128 : 64;
        int64_t period = (int64_t)frames * 1000000000LL / RATE;
        if (k == 500) { /* four cycles never ran */
            at += 4 * period;
            pos += 4 * frames;
        }
        struct rt_record r;
        memset(&r, 0, sizeof(r));
        r.start_ns = at;
        r.t_entry_ns = at + 20000;
        r.t_exit_ns = r.t_entry_ns + 10000;
        r.frame_pos = pos;
        r.flags = RTREC_HAS_START | RTREC_MEASURING;
        r.nframes = frames;
        r.rate_hz = RATE;
        r.cpu = 1;
        if (k == 503)
            change_at = r.t_entry_ns;
        if (k == 900)
            back_at = r.t_entry_ns;
        assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
        if (k == 503) {
            assert_int_equal(t.what[t.n - 1], PH_BUFFER);
            assert_int_equal(t.start[t.n - 1], change_at);
            assert_int_equal(p.telling->nframes, 128);
        }
        at += period;
        pos += frames;
    }
    phase_finish(&p);
    t.order[t.norder] = 0;
    assert_string_equal(t.order, "BEZZ"); /* begun at 64, closed, the change, back to 64 */
    assert_int_equal(t.start[2], back_at);
    phase_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_injected_late_cycle_is_a_spike),
        cmocka_unit_test(test_threshold_and_cap),
        cmocka_unit_test(test_worst_spikes_kept),
        cmocka_unit_test(test_worst_spikes_kept_shared),
        cmocka_unit_test(test_event_told_when_closed),
        cmocka_unit_test(test_buffer_change_told_in_order),
    };
    return cmocka_run_group_tests_name("phase_spikes", tests, NULL, NULL);
}
