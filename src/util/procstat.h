/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One process's (or thread's) line of /proc/PID/stat, split into the fields rtjitter reads. The name (comm) may hold
 * spaces and parentheses: the fields follow the last ')'. Any thread; no allocation. */
#ifndef RTJ_UTIL_PROCSTAT_H
#define RTJ_UTIL_PROCSTAT_H
#include <sys/types.h>

struct proc_stat {
    char comm[64];
    char state;                 /* R, S, D, T (stopped), t (traced), Z, ... */
    long ppid, pgrp, session;
    unsigned long long starttime; /* clock ticks since boot (field 22) */
    unsigned long rt_priority;    /* field 40 (0 when the line is shorter) */
    unsigned long policy;         /* field 41: SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2, ... */
    int have_sched;               /* fields 40 and 41 were there */
};

/* The stat file at path (/proc/PID/stat, /proc/PID/task/TID/stat, or one under a root prefix). 0, or -errno:
 * -ENOENT and the like when it cannot be opened (the process is gone), -EINVAL when the line is not one. */
int proc_stat_read(const char *path, struct proc_stat *ps);
/* /proc/PID/stat of this machine. */
int proc_stat_pid(pid_t pid, struct proc_stat *ps);
/* Is pid stopped (state T: SIGSTOP, SIGTSTP; t: a tracer's stop)? 0 when it is not, or is gone. */
int proc_stopped(pid_t pid);
/* pid's start (clock ticks since boot), 0 when it is gone: with its PID, what tells a process from a later one of
 * the same number. */
unsigned long long proc_start_ticks(pid_t pid);

#endif
