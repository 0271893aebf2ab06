/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helpers' own clock: CLOCK_MONOTONIC in seconds (what they log as their truth), and a sleep to such a time. */
#ifndef RTJ_TEST_MONO_S_H
#define RTJ_TEST_MONO_S_H
#include <errno.h>
#include <time.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void sleep_until(double t)
{
    struct timespec ts = { (time_t)t, (long)((t - (double)(time_t)t) * 1e9) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}
#endif
