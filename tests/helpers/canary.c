/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: an independent observer of the machine's own stalls. A small SCHED_FIFO thread pinned to one CPU
 * wakes every INTERVAL_US on CLOCK_MONOTONIC (absolute deadlines) for DURATION_S, and keeps each wake-up later than
 * THRESH_US: when the CPU could not run it (a higher-priority thread, a stalled CPU, the hypervisor). It prints, at
 * the end, one line per late wake-up, "late DEADLINE_S LATENESS_US RAW_DEADLINE_S", and "wakeups N". RAW_DEADLINE_S
 * is the same deadline on CLOCK_MONOTONIC_RAW (the wake-up's RAW reading less its lateness): a report of jack2 is
 * on that clock, which runs apart from CLOCK_MONOTONIC by whatever NTP has slewed since boot (0.24 s two minutes
 * after a boot here; seconds on a machine up for days), so a window on one clock must be matched on the same clock. Its work is a clock read, so
 * a real-time thread of lower priority on that CPU loses microseconds to it, not periods. After a late wake-up the
 * next deadline is the first one still ahead (its schedule stays on the same grid). SIGTERM or SIGINT ends it early,
 * with the same output.
 *
 * With a sixth argument "stream" (the test runner's own canary, which runs through the whole suite and is read while
 * it runs) each late wake-up is printed as it is seen, with its deadline on CLOCK_REALTIME as a fourth field (the
 * runner times its tests on that clock); the printing delays only the canary itself, after its late wake-up.
 *
 * usage: canary CPU PRIO INTERVAL_US DURATION_S THRESH_US [stream] */
#include <errno.h>
#include "rt_pin.h"
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXLATE 65536

static int64_t clock_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

static struct { int64_t deadline, late, raw_deadline; } lates[MAXLATE];
static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    if (argc != 6 && !(argc == 7 && strcmp(argv[6], "stream") == 0)) {
        fprintf(stderr, "usage: %s CPU PRIO INTERVAL_US DURATION_S THRESH_US [stream]\n", argv[0]);
        return 2;
    }
    int stream = argc == 7;
    int cpu = atoi(argv[1]), prio = atoi(argv[2]);
    int64_t interval = (int64_t)(atof(argv[3]) * 1e3), thresh = (int64_t)(atof(argv[5]) * 1e3);
    int64_t dur = (int64_t)(atof(argv[4]) * 1e9);
    if (interval <= 0 || dur <= 0) {
        fprintf(stderr, "canary: interval and duration must be positive\n");
        return 2;
    }
    if (rt_pin(cpu, prio) < 0)
        return 1;
    struct sigaction sa = { .sa_handler = on_stop };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    fprintf(stderr, "ready\n");
    int64_t start = now_ns(), end = start + dur, next = start + interval;
    uint64_t wakeups = 0, n = 0, lost = 0;
    while (next < end && !stop) {
        struct timespec ts = { (time_t)(next / 1000000000LL), (long)(next % 1000000000LL) };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !stop)
            ;
        if (stop)
            break;
        int64_t t = now_ns(), raw = clock_ns(CLOCK_MONOTONIC_RAW), late = t - next;
        wakeups++;
        if (late > thresh && stream) {
            printf("late %.6f %.1f %.6f %.6f\n", (double)next / 1e9, (double)late / 1e3, (double)(raw - late) / 1e9,
                   (double)(clock_ns(CLOCK_REALTIME) - late) / 1e9);
            fflush(stdout);
        } else if (late > thresh) {
            if (n < MAXLATE) {
                lates[n].deadline = next;
                lates[n].late = late;
                lates[n].raw_deadline = raw - late;
                n++;
            } else {
                lost++;
            }
        }
        next += interval;
        if (next <= t)
            next += ((t - next) / interval + 1) * interval;
    }
    for (uint64_t i = 0; i < n; i++)
        printf("late %.6f %.1f %.6f\n", (double)lates[i].deadline / 1e9, (double)lates[i].late / 1e3,
               (double)lates[i].raw_deadline / 1e9);
    printf("wakeups %llu\n", (unsigned long long)wakeups);
    if (lost)
        printf("lost %llu\n", (unsigned long long)lost);
    return 0;
}
