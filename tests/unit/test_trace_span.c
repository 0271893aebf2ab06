/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's gaps by the kernel trace (issue 38): trace text whose times this test chose (the truth), fed to
 * the stream (ts_account_span: who held one CPU over a span, the probe thread itself no holder) and read by the
 * trace source on a fake tracefs tree (trace_source_span: the gap's main holder as the probe's class). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake_tracefs.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "culprit/src_trace.h"
#include "culprit/trace_stream.h"

#define US 1000LL
#define MS 1000000LL
#define T0 (2000LL * 1000000000LL) /* 2000.000000 s */

/* CPU 2 from 2000.000000 s: the probe noise-600 (FIFO 80: kernel prio 19) spins, followed as the run follows its
 * real-time threads. Each gap the test asks about, and what held the CPU in it:
 *  A. [+0.995, +1.060 ms]: IRQ 30 (virtio0) from +1.000 to +1.045 ms: 45 us of 65, the rest the probe's own.
 *  B. [+2.000, +2.500 ms]: hog-700 (FIFO 90: prio 9) preempts it from +2.001 to +2.499 ms: 498 us.
 *  C. [+3.500, +11.500 ms]: a tick at +3.000 ms, then no event until +12.000 ms: after one 4 ms tick (+7.005 ms),
 *     the CPU was not running: 4.495 ms of no event in the gap, the rest the probe current.
 *  D. [+13.000, +13.100 ms]: one tick of 5 us inside it; the kernel shows the probe current for the other 95 us:
 *     the time went below the kernel.
 * CPU 3's lines are interleaved and must not count. The probe is not followed: it is the thread that asks
 * (self_tid), and its time is no holder for that alone. */
#define L(t, who, cpu, what) who " [00" #cpu "] d..2. " t ": " what "\n"
static const char fixture[] =
    "# tracer: nop\n"
    L("2000.000000", "<idle>-0", 2, "sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> "
      "next_comm=noise next_pid=600 next_prio=19")
    L("2000.001000", "noise-600", 2, "irq_handler_entry: irq=30 name=virtio0")
    L("2000.001010", "other-902", 3, "irq_handler_entry: irq=31 name=eth0")
    L("2000.001045", "noise-600", 2, "irq_handler_exit: irq=30 ret=handled")
    L("2000.002001", "noise-600", 2, "sched_switch: prev_comm=noise prev_pid=600 prev_prio=19 prev_state=R+ ==> "
      "next_comm=hog next_pid=700 next_prio=9")
    L("2000.002200", "other-902", 3, "sched_switch: prev_comm=other prev_pid=902 prev_prio=120 prev_state=R ==> "
      "next_comm=far next_pid=901 next_prio=120")
    L("2000.002499", "hog-700", 2, "sched_switch: prev_comm=hog prev_pid=700 prev_prio=9 prev_state=S ==> "
      "next_comm=noise next_pid=600 next_prio=19")
    L("2000.003000", "noise-600", 2, "local_timer_entry: vector=236")
    L("2000.003005", "noise-600", 2, "local_timer_exit: vector=236")
    L("2000.012000", "noise-600", 2, "local_timer_entry: vector=236")
    L("2000.012005", "noise-600", 2, "local_timer_exit: vector=236")
    L("2000.013010", "noise-600", 2, "local_timer_entry: vector=236")
    L("2000.013015", "noise-600", 2, "local_timer_exit: vector=236")
    L("2000.016000", "noise-600", 2, "local_timer_entry: vector=236")
    L("2000.016005", "noise-600", 2, "local_timer_exit: vector=236");

static struct trace_stream *fed(void)
{
    struct trace_stream *ts = ts_new(4 * MS);
    assert_non_null(ts);
    for (const char *p = fixture; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        ts_feed_line(ts, p, n);
        p += n + (nl ? 1 : 0);
    }
    return ts;
}

static const struct ts_holder *held(const struct ts_account *a, enum ts_ctx ctx, int id)
{
    for (int i = 0; i < a->nheld; i++)
        if (a->held[i].ctx == ctx && (ctx == TS_NOEVENT || a->held[i].id == id))
            return &a->held[i];
    return NULL;
}

