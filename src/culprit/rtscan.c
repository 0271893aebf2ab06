/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real-time tasks that may run on the audio CPUs, for the culprit sampler: a scan of /proc/PID/task/TID about
 * once a second finds the SCHED_FIFO and SCHED_RR ones (stat's policy, rt_priority, processor) whose
 * Cpus_allowed_list meets an audio CPU (every CPU while none is known); every tick then reads the tasks found
 * (stat for where they are, schedstat for their CPU time in ns: stat's utime and stime count 4-10 ms ticks, too
 * coarse). All of it is readable by any user. A task that appears and ends between two scans is not seen: said in
 * the README. The sampler thread only (never RT). */
#include "culprit/engine_internal.h"
#include "util/utf8.h"
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLICY_FIFO 1
#define POLICY_RR 2

static bool numeric(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static bool meets(const uint64_t *a, const uint64_t *b)
{
    bool any = false;
    for (int i = 0; i < CE_CPUS_MAX / 64; i++) {
        if (a[i] & b[i])
            return true;
        any |= b[i] != 0;
    }
    return !any; /* no audio CPU known: every CPU counts */
}

/* The one CPU a mask allows, -1 when it allows several (or none). */
static int only_cpu(const uint64_t *m)
{
    int cpu = -1;
    for (int i = 0; i < CE_CPUS_MAX / 64; i++) {
        if (!m[i])
            continue;
        if (cpu >= 0 || (m[i] & (m[i] - 1)))
            return -1;
        cpu = i * 64 + __builtin_ctzll(m[i]);
    }
    return cpu;
}

static struct ce_task *find_task(struct culprit_engine *e, int tid)
{
    for (int i = 0; i < e->ntasks; i++)
        if (e->tasks[i].tid == tid)
            return &e->tasks[i];
    return NULL;
}

/* Whether the kernel itself says tid is not real time: the policy by one system call, where reading its stat is an
 * open, a read the kernel formats and a close (most of a scan's cost: every thread of the machine, once a second).
 * Only for the machine's own /proc (a fixture tree's tasks are not the kernel's); a task the call cannot see is read
 * as before. */
static bool surely_not_rt(const struct culprit_engine *e, int tid)
{
    if (!e->real_proc)
        return false;
    int p = sched_getscheduler(tid);
    if (p < 0)
        return false;
    p &= ~SCHED_RESET_ON_FORK;
    return p != SCHED_FIFO && p != SCHED_RR;
}

static void scan_task(struct culprit_engine *e, int pid, int tid, const uint64_t *audio)
{
    char path[400];
    struct ce_task_stat st;
    if (surely_not_rt(e, tid))
        return;
    snprintf(path, sizeof path, "%s/%d/task/%d/stat", e->proc, pid, tid);
    if (ce_read(&e->buf, path) < 0 || ce_parse_task_stat(e->buf.p, e->buf.len, &st) < 0)
        return;
    if (st.policy != POLICY_FIFO && st.policy != POLICY_RR)
        return;
    uint64_t allowed[CE_CPUS_MAX / 64] = {0};
    snprintf(path, sizeof path, "%s/%d/task/%d/status", e->proc, pid, tid);
    if (ce_read(&e->buf, path) < 0 || ce_parse_allowed(e->buf.p, e->buf.len, allowed, CE_CPUS_MAX) <= 0)
        memset(allowed, 0xff, sizeof allowed); /* unknown: it may run anywhere */
    if (!meets(allowed, audio))
        return;
    struct ce_task *t = find_task(e, tid);
    if (!t) {
        if (e->ntasks >= CE_TASKS_MAX) {
            e->tasks_lost++;
            return;
        }
        t = &e->tasks[e->ntasks++];
        /* the scan runs in a tick, after its stamp: the last tick's is surely before this read */
        *t = (struct ce_task){.pid = pid, .tid = tid, .last_run_ns = -1, .read_t_ns = e->last_t_ns};
        /* its CPU time now, so that the next tick has its delta */
        int64_t run, delay;
        snprintf(path, sizeof path, "%s/%d/task/%d/schedstat", e->proc, pid, tid);
        if (ce_read(&e->buf, path) == 0 && ce_parse_schedstat(e->buf.p, e->buf.len, &run, &delay) == 0)
            t->last_run_ns = run;
    }
    t->cpu = st.processor;
    t->only_cpu = only_cpu(allowed);
    t->prio = st.rt_priority;
    t->policy = st.policy == POLICY_FIFO ? 'F' : 'R';
    t->kthread = st.kthread;
    snprintf(t->comm, sizeof t->comm, "%s", st.comm);
    utf8_trim(t->comm);
    t->seen = true;
}

static void scan_process(struct culprit_engine *e, int pid, const uint64_t *audio)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%d/task", e->proc, pid);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)))
        if (numeric(de->d_name))
            scan_task(e, pid, atoi(de->d_name), audio);
    closedir(d);
}

/* Drops the tasks the scan no longer found (ended, or no longer real time or near the audio CPUs). */
static void drop_unseen(struct culprit_engine *e)
{
    int w = 0;
    for (int i = 0; i < e->ntasks; i++) {
        if (e->tasks[i].seen) {
            e->tasks[w++] = e->tasks[i];
        } else {
            ce_fd_close(&e->tasks[i].stat_fd);
            ce_fd_close(&e->tasks[i].sched_fd);
        }
    }
    e->ntasks = w;
}

void ce_rt_rescan(struct culprit_engine *e, const uint64_t *audio_mask)
{
    for (int i = 0; i < e->ntasks; i++)
        e->tasks[i].seen = false;
    DIR *d = opendir(e->proc);
    if (!d) {
        pthread_mutex_lock(&e->mu);
        e->readers[CER_RTTASKS].state = "absent";
        snprintf(e->readers[CER_RTTASKS].why, sizeof e->readers[CER_RTTASKS].why, "/proc cannot be listed");
        pthread_mutex_unlock(&e->mu);
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)))
        if (numeric(de->d_name))
            scan_process(e, atoi(de->d_name), audio_mask);
    closedir(d);
    drop_unseen(e);
    pthread_mutex_lock(&e->mu);
    e->readers[CER_RTTASKS].state = "on";
    snprintf(e->readers[CER_RTTASKS].why, sizeof e->readers[CER_RTTASKS].why, "%d real-time tasks followed%s",
             e->ntasks, e->tasks_lost ? " (more were not: the table is full)" : "");
    pthread_mutex_unlock(&e->mu);
}

