/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/culprit/: why did it glitch. A culprit for every xrun event and every wake-up spike, ranked, each marked
 * correlated (counters rose around it: /proc and /sys, readable by any user) or observed (a source saw it: the
 * audio server's log, PipeWire's profiler, a tracefs trace, our own callback time). Nothing here runs in the RT
 * thread: the engine's sampler is a normal-priority thread, sources are polled by it, and the collector thread
 * notes the happenings to explain (culprit_engine.h).
 *
 * This header is the module's common language, types only and their JSON, and the one table of culprit kinds
 * (culprit_kinds.c): report/ may include it (to place the culprits of events and spikes), and so may run/, render/,
 * compare/ and verdict/. It includes nothing of the project. A file here may include util/, jansson and the
 * libraries of its sources (libpipewire); never report/, render/, compare/, verdict/ or run/: run/ drives the engine
 * (culprit_engine.h) and the report reads its results back through struct culprit_results. */
#ifndef RTJ_CULPRIT_H
#define RTJ_CULPRIT_H
#include <jansson.h>
#include <stdint.h>
#include <stddef.h>

/* What a culprit is. The JSON names (culprit_kind_name) are a stable contract: readers (text, HTML, compare,
 * verdict) switch on them. */
enum culprit_kind {
    CK_RT_TASK,    /* a real-time task at or above the audio thread's priority ran on its CPU ("rt_task") */
    CK_CLIENT,     /* another client of the audio graph did not finish in time ("client") */
    CK_IRQ,        /* an interrupt line rose above its baseline on the audio CPU ("irq") */
    CK_SOFTIRQ,    /* a softirq type rose above its baseline ("softirq") */
    CK_DSP,        /* our own callback overran the period (--dsp, or the callback itself) ("dsp") */
    CK_RUN_DELAY,  /* the audio thread was runnable but waited, and nothing above names who ran ("run_delay") */
    CK_STEAL,      /* the hypervisor took the CPU (steal time) ("steal") */
    CK_PRESSURE,   /* PSI: tasks stalled on CPU, memory or I/O ("pressure") */
    CK_FREQ,       /* the audio CPU's clock dropped ("freq") */
    CK_IDLE_EXIT,  /* the CPU was deep idle and waking it cost the time (trace: power:cpu_idle) ("idle_exit") */
    CK_THREAD,     /* a thread (not real-time) ran on the audio CPU in the window (trace) ("thread") */
    CK_NONE,       /* nothing on this machine explains it, or it is not known ("none"): said, never left out */
    CK_KTHREAD,    /* a kernel thread held the CPU in the audio thread's wait (trace) ("kthread"): what its kind
                    * allows (culprit_kthread_kind) */
    CK_NO_PREEMPT, /* an ordinary task (or one below the audio thread) kept the CPU while the real-time audio thread
                    * waited and ticks kept arriving: the kernel could not preempt it ("no_preempt"); the task is
                    * what the kernel was doing, the preemption model is what to change */
    CK_BELOW,      /* the CPU recorded no event at all (no tick, IPI or IRQ) for part of the wait: it was not
                    * running, below the kernel: the host of a VM, firmware or SMI ("below_kernel") */
    CK_COUNT
};

enum culprit_basis {
    CB_CORRELATED, /* counters around it against their baseline ("correlated") */
    CB_OBSERVED,   /* a source saw it happen ("observed") */
    CB_NONE,       /* nothing was seen: the trace held no wait of the audio threads in it, and no source named a
                    * cause ("none"); only a "not known" culprit (CK_NONE) has it */
};

#define CULPRIT_NAME_MAX 64
#define CULPRIT_EVIDENCE_MAX 240
#define CULPRITS_MAX 8       /* ranked culprits kept per event or spike */

/* One culprit of an event or a spike. */
struct culprit {
    enum culprit_kind kind;
    enum culprit_basis basis;
    char name[CULPRIT_NAME_MAX];         /* comm ("irq/145-iwlwifi"), client ("stall"), "IRQ 145 (iwlwifi)",
                                          * "NET_RX", "our DSP", "steal", "nothing on this machine" */
    int pid;                             /* a task's process (0: none) */
    int tid;                             /* a task's thread (0: none) */
    int cpu;                             /* the CPU it was seen on, -1: any or unknown */
    int irq;                             /* CK_IRQ: the line's number, -1 for a named line (LOC, RES, ...) */
    int affinity_fixed;                  /* CK_IRQ line: 1 the kernel refuses to move it (a managed or per-CPU
                                          * interrupt), -1 it may be moved, 0 not known (culprit_irq_affinity) */
    double score;                        /* rank within one event: higher first (not comparable across events) */
    char evidence[CULPRIT_EVIDENCE_MAX]; /* one line, stating its window and its measure, e.g. "a real-time task
                                          * above the audio thread ran on CPU 1: spin (pid 812, FIFO 95), 3.0 ms in
                                          * the 50 ms around the spike" */
};

/* What is explained: an xrun event (stats/phase.h struct xrun_event) or a wake-up spike. */
enum culprit_subject { CS_EVENT, CS_SPIKE };

/* The JSON of one culprit: {kind, basis, name, pid?, tid?, cpu?, irq?, affinity?, score, evidence}; the optional
 * keys only when known (pid/tid > 0, cpu >= 0, irq >= 0 for CK_IRQ; affinity "fixed" or "movable"). */
