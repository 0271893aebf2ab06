/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback's capture ring: sizes, samples and headers in order across the wrap, a long cycle split into
 * chunks, a full ring losing frames (counted, and the next chunk says where the loss began and how long it was),
 * and a producer thread against a consumer thread checking every sample. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "capring.h"

static void fill(float *b, uint64_t pos, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b[i] = (float)((pos + i) % 100003);
}

static void check(const float *b, uint64_t pos, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        assert_true(b[i] == (float)((pos + i) % 100003));
}

static void test_sizes(void **state)
{
    (void)state;
    struct cap_ring r;
    assert_int_equal(cap_ring_init(&r, 48000, 64, 1.0), 0);
    assert_int_equal(r.nsamples, 65536);
    assert_int_equal(r.nchunks, 1024);
    assert_int_equal(cap_ring_bytes(&r), 65536 * 4 + 1024 * sizeof(struct cap_chunk));
    cap_ring_free(&r);
    assert_int_equal(cap_ring_init(&r, 192000, 16, 1.0), 0);
    assert_int_equal(r.nsamples, 262144);
    assert_int_equal(r.nchunks, 16384);
    cap_ring_free(&r);
    assert_int_equal(cap_ring_init(&r, 0, 64, 1.0), -EINVAL);
}

static void test_order_wrap_split(void **state)
{
    (void)state;
    struct cap_ring r;
    assert_int_equal(cap_ring_init(&r, 8000, 1000, 1.0), 0); /* 8192 samples, 64 chunks */
    static float in[10000], out[CAP_MAX_FRAMES];
    struct cap_chunk c;
    uint64_t pos = 0;
    for (int round = 0; round < 20; round++) {
        unsigned n = round % 3 == 0 ? 5000 : 777; /* 5000 > CAP_MAX_FRAMES: two chunks */
        fill(in, pos, n);
        assert_int_equal(cap_ring_push(&r, pos, (uint64_t)round, round * 10, 2, 1, 7, in, n), 0);
        unsigned got = 0;
        while (cap_ring_pop(&r, &c, out)) {
            assert_int_equal(c.pos, pos + got);
            assert_int_equal(c.seq, (uint64_t)round);
            assert_int_equal(c.phase, 2);
            assert_int_equal(c.measuring, 1);
            assert_int_equal(c.xruns, 7);
            assert_int_equal(c.lost_n, 0);
            assert_true(c.n <= CAP_MAX_FRAMES);
            check(out, c.pos, c.n);
            got += c.n;
        }
        assert_int_equal(got, n);
        pos += n + 13; /* a jump of the frame clock: kept as it is */
    }
    cap_ring_free(&r);
}

static void test_full_ring_counts_losses(void **state)
{
    (void)state;
    struct cap_ring r;
    assert_int_equal(cap_ring_init(&r, 8000, 1000, 1.0), 0); /* 8192 samples */
    static float in[4096], out[CAP_MAX_FRAMES];
    fill(in, 0, 4096);
    assert_int_equal(cap_ring_push(&r, 0, 0, 0, 0, 1, 0, in, 4096), 0);
    fill(in, 4096, 4096);
    assert_int_equal(cap_ring_push(&r, 4096, 1, 0, 0, 1, 0, in, 4096), 0);
    assert_int_equal(cap_ring_push(&r, 8192, 2, 0, 0, 1, 0, in, 1000), 1000); /* full: lost */
    assert_int_equal(cap_ring_push(&r, 9192, 3, 0, 0, 1, 0, in, 500), 500);
    assert_int_equal(cap_ring_lost(&r), 1500);
    struct cap_chunk c;
    assert_int_equal(cap_ring_pop(&r, &c, out), 1);
    check(out, 0, 4096);
    fill(in, 9692, 100);
    assert_int_equal(cap_ring_push(&r, 9692, 4, 0, 0, 1, 0, in, 100), 0);
    assert_int_equal(cap_ring_pop(&r, &c, out), 1);
    assert_int_equal(c.pos, 4096);
    assert_int_equal(cap_ring_pop(&r, &c, out), 1);
    assert_int_equal(c.pos, 9692);
    assert_int_equal(c.lost_pos, 8192); /* the loss is carried by the next chunk that fits */
    assert_int_equal(c.lost_n, 1500);
    check(out, 9692, 100);
    assert_int_equal(cap_ring_pop(&r, &c, out), 0);
    cap_ring_free(&r);
}

struct pc {
    struct cap_ring r;
    uint64_t total;
};

static void *producer(void *arg)
{
    struct pc *p = arg;
    static float in[300];
    uint64_t pos = 0;
    while (pos < p->total) {
        fill(in, pos, 300);
        while (atomic_load(&p->r.head) - atomic_load(&p->r.tail) >= p->r.nchunks - 1 ||
               p->r.shead + 300 - atomic_load(&p->r.stail) > p->r.nsamples)
            ; /* the test wants no loss: wait for room (a real RT thread never waits) */
        assert_int_equal(cap_ring_push(&p->r, pos, pos / 300, 0, 0, 1, 0, in, 300), 0);
        pos += 300;
    }
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    static struct pc p;
    assert_int_equal(cap_ring_init(&p.r, 8000, 300, 1.0), 0);
    p.total = 300 * 20000;
    pthread_t t;
    pthread_create(&t, NULL, producer, &p);
    static float out[CAP_MAX_FRAMES];
    struct cap_chunk c;
    uint64_t next = 0;
    while (next < p.total) {
        if (!cap_ring_pop(&p.r, &c, out))
            continue;
        assert_int_equal(c.pos, next);
        check(out, c.pos, c.n);
        next += c.n;
    }
    pthread_join(t, NULL);
    assert_int_equal(cap_ring_lost(&p.r), 0);
    cap_ring_free(&p.r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_order_wrap_split),
        cmocka_unit_test(test_full_ring_counts_losses),
        cmocka_unit_test(test_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
