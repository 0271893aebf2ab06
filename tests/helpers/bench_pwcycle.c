/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench: the native PipeWire backend's process callback (pwn_process, rtaudio/pipewire/pwnode.c) driven
 * offline with a position of our own (no server): clock at entry, the graph's clock read, sizes, record, ring push.
 * Our output buffer is not asked for (out_port NULL: libpipewire's pw_filter_get_dsp_buffer needs a connected
 * port), so that call is not in the figure. The collector side drains every 1024 cycles.
 * usage: bench_pwcycle [CYCLES]  — prints ns per cycle (best of 5 batches). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spa/node/io.h>
#include "pipewire/pwnode.h"
#include "rt_sink.h"
#include "rtclock.h"

static struct rt_sink sink;
static struct pwn node;
static atomic_uint tag;
static struct spa_io_position pos;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    struct rt_ring ring;
    if (rt_ring_init(&ring, 1 << 16) < 0)
        return 1;
    sink.ring = &ring;
    sink.clock = CLOCK_MONOTONIC;
    sink.phase_tag = &tag;
    atomic_store(&tag, 1);
    node.sink = &sink;
    atomic_store(&node.started, 1);
    pos.clock.duration = 64;
    pos.clock.rate = SPA_FRACTION(1, 48000);
    static struct rt_record out[1024];
    double best = 1e30;
    for (int batch = 0; batch < 5; batch++) {
        int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
        for (long k = 0; k < n; k++) {
            /* the driver's part: a cycle start 50 us ago, the next one a period on */
            int64_t now = rt_now_ns(CLOCK_MONOTONIC);
            pos.clock.nsec = (uint64_t)(now - 50000);
            pos.clock.next_nsec = pos.clock.nsec + 1333333;
            pos.clock.position = (uint64_t)k * 64;
            pwn_process(&node, &pos);
            if ((k & 1023) == 1023)
                rt_ring_pop(&ring, out, 1024);
        }
        double ns = (double)(rt_now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
        if (ns < best)
            best = ns;
    }
    rt_ring_pop(&ring, out, 1024);
    printf("pipewire cycle: %.1f ns per cycle (best of 5 batches of %ld: the native callback, its output buffer "
           "call left out, plus the driver's part here, one clock read, and the drain)\n", best, n);
    printf("dropped: %llu\n", (unsigned long long)rt_ring_dropped(&ring));
    rt_ring_free(&ring);
    return 0;
}
