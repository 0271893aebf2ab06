/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/procstat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int proc_stat_read(const char *path, struct proc_stat *ps)
{
    char buf[1024];
    memset(ps, 0, sizeof(*ps));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    int e = errno;
    close(fd);
    if (n < 0)
        return -e;
    buf[n > 0 ? n : 0] = '\0';
    char *open_p = strchr(buf, '('), *close_p = strrchr(buf, ')');
    if (!open_p || !close_p || close_p < open_p || close_p[1] != ' ')
        return -EINVAL;
    snprintf(ps->comm, sizeof(ps->comm), "%.*s", (int)(close_p - open_p - 1), open_p + 1);
    /* after ") ": field 3 (state) on */
    char *save = NULL, *t = strtok_r(close_p + 2, " \n", &save);
    int field = 3, got = 0;
    for (; t; field++, t = strtok_r(NULL, " \n", &save)) {
        switch (field) {
        case 3: ps->state = t[0]; got++; break;
        case 4: ps->ppid = strtol(t, NULL, 10); got++; break;
        case 5: ps->pgrp = strtol(t, NULL, 10); break;
        case 6: ps->session = strtol(t, NULL, 10); break;
        case 22: ps->starttime = strtoull(t, NULL, 10); got++; break;
        case 40: ps->rt_priority = strtoul(t, NULL, 10); break;
        case 41: ps->policy = strtoul(t, NULL, 10); ps->have_sched = 1; break;
        default: break;
        }
        if (field == 41)
            break;
    }
    return got == 3 ? 0 : -EINVAL;
}

int proc_stat_pid(pid_t pid, struct proc_stat *ps)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    return proc_stat_read(path, ps);
}

int proc_stopped(pid_t pid)
{
    struct proc_stat ps;
    return proc_stat_pid(pid, &ps) == 0 && (ps.state == 'T' || ps.state == 't');
}

unsigned long long proc_start_ticks(pid_t pid)
{
    struct proc_stat ps;
    return proc_stat_pid(pid, &ps) == 0 ? ps.starttime : 0;
}
