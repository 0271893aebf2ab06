/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source without a kernel: trace text whose durations this test chose (the truth) through the parser
 * and the breakdown (src/culprit/tracefs_parse.c), the observations made of it (tracefs_obs.c), and the whole
 * source (src_trace.c) on a fake tracefs tree this test builds: what it writes, the freeze and resume, the slice it
 * saves, the stale instances of dead PIDs it removes and the symlinks it leaves alone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "culprit/src_trace.h"
#include "culprit/tracefs.h"
#include "culprit/tracefs_obs.h"
#include "culprit/tracefs_parse.h"

#define S(x) ((int64_t)(x))
#define MS 1000000LL
#define T0 (S(1000) * 1000000000LL) /* 1000.000000 s */

/* CPU 2, from 1000.000000 s: spin (FIFO 50) runs; IRQ 145 0.5 ms; NET_RX 0.7 ms with IRQ 145 nested 0.1 ms in
 * it; the irq/145 thread 0.4 ms; LOC 0.05 ms; spin sleeps at +5 ms, idle state 2 until +8.01 ms, kworker runs
 * from +8.02 ms. CPU 3's lines are interleaved and must not count. */
static const char fixture[] =
    "# tracer: nop\n"
    "#\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "          <idle>-0       [002] d..2.  1000.000000: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
    "prev_state=R ==> next_comm=spin next_pid=812 next_prio=49\n"
    "           other-900     [003] d..2.  1000.000500: sched_switch: prev_comm=other prev_pid=900 prev_prio=120 "
    "prev_state=R ==> next_comm=far next_pid=901 next_prio=120\n"
    "            spin-812     [002] d.h1.  1000.001000: irq_handler_entry: irq=145 name=iwlwifi\n"
    "            spin-812     [002] d.h1.  1000.001500: irq_handler_exit: irq=145 ret=handled\n"
    "            spin-812     [002] ..s1.  1000.002000: softirq_entry: vec=3 [action=NET_RX]\n"
    "             far-901     [003] d.h1.  1000.002100: irq_handler_entry: irq=146 name=eth0\n"
    "            spin-812     [002] d.H2.  1000.002200: irq_handler_entry: irq=145 name=iwlwifi\n"
    "            spin-812     [002] d.H2.  1000.002300: irq_handler_exit: irq=145 ret=handled\n"
    "            spin-812     [002] ..s1.  1000.002700: softirq_exit: vec=3 [action=NET_RX]\n"
    "            spin-812     [002] d..2.  1000.003000: sched_switch: prev_comm=spin prev_pid=812 prev_prio=49 "
    "prev_state=R ==> next_comm=irq/145-iwlwifi next_pid=300 next_prio=49\n"
    " irq/145-iwlwifi-300     [002] d..2.  1000.003400: sched_switch: prev_comm=irq/145-iwlwifi prev_pid=300 "
    "prev_prio=49 prev_state=S ==> next_comm=spin next_pid=812 next_prio=49\n"
    "            spin-812     [002] d.h1.  1000.004000: local_timer_entry: vector=236\n"
    "            spin-812     [002] d.h1.  1000.004050: local_timer_exit: vector=236\n"
    "            spin-812     [002] d..2.  1000.005000: sched_switch: prev_comm=spin prev_pid=812 prev_prio=49 "
    "prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120\n"
    "          <idle>-0       [002] d..1.  1000.005010: cpu_idle: state=2 cpu_id=2\n"
    "          <idle>-0       [002] d..1.  1000.008010: cpu_idle: state=4294967295 cpu_id=2\n"
    "          <idle>-0       [002] d..2.  1000.008020: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
    "prev_state=R ==> next_comm=kworker/2:1 next_pid=77 next_prio=120\n"
    "     kworker/2:1-77      [002] .....  1000.010000: tracing_mark_write: rtjitter explain\n";

static const struct bd_irq *find_irq(const struct trace_breakdown *b, int irq)
{
    for (int i = 0; i < b->n_irq; i++)
        if (b->irq[i].irq == irq)
            return &b->irq[i];
    return NULL;
}

static const struct bd_task *find_task(const struct trace_breakdown *b, int pid)
{
    for (int i = 0; i < b->n_task; i++)
        if (b->task[i].pid == pid)
            return &b->task[i];
    return NULL;
}

