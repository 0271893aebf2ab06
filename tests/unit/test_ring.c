/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SPSC ring: order, wrap-around, a full ring counting drops, and two threads hammering it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "ring.h"

static struct rt_record rec(int64_t i)
{
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.t_entry_ns = i;
    r.t_exit_ns = i * 3;
    r.frame_pos = (uint32_t)i;
    return r;
}

static void test_capacity_rounds_up(void **state)
{
    (void)state;
    struct rt_ring r;
    assert_int_equal(rt_ring_init(&r, 100), 0);
    assert_int_equal(r.capacity, 128);
    rt_ring_free(&r);
    assert_int_equal(rt_ring_init(&r, 0), -EINVAL);
}

static void test_full_ring_drops_and_counts(void **state)
{
    (void)state;
    struct rt_ring r;
    assert_int_equal(rt_ring_init(&r, 8), 0);
    for (int i = 0; i < 8; i++) {
        struct rt_record x = rec(i);
        assert_int_equal(rt_ring_push(&r, &x), 1);
    }
    for (int i = 8; i < 13; i++) {
        struct rt_record x = rec(i);
        assert_int_equal(rt_ring_push(&r, &x), 0);
    }
    assert_int_equal(rt_ring_dropped(&r), 5);
    assert_int_equal(rt_ring_fill(&r), 8);
    struct rt_record out[16];
    assert_int_equal(rt_ring_pop(&r, out, 16), 8);
    for (int i = 0; i < 8; i++) /* the oldest are kept, the newest dropped */
        assert_int_equal(out[i].t_entry_ns, i);
    assert_int_equal(rt_ring_pop(&r, out, 16), 0);
    rt_ring_free(&r);
}

static void test_wrap_around(void **state)
{
    (void)state;
    struct rt_ring r;
    assert_int_equal(rt_ring_init(&r, 8), 0);
    struct rt_record out[8];
    int64_t next_in = 0, next_out = 0;
    for (int round = 0; round < 100; round++) {
        int n = 1 + round % 7;
        for (int i = 0; i < n; i++) {
            struct rt_record x = rec(next_in++);
            assert_int_equal(rt_ring_push(&r, &x), 1);
        }
        size_t got = rt_ring_pop(&r, out, (size_t)(round % 3 == 0 ? 2 : 8));
        for (size_t i = 0; i < got; i++) {
            assert_int_equal(out[i].t_entry_ns, next_out);
            assert_int_equal(out[i].t_exit_ns, next_out * 3);
            next_out++;
        }
        while ((got = rt_ring_pop(&r, out, 8)) > 0)
            for (size_t i = 0; i < got; i++)
                assert_int_equal(out[i].t_entry_ns, next_out++);
    }
    assert_int_equal(next_in, next_out);
    assert_true(r.head > 8 * r.capacity); /* indices really wrapped the slot array many times */
    assert_int_equal(rt_ring_dropped(&r), 0);
    rt_ring_free(&r);
}

#define HAMMER_N 2000000
struct hammer {
    struct rt_ring *r;
    int64_t pushed;
};

static void *producer(void *arg)
{
    struct hammer *h = arg;
    for (int64_t i = 0; i < HAMMER_N; i++) {
        struct rt_record x = rec(i);
        if (rt_ring_push(h->r, &x))
            h->pushed++;
    }
    return NULL;
}

static void test_two_threads_hammering(void **state)
{
    (void)state;
    struct rt_ring r;
    assert_int_equal(rt_ring_init(&r, 1024), 0);
    struct hammer h = { &r, 0 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, producer, &h), 0);
    struct rt_record out[64];
    int64_t got_total = 0, last = -1;
    int done = 0;
    while (!done) {
        size_t n = rt_ring_pop(&r, out, 64);
        for (size_t i = 0; i < n; i++) {
            /* strictly increasing (drops leave gaps), and every record arrives whole */
            assert_true(out[i].t_entry_ns > last);
            assert_int_equal(out[i].t_exit_ns, out[i].t_entry_ns * 3);
            assert_int_equal(out[i].frame_pos, (uint32_t)out[i].t_entry_ns);
            last = out[i].t_entry_ns;
        }
        got_total += (int64_t)n;
        if (n == 0 && pthread_tryjoin_np(t, NULL) == 0) {
            while ((n = rt_ring_pop(&r, out, 64)) > 0) {
                for (size_t i = 0; i < n; i++) {
                    assert_true(out[i].t_entry_ns > last);
                    last = out[i].t_entry_ns;
                }
                got_total += (int64_t)n;
            }
            done = 1;
        }
    }
    /* nothing lost silently: what was not received was counted as dropped */
    assert_int_equal(got_total, h.pushed);
    assert_int_equal((int64_t)rt_ring_dropped(&r), HAMMER_N - h.pushed);
    rt_ring_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacity_rounds_up),
        cmocka_unit_test(test_full_ring_drops_and_counts),
        cmocka_unit_test(test_wrap_around),
        cmocka_unit_test(test_two_threads_hammering),
    };
    return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
