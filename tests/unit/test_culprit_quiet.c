/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch's sampler slows down while all is quiet (issue 34: pay for explaining only when something happens): with
 * quiet_hz set, after quiet_after_s with nothing begun, noted or pending it samples at quiet_hz, not hz; a happening
 * that begins (culprit_engine_wake) or is noted brings hz back at once, and hz holds until it is explained. The
 * engine's own thread runs on a fake /proc tree (culprit_tree.h); the observer is the kernel's: inotify's IN_ACCESS
 * on the tree's proc/stat, which the sampler reads once a tick, never what the engine counts of itself. Driven by
 * hand (ce_tick): the window rule for quiet samples, and the history held by time (history_s), not by ring slots.
 *
 * The bounds hold on a busy machine: a sampler held off the CPU reads less, never more, and the fast counts are
 * taken over a whole second, which a sampler that missed its deadlines catches up on (its deadlines are absolute). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <poll.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>
#include "culprit/engine_internal.h"
#include "unit/culprit_tree.h"

#define MS 1000000LL

static int64_t mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The reads of the watched file from now for ms milliseconds. */
static int reads_for(int fd, int ms)
{
    int n = 0;
    int64_t end = mono() + ms * MS;
    for (;;) {
        int64_t left = end - mono();
        if (left <= 0)
            break;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)(left / MS) + 1) <= 0)
            continue;
        char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
        ssize_t r = read(fd, buf, sizeof buf);
        for (ssize_t i = 0; r > 0 && i < r;) {
            const struct inotify_event *ev = (const struct inotify_event *)(buf + i);
            n += (ev->mask & IN_ACCESS) != 0;
            i += (ssize_t)(sizeof *ev + ev->len);
        }
    }
    return n;
}

struct fixture {
    struct ctree t;
    struct culprit_engine *e;
    int fd;
};

static void start(struct fixture *f, double quiet_hz)
{
    char proc[300], sys[300], stat[320], err[200];
    ctree_roots(&f->t, proc, sys, sizeof proc);
    snprintf(stat, sizeof stat, "%s/proc/stat", f->t.root);
    f->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    assert_true(f->fd >= 0);
    assert_true(inotify_add_watch(f->fd, stat, IN_ACCESS) >= 0);
    struct culprit_config cfg = {.clock = CLOCK_MONOTONIC, .hz = 20, .quiet_hz = quiet_hz, .quiet_after_s = 0.3,
                                 .proc_root = proc, .sys_root = sys, .audio_pid = CT_AUDIO_PID, .period_ns = 1 * MS};
    f->e = culprit_engine_start(&cfg, err, sizeof err);
    assert_non_null(f->e);
    culprit_engine_set_audio(f->e, CT_AUDIO_TID, 10);
    culprit_engine_audio_cpu(f->e, 1);
}

static void stop(struct fixture *f)
{
    culprit_engine_stop(f->e);
    culprit_engine_free(f->e);
    close(f->fd);
    ctree_free(&f->t);
}

/* Quiet: at most quiet_hz (4 a second: 6 in 1.5 s, 9 allowed for the tick a wait ends on) where 20 Hz makes 30;
 * a wake: 20 Hz at once for quiet_after_s (at least 3 reads in the next 300 ms, where 4 Hz makes 1 or 2); then quiet
 * again. */
static void test_quiet_then_woken(void **state)
{
    (void)state;
    struct fixture f;
    start(&f, 4);
    (void)reads_for(f.fd, 500); /* the first 0.3 s at 20 Hz (the baselines), then quiet */
    int quiet = reads_for(f.fd, 1500);
    print_message("quiet: %d reads in 1.5 s\n", quiet);
    assert_true(quiet >= 1 && quiet <= 9);
    culprit_engine_wake(f.e);
    int woken = reads_for(f.fd, 300);
    print_message("woken: %d reads in the next 300 ms\n", woken);
    assert_true(woken >= 3);
    (void)reads_for(f.fd, 200);
    quiet = reads_for(f.fd, 1500);
    print_message("quiet again: %d reads in 1.5 s\n", quiet);
    assert_true(quiet >= 1 && quiet <= 9);
    stop(&f);
}

/* A happening noted wakes a quiet sampler and keeps 20 Hz for quiet_after_s (0.3 s) and until it is explained: at
 * least 3 reads in the 300 ms after the note (4 Hz makes 1 or 2), and it is explained (no longer pending) within
 * the second. */