/* One task at a tick: how much it ran since the last tick and, when it ran, where it is (its files kept open:
 * ce_read_fd; stat only for a task that ran, the one whose place a sample holds). */
static void read_task(struct culprit_engine *e, struct ce_task *t, struct ce_sample *s)
{
    char path[400];
    int64_t run, delay;
    struct ce_task_stat st;
    snprintf(path, sizeof path, "%s/%d/task/%d/schedstat", e->proc, t->pid, t->tid);
    if (ce_read_fd(&e->buf, &t->sched_fd, path) < 0 || ce_parse_schedstat(e->buf.p, e->buf.len, &run, &delay) < 0)
        return;
    int64_t d = t->last_run_ns >= 0 && run > t->last_run_ns ? run - t->last_run_ns : 0;
    int64_t since = t->read_t_ns; /* a read that failed before leaves this further back: the delta spans more */
    t->last_run_ns = run;
    t->read_t_ns = s->t_ns;
    if (d == 0 || !e->primed)
        return;
    snprintf(path, sizeof path, "%s/%d/task/%d/stat", e->proc, t->pid, t->tid);
    if (ce_read_fd(&e->buf, &t->stat_fd, path) == 0 && ce_parse_task_stat(e->buf.p, e->buf.len, &st) == 0) {
        t->cpu = st.processor;
        t->prio = st.rt_priority;
    }
    if (s->n_task >= CE_S_TASK) {
        s->lost++;
        return;
    }
    struct ce_task_run *r = &s->task[s->n_task++];
    *r = (struct ce_task_run){.pid = t->pid, .tid = t->tid, .cpu = t->cpu, .only_cpu = t->only_cpu, .prio = t->prio,
                              .policy = t->policy, .kthread = t->kthread, .run_ns = d, .since_ns = since};
    memcpy(r->comm, t->comm, sizeof r->comm);
}

void ce_rt_read(struct culprit_engine *e, struct ce_sample *s)
{
    for (int i = 0; i < e->ntasks; i++)
        read_task(e, &e->tasks[i], s);
}
