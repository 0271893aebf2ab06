/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench: the RT-side work of one cycle, driven offline (no JACK): clock at entry, record fill,
 * rt_sink_cycle() (phase tag, exit clock, ring push). The collector side drains every 1024 cycles.
 * usage: bench_rtcycle [CYCLES]  — prints ns per cycle (best of 5 batches). Under callgrind, count the
 * instructions of bench_one_cycle(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_sink.h"
#include "rtclock.h"

static struct rt_sink sink;
static atomic_uint tag;

__attribute__((noinline)) void bench_one_cycle(uint32_t k)
{
    struct rt_record r;
    r.t_entry_ns = rt_now_ns(sink.clock);
    r.flags = RTREC_HAS_START;
    r.start_ns = r.t_entry_ns - 31250;   /* what the JACK backend would have derived */
    r.frame_pos = (uint64_t)k * 64;
    r.nframes = 64;
    r.rate_hz = 48000;
    rt_sink_cycle(&sink, &r, r.t_entry_ns + 1000000);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    struct rt_ring ring;
    if (rt_ring_init(&ring, 1 << 16) < 0)
        return 1;
    sink.ring = &ring;
    sink.clock = CLOCK_MONOTONIC_RAW;
    sink.phase_tag = &tag;
    atomic_store(&tag, 1);
    static struct rt_record out[1024];
    double best = 1e30;
    for (int batch = 0; batch < 5; batch++) {
        int64_t t0 = rt_now_ns(CLOCK_MONOTONIC);
        for (long k = 0; k < n; k++) {
            bench_one_cycle((uint32_t)k);
            if ((k & 1023) == 1023)
                rt_ring_pop(&ring, out, 1024);
        }
        double ns = (double)(rt_now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
        if (ns < best)
            best = ns;
    }
    rt_ring_pop(&ring, out, 1024);
    printf("rt cycle: %.1f ns per cycle (best of 5 batches of %ld, clock reads + record + ring push + drain)\n",
           best, n);
    printf("dropped: %llu\n", (unsigned long long)rt_ring_dropped(&ring));
    rt_ring_free(&ring);
    return 0;
}