json_t *culprit_json(const struct culprit *c);
/* What a kernel thread's kind allows (CK_KTHREAD's advice), by its name. */
enum culprit_kthread {
    CKT_OTHER,     /* another kernel thread: named, nothing to run against it */
    CKT_IRQ,       /* irq/N-NAME: a threaded interrupt (rtirq, that IRQ's affinity) */
    CKT_KWORKER,   /* kworker/...: its workqueue (the function named), the unbound workqueues' cpumask */
    CKT_SOFTIRQ,   /* ksoftirqd/N: the softirq's source */
    CKT_STOPPER,   /* migration/N, cpuhp/N, idle_inject/N: per-CPU stopper threads, nothing to tune */
    CKT_RCU,       /* rcu_*, rcuc/N ...: RCU's own threads (rcu_nocbs, rcutree.kthread_prio) */
};
enum culprit_kthread culprit_kthread_kind(const char *name);
/* Whether the kernel lets user space move interrupt line irq, asked of proc's irq/IRQ/smp_affinity_list without
 * changing it: the kernel checks that a line may be moved before it reads the CPU list, so a write of no list ("x")
 * answers EPERM (or EIO) for a line it places itself (a managed interrupt: a multiqueue disk's or network card's
 * queues; a per-CPU one) and EINVAL for one it would move. 1 fixed, -1 movable, 0 not known (not this machine's
 * /proc, not root, no such line). Main thread (the report), never the RT thread. */
int culprit_irq_affinity(const char *proc, int irq);
/* A ranked list: [culprit_json...]. */
json_t *culprit_list_json(const struct culprit *c, int n);
/* Reads one back (for compare and the tests); 0, or -1 when obj is not a culprit. Unknown kinds read as CK_NONE
 * with the name kept. */
int culprit_from_json(const json_t *obj, struct culprit *out);
/* A kind's row in the one table of kinds (culprit_kinds.c): every reader of a kind takes its token, words and
 * advice from here. */
struct culprit_kind_info {
    const char *token;      /* the JSON name (culprit_kind_name), a stable contract */
    const char *words;      /* in words, for HTML and compare ("client of the graph") */
    const char *text_words; /* in words, in the text report's culprits section ("audio client"): its own wording */
    const char *rule;       /* the verdict's advice rule for it ("culprit_client"), NULL: the verdict names it not */
    int system;             /* the system's own class (kernel, its threads, below it): verdict/ladder_rule.h */
    const char *lead;       /* the advice's first words, up to what it explains; "%s" is its name. NULL: the
                             * verdict's rule writes its own */
    const char *advice;     /* what to do, after what it explains and its evidence; NULL: by the rule */
    const char *hint;       /* the few words of the summary's "Try ..." ("%s": its name); NULL: none or by the rule */
};
/* The row of k; NULL when k is no kind. */
const struct culprit_kind_info *culprit_kind_info(enum culprit_kind k);
/* The row of a JSON token; NULL when it is none. */
const struct culprit_kind_info *culprit_kind_info_of(const char *token);
const char *culprit_kind_name(enum culprit_kind k);
const char *culprit_basis_name(enum culprit_basis b);
/* The basis a JSON name says; "correlated" for anything else (a reader of an older report: there were two). */
enum culprit_basis culprit_basis_parse(const char *name);
/* CK_COUNT when the name is none of them. */
enum culprit_kind culprit_kind_parse(const char *name);

/* What the report builder asks of a run's culprit engine (report_parts.culprits). report/ calls these while it
 * builds; NULL members are allowed (then nothing of theirs is placed). */
struct culprit_results {
    /* The ranked culprits of the happening that started at start_ns (the measurement clock) in phase `phase`;
     * returns how many were placed in out (<= max), 0 when it was not explained (then the report says so), or
     * -1 when it was never noted. */
    int (*lookup)(const void *ctx, enum culprit_subject subj, int phase, int64_t start_ns, struct culprit *out,
                  int max);
    /* The report's top-level "culprits" object, a new reference (see REPORT SCHEMA below). */
    json_t *(*summary)(const void *ctx);
    const void *ctx;
};

/* REPORT SCHEMA (rtjitter.report/1, additions; readers ignore unknown keys):
 *  phases[].events[].culprits      [culprit...], ranked; present when culprits were sought
 *  phases[].events[].explained     false when the engine had no data for it (then culprits is [])
 *  phases[].spikes                 [{t_s, wall, wakeup_us, callback_us, cpu, culprits:[...]}]: cycles whose
 *                                  wake-up was above spike_threshold_us, the first SEGMENT_SPIKES_MAX
 *  phases[].spikes_unlisted        spikes beyond them (counted, not listed)
 *  phases[].spike_threshold_us     the threshold in force
 *  phases[].top_culprits           [{kind, name, basis, events, spikes, evidence}]: the culprits of the phase's
 *                                  events and spikes, by (kind, name), ranked by events then spikes; evidence is
 *                                  the longest event's (or spike's) line for it
 *  culprits (top level)            {sampler: {hz, window_ms, history_s, sources: [{name, state, why?}],
 *                                   quiet_hz?, quiet_s?, ticks?, quiet_ticks? (watch: the rate while all is quiet,
 *                                   how long and how many ticks it was), traced_slow_ticks? (watch with the trace:
 *                                   ticks at quiet_hz while something happened), late_windows?, lost?,
 *                                   results_peak, results_held (the happenings it held at once at most, and at
 *                                   the end: noted and not yet forgotten; its memory follows them)},
 *                                   cost: {cpu_s, cpu_pct}, periodicity: [{period_s, count, spread_s, what}],
 *                                   trace: {...} or absent}
 */

#endif
