/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit engine's memory is bounded by what the report can still list (issue 32 item 5, issue 34): a happening
 * forgotten (culprit_engine_forget: the event left the report's detail) frees its culprits and its slot, so that a
 * session of any length never reaches CE_RESULTS_MAX nor loses a happening; the ones still held are explained and
 * looked up as before; one forgotten before it was explained is counted (sampler.forgotten_unexplained). Driven by
 * hand on a fake /proc tree (culprit_tree.h) at 20 Hz; the truth is the test's own list of what it noted and
 * forgot. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "culprit/engine_internal.h"
#include "unit/culprit_tree.h"

#define MS 1000000LL

static struct culprit_engine *start(struct ctree *t)
{
    char proc[300], sys[300], err[200];
    ctree_roots(t, proc, sys, sizeof proc);
    struct culprit_config cfg = {.clock = CLOCK_MONOTONIC, .hz = 20, .proc_root = proc, .sys_root = sys,
                                 .audio_pid = CT_AUDIO_PID, .period_ns = 1 * MS};
    struct culprit_engine *e = ce_create(&cfg, err, sizeof err);
    assert_non_null(e);
    culprit_engine_set_audio(e, CT_AUDIO_TID, 10);
    culprit_engine_audio_cpu(e, 1);
    return e;
}

static void tick(struct culprit_engine *e, struct ctree *t, int k)
{
    t->loc[0] += 50;
    t->loc[1] += 50;
    t->audio_run += 5 * MS;
    ctree_write(t);
    ce_tick(e, 1000 * MS + k * 50 * MS);
}

static int lookup(struct culprit_engine *e, int64_t start_ns)
{
    struct culprit c[CULPRITS_MAX];
    struct culprit_results r = culprit_engine_results(e);
    return r.lookup(r.ctx, CS_EVENT, 0, start_ns, c, CULPRITS_MAX);
}

/* 30,000 events (past CE_RESULTS_MAX), 15 every 50 ms tick, each forgotten 500 events after it was noted (the report's
 * latest 384 and more): none lost, the engine never holds more than about 500 + what one compaction lets wait, the
 * latest 500 all explained and found, every forgotten one gone from the lookup. */
static void test_long_session_bounded(void **state)
{
    (void)state;
    enum { N = 30000, KEEP = 500, PER_TICK = 15 };
    struct ctree t;
    struct culprit_engine *e = start(&t);
    int k = 0, held_max = 0, cap_max = 0;
    tick(e, &t, k++);
    tick(e, &t, k++);
    for (int i = 0; i < N; i++) {
        if (i % PER_TICK == 0)
            tick(e, &t, k++);
        int64_t at = 1000 * MS + (int64_t)(k - 1) * 50 * MS - 20 * MS + (i % PER_TICK) * MS;
        culprit_engine_note(e, CS_EVENT, 0, at, at + 100000, 1, 0);
        if (i >= KEEP) {
            int j = i - KEEP;
            int64_t old = 1000 * MS + (int64_t)(2 + j / PER_TICK) * 50 * MS - 20 * MS + (j % PER_TICK) * MS;
            culprit_engine_forget(e, CS_EVENT, 0, old);
        }
        held_max = e->nres > held_max ? e->nres : held_max;
        cap_max = e->res_cap > cap_max ? e->res_cap : cap_max;
    }
    tick(e, &t, k++);
    tick(e, &t, k++);
    assert_int_equal(e->res_lost, 0);
    assert_true(held_max <= 4 * KEEP); /* compaction at a quarter forgotten: at most KEEP / (3/4) + 64 waiting */
    assert_true(cap_max <= 2048);
    int found = 0, gone = 0;
    for (int i = 0; i < N; i++) {
        int64_t at = 1000 * MS + (int64_t)(2 + i / PER_TICK) * 50 * MS - 20 * MS + (i % PER_TICK) * MS;
        int n = lookup(e, at);
        if (i < N - KEEP)
            gone += n == -1;
        else
            found += n >= 1; /* explained: at least "not known" with why */
    }
    assert_int_equal(gone, N - KEEP);
    assert_int_equal(found, KEEP);
    json_t *sum = culprit_engine_results(e).summary(e);
    assert_null(json_object_get(json_object_get(sum, "sampler"), "lost"));
    assert_null(json_object_get(json_object_get(sum, "sampler"), "forgotten_unexplained"));
    json_decref(sum);
    culprit_engine_free(e);
    ctree_free(&t);
}

/* Forgotten before the sampler came to it: never explained afterwards (no one will ask), counted; a happening never
 * noted is ignored; a second forget of the same one counts once. */
static void test_forgotten_before_explained(void **state)
{
    (void)state;
    struct ctree t;
    struct culprit_engine *e = start(&t);
    tick(e, &t, 0);
    tick(e, &t, 1);
    culprit_engine_note(e, CS_EVENT, 0, 1060 * MS, 1061 * MS, 1, 0);
    culprit_engine_note(e, CS_EVENT, 0, 1070 * MS, 1071 * MS, 1, 0);
    culprit_engine_forget(e, CS_EVENT, 0, 1060 * MS);
    culprit_engine_forget(e, CS_EVENT, 0, 1060 * MS);
    culprit_engine_forget(e, CS_EVENT, 0, 999 * MS);   /* never noted */
    culprit_engine_forget(e, CS_SPIKE, 0, 1070 * MS);  /* not that subject */
    for (int k = 2; k < 6; k++)
        tick(e, &t, k);
    assert_int_equal(lookup(e, 1060 * MS), -1);
    assert_true(lookup(e, 1070 * MS) >= 1);
    json_t *sum = culprit_engine_results(e).summary(e);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "sampler"), "forgotten_unexplained")), 1);
    json_decref(sum);
    culprit_engine_free(e);
    ctree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_session_bounded),
        cmocka_unit_test(test_forgotten_before_explained),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
