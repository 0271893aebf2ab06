/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPUs a backend pins its RT threads to (--cpus), shared by the timer and the noise probe. Main thread only:
 * nothing here runs in an RT thread. */
#ifndef RTJ_CPULIST_H
#define RTJ_CPULIST_H
#include <sched.h>
#include <stddef.h>

/* The CPUs to measure on: text ("0-3,6", every CPU online and inside this process's cpuset), or with text NULL the
 * CPUs this process may run on. 0, or -errno with one line in err (-EINVAL: bad input). */
int cpulist_select(const char *text, cpu_set_t *set, char *err, size_t len);
/* A list of the CPUs in set, "0-1,3", for the report. */
void cpulist_text(const cpu_set_t *set, char *buf, size_t len);

#endif
