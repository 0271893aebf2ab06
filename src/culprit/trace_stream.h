/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace as a stream (issue "Culprits, true"): the kernel's scheduler, interrupt and workqueue events, read as
 * they come (the instance's binary rings or its trace_pipe, src_trace.c), kept as what each CPU was doing — a ring of segments per CPU,
 * each one context: a task (comm, pid, priority, kernel thread or not, a kworker's workqueue function), a hard IRQ,
 * a softirq, idle, or nothing at all (no event for longer than a tick while the CPU was busy: the CPU was not
 * running; in a VM, the host did not run the virtual CPU) — and the waits of the audio threads: from sched_waking,
 * or from a preemption (switched out runnable), to the switch-in. A happening is then explained by accounting the
 * audio threads' waits that overlap it, CPU time by who held the CPU (ts_explain): who held most of the wait is its
 * culprit, in measured time, never a window's guess.
 *
 * Pure functions of the events fed (struct tev, tracefs_parse.h): tests/unit/test_trace_stream.c feeds events whose
 * times it chose. The engine's sampler thread alone calls these (normal priority, never the RT thread). Memory is
 * bounded at the start: rings, not lists. */
#ifndef RTJ_TRACE_STREAM_H
#define RTJ_TRACE_STREAM_H
#include "culprit/tracefs_parse.h"
#include <stddef.h>
#include <stdint.h>

#define TS_CPUS 256           /* CPUs followed (events of a higher CPU are ignored, and counted) */
#define TS_SEG_BUDGET (1u << 20) /* bytes of segments in all, shared out among the CPUs (32,768 a CPU on 2 CPUs:
                                  * ~2.5 s of a busy CPU, ~14,000 events a second; an explain comes ~0.7 s after
                                  * its happening's end: the window after and the polled sources' lag). 1 MiB, not
                                  * 2: a watch left on for hours holds under 4 MiB (issues 32 and 34) */
#define TS_IDS 8192           /* task identities, one a pid (a ring: the oldest is reused; a compile's thousands of
                               * processes take minutes to go round it, the segments reach back seconds; a segment
                               * whose identity was reused since names no one: TS_UNKNOWN, never another task) */
#define TS_ID_SLOTS 8192      /* the pid -> identity table: each pid's slot and the next TS_ID_PROBES (pids 8,192
                               * apart share a slot: with one slot a pid, two such pids running by turns made a new
                               * identity at every switch and went round the ring in seconds) */
#define TS_ID_PROBES 8
#define TS_FNS 512            /* workqueue function names */
#define TS_WATCH 8            /* audio threads followed */
#define TS_WAITS 4096         /* their last waits */
#define TS_HOLDERS 12         /* holders of one explained happening */

/* What a CPU was doing. TS_LOST: not known because the CPU's ring lost events then (from its last event before the
 * loss to its first after it); TS_MISSED: not known because a switch came that the trace does not hold (from the CPU's
 * last event to the first that named another task); TS_UNKNOWN: not known otherwise (before its first event). None
 * is ever a holder. */
enum ts_ctx { TS_UNKNOWN, TS_TASK, TS_IRQ, TS_SOFTIRQ, TS_IDLE, TS_NOEVENT, TS_LOST, TS_MISSED };

/* A task the stream saw. prio: the kernel's (0-99 real time: rt priority 99 - prio; 100-139 normal; -1 unknown). */
struct ts_ident {
    int pid, prio;
    int8_t kthread;           /* 1 a kernel thread, 0 not, -1 not known */
    uint8_t gen;              /* which time round the ring made it (1-255, then 1 again; 0: never made) */
    char comm[16];            /* the kernel's TASK_COMM_LEN: a task's name is at most 15 bytes */
};

/* One holder of the CPU in the waits accounted. */
struct ts_holder {
    enum ts_ctx ctx;
    int id;                   /* TS_TASK: pid; TS_IRQ: the line (negative: an x86 vector); TS_SOFTIRQ: the vector */
    int prio, kthread;        /* TS_TASK */
    char name[TEV_COMM_MAX];  /* comm, the IRQ's name ("iwlwifi", "LOC"), the softirq's ("NET_RX") */
    char fn[48];              /* a kworker's workqueue function, "" when none */
    int64_t ns;               /* of the waits */
};

/* One happening's account: the audio threads' longest wait in it, and who held its CPU. */
struct ts_account {
    int waits;                /* waits in it (merged per CPU where they overlapped) */
    int64_t wait_ns;          /* the one accounted: the longest (from the due time when the wake came late) */
    int64_t longest_ns;       /* the same; its CPU, the audio thread's prio in it (real time or not) */
    int longest_cpu, audio_prio;
    int64_t unknown_ns;       /* of wait_ns, what the stream does not know (before it, lost events) */
    int64_t lost_ns;          /* of unknown_ns, the stretches in which the CPU's ring lost events */
    int64_t missed_ns;        /* of unknown_ns, the stretches after a switch the trace does not hold */
    int64_t due_silent_ns;    /* of a TS_NOEVENT holder's time, the silence after the primary's own timer was due
                               * (ts_set_own_timer): its interrupt did not come */
    int64_t idle_exit_ns;     /* the slowest idle state's exit latency (0: no idle states, it halts); -1 not known */
    int nheld;
    struct ts_holder held[TS_HOLDERS]; /* by ns, largest first */
};

struct trace_stream;

/* A stream that takes a CPU busy with no event for longer than tick_ns (the kernel's tick; 0: 4 ms) plus a
 * quarter as not running. NULL when out of memory. */
