/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's classifier thread (rtaudio/noise/noise_classify.c) driven pass by pass on a fake /proc, with the
 * gap records the test pushes into its ring: the truth is what the test wrote and pushed. An IPI storm puts hundreds
 * of gaps in one 10 ms window: each window's function-call line (CAL) is named for as many of them as its count rose
 * there, never more; the rest below the kernel. Before it, the probe was stopped (the real-time throttle: no gap
 * recorded while it is off the CPU) for three windows in which the storm's IPIs went on: those windows held no gap
 * popped, but lay inside one, and must not teach the background that the storm's rate is usual (issue 38: they did,
 * and most of the storm's gaps were then put below the kernel). Windows the probe is seen to run through without a
 * gap (its ran_ns) are learnt. A gap that began while the counters were being read falls in two windows: the rise
 * it may spend is what the gaps of the window before left, not the window's whole rise again. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "noise/noise.h"
#include "rtclock.h"

#define TID 5151
#define CPU 1

struct tree {
    char root[64];
    unsigned long long loc, cal, run_delay_ns, invol;
};

static void put(const struct tree *t, const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", t->root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void write_tree(const struct tree *t)
{
    char b[1024];
    snprintf(b, sizeof b, "           CPU0       CPU1       \n"
             "LOC:        100 %10llu   Local timer interrupts\n"
             "CAL:         50 %10llu   Function call interrupts\n"
             "ERR:          0\n", t->loc, t->cal);
    put(t, "proc/interrupts", b);
    put(t, "proc/softirqs", "                    CPU0       CPU1       \n"
        "       TIMER:          7          9\n");
    put(t, "proc/stat", "cpu  1 2 3 4 5 6 7 0 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\ncpu1 1 2 3 4 5 6 7 0 0 0\n");
    snprintf(b, sizeof b, "987654321 %llu 42\n", t->run_delay_ns);
    put(t, "proc/self/task/5151/schedstat", b);
    snprintf(b, sizeof b, "Name:\trtjitter\nnonvoluntary_ctxt_switches:\t%llu\n", t->invol);
    put(t, "proc/self/task/5151/status", b);
}

static int line_of(const struct noise_probe *np, const char *name)
{
    for (int i = 0; i < np->lines.n; i++)
        if (strcmp(np->lines.name[i], name) == 0)
            return i;
    return -1;
}

/* n gaps of len_ns spread over [t0_ns, t1_ns), into the probe's ring. */
static void push_gaps(struct noise_probe *np, int n, int64_t t0_ns, int64_t t1_ns, int64_t len_ns, unsigned tag)
{
    static uint64_t seq;
    for (int k = 0; k < n; k++) {
        struct rt_record r;
        memset(&r, 0, sizeof r);
        r.seq = seq++;
        r.t_entry_ns = t0_ns + (t1_ns - t0_ns - len_ns) * k / n;
        r.t_exit_ns = r.t_entry_ns + len_ns;
        r.phase = tag;
        r.cpu = CPU;
        assert_int_equal(rt_ring_push(&np->s[0].gaps, &r), 1);
    }
}

static void nap_ms(int ms)
{
    int64_t until = mono_ns() + (int64_t)ms * 1000000;
    while (mono_ns() < until)
        usleep(200);
}

static void test_storm_after_throttle(void **state)
{
    (void)state;
    struct tree t;
    memset(&t, 0, sizeof t);
    snprintf(t.root, sizeof t.root, "/tmp/rtj-noisewin-XXXXXX");
    assert_non_null(mkdtemp(t.root));
    const char *dirs[] = { "proc", "proc/self", "proc/self/task", "proc/self/task/5151" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char d[256];
        snprintf(d, sizeof d, "%s/%s", t.root, dirs[i]);
        assert_int_equal(mkdir(d, 0700), 0);
    }
    t.loc = 1000;
    t.cal = 5000;
    write_tree(&t);

    struct noise_probe *np = calloc(1, sizeof *np);
    struct rt_sink *sink = calloc(1, sizeof *sink);
    assert_non_null(np);
    assert_non_null(sink);
    atomic_store(&sink->tid, TID);
    np->tb.nstreams = 1;
    np->tb.streams[0].cpu = CPU;
    np->tb.streams[0].sink = sink;
    np->ntags = 2;
    np->proc_root = t.root;
    assert_int_equal(rt_ring_init(&np->s[0].gaps, 4096), 0);
    assert_int_equal(noise_classify_prepare(np), 0);
    const unsigned tag = 1;

    /* Quiet: five 10 ms windows without a gap, the tick's usual 2 each; the probe seen running past each. */
    noise_classify_pass(np);
    for (int w = 0; w < 5; w++) {
        nap_ms(10);
        t.loc += 2;
        write_tree(&t);
        atomic_store(&np->s[0].ran_ns, mono_ns());
        noise_classify_pass(np);
    }
    nap_ms(10);
    atomic_store(&np->s[0].ran_ns, mono_ns()); /* the fifth window, seen passed */
    int64_t off_ns = mono_ns();                /* the probe stops here: the throttle, an involuntary switch */
    noise_classify_pass(np);
    int cal = line_of(np, "CAL"), loc = line_of(np, "LOC");
    assert_true(cal >= 0 && loc >= 0);
    const struct noise_bg *bg = &np->s[0].bg;
    assert_true(bg->quiet_ns >= 4 * 10e6); /* learnt: at least four of the quiet windows, each 10 ms or more */
    assert_true(bg->count[loc] >= 8);
    assert_true(bg->count[cal] == 0);
    double quiet_ns = bg->quiet_ns;

    /* Three windows off the CPU: no gap recorded, ran_ns still, 300 IPIs each. */
    t.invol++;
    for (int w = 0; w < 3; w++) {
        nap_ms(10);
        t.cal += 300;
        t.loc += 2;
        write_tree(&t);
        noise_classify_pass(np);
    }
    /* Back: the one long gap (a switch and its run delay: the scheduler's), then four storm windows of 250 gaps in
     * which CAL rose 200 each. */
    uint64_t named0 = np->line_n[tag][cal];
    int64_t before_ns = 0;
    for (int w = 0; w < 4; w++) {
        int64_t from_ns = mono_ns();
        if (w == 0) {
            push_gaps(np, 1, off_ns, from_ns, from_ns - off_ns, tag);
            t.run_delay_ns += (unsigned long long)(from_ns - off_ns);
            from_ns += 10000;
        }
        nap_ms(10);
        push_gaps(np, 250, from_ns, mono_ns(), 3000, tag);
        t.cal += 200;
        t.loc += 2;
        write_tree(&t);
        atomic_store(&np->s[0].ran_ns, mono_ns());
        before_ns = mono_ns();
        noise_classify_pass(np);
    }
    /* A fifth: 100 gaps and a rise of 100, and before them one gap that began during the last reading (its window
     * spans two readings: the fourth window's rise is spent, it may take one of the fifth's). */
    push_gaps(np, 1, before_ns, mono_ns(), 3000, tag);
    int64_t from_ns = mono_ns() + 5000;
    nap_ms(10);
    push_gaps(np, 100, from_ns, mono_ns(), 3000, tag);
    t.cal += 100;
    write_tree(&t);
    atomic_store(&np->s[0].ran_ns, mono_ns());
    noise_classify_pass(np);
    /* The throttle's windows were not learnt: nothing of CAL in the background, no time added to it. */
    assert_true(bg->count[cal] == 0);
    assert_true(bg->quiet_ns == quiet_ns);
    /* Each storm window: CAL named for the 200 (the fifth: 100) its count rose, not one more; the long gap the scheduler's (its run
     * delay, counted when it ran again, is in the first storm window too: one of its gaps may be given to it). */
    assert_int_equal(np->line_n[tag][cal] - named0, 4 * 200 + 100);
    const struct noise_tagclass *tc = &np->s[0].cls[tag];
    assert_true(tc->n[NOISE_SCHED] >= 1 && tc->n[NOISE_SCHED] <= 2);
    assert_int_equal(tc->n[NOISE_SCHED] + tc->n[NOISE_IRQ] + tc->n[NOISE_BELOW], 1 + 4 * 250 + 101);
    int longest = 0;
    for (int k = 1; k < NOISE_EVENTS_MAX; k++)
        if (np->events[tag][k].len_ns > np->events[tag][longest].len_ns)
            longest = k;
    assert_true(np->events[tag][longest].len_ns >= 30000000);
    assert_int_equal(np->events[tag][longest].cls, NOISE_SCHED);

    noise_classify_drain(np);
    rt_ring_free(&np->s[0].gaps);
    free(sink);
    free(np);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t.root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storm_after_throttle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
