/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rt_thread.h"
#include <errno.h>
#include <sched.h>

int rt_thread_start(pthread_t *t, size_t stack_bytes, int priority, int cpu, void *(*fn)(void *), void *arg,
                    int *fifo)
{
    for (int rt = 1; rt >= 0; rt--) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, stack_bytes);
        if (cpu >= 0) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
        }
        if (rt) {
            struct sched_param sp = { .sched_priority = priority };
            pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
            pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
            pthread_attr_setschedparam(&attr, &sp);
        }
        int e = pthread_create(t, &attr, fn, arg);
        pthread_attr_destroy(&attr);
        if (e == 0) {
            *fifo = rt;
            return 0;
        }
        if (e != EPERM)
            return -e;
    }
    return -EPERM;
}
