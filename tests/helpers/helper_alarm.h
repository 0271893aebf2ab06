/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helpers' own end: SIGALRM after RTJ_HELPER_ALARM_S seconds (default 120), so that a test that forgets a helper
 * leaves nothing running; a long bench (tests/bench.d/watch_hour.sh) sets the run's length. */
#ifndef RTJ_TEST_HELPER_ALARM_H
#define RTJ_TEST_HELPER_ALARM_H
#include <stdlib.h>
#include <unistd.h>

static inline void helper_alarm(void)
{
    const char *v = getenv("RTJ_HELPER_ALARM_S");
    long n = v ? strtol(v, NULL, 10) : 0;
    alarm(n > 0 && n < 864000 ? (unsigned)n : 120);
}

#endif
