/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fake /proc and /sys for the culprit engine's unit tests: the test writes the counters it wants the engine to
 * see at each tick (the truth is what it wrote), then ticks the engine by hand on made-up times. */
#ifndef RTJ_TEST_CULPRIT_TREE_H
#define RTJ_TEST_CULPRIT_TREE_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ctree {
    char root[256];
    /* counters, written by ctree_write */
    unsigned long long irq145[2], loc[2], netrx[2], steal[2];
    unsigned long long cal[2];           /* function-call IPIs (x86's CAL line) */
    const char *rps_lo;                  /* lo's queues/rx-0/rps_cpus (packet steering), NULL: no such file */
    long long audio_run, audio_delay;
    long long task_run;                  /* the RT task's schedstat run time, ns */
    int task_prio, task_cpu, task_policy; /* its stat fields 40, 39, 41 */
    const char *task_allowed;            /* its Cpus_allowed_list, NULL: "0-1" (either CPU) */
    long long psi_cpu;
    long khz1;                           /* CPU 1's scaling_cur_freq, 0: no cpufreq */
};

static inline void ctree_mkdirs(const char *path)
{
    char b[512];
    snprintf(b, sizeof b, "%s", path);
    for (char *p = b + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(b, 0755);
            *p = '/';
        }
}

static inline void ctree_file(const struct ctree *t, const char *rel, const char *fmt, ...)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", t->root, rel);
    ctree_mkdirs(path);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

/* A task's stat line: pid, comm, then fields 3..52 with processor (39), rt_priority (40) and policy (41). */
static inline void ctree_stat(const struct ctree *t, const char *rel, int pid, const char *comm, int cpu, int prio,
                              int policy)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%d (%s) S", pid, comm);
    for (int f = 4; f <= 52; f++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %d", f == 39 ? cpu : f == 40 ? prio : f == 41 ? policy : 0);
    ctree_file(t, rel, "%s\n", line);
}

#define CT_AUDIO_PID 4242
#define CT_AUDIO_TID 4243
#define CT_TASK_PID 812

static inline void ctree_write(const struct ctree *t)
{
    ctree_file(t, "proc/interrupts", "           CPU0       CPU1       \n"
               " 145: %10llu %10llu  IR-PCI-MSI 1-edge      iwlwifi\n"
               "LOC: %10llu %10llu   Local timer interrupts\n"
               "CAL: %10llu %10llu   Function call interrupts\n"
               "ERR:          0\n", t->irq145[0], t->irq145[1], t->loc[0], t->loc[1], t->cal[0], t->cal[1]);
    if (t->rps_lo)
        ctree_file(t, "sys/class/net/lo/queues/rx-0/rps_cpus", "%s\n", t->rps_lo);
    ctree_file(t, "sys/kernel/irq/145/actions", "iwlwifi\n");
    ctree_file(t, "proc/softirqs", "                    CPU0       CPU1       \n"
               "          HI:          0          0\n"
               "      NET_RX: %10llu %10llu\n", t->netrx[0], t->netrx[1]);
    ctree_file(t, "proc/stat", "cpu  1 2 3 4 5 6 7 %llu 0 0\ncpu0 1 2 3 4 5 6 7 %llu 0 0\ncpu1 1 2 3 4 5 6 7 %llu 0 0\n"
               "intr 0\n", t->steal[0] + t->steal[1], t->steal[0], t->steal[1]);
    ctree_file(t, "proc/4242/task/4243/schedstat", "%lld %lld 100\n", t->audio_run, t->audio_delay);
    ctree_stat(t, "proc/4242/task/4243/stat", CT_AUDIO_TID, "rtj-audio", 1, 10, 1);
    ctree_file(t, "proc/4242/task/4243/status", "Name:\trtj-audio\nCpus_allowed_list:\t1\n");
    ctree_stat(t, "proc/812/task/812/stat", CT_TASK_PID, "spin", t->task_cpu, t->task_prio, t->task_policy);
    ctree_file(t, "proc/812/task/812/status", "Name:\tspin\nCpus_allowed_list:\t%s\n",
               t->task_allowed ? t->task_allowed : "0-1");
    ctree_file(t, "proc/812/task/812/schedstat", "%lld 0 10\n", t->task_run);
    if (t->khz1)
        ctree_file(t, "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "%ld\n", t->khz1);
    ctree_file(t, "proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=%lld\n"
               "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", t->psi_cpu);
}

static inline void ctree_init(struct ctree *t)
{
    memset(t, 0, sizeof *t);
    const char *tmp = getenv("TMPDIR");
    snprintf(t->root, sizeof t->root, "%.200s/rtj-culprit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(t->root))
        abort();
    t->task_prio = 95;
    t->task_cpu = 1;
    t->task_policy = 1;
}

/* A fresh tree, written, and its proc and sys roots for a culprit_config (each n bytes). */
static inline void ctree_roots(struct ctree *t, char *proc, char *sys, size_t n)
{
    ctree_init(t);
    ctree_write(t);
    snprintf(proc, n, "%s/proc", t->root);
    snprintf(sys, n, "%s/sys", t->root);
}

static inline void ctree_free(struct ctree *t)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", t->root);
}
#endif