static void test_parse_lines(void **state)
{
    (void)state;
    struct tev ev;
    const char *l = "  Web Content-4242    [001] d.h1. 12.345678: irq_handler_entry: irq=9 name=acpi";
    assert_int_equal(tev_parse(l, strlen(l), &ev), 1);
    assert_string_equal(ev.comm, "Web Content");
    assert_int_equal(ev.pid, 4242);
    assert_int_equal(ev.cpu, 1);
    assert_int_equal(ev.t_ns, 12345678000LL);
    assert_int_equal(ev.type, TEV_IRQ_ENTRY);
    assert_int_equal(ev.num, 9);
    assert_string_equal(ev.name, "acpi");
    l = "  a-b-7 [000] 5.000000001: softirq_entry: vec=3 [action=NET_RX]"; /* no flags column, ns digits */
    assert_int_equal(tev_parse(l, strlen(l), &ev), 1);
    assert_string_equal(ev.comm, "a-b");
    assert_int_equal(ev.t_ns, 5000000001LL);
    assert_string_equal(ev.name, "NET_RX");
    l = "x-1 [000] d..2. 1.000000: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 prev_state=R ==> "
        "next_comm=my task next_pid=55 next_prio=9";
    assert_int_equal(tev_parse(l, strlen(l), &ev), 1);
    assert_string_equal(ev.name, "my task");
    assert_int_equal(ev.next_pid, 55);
    assert_int_equal(ev.next_prio, 9);
    l = "CPU:3 [LOST 120 EVENTS]";
    assert_int_equal(tev_parse(l, strlen(l), &ev), 1);
    assert_int_equal(ev.type, TEV_LOST);
    assert_int_equal(ev.num, 120);
    assert_int_equal(ev.cpu, 3);
    assert_int_equal(tev_parse("# tracer: nop", 13, &ev), 0);
    assert_int_equal(tev_parse("##### CPU 2 buffer started ####", 31, &ev), 0);
    assert_int_equal(tev_parse("garbage [x] 1.0: y", 18, &ev), 0);
    char name[32];
    assert_int_equal(irq_thread_line("irq/145-iwlwifi", name, sizeof(name)), 145);
    assert_string_equal(name, "iwlwifi");
    assert_int_equal(irq_thread_line("kworker/1:0", name, sizeof(name)), -1);
    int sel;
    assert_true(tracefs_clock_listed("[local] global counter mono mono_raw\n", "mono", &sel) && !sel);
    assert_true(tracefs_clock_listed("local global [mono_raw] boot\n", "mono_raw", &sel) && sel);
    assert_false(tracefs_clock_listed("[local] global monotonic\n", "mono", &sel));
}

