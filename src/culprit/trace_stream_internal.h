/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace stream's state, shared by its two parts only: feeding (trace_stream.c: segments and waits as the events
 * come) and explaining (trace_stream_explain.c: one happening's account, the text a person reads). Not for callers
 * outside these two files: they use trace_stream.h. The sampler thread only. */
#ifndef RTJ_CULPRIT_TRACE_STREAM_INTERNAL_H
#define RTJ_CULPRIT_TRACE_STREAM_INTERNAL_H

#include "culprit/trace_stream.h"
#include <stdint.h>

/* One stretch of a CPU: from t0_ns to the next segment's t0_ns (the newest: to the CPU's last event). */
struct ts_seg {
    int64_t t0_ns;
    int32_t id;               /* TS_TASK: an identity's index; TS_IRQ/TS_SOFTIRQ: the line, the vector */
    uint16_t fn;              /* TS_TASK: a workqueue function's index + 1, 0 none */
    uint8_t ctx;              /* enum ts_ctx */
    uint8_t gen;              /* TS_TASK: its identity's gen then (another gen now: reused, the task not known) */
};

#define STACK_MAX 8

struct ts_cpu {
    struct ts_seg *seg;       /* a ring of the stream's segs_per_cpu */
    uint32_t nseg;            /* segments made; the ring holds the last nseg_cap */
    int64_t last_ns;          /* the CPU's last event */
    int started;              /* its context is known (after its first event, or after lost events) */
    int task;                 /* the identity on it */
    uint8_t task_gen;         /* that identity's gen when it came (another now: reused, the task not known) */
    uint16_t fn;              /* the workqueue function of the work item running, index + 1 */
    int depth;
    struct { uint8_t ctx; int32_t id; } stack[STACK_MAX];
    int64_t quiet0_ns, quiet1_ns; /* its last silence of TS_QUIET_NS or more: from one event to the next */
};

/* An audio thread's wait: [t0, t1] on cpu (where it then ran); slept_ns: when it had gone to sleep before the
 * waking that began the wait (0: it was preempted, runnable). */
struct ts_wait {
    int64_t t0_ns, t1_ns, slept_ns;
    int32_t tid;
    int16_t cpu, prio;
    int16_t waker_cpu;        /* where the waking was issued (-1: not seen) */
    int8_t any_cpu;
    int8_t waker_watched;     /* another audio thread woke it (the server's: its lateness is that thread's wait) */
    int32_t quiet0_ago, quiet1_ago; /* the waker CPU's last silence (TS_QUIET_NS or more with no event) before the
                                     * waking: from t0_ns - quiet0_ago to t0_ns - quiet1_ago (0, 0: none within
                                     * 2 s) */
};

/* The shortest silence of a CPU (no event at all) that a wait remembers: a timer due in it whose interrupt did not
 * come (ts_set_own_timer) */
#define TS_QUIET_NS 100000

struct ts_watch_state {
    int tid, state;           /* 0 unknown, 1 asleep, 2 runnable (waiting), 3 running */
    int any_cpu;              /* a server's thread: its waits count on any CPU */
    int64_t since_ns, slept_ns;
    int prio, waker_watched, waker_cpu;
    int64_t quiet0_ns, quiet1_ns; /* the waker CPU's last silence before the waking (0, 0: none) */
};

/* A wait as ts_explain gathers them (one a wait in the ring that overlaps the happening). */
struct ts_span { int64_t a, b; int cpu, prio; };

struct trace_stream {
    int64_t tick_ns, gap_ns;
    int64_t lead_ns;          /* a server's wait ending this much before a happening is its (ts_set_period) */
    int64_t idle_exit_ns;     /* the slowest enabled idle state's exit latency; -1 not known (ts_set_idle_exit) */
    int own_timer;            /* the primary is woken by its own timer, due at a happening's start (ts_set_own_timer) */
    int segs_per_cpu, ncpus;
    struct ts_cpu cpu[TS_CPUS];
    struct ts_ident id[TS_IDS];
    long long nid;            /* identities made; the ring holds the last TS_IDS */
    struct { int pid, idx1; } id_of[TS_ID_SLOTS]; /* pid -> identity index + 1 (0 empty; checked against its
                                                   * pid: a slot whose identity was reused since is free) */
    long long stale;          /* segments met whose identity had been reused since */
    long long switch_missed;  /* events whose header named another task than the CPU's last switch */
    char fn[TS_FNS][48];
    int nfn;
    struct { int irq; char name[TEV_COMM_MAX]; } irqname[256];
    int nirqname;
    struct ts_watch_state watch[TS_WATCH];
    int nwatch;
    struct ts_wait wait[TS_WAITS];
    long long nwait;
    struct ts_span span[TS_WAITS]; /* ts_explain's scratch: every wait of the ring may overlap a long event */
    int (*probe)(int pid, const char *comm);
    int span_self;            /* ts_account_span's asking thread while it accounts (no holder), 0 none */
    long long events, lost, late;
    int64_t first_ns, last_ns;
};

/* The ring size of a CPU's segments: one size for every CPU, set at the start. */
static inline int ts_cap_of(const struct trace_stream *ts)
{
    return ts->segs_per_cpu;
}

#endif