/* One span over an IRQ, a task and a no-event stretch: each holder's time as chosen, the probe's own none. */
static void test_span_accounted(void **state)
{
    (void)state;
    struct trace_stream *ts = fed();
    struct ts_account a;
    assert_int_equal(ts_account_span(ts, 2, 600, T0 + 500 * US, T0 + 12 * MS, &a), 1);
    assert_int_equal(a.wait_ns, 11500 * US);
    assert_int_equal(a.unknown_ns, 0);
    assert_int_equal(a.nheld, 4); /* no event, hog, IRQ 30, the tick at +3 ms; the probe is no holder */
    assert_int_equal(a.held[0].ctx, TS_NOEVENT);
    assert_int_equal(a.held[0].ns, 12 * MS - 7005 * US);
    const struct ts_holder *h = held(&a, TS_TASK, 700);
    assert_non_null(h);
    assert_ptr_equal(h, &a.held[1]);
    assert_string_equal(h->name, "hog");
    assert_int_equal(h->ns, 498 * US);
    h = held(&a, TS_IRQ, 30);
    assert_non_null(h);
    assert_string_equal(h->name, "virtio0");
    assert_int_equal(h->ns, 45 * US);
    h = held(&a, TS_IRQ, -1); /* x86's local timer vector (tev_vectors: -1), named LOC */
    assert_non_null(h);
    assert_string_equal(h->name, "LOC");
    assert_int_equal(h->ns, 5 * US);
    assert_null(held(&a, TS_TASK, 600));
    /* asked by no thread, the probe's own time is a holder like any task's: gap A's 20 us besides the IRQ's 45 */
    assert_int_equal(ts_account_span(ts, 2, 0, T0 + 995 * US, T0 + 1060 * US, &a), 1);
    h = held(&a, TS_TASK, 600);
    assert_non_null(h);
    assert_int_equal(h->ns, 20 * US);
    assert_int_equal(held(&a, TS_IRQ, 30)->ns, 45 * US);
    assert_null(held(&a, TS_IRQ, 31)); /* CPU 3's */
    /* a span past the CPU's last event: not final yet, the rest unknown */
    assert_int_equal(ts_account_span(ts, 2, 600, T0 + 15 * MS, T0 + 17 * MS, &a), 0);
    assert_int_equal(a.unknown_ns, 17 * MS - 16005 * US);
    /* a CPU the trace never saw: not final */
    assert_int_equal(ts_account_span(ts, 5, 600, T0, T0 + MS, &a), 0);
    assert_int_equal(a.unknown_ns, MS);
    ts_free(ts);
}

/* ---- the source on a fake tracefs tree (fake_tracefs.h) ---- */

static void test_source_span(void **state)
{
    (void)state;
    char root[256], inst[512], err[256];
    fake_tree(root, sizeof(root), inst, sizeof(inst), "[local] global mono mono_raw\n", fixture);
    struct culprit_source src;
    assert_int_equal(trace_source_open(root, CLOCK_MONOTONIC, &src, err, sizeof(err)), 0);
    trace_source_ignore_tid(&src, 500); /* an audio thread, as the run follows them; the probe is the asker */
    trace_source_tick(&src, 4 * MS);
    struct noise_trace_answer a;
    /* A: the IRQ, named, with its time */
    assert_int_equal(trace_source_span(&src, 2, 600, T0 + 995 * US, T0 + 1060 * US, &a), 1);
    assert_int_equal(a.cls, NOISE_IRQ);
    assert_int_equal(a.kind, NH_IRQ);
    assert_int_equal(a.id, 30);
    assert_string_equal(a.name, "virtio0");
    assert_int_equal(a.held_ns, 45 * US);
    /* B: the scheduler, the hog named */
    assert_int_equal(trace_source_span(&src, 2, 600, T0 + 2 * MS, T0 + 2500 * US, &a), 1);
    assert_int_equal(a.cls, NOISE_SCHED);
    assert_int_equal(a.kind, NH_TASK);
    assert_int_equal(a.id, 700);
    assert_string_equal(a.name, "hog");
    assert_int_equal(a.held_ns, 498 * US);
    /* C: no event on the CPU for most of it: below the kernel */
    assert_int_equal(trace_source_span(&src, 2, 600, T0 + 3500 * US, T0 + 11500 * US, &a), 1);
    assert_int_equal(a.cls, NOISE_BELOW);
    assert_int_equal(a.kind, NH_NONE);
    assert_int_equal(a.held_ns, 11500 * US - 7005 * US);
    /* D: the probe current but for a 5 us tick: below the kernel, 95 us of it */
    assert_int_equal(trace_source_span(&src, 2, 600, T0 + 13 * MS, T0 + 13100 * US, &a), 1);
    assert_int_equal(a.cls, NOISE_BELOW);
    assert_int_equal(a.held_ns, 95 * US);
    /* past the CPU's last event: not yet */
    assert_int_equal(trace_source_span(&src, 2, 600, T0 + 15 * MS, T0 + 17 * MS, &a), 0);
    json_t *sum = src.summary(src.ctx);
    const json_t *ng = json_object_get(sum, "noise_gaps");
    assert_int_equal(json_integer_value(json_object_get(ng, "accounted")), 4);
    assert_int_equal(json_integer_value(json_object_get(ng, "not_covered")), 0);
    json_decref(sum);
    src.close(src.ctx);
    assert_int_equal(trace_source_span(NULL, 2, 600, T0, T0 + MS, &a), -ENOENT);
    rm_tree(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_span_accounted),
        cmocka_unit_test(test_source_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
