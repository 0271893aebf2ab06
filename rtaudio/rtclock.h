/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measurement clock. RT-safe: clock_gettime() on CLOCK_MONOTONIC(_RAW) is served by the vDSO,
 * without a system call, on Linux >= 5.3 (x86_64, arm64). */
#ifndef RTJ_RTCLOCK_H
#define RTJ_RTCLOCK_H
#include <stdint.h>
#include <time.h>

/* RT-safe (runs in the RT thread). */
static inline int64_t rt_now_ns(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The one monotonic-clock helper for everything that is not the measurement itself (timeouts, phase lengths,
 * naps): CLOCK_MONOTONIC in ns. RT-safe too (vDSO). */
static inline int64_t mono_ns(void)
{
    return rt_now_ns(CLOCK_MONOTONIC);
}

static inline double mono_s(void)
{
    return (double)mono_ns() / 1e9;
}

/* Not RT-safe (it sleeps): a pause of ms milliseconds, for polling loops outside the RT thread. */
static inline void mono_nap_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

#endif