struct trace_stream *ts_new(int64_t tick_ns);
void ts_free(struct trace_stream *ts);
/* The kernel's tick, once known (before the first event). */
void ts_set_tick(struct trace_stream *ts, int64_t tick_ns);
/* How long the slowest idle state the CPUs may enter takes to leave (the cpuidle states' exit latency; 0: no idle
 * states, an idle CPU halts and a halt is left in a microsecond or two): an idle CPU that let a woken audio thread
 * wait much longer than that was not running (trace_class.h). -1: not known. */
void ts_set_idle_exit(struct trace_stream *ts, int64_t ns);
/* The primary audio thread sleeps on its own timer, due at each cycle's start (the timer backend; not a sound card's
 * interrupt, whose time the card keeps): when its wake came late and its CPU, busy, recorded no event at all from the
 * due time until the interrupt that woke it, that silence is TS_NOEVENT, however shorter than a tick and a quarter
 * (a timer interrupt was due in it and did not come). */
void ts_set_own_timer(struct trace_stream *ts, int on);
/* The audio period (0: not known). A server's cycle begins when its driver thread runs: the time the server gives
 * for the cycle (jack2's cycle begin, a happening's start) is taken just after that thread's switch-in, so the
 * driver's wait that made the cycle late ends just before the happening starts (35 us before, on a busy machine:
 * jackd's 0.81 ms wait behind a writer that the report left out, and named the idle CPU). A server thread's newest
 * wait that ended up to half a period before a happening's start is taken with it: an older one there is the
 * previous cycle's (a cycle that began 1.8 ms late, the next on time 0.85 ms after it). */
void ts_set_period(struct trace_stream *ts, int64_t period_ns);
/* The segments' budget in bytes (TS_SEG_BUDGET unless set), before the first event: later it changes nothing. */
void ts_set_budget(struct trace_stream *ts, size_t bytes);
/* An audio thread to follow (its waits are explained; its own time is never a holder). Up to TS_WATCH; the first
 * is the primary (rtjitter's own audio thread: its cycle's due time is known, see ts_explain). Our own threads'
 * waits count for a happening on their CPU; a server's (any_cpu) on any CPU. */
int ts_watch(struct trace_stream *ts, int tid, int any_cpu);
/* Whether tid is followed. */
int ts_watched(const struct trace_stream *ts, int tid);
/* A kernel thread or not, asked once per new task (reads /proc in the source; a test may answer from a table);
 * NULL: by its name only. Returns 1, 0, or -1 when unknown. */
void ts_set_kthread_probe(struct trace_stream *ts, int (*probe)(int pid, const char *comm));
/* One event, in time order (trace_pipe gives them so; trace_raw.c merges the CPUs' rings so). */
void ts_feed(struct trace_stream *ts, const struct tev *ev);
/* A line of trace text (tev_parse, then ts_feed); 1 when it was an event. */
int ts_feed_line(struct trace_stream *ts, const char *line, size_t len);
/* A workqueue function fed by another name (the binary reader feeds an address until it is named: trace_raw.h)
 * gets its name, for the work already fed and what follows. */
void ts_rename_fn(struct trace_stream *ts, const char *from, const char *to);

/* Accounts the longest wait of the followed threads that overlaps [t0_ns, t1_ns] (a spike's [due, entry], an
 * event's [first cycle due, last disturbed entry]), from its sched_waking (or preemption) to its switch-in, by who
 * held its CPU. The primary thread's cycle was due at t0_ns: when it slept then and its waking came more than twice
 * that wait's length after the due time, [t0_ns, its switch-in] is accounted instead (the wake came late: what held
 * the CPU while the timer's interrupt did not come). cpu >= 0 limits the waits to those that ended on it. Returns
 * the number of waits in it (0: none: not known). */
int ts_explain(struct trace_stream *ts, int64_t t0_ns, int64_t t1_ns, int cpu, struct ts_account *out);

/* Who held cpu over [t0_ns, t1_ns] (the noise probe's gaps, issue 38): the span accounted as ts_explain accounts
 * a wait, the followed threads' own time and self_tid's (the probe thread that asks; 0 none) not a holder (the time
 * the kernel gave the probe in its own gap was taken below the kernel). out->wait_ns is the span, out->unknown_ns what the stream does not
 * know of it, out->held its holders, largest first. Returns 1 when the stream has seen the CPU past t1_ns (the
 * account is final), 0 when not yet (what is after its last event is unknown: ask again later). */
int ts_account_span(struct trace_stream *ts, int cpu, int self_tid, int64_t t0_ns, int64_t t1_ns,
                    struct ts_account *out);

/* How long the rings lost events over [t0_ns, t1_ns] on cpu (-1: on any CPU, the longest): a happening with no wait
 * of the audio threads in it is "not known" because the trace lost events then, not because they did not wait. */
int64_t ts_lost_in(const struct trace_stream *ts, int cpu, int64_t t0_ns, int64_t t1_ns);

/* The segments of cpu over [a, b], one a line ("SECS.NS  LEN ms  CONTEXT NAME..."), into buf: the slice saved beside
 * the report. Returns the length written. */
size_t ts_describe(struct trace_stream *ts, int cpu, int64_t a, int64_t b, char *buf, size_t len);
/* Whether a task of this name is a kernel thread by its name alone (kworker/, ksoftirqd/, migration/ ...). */
int ts_kthread_by_name(const char *comm);

/* Counters for the summary. */
struct ts_stats {
    long long events, lost, waits, late_events; /* late_events: fed out of time order (skipped) */
    long long identities;     /* task identities made (the ring holds the last TS_IDS) */
    long long stale;          /* segments met whose identity had been reused since: not known, not named */
    long long switch_missed;  /* switches the trace did not hold (the header named another task): not known */
    int cpus, segs_per_cpu;
    int64_t first_ns, last_ns;
};
void ts_get_stats(const struct trace_stream *ts, struct ts_stats *out);

#endif
