/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helpers' own set-up: pin the calling process to one CPU and make it SCHED_FIFO at a priority. */
#ifndef RTJ_TEST_RT_PIN_H
#define RTJ_TEST_RT_PIN_H
#include <sched.h>
#include <stdio.h>

/* 0, or -1 after perror naming the call that failed. */
static inline int rt_pin(int cpu, int prio)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof(one), &one) < 0) {
        perror("sched_setaffinity");
        return -1;
    }
    struct sched_param sp = { .sched_priority = prio };
    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
        perror("sched_setscheduler");
        return -1;
    }
    return 0;
}
#endif