static void test_noted_explained_at_hz(void **state)
{
    (void)state;
    struct fixture f;
    start(&f, 4);
    (void)reads_for(f.fd, 800);
    int64_t now = mono();
    culprit_engine_note(f.e, CS_EVENT, 0, now - 5 * MS, now, 1, 0);
    int woken = reads_for(f.fd, 300);
    print_message("noted: %d reads in the next 300 ms\n", woken);
    assert_true(woken >= 3);
    (void)reads_for(f.fd, 700);
    pthread_mutex_lock(&f.e->mu);
    bool pending = f.e->res_first_pending < f.e->nres;
    pthread_mutex_unlock(&f.e->mu);
    assert_false(pending);
    stop(&f);
}

/* A stand-in for the trace: a source named "tracefs" that is on, whose explain names no one. */
static int no_obs(void *ctx, int64_t t0_ns, int64_t t1_ns, int cpu, struct culprit_obs *out, int max)
{
    (void)ctx, (void)t0_ns, (void)t1_ns, (void)cpu, (void)out, (void)max;
    return 0;
}

/* With the trace on, the counters are context only (rank.c trace_rules), so watch reads them at quiet_hz even while
 * a happening is pending: over the 700 ms a noted happening stays pending (it ends 600 ms after the note), at most
 * 6 reads (4 Hz: the wake's, then 3; 20 Hz makes 14), where the same without the trace makes at least 7; the
 * happening is explained all the same, its window not "late". */
static void test_traced_pending_at_quiet_hz(void **state)
{
    (void)state;
    for (int traced = 0; traced < 2; traced++) {
        struct fixture f;
        start(&f, 4);
        if (traced) {
            struct culprit_source src = {.name = "tracefs", .explain = no_obs};
            assert_int_equal(culprit_engine_add_source(f.e, &src), 0);
        }
        (void)reads_for(f.fd, 800); /* quiet by now */
        int64_t now = mono();
        culprit_engine_note(f.e, CS_EVENT, 0, now - 5 * MS, now + 600 * MS, 1, 0);
        int pending = reads_for(f.fd, 700);
        print_message("%s: %d reads in the 700 ms a happening is pending\n", traced ? "traced" : "untraced", pending);
        if (traced)
            assert_true(pending >= 1 && pending <= 6);
        else
            assert_true(pending >= 7);
        (void)reads_for(f.fd, 1000);
        pthread_mutex_lock(&f.e->mu);
        bool left = f.e->res_first_pending < f.e->nres;
        unsigned long slow = f.e->traced_slow_ticks;
        pthread_mutex_unlock(&f.e->mu);
        assert_false(left);
        assert_int_equal((int)f.e->late_windows, 0);
        assert_true(traced ? slow > 0 : slow == 0);
        stop(&f);
    }
}

/* quiet_hz 0 (run, sweep...): never slower than hz. */
static void test_never_quiet_by_default(void **state)
{
    (void)state;
    struct fixture f;
    start(&f, 0);
    (void)reads_for(f.fd, 500);
    int n = reads_for(f.fd, 1000);
    print_message("no quiet_hz: %d reads in 1 s\n", n);
    /* 20 Hz: 20; a starved sampler catches up its absolute deadlines, so even on a busy machine well above 4 Hz's 4 */
    assert_true(n >= 10);
    stop(&f);
}

/* An engine on the fake tree, driven by hand (ce_tick; watch's quiet_hz 4), its baselines filled by 2 s at 20 Hz;
 * *now: the next tick's time. */
static struct culprit_engine *hand_engine(struct ctree *t, int64_t *now)
{
    char proc[300], sys[300], err[200];
    ctree_roots(t, proc, sys, sizeof proc);
    struct culprit_config cfg = {.clock = CLOCK_MONOTONIC, .hz = 20, .quiet_hz = 4, .proc_root = proc,
                                 .sys_root = sys, .audio_pid = CT_AUDIO_PID, .period_ns = 1 * MS};
    struct culprit_engine *e = ce_create(&cfg, err, sizeof err);
    assert_non_null(e);
    culprit_engine_set_audio(e, CT_AUDIO_TID, 10);
    culprit_engine_audio_cpu(e, 1);
    *now = 1000 * MS;
    for (int k = 0; k < 40; k++, *now += 50 * MS)
        ce_tick(e, *now);
    return e;
}