static void test_breakdown(void **state)
{
    (void)state;
    struct trace_breakdown *b = calloc(1, sizeof(*b));
    trace_breakdown_build(b, fixture, strlen(fixture), 2, T0, T0 + 9 * MS, T0 + 10 * MS);
    const struct bd_irq *q = find_irq(b, 145), *loc = find_irq(b, -1);
    assert_non_null(q);
    assert_string_equal(q->name, "iwlwifi");
    assert_int_equal(q->handler_ns, 600000);   /* 0.5 + 0.1 nested */
    assert_int_equal(q->thread_ns, 400000);    /* irq/145-iwlwifi folded onto it */
    assert_int_equal(q->count, 2);
    assert_non_null(loc);
    assert_string_equal(loc->name, "LOC");
    assert_int_equal(loc->handler_ns, 50000);
    assert_int_equal(b->n_softirq, 1);
    assert_string_equal(b->softirq[0].name, "NET_RX");
    assert_int_equal(b->softirq[0].ns, 600000); /* 0.7 minus the nested 0.1 */
    const struct bd_task *spin = find_task(b, 812), *kw = find_task(b, 77);
    assert_non_null(spin);
    assert_int_equal(spin->prio, 49);
    assert_int_equal(spin->ns, 5 * MS - 500000 - 700000 - 400000 - 50000);
    assert_non_null(kw);
    assert_int_equal(kw->ns, 980000);          /* +8.02 ms to the window's end */
    assert_null(find_task(b, 901));            /* CPU 3 */
    assert_null(find_task(b, 300));            /* the irq thread is the IRQ's */
    assert_int_equal(b->idle_ns, 3020000);
    assert_int_equal(b->idle_exits, 1);
    assert_int_equal(b->idle_state_max, 2);
    assert_int_equal(b->idle_residency_ns, 3 * MS);
    assert_int_equal(b->covered_ns, 9 * MS);
    assert_int_equal(b->irq_ns + b->softirq_ns + b->thread_ns + b->idle_ns, 9 * MS);

    struct culprit_obs o[16];
    int n = trace_obs_from_breakdown(b, o, 16);
    assert_int_equal(n, 6);
    assert_int_equal(o[0].kind, CK_RT_TASK);
    assert_string_equal(o[0].name, "spin");
    assert_int_equal(o[0].pid, 812);
    assert_string_equal(o[0].evidence, "spin (tid 812, real-time priority 50) ran 3.4 ms on CPU 2 in the 9.0 ms "
                                       "window (trace)");
    assert_int_equal(o[1].kind, CK_IRQ);
    assert_string_equal(o[1].name, "IRQ 145 (iwlwifi)");
    assert_string_equal(o[1].evidence, "IRQ 145 (iwlwifi) ran 1.0 ms on CPU 2 in the 9.0 ms window: 2 handler runs "
                                       "0.6 ms, its thread irq/145 0.4 ms (trace)");
    assert_int_equal(o[2].kind, CK_THREAD);
    assert_string_equal(o[2].name, "kworker/2:1");
    assert_int_equal(o[3].kind, CK_SOFTIRQ);
    assert_string_equal(o[3].name, "NET_RX");
    assert_int_equal(o[4].kind, CK_IRQ);
    assert_string_equal(o[4].name, "LOC (local timer interrupts)");
    assert_int_equal(o[5].kind, CK_IDLE_EXIT);
    assert_string_equal(o[5].evidence, "CPU 2 left idle 1 time in the 9.0 ms window, the first at +8.0 ms after "
                                       "3.0 ms idle (deepest state 2) (trace)");
    for (int i = 0; i < n; i++)
        assert_int_equal(o[i].cpu, 2);

    /* the audio thread's own time is ours, not a culprit */
    b->ignore[0] = 812;
    b->n_ignore = 1;
    trace_breakdown_build(b, fixture, strlen(fixture), 2, T0, T0 + 9 * MS, T0 + 10 * MS);
    assert_null(find_task(b, 812));
    assert_int_equal(b->ignored_ns, 3350000);
    free(b);
}

static void test_lost_and_partial(void **state)
{
    (void)state;
    struct trace_breakdown *b = calloc(1, sizeof(*b));
    char *text = malloc(sizeof(fixture) + 64);
    /* a LOST line after the NET_RX entry: the stack is unknown until the next event, nothing is credited across */
    const char *cut = strstr(fixture, "             far-901     [003] d.h1.");
    size_t k = (size_t)(cut - fixture);
    memcpy(text, fixture, k);
    strcpy(text + k, "CPU:2 [LOST 7 EVENTS]\n");
    strcat(text, cut);
    trace_breakdown_build(b, text, strlen(text), 2, T0, T0 + 9 * MS, T0 + 10 * MS);
    assert_int_equal(b->lost, 7);
    assert_true(b->covered_ns < 9 * MS);
    /* a window before the first event: not covered, nothing invented */
    trace_breakdown_build(b, fixture, strlen(fixture), 2, T0 - 5 * MS, T0 - 1 * MS, T0 + 10 * MS);
    assert_int_equal(b->covered_ns, 0);
    assert_int_equal(b->n_task, 0);
    free(text);
    free(b);
}

/* ---- the source on a fake tracefs tree ---- */

