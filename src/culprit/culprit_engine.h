/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit engine: one normal-priority thread (never real time, never the RT thread) that samples what any user
 * may read, 10-20 times a second, into ~30 s of history with rolling per-CPU baselines, polls the sources that
 * observe (the audio server's log, PipeWire's profiler, a trace), and explains each happening the collector notes
 * once the window after it has been sampled: ranked culprits (culprit.h).
 *
 * What it samples, each figure with the window it was measured over (a 20 Hz sampler sees 50 ms windows: it says
 * "3.0 ms in the 50 ms around the spike", never more precision than it has):
 *  - /proc/interrupts deltas per CPU and line (the device of line N from /sys/kernel/irq/N/actions);
 *  - /proc/softirqs deltas per CPU and type; /proc/stat steal per CPU;
 *  - the audio thread's run delay and run time (/proc/PID/task/TID/schedstat);
 *  - /proc/pressure/{cpu,io,memory} where PSI is on; CPU frequency where there is cpufreq;
 *  - the real-time tasks that may run on the audio CPUs (policy, priority, processor from .../stat; CPU time in ns
 *    from .../schedstat: stat's utime/stime count ticks, too coarse); the task list is rescanned about once a
 *    second, the tasks found are read every tick. */
#ifndef RTJ_CULPRIT_ENGINE_H
#define RTJ_CULPRIT_ENGINE_H
#include "culprit/culprit.h"
#include <stdbool.h>
#include <time.h>

struct xrun_notes; /* util/xrun_notes.h */

/* An observation by a source that saw something happen (basis observed). */
struct culprit_obs {
    int64_t t0_ns, t1_ns;                /* when, on the engine's clock (a log line: when it was read) */
    enum culprit_kind kind;
    char name[CULPRIT_NAME_MAX];
    int pid, cpu;                        /* 0 / -1 when unknown */
    int64_t value_ns;                    /* how long (a node's overrun, a task's run time), 0 when none */
    char evidence[CULPRIT_EVIDENCE_MAX]; /* one line, as culprit.evidence */
    int rt_priority;                     /* a task's real-time priority, 0: not real time or unknown */
    int began_exactly;                   /* t0_ns is when what it saw began (a profiler's wake of the node), not
                                          * when it was read: one that began after a happening ended cannot be its
                                          * cause (0: a log line's read time, a trace window's start) */
    int64_t wait_ns;                     /* the trace's account of the audio threads' waits: how long they were,
                                          * all told (value_ns is this holder's part); 0 for any other source */
    int none_why;                        /* kind CK_NONE: why the source names no one in the window (enum
                                          * culprit_none_why), wait_ns the audio threads' wait it did see */
};

/* Why a source that looked (the trace) names no one: said in the "not known" culprit's evidence. */
enum culprit_none_why {
    CNW_UNSAID = 0,
    CNW_NO_WAIT,     /* no wait of the audio threads in the window */
    CNW_NOT_COVERED, /* most of their wait before the trace's ring, or in events it lost */
    CNW_SHORT_WAIT,  /* they waited, but too little to have made it late: the lateness is elsewhere */
    CNW_LOST,        /* the trace lost events in their wait, enough to have hidden who held most of it (or, with
                      * no wait seen, in the window: the wait itself may be among them) */
    CNW_MISSED,      /* most of what is not known of their wait came after a switch on that CPU that the trace does
                      * not hold (the kernel emitted no sched_switch for it): who ran then is not known */
};

/* A source of observations, polled by the engine's thread (normal priority: a source may read files, take locks,
 * talk to a daemon). Its times are on the engine's clock (the source converts its own). */
struct culprit_source {
    const char *name;                    /* "jackd log", "PipeWire profiler", "tracefs" */
    void *ctx;
    /* New observations since the last call, up to max; returns how many, or -1 when the source is gone (it is
     * then closed and the summary says why). */
    int (*poll)(void *ctx, int64_t now_ns, struct culprit_obs *out, int max);
    /* Asked when a happening is explained: what it saw in [t0_ns, t1_ns] on cpu (-1: any), e.g. a trace's
     * freeze and dump; NULL when it has nothing beyond poll. Returns how many, or -1. */
    int (*explain)(void *ctx, int64_t t0_ns, int64_t t1_ns, int cpu, struct culprit_obs *out, int max);
    /* The source's part of the summary (new reference, may be NULL), e.g. the trace's breakdown. */
    json_t *(*summary)(void *ctx);
    /* Optional: told before each poll whether the sampler is quiet (watch, nothing happening: quiet_hz): a source
     * may then leave what it reads in the background where it is (the trace's rings) until it is not, or until an
     * explain; NULL: polled the same either way. */
    void (*quiet)(void *ctx, int quiet);
    void (*close)(void *ctx);
};

struct culprit_config {
    clockid_t clock;        /* the measurement clock: every time in and out is on it */
    double hz;              /* samples a second, 10-20 (0: 20) */
    double quiet_hz;        /* samples a second while all is quiet (issue 34: watch pays for explaining only when
                             * something happens): nothing noted or begun for quiet_after_s and nothing left to
                             * explain; 0: never slower than hz. 2-10. A happening that begins wakes the sampler
                             * at once (culprit_engine_wake), and hz holds again, unless a source named "tracefs"
                             * is on: its explain accounts the waits and a traced happening keeps none of the
                             * counters but steal (rank.c), so they are read at quiet_hz throughout */
    double quiet_after_s;   /* (0: 1) */
    double history_s;       /* history kept (0: 30) */
    const char *proc_root;  /* "/proc" (NULL), or a fixture tree for tests */
    const char *sys_root;   /* "/sys" (NULL), or a fixture tree */
    int audio_pid;          /* the process whose thread makes the audio (getpid(), or a server's) */
    int64_t period_ns;      /* the audio period (for windows and the DSP rule); 0 unknown */
    int server_pid;         /* the audio server's process (jackd, pipewire), 0 unknown: its threads run the graph
                             * the audio thread is part of, never "a task above the audio thread" */
    /* When the server's xrun notifications came (util/xrun_notes.h), NULL: not known. jack2 sends one with each
     * "client was not finished" line of its log: a client the log names is named only for a happening beside one. */
    const struct xrun_notes *xrun_notes;
    const char *own_client; /* our own client's name in the graph ("rtjitter-PID"), or NULL: a source's "client
                             * NAME did not finish" about it is ours, judged by our DSP and run delay, never
                             * "another client" */
};

struct culprit_engine;

/* Starts the sampler thread. NULL with err filled when it cannot start (the run goes on without culprits, and
 * says so). */
struct culprit_engine *culprit_engine_start(const struct culprit_config *cfg, char *err, size_t errlen);
/* The audio thread, once known (its tid, its real-time priority, 0 when not real time); may be called again
 * (PipeWire's node thread is another). */
void culprit_engine_set_audio(struct culprit_engine *e, int tid, int rt_priority);
/* The audio server's process, once found (a server rtjitter did not start is found by name after it connected). */
void culprit_engine_set_server(struct culprit_engine *e, int pid);
/* A CPU the audio thread ran on (the records' cpu): the RT-task scan looks at these. */
void culprit_engine_audio_cpu(struct culprit_engine *e, int cpu);
/* Adds a source; the engine owns it from here (closes it at stop). 0, or -1 when full. */
int culprit_engine_add_source(struct culprit_engine *e, const struct culprit_source *src);
/* A source that could not be opened, kept for the summary ("PipeWire profiler": "not under PipeWire"). */
void culprit_engine_source_unavailable(struct culprit_engine *e, const char *name, const char *why);

/* A happening to explain, noted by the collector thread (never the RT thread; takes a mutex): start and end on
 * the measurement clock, the CPU of the cycle (-1 unknown), the largest callback time of its cycles and of the
 * one before it (our DSP rule: an overrun of the period is named), the phase index. Explained once the sampler
 * has sampled end_ns + its window after. */
void culprit_engine_note(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns,
                         int64_t end_ns, int cpu, int64_t callback_max_ns);
/* Something began (an xrun event's first cycle, before it is noted): a quiet sampler samples now and goes back to
 * hz, so that the happening's window has short samples on both sides. The collector thread (takes a mutex). */
void culprit_engine_wake(struct culprit_engine *e);
/* Spikes that come thick (a --dsp ramp, a machine missing every cycle) need not each be noted: the caller may note
 * one per sample interval (50 ms at 20 Hz); the results' lookup gives a spike not noted the culprits of the one
 * noted before it within that interval, whose window the sampler cannot tell from its own. */
/* The happening will never be asked about again (an event that left the report's full detail for its summaries:
 * stats/eventkeep.h): its culprits are freed and its slot reclaimed, so that the engine's memory stays bounded by
 * what the report can still list, however long the session (issue 32 item 5). Any thread but the RT one; a
 * happening not found (never noted, or lost) is ignored. */
void culprit_engine_forget(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns);
/* Whether that happening was noted and is not explained yet (the engine running: it will be). Any thread but the
 * RT one; NULL engine: no. */
bool culprit_engine_pending(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns);
/* Stops the thread after explaining what is pending with what it has. Results stay readable until free. */
void culprit_engine_stop(struct culprit_engine *e);
void culprit_engine_free(struct culprit_engine *e);
/* The results as report_build reads them (culprit.h struct culprit_results). Valid until free. */
struct culprit_results culprit_engine_results(const struct culprit_engine *e);

#endif
