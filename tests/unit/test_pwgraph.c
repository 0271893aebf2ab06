/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's own accounting as disturbances (src/culprit/pwgraph.c), on rows shaped as PipeWire 0.3.65 profiled a
 * follower stalled 20 ms at 5.3 ms periods (tests/integration/pipewire_xruns.sh): awake (2) in its stalled cycle,
 * triggered (1) in each cycle it missed, each row possibly profiled twice; a node that waited on it keeps its old
 * finished row; the driver's count's first value is the past. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <string.h>
#include "culprit/pwgraph.h"

#define MS 1000000LL
#define PER (5333333LL)

/* One profile: the driver, the staller and a waiter (and the driver's xrun count, -1: none). */
static void profile(struct pwgraph *g, int64_t nsec, int st_status, int64_t st_signal, int64_t waiter_signal,
                    int32_t xruns)
{
    struct pwgraph_row f[2] = {
        { 31, "stall", st_signal, st_status },
        { 35, "waiter", waiter_signal, 3 },
    };
    struct pwgraph_cycle c = { .nsec = nsec, .period_ns = PER, .xrun_count = xruns,
                               .driver = { 29, "Dummy-Driver", nsec - PER, 3 }, .followers = f, .nfollowers = 2 };
    pwgraph_cycle(g, &c);
}

static void test_a_stall_is_one_disturbance_a_cycle(void **state)
{
    (void)state;
    struct pwgraph g;
    pwgraph_init(&g);
    int64_t t0 = 1000 * MS;
    profile(&g, t0, 3, t0 - PER, t0 - PER, 7);                   /* clean; the count's first value */
    profile(&g, t0 + PER, 2, t0, t0 - PER, 7);                   /* the stalled cycle, awake */
    profile(&g, t0 + PER, 2, t0, t0 - PER, 7);                   /* the same cycle profiled again */
    profile(&g, t0 + 2 * PER, 1, t0 + PER, t0 - PER, 8);         /* missed; the count rose: still the staller's */
    profile(&g, t0 + 3 * PER, 1, t0 + 2 * PER, t0 - PER, 8);     /* missed */
    profile(&g, t0 + 4 * PER, 3, t0 + 3 * PER, t0 + 3 * PER, 8); /* it ran again, finished */
    profile(&g, t0 + 5 * PER, 3, t0 + 4 * PER, t0 + 4 * PER, 9); /* the count rose, no node unfinished */
    struct pwgraph_dist d[8];
    int64_t known = 0;
    int n = pwgraph_take(&g, d, 8, &known);
    assert_int_equal(n, 4);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(d[i].node, "stall");
        assert_true(d[i].t_ns == t0 + i * PER);
        assert_true(d[i].period_ns == PER);
    }
    assert_string_equal(d[3].node, "Dummy-Driver");
    assert_true(d[3].t_ns == t0 + 4 * PER);
    assert_true(known == t0 + 5 * PER);
    json_t *j = pwgraph_summary(&g);
    assert_int_equal(json_integer_value(json_object_get(j, "unfinished_cycles")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "driver_xruns")), 2);
    json_t *by = json_object_get(j, "by_node");
    assert_int_equal(json_array_size(by), 2); /* the staller's and the driver's, never the waiter's */
    json_decref(j);
    pwgraph_destroy(&g);
}

static void test_full_queue_drops_counted(void **state)
{
    (void)state;
    struct pwgraph g;
    pwgraph_init(&g);
    for (int i = 0; i < PWGRAPH_QUEUE + 10; i++)
        profile(&g, (i + 1) * PER, 1, i * PER + 1, 0, -1); /* a signal of 0 is "never triggered" */
    struct pwgraph_dist d[64];
    int64_t known = 0, total = 0;
    int n;
    while ((n = pwgraph_take(&g, d, 64, &known)) > 0) {
        total += n;
        assert_true(known == d[n - 1].t_ns || known == (PWGRAPH_QUEUE + 10) * PER);
    }
    assert_int_equal(total, PWGRAPH_QUEUE);
    json_t *j = pwgraph_summary(&g);
    assert_int_equal(json_integer_value(json_object_get(j, "dropped")), 10);
    json_decref(j);
    pwgraph_destroy(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_stall_is_one_disturbance_a_cycle),
        cmocka_unit_test(test_full_queue_drops_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