static void put(const char *dir, const char *rel, const char *text)
{
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    for (char *s = p + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *dir, const char *rel)
{
    static char buf[4096];
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    FILE *f = fopen(p, "r");
    buf[0] = '\0';
    if (f) {
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

static const char *const enables[] = {
    "events/sched/sched_switch/enable", "events/sched/sched_wakeup/enable", "events/irq/irq_handler_entry/enable",
    "events/irq/irq_handler_exit/enable", "events/irq/softirq_entry/enable", "events/irq/softirq_exit/enable",
    "events/power/cpu_idle/enable",
};

/* root/ with trace and instances/, and our instance's files as a kernel makes them at mkdir. */
static void fake_tree(char *root, size_t len, char *inst, size_t ilen, const char *clocks)
{
    snprintf(root, len, "/tmp/rtjt-tracefs.XXXXXX");
    assert_non_null(mkdtemp(root));
    put(root, "trace", "");
    snprintf(inst, ilen, "%s/instances/rtjitter-%d", root, (int)getpid());
    put(inst, "tracing_on", "1\n");
    put(inst, "trace_clock", clocks);
    put(inst, "buffer_size_kb", "7\n");
    put(inst, "trace_marker", "");
    put(inst, "trace", fixture);
    put(inst, "per_cpu/cpu2/trace", fixture);
    for (size_t i = 0; i < sizeof(enables) / sizeof(enables[0]); i++)
        put(inst, enables[i], "0\n");
}

static void rm_tree(const char *root)
{
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static int dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    waitpid(p, NULL, 0);
    return (int)p;
}

static void test_source_fake_tree(void **state)
{
    (void)state;
    char root[256], inst[512], err[256], p[1024];
    fake_tree(root, sizeof(root), inst, sizeof(inst), "[local] global counter uptime perf mono mono_raw boot\n");
    /* stale instances: a dead PID's (removed), a live one's (kept: our parent), a symlink (never followed) */
    int dead = dead_pid();
    snprintf(p, sizeof(p), "%s/instances/rtjitter-%d", root, dead);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/instances/rtjitter-%d", root, (int)getppid());
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/instances/rtjitter-%d", root, dead_pid());
    assert_int_equal(symlink("/tmp", p), 0);

    struct culprit_source src;
    assert_int_equal(trace_source_open(root, CLOCK_MONOTONIC, &src, err, sizeof(err)), 0);
    assert_string_equal(src.name, "tracefs");
    assert_string_equal(get(inst, "trace_clock"), "mono");
    assert_string_equal(get(inst, "buffer_size_kb"), "1024");
    assert_string_equal(get(inst, "tracing_on"), "1");
    for (size_t i = 0; i < sizeof(enables) / sizeof(enables[0]); i++)
        assert_string_equal(get(inst, enables[i]), "1");
    struct stat st;
    snprintf(p, sizeof(p), "%s/instances/rtjitter-%d", root, dead);
    assert_int_equal(stat(p, &st), -1);
    snprintf(p, sizeof(p), "%s/instances/rtjitter-%d", root, (int)getppid());
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(src.poll(src.ctx, 0, NULL, 0), 0);

    trace_source_ignore_tid(&src, 4242);
    struct culprit_obs o[8];
    int n = src.explain(src.ctx, T0, T0 + 9 * MS, 2, o, 8);
    assert_int_equal(n, 6);
    assert_string_equal(o[1].name, "IRQ 145 (iwlwifi)");
    assert_int_equal(o[1].value_ns, 1000000);
    assert_int_equal(o[1].t0_ns, T0);
    assert_int_equal(o[1].t1_ns, T0 + 9 * MS);
    assert_non_null(strstr(get(inst, "trace_marker"), "rtjitter explain"));
    assert_string_equal(get(inst, "tracing_on"), "1"); /* resumed after the dump */
    assert_int_equal(src.explain(src.ctx, T0, T0 + 9 * MS, 2, o, 2), 2);

    json_t *sum = src.summary(src.ctx);
    assert_string_equal(json_string_value(json_object_get(sum, "clock")), "mono");
    assert_string_equal(json_string_value(json_object_get(sum, "freeze")), "tracing_on");
    assert_int_equal(json_integer_value(json_object_get(sum, "explains")), 2);
    /* the second window ended before the first dump was frozen: that dump served it */
    assert_int_equal(json_integer_value(json_object_get(sum, "dumps")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "totals"), "softirq_ns")), 1200000);
    const json_t *sl = json_array_get(json_object_get(sum, "slices"), 0);
    assert_string_equal(json_string_value(json_object_get(sl, "file")), "trace-01-cpu2.txt");
    /* CPU 2's 15 lines in the window (not CPU 3's, not the marker after it) */
    assert_int_equal(json_integer_value(json_object_get(sl, "lines")), 15);
    json_decref(sum);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t later = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec + 1000000000LL;
    /* a window that ends after it needs a new dump: not within TRACE_READ_GAP_NS of the last (counters only) */
    assert_int_equal(src.explain(src.ctx, T0, later, 2, o, 8), 0);
    sum = src.summary(src.ctx);
    assert_int_equal(json_integer_value(json_object_get(sum, "dumps")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "explains_skipped")), 1);
    json_decref(sum);
    struct timespec gap = { TRACE_READ_GAP_NS / 1000000000LL, TRACE_READ_GAP_NS % 1000000000LL + 50000000L };
    nanosleep(&gap, NULL);
    assert_int_equal(src.explain(src.ctx, T0, later, 2, o, 8), 6); /* after it: a new dump */
    sum = src.summary(src.ctx);
    assert_int_equal(json_integer_value(json_object_get(sum, "dumps")), 2);
    json_decref(sum);

    struct trace_slices *slices = trace_source_slices(&src);
    src.close(src.ctx);
    char out[300];
    snprintf(out, sizeof(out), "%s/out", root);
    mkdir(out, 0755);
    assert_int_equal(trace_slices_save(slices, out, err, sizeof(err)), 3);
    assert_non_null(strstr(get(out, "trace-01-cpu2.txt"), "irq_handler_entry: irq=145 name=iwlwifi"));
    assert_null(strstr(get(out, "trace-01-cpu2.txt"), "far-901"));
    assert_true(trace_slices_save(slices, out, err, sizeof(err)) < 0); /* never replaces a file */
    trace_slices_unref(slices);
    rm_tree(root);
}

