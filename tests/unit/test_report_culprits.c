/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits in a report (src/report/report_culprits.c, REPORT SCHEMA in culprit/culprit.h): each event and spike
 * gets what the run's engine found for it, looked up by the run's phase index and its start on the measurement
 * clock, and each phase its top culprits counted from them; without an engine, no culprit key at all (the spikes,
 * measured, stay). The truth: the stalls and the late cycle this test injects, and the culprits its stand-in engine
 * knows by their injected times. The reader accepts what the builder writes and refuses a malformed culprit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include "report/report_culprits.h"
#include "report/report.h"
#include "report/report_read.h"

#define RATE 48000
#define FRAMES 64
#define PERIOD_NS (FRAMES * 1000000000LL / RATE)
#define T0 1000000000LL

static struct rt_record cyc(int k, int64_t late_ns)
{
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.start_ns = T0 + k * PERIOD_NS;
    r.t_entry_ns = r.start_ns + late_ns;
    r.t_exit_ns = r.t_entry_ns + 10000;
    r.frame_pos = (uint64_t)k * FRAMES;
    r.flags = RTREC_HAS_START | RTREC_MEASURING;
    r.nframes = FRAMES;
    r.rate_hz = RATE;
    r.cpu = 1;
    return r;
}

/* 2000 cycles: gaps after cycles 200 and 900 (3 cycles never ran: two events), cycle 1500 900 µs late (a spike). */
static void fill(struct phase_stats *ps)
{
    int k = 0;
    for (int n = 0; n < 2000; n++, k++) {
        if (k == 201 || k == 901)
            k += 3;
        struct rt_record r = cyc(k, k == 1500 ? 900000 : 20000);
        assert_int_equal(phase_add_cycle(ps, &r, 0, 0), 0);
    }
    phase_finish(ps);
}

/* The stand-in engine: the injected events' starts (cycles 201 and 901 due) and the spike's (cycle 1500 due). */
struct fake {
    int asked_phase;
    int lookups;
};

static struct culprit mk(enum culprit_kind k, enum culprit_basis b, const char *name, const char *ev)
{
    struct culprit c = { .kind = k, .basis = b, .cpu = 1, .irq = -1, .score = 1 };
    snprintf(c.name, sizeof(c.name), "%s", name);
    snprintf(c.evidence, sizeof(c.evidence), "%s", ev);
    return c;
}

static int lookup(const void *ctx, enum culprit_subject subj, int phase, int64_t start_ns, struct culprit *out,
                  int max)
{
    struct fake *f = (struct fake *)ctx;
    f->asked_phase = phase;
    f->lookups++;
    assert_true(max >= 2);
    if (subj == CS_EVENT && start_ns == T0 + 201 * PERIOD_NS) {
        out[0] = mk(CK_RT_TASK, CB_CORRELATED, "spin", "spin (pid 812, FIFO 95) ran 3.0 ms on CPU 1");
        out[1] = mk(CK_IRQ, CB_CORRELATED, "IRQ 145 (iwlwifi)", "IRQ 145: 41 in 100 ms, usually 2");
        return 2;
    }
    if (subj == CS_EVENT && start_ns == T0 + 901 * PERIOD_NS) {
        out[0] = mk(CK_RT_TASK, CB_OBSERVED, "spin", "spin ran 2.0 ms before the second");
        return 1;
    }
    if (subj == CS_SPIKE && start_ns == T0 + 1500 * PERIOD_NS) {
        out[0] = mk(CK_IRQ, CB_CORRELATED, "IRQ 145 (iwlwifi)", "IRQ 145 before the spike");
        /* a comm from outside that is not UTF-8, and an evidence line cut inside a character: kept, repaired */
        out[1] = mk(CK_THREAD, CB_OBSERVED, "kw\xffork", "ran 2 ms, \xc2");
        return 2;
    }
    return 0;
}

static json_t *summary(const void *ctx)
{
    (void)ctx;
    return json_pack("{s:{s:f, s:i, s:i, s:[]}, s:{s:f, s:f}, s:[]}", "sampler", "hz", 20.0, "window_ms", 50,
                     "history_s", 30, "sources", "cost", "cpu_s", 0.1, "cpu_pct", 0.2, "periodicity");
}

static json_t *build(struct phase_stats *ps, const struct culprit_results *cr)
{
    static struct phase_result pr[2];
    struct phase_stats empty;
    phase_init(&empty);
    /* phase 0 was not measured: the report's first phase is the run's phase 1 */
    pr[0] = (struct phase_result){ .load = "warm", .measured = 0, .stats = &empty };
    pr[1] = (struct phase_result){ .load = "burn", .duration_s = 3, .measured_s = 3, .measured = 1, .stats = ps };
    struct run_info ri = { .command = "rtjitter run", .complete = 1, .phases = pr, .nphases = 2, .max_xruns = -1,
                           .max_jitter_us = -1 };
    ri.audio.backend = "timer";
    ri.audio.rate_hz = RATE;
    ri.audio.period_frames = FRAMES;
    ri.parts.culprits = cr;
    return report_build(&ri);
}

