/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: an injected stall. A SCHED_FIFO thread pinned to one CPU spins (busy, never sleeping) for SPIN_MS
 * every EVERY_MS, COUNT times, after waiting DELAY_MS; a real-time thread of lower priority on that CPU cannot run
 * meanwhile. It prints each spin's start and end on CLOCK_MONOTONIC, in seconds ("spin START END"), as measured
 * by itself: the truth a test compares the timer backend's wake-ups and skipped periods with.
 *
 * usage: cpu_hog CPU PRIO SPIN_MS EVERY_MS COUNT DELAY_MS [LINGER_MS]
 * LINGER_MS: it stays (asleep) this long after its last spin before it exits: a sampler that reads its CPU time
 * every 50 ms needs one more read after the spin (a task that exits within one sample of its run is not seen). */
#include <errno.h>
#include "mono_s.h"
#include "rt_pin.h"
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: %s CPU PRIO SPIN_MS EVERY_MS COUNT DELAY_MS [LINGER_MS]\n", argv[0]);
        return 2;
    }
    int cpu = atoi(argv[1]), prio = atoi(argv[2]), count = atoi(argv[5]);
    double spin = atof(argv[3]) / 1e3, every = atof(argv[4]) / 1e3, delay = atof(argv[6]) / 1e3;
    if (rt_pin(cpu, prio) < 0)
        return 1;
    double start = now_s() + delay;
    for (int i = 0; i < count; i++) {
        sleep_until(start + i * every);
        double a = now_s(), b;
        while ((b = now_s()) - a < spin)
            ;
        printf("spin %.6f %.6f\n", a, b);
    }
    fflush(stdout);
    if (argc == 8) {
        struct timespec ts = { atoi(argv[7]) / 1000, (long)(atoi(argv[7]) % 1000) * 1000000L };
        nanosleep(&ts, NULL);
    }
    return 0;
}