/* The window rule (rank.c set_window): a sample that followed a quiet wait spans quiet_ns (250 ms) by design, so a
 * happening just after it is not "late" for the counters; the same span after a wait at 20 Hz is a late sampler,
 * and the happening's counters say nothing (late_windows). Driven by hand (ce_tick) on the fake tree. */
static void test_quiet_sample_not_late(void **state)
{
    (void)state;
    for (int q = 0; q < 2; q++) {
        struct ctree t;
        int64_t now;
        struct culprit_engine *e = hand_engine(&t, &now);
        e->quiet = q; /* the wait before the next tick: quiet (q) or a sampler 250 ms late */
        now += 200 * MS; /* the tick 250 ms after the one before */
        int64_t start = now - 10 * MS;
        culprit_engine_note(e, CS_EVENT, 0, start, start + 3 * MS, 1, 0);
        ce_tick(e, now);
        e->quiet = false;
        for (int k = 0; k < 4; k++) {
            now += 50 * MS;
            ce_tick(e, now);
        }
        culprit_engine_stop(e);
        print_message("quiet %d: late windows %d\n", q, (int)e->late_windows);
        assert_int_equal((int)e->late_windows, q ? 0 : 1);
        culprit_engine_free(e);
        ctree_free(&t);
    }
}

/* With the trace on, watch samples at 4 Hz while something happens too (engine.c), so a short happening can sit
 * inside one 250 ms sample with another after it: the two span 500 ms around a 103 ms window, by design, not late;
 * the same two at 20 Hz's interval (not quiet) are. */
static void test_slow_both_ends_not_late(void **state)
{
    (void)state;
    for (int q = 0; q < 2; q++) {
        struct ctree t;
        int64_t now;
        struct culprit_engine *e = hand_engine(&t, &now);
        e->quiet = q;
        for (int k = 0; k < 4; k++, now += 250 * MS)
            ce_tick(e, now);
        int64_t start = now - 250 * MS + 5 * MS; /* 5 ms after the last tick, 3 ms long */
        culprit_engine_note(e, CS_EVENT, 0, start, start + 3 * MS, 1, 0);
        for (int k = 0; k < 3; k++, now += 250 * MS)
            ce_tick(e, now);
        culprit_engine_stop(e);
        print_message("slow %d: late windows %d\n", q, (int)e->late_windows);
        assert_int_equal((int)e->late_windows, q ? 0 : 1);
        culprit_engine_free(e);
        ctree_free(&t);
    }
}

/* The history holds history_s (30 s) of samples, whatever the rate: at watch's quiet 4 Hz for a minute, 121 samples
 * and their blocks at most, not the 20 Hz ring's 601 slots (150 s at 4 Hz, which it held before). The baselines are
 * rates over the span held, which stays 30 s. Driven by hand (ce_tick) on the fake tree. */
static void test_history_by_time(void **state)
{
    (void)state;
    struct ctree t;
    int64_t now;
    struct culprit_engine *e = hand_engine(&t, &now);
    e->quiet = true;
    for (int k = 0; k < 240; k++, now += 250 * MS) {
        t.loc[1] += 10; /* a counter moves in every sample: each sample held has its block */
        ctree_write(&t);
        ce_tick(e, now);
    }
    int blocks = 0;
    for (int i = 0; i < e->hist_cap; i++)
        blocks += e->hist[i].block != NULL;
    int64_t span = ce_hist_at(e, e->hist_n - 1)->t_ns - ce_hist_at(e, 0)->t0_ns;
    print_message("# after 60 s at 4 Hz: %d samples held (ring of %d), %d blocks, spanning %.2f s\n", e->hist_n,
                  e->hist_cap, blocks, span / 1e9);
    assert_true(e->hist_n <= 30 * 4 + 1);
    assert_true(e->hist_n >= 30 * 4 - 1);
    assert_int_equal(blocks, e->hist_n); /* the samples gone took their blocks with them */
    assert_true(span <= 30250 * MS && span >= 29750 * MS);
    culprit_engine_stop(e);
    culprit_engine_free(e);
    ctree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiet_then_woken),
        cmocka_unit_test(test_noted_explained_at_hz),
        cmocka_unit_test(test_traced_pending_at_quiet_hz),
        cmocka_unit_test(test_never_quiet_by_default),
        cmocka_unit_test(test_quiet_sample_not_late),
        cmocka_unit_test(test_slow_both_ends_not_late),
        cmocka_unit_test(test_history_by_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
