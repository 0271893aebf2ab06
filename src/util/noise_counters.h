/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's counters (rtaudio/noise/, issue 38): what a probed CPU's columns of /proc/interrupts and
 * /proc/softirqs, its steal in /proc/stat, the probe thread's own schedstat and involuntary switches, and the SMI
 * count (MSR 0x34, where /dev/cpu/N/msr is readable) say at one moment. Read under a root ("" is this machine; a
 * test gives a fake tree). The parsers take text already read and survive any bytes: a malformed file gives fewer
 * rows, never a crash. Not RT-safe: the probe's classifier thread only (normal priority), never the probe loop. */
#ifndef RTJ_UTIL_NOISE_COUNTERS_H
#define RTJ_UTIL_NOISE_COUNTERS_H
#include <stddef.h>
#include <stdint.h>

#define NOISE_LINES_MAX 128   /* interrupt and softirq lines followed; the rest are counted in overflow */
#define NOISE_NAME_MAX 40

/* The lines seen so far, in order of first sight: "LOC", "36:virtio1-req.0" (a numbered line: its number and its
 * last word, the device), softirqs as "NET_RX" (softirq[i] 1). A line that vanishes keeps its slot. */
struct noise_lines {
    int n;
    int overflow;                      /* lines not followed: the table was full */
    char name[NOISE_LINES_MAX][NOISE_NAME_MAX];
    unsigned char softirq[NOISE_LINES_MAX];
};

/* One CPU's counters at one moment. */
struct noise_counts {
    uint64_t line[NOISE_LINES_MAX];    /* by struct noise_lines index */
    uint64_t steal_ticks;              /* /proc/stat cpuN's steal, USER_HZ ticks */
    int64_t run_delay_ns;              /* the probe thread's schedstat: time runnable but not running */
    int64_t exec_ns;                   /* and its run time */
    uint64_t invol_switches;           /* its nonvoluntary_ctxt_switches */
    int64_t smi;                       /* MSR 0x34 (Intel's SMI count), -1 when not readable */
    int ok;                            /* bit 0 interrupts, 1 softirqs, 2 stat, 3 schedstat, 4 status: read */
};
enum { NOISE_OK_IRQ = 1, NOISE_OK_SOFTIRQ = 2, NOISE_OK_STAT = 4, NOISE_OK_SCHED = 8, NOISE_OK_STATUS = 16 };

/* A /proc/interrupts or /proc/softirqs text: for each of the ncpus CPUs in cpus[], its column into out[i].line,
 * new lines added to t. Returns the rows read, or -1 when the header names none of the CPUs. */
int noise_parse_table(const char *text, size_t len, int softirq, struct noise_lines *t, const int *cpus, int ncpus,
                      struct noise_counts *out);
/* /proc/stat: each CPU's steal into out[i].steal_ticks. Returns the CPUs found. */
int noise_parse_steal(const char *text, size_t len, const int *cpus, int ncpus, struct noise_counts *out);
/* A task's schedstat "RUN_NS DELAY_NS SLICES" and status' "nonvoluntary_ctxt_switches:". 0 or -1. */
int noise_parse_schedstat(const char *text, size_t len, struct noise_counts *c);
int noise_parse_invol(const char *text, size_t len, struct noise_counts *c);

/* Reusable buffers and open MSR files of a reader. */
struct noise_reader {
    char root[256];
    char *buf;
    size_t cap;
    int msr_fd[64];                    /* per probed CPU index, -1: none (not root, no msr driver, not Intel) */
};
/* Main thread. ncpus <= 64. The MSR files are opened here (they need root); 0 or -ENOMEM. */
int noise_reader_open(struct noise_reader *r, const char *root, const int *cpus, int ncpus);
void noise_reader_close(struct noise_reader *r, int ncpus);
/* Classifier thread: every counter of the ncpus CPUs (tids[i]: the probe thread on cpus[i], 0: none yet) into
 * out[], new lines into t. Returns 0 (what could not be read is left out of ok). */
int noise_read(struct noise_reader *r, struct noise_lines *t, const int *cpus, const int *tids, int ncpus,
               struct noise_counts *out);

#endif
