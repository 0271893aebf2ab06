/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPUs a backend pins its RT threads to (cpulist.h). Main thread only. */
#include "cpulist.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "0-3,6" into set; every CPU must be online. 0 or -EINVAL with one line. */
static int parse_cpus(const char *text, const cpu_set_t *online, cpu_set_t *set, char *err, size_t len)
{
    CPU_ZERO(set);
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long lo = strtol(p, &end, 10), hi;
        if (end == p || errno || lo < 0 || lo >= CPU_SETSIZE)
            goto bad;
        hi = lo;
        p = end;
        if (*p == '-') {
            const char *q = p + 1;
            hi = strtol(q, &end, 10);
            if (end == q || errno || hi < lo || hi >= CPU_SETSIZE)
                goto bad;
            p = end;
        }
        for (long c = lo; c <= hi; c++) {
            if (!CPU_ISSET((int)c, online)) {
                snprintf(err, len, "--cpus: CPU %ld is not online", c);
                return -EINVAL;
            }
            CPU_SET((int)c, set);
        }
        if (*p == ',' && p[1])
            p++;
        else if (*p)
            goto bad;
    }
    if (CPU_COUNT(set) > 0)
        return 0;
bad:
    snprintf(err, len, "--cpus: '%.60s' is not a CPU list such as 0-3,6", text);
    return -EINVAL;
}

/* The online CPUs, from sysfs' list; without sysfs, the CPUs this process may run on. */
static void online_cpus(cpu_set_t *set)
{
    char buf[4096], err[128];
    FILE *f = fopen("/sys/devices/system/cpu/online", "re");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < CPU_SETSIZE; c++)
        CPU_SET(c, &all);
    if (n == 0 || parse_cpus(buf, &all, set, err, sizeof(err)) < 0)
        sched_getaffinity(0, sizeof(*set), set);
}


void cpulist_text(const cpu_set_t *set, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && o < len; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        o += (size_t)snprintf(buf + o, len - o, e > c ? "%s%d-%d" : "%s%d", o ? "," : "", c, e);
        c = e;
    }
}

int cpulist_select(const char *text, cpu_set_t *set, char *err, size_t len)
{
    if (text) {
        cpu_set_t online;
        online_cpus(&online);
        int e = parse_cpus(text, &online, set, err, len);
        if (e < 0)
            return e;
    } else if (sched_getaffinity(0, sizeof(*set), set) < 0) {
        int e = errno;
        snprintf(err, len, "cannot read the CPUs this process may run on: %s", strerror(e));
        return -e;
    }
    /* A CPU the process's cpuset (cgroup) forbids refuses the threads' pinning: found now, as bad input. */
    cpu_set_t mine;
    if (text && pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            if (CPU_ISSET(c, set) && pthread_setaffinity_np(pthread_self(), sizeof(one), &one) != 0) {
                pthread_setaffinity_np(pthread_self(), sizeof(mine), &mine);
                snprintf(err, len, "--cpus: CPU %d is outside this process's cpuset (its cgroup or container)", c);
                return -EINVAL;
            }
        }
        pthread_setaffinity_np(pthread_self(), sizeof(mine), &mine);
    }
    return 0;
}