/* Where the instance has a snapshot (not this machine's kernel), the freeze is a snapshot: "1" written to it and
 * the CPU's snapshot read, tracing_on never touched after the start. */
static void test_source_snapshot(void **state)
{
    (void)state;
    char root[256], inst[512], err[256];
    fake_tree(root, sizeof(root), inst, sizeof(inst), "[local] mono mono_raw\n");
    put(inst, "snapshot", "0\n");
    put(inst, "per_cpu/cpu2/snapshot", fixture);
    put(inst, "per_cpu/cpu2/trace", "");
    struct culprit_source src;
    assert_int_equal(trace_source_open(root, CLOCK_MONOTONIC_RAW, &src, err, sizeof(err)), 0);
    assert_string_equal(get(inst, "trace_clock"), "mono_raw");
    put(inst, "tracing_on", "untouched");
    struct culprit_obs o[8];
    assert_int_equal(src.explain(src.ctx, T0, T0 + 9 * MS, 2, o, 8), 6);
    assert_string_equal(o[1].name, "IRQ 145 (iwlwifi)");
    assert_string_equal(get(inst, "snapshot"), "1");
    assert_string_equal(get(inst, "tracing_on"), "untouched");
    json_t *sum = src.summary(src.ctx);
    assert_string_equal(json_string_value(json_object_get(sum, "freeze")), "snapshot");
    json_decref(sum);
    src.close(src.ctx);
    rm_tree(root);
}

static void test_source_refuses(void **state)
{
    (void)state;
    char root[256], inst[512], err[256];
    struct culprit_source src;
    fake_tree(root, sizeof(root), inst, sizeof(inst), "[local] global counter\n");
    assert_int_equal(trace_source_open(root, CLOCK_MONOTONIC, &src, err, sizeof(err)), -ENOTSUP);
    assert_string_equal(err, "this kernel's trace_clock has no mono (the measurement clock)");
    assert_int_equal(trace_source_open(root, CLOCK_REALTIME, &src, err, sizeof(err)), -EINVAL);
    rm_tree(root);
    fake_tree(root, sizeof(root), inst, sizeof(inst), "[local] mono_raw\n");
    char p[700];
    snprintf(p, sizeof(p), "%s/events/sched/sched_switch/enable", inst);
    unlink(p);
    assert_int_equal(trace_source_open(root, CLOCK_MONOTONIC_RAW, &src, err, sizeof(err)), -ENOTSUP);
    assert_non_null(strstr(err, "sched/sched_switch is not available"));
    rm_tree(root);
    assert_true(trace_source_open("/nonexistent", CLOCK_MONOTONIC, &src, err, sizeof(err)) < 0);
    assert_non_null(strstr(err, "is not a tracefs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_lines),      cmocka_unit_test(test_breakdown),
        cmocka_unit_test(test_lost_and_partial), cmocka_unit_test(test_source_fake_tree),
        cmocka_unit_test(test_source_snapshot), cmocka_unit_test(test_source_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