static void test_culprits_placed(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    fill(&ps);
    struct fake f = { -1, 0 };
    struct culprit_results cr = { .lookup = lookup, .summary = summary, .ctx = &f };
    json_t *d = build(&ps, &cr);
    assert_int_equal(f.asked_phase, 1);
    assert_int_equal(f.lookups, 3);
    const json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    const json_t *ev = json_object_get(p, "events");
    assert_int_equal(json_array_size(ev), 2);
    const json_t *e0 = json_array_get(ev, 0);
    assert_true(json_is_true(json_object_get(e0, "explained")));
    assert_int_equal(json_array_size(json_object_get(e0, "culprits")), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(e0, "culprits"), 0),
                                                          "name")), "spin");
    assert_int_equal(json_integer_value(json_object_get(e0, "cpu")), 1);
    const json_t *sp = json_object_get(p, "spikes");
    assert_int_equal(json_array_size(sp), 1);
    const json_t *s0 = json_array_get(sp, 0);
    assert_float_equal(json_real_value(json_object_get(s0, "wakeup_us")), 900.0, 1e-6);
    assert_float_equal(json_real_value(json_object_get(s0, "t_s")), (double)(T0 + 1500 * PERIOD_NS) / 1e9, 1e-9);
    assert_true(json_is_true(json_object_get(s0, "explained")));
    const json_t *bad = json_array_get(json_object_get(s0, "culprits"), 1);
    assert_non_null(bad);
    assert_string_equal(json_string_value(json_object_get(bad, "name")), "kw\xef\xbf\xbdork");
    assert_string_equal(json_string_value(json_object_get(bad, "evidence")), "ran 2 ms, \xef\xbf\xbd");
    assert_float_equal(json_real_value(json_object_get(p, "spike_threshold_us")), PERIOD_NS / 2 / 1e3, 1e-3);
    /* top culprits: spin in both events (one observed), the IRQ in one event and the spike */
    const json_t *top = json_object_get(p, "top_culprits");
    assert_int_equal(json_array_size(top), 3);
    const json_t *t0 = json_array_get(top, 0), *t1 = json_array_get(top, 1);
    assert_string_equal(json_string_value(json_object_get(t0, "name")), "spin");
    assert_int_equal(json_integer_value(json_object_get(t0, "events")), 2);
    assert_int_equal(json_integer_value(json_object_get(t0, "spikes")), 0);
    assert_string_equal(json_string_value(json_object_get(t0, "basis")), "observed");
    assert_string_equal(json_string_value(json_object_get(t0, "evidence")),
                        "spin (pid 812, FIFO 95) ran 3.0 ms on CPU 1"); /* the first event's line */
    assert_string_equal(json_string_value(json_object_get(t1, "kind")), "irq");
    assert_int_equal(json_integer_value(json_object_get(t1, "events")), 1);
    assert_int_equal(json_integer_value(json_object_get(t1, "spikes")), 1);
    assert_true(json_is_object(json_object_get(d, "culprits")));
    /* the reader takes what the builder wrote */
    char err[256] = "";
    int rc = report_validate(d, err, sizeof(err));
    if (rc)
        fail_msg("%s", err);
    /* and refuses a culprit without a name */
    json_object_set_new(json_array_get(json_object_get(e0, "culprits"), 0), "name", json_integer(3));
    assert_int_equal(report_validate(d, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "phases[0].events[0].culprits[0].name"));
    json_decref(d);
    phase_free(&ps);
}

/* A culprit's evidence in top_culprits is its longest event's line (a 40 us wait says less of an xrun than the
 * 9 ms one beside it), else its longest spike's. */
static void test_top_evidence_longest(void **state)
{
    (void)state;
    json_t *ev = json_pack("[{s:f, s:[{s:s, s:s, s:s, s:s}]}, {s:f, s:[{s:s, s:s, s:s, s:s}]}]",
                           "length_ms", 0.05, "culprits", "kind", "no_preempt", "name", "cc1", "basis", "observed",
                           "evidence", "short", "length_ms", 9.5, "culprits", "kind", "no_preempt", "name", "cc1",
                           "basis", "observed", "evidence", "long");
    json_t *sp = json_pack("[{s:f, s:[{s:s, s:s, s:s, s:s}]}]", "wakeup_us", 20000.0, "culprits", "kind",
                           "no_preempt", "name", "cc1", "basis", "observed", "evidence", "spike");
    json_t *top = report_top_culprits(ev, sp);
    assert_string_equal(json_string_value(json_object_get(json_array_get(top, 0), "evidence")), "long");
    json_decref(top);
    top = report_top_culprits(NULL, sp); /* spikes alone: the spike's */
    assert_string_equal(json_string_value(json_object_get(json_array_get(top, 0), "evidence")), "spike");
    json_decref(top);
    json_decref(ev);
    json_decref(sp);
}

/* Without an engine: no culprit key anywhere; the spikes are there, measured. */
static void test_no_culprits_no_keys(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    fill(&ps);
    json_t *d = build(&ps, NULL);
    assert_null(json_object_get(d, "culprits"));
    const json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    assert_null(json_object_get(p, "top_culprits"));
    assert_null(json_object_get(json_array_get(json_object_get(p, "events"), 0), "culprits"));
    assert_null(json_object_get(json_array_get(json_object_get(p, "events"), 0), "explained"));
    assert_int_equal(json_array_size(json_object_get(p, "spikes")), 1);
    assert_null(json_object_get(json_array_get(json_object_get(p, "spikes"), 0), "culprits"));
    json_decref(d);
    phase_free(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_culprits_placed),
        cmocka_unit_test(test_no_culprits_no_keys),
        cmocka_unit_test(test_top_evidence_longest),
    };
    return cmocka_run_group_tests_name("report_culprits", tests, NULL, NULL);
}
