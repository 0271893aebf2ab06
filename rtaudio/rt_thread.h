/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Starting a backend's RT thread: SCHED_FIFO at a priority, a small stack, optionally pinned to one CPU. */
#ifndef RTJ_RT_THREAD_H
#define RTJ_RT_THREAD_H
#include <pthread.h>
#include <stddef.h>

/* Main thread. Creates the thread at SCHED_FIFO priority; without the right to real-time scheduling (EPERM),
 * the same thread at the policy it inherits (*fifo says which: the report must state what the thread got).
 * cpu >= 0 pins it from its birth. Returns 0 or -errno. */
int rt_thread_start(pthread_t *t, size_t stack_bytes, int priority, int cpu, void *(*fn)(void *), void *arg,
                    int *fifo);

#endif
