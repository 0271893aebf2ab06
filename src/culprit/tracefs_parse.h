/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace text of a tracefs instance (its `trace` file, the default output format) read into events, and the
 * rtla-style breakdown of one CPU's window rebuilt from them: how long each interrupt line, each softirq type and
 * each thread ran, and the exits from idle. Pure functions of the text: tests/unit/test_tracefs_parse.c feeds
 * lines whose durations it chose.
 *
 * The accounting is osnoise's: the CPU runs one context at a time, a stack of thread < softirq < irq (interrupts
 * nest); each stretch of time between two events of the CPU is credited to the context on top, so an interrupt
 * that arrives during a softirq or a thread is taken out of their time (osnoise subtracts nested interrupts the
 * same way), and the threads' times are what they ran themselves. The time of an `irq/N-NAME` thread (threaded
 * interrupts) is folded onto IRQ N, as rtla folds it. Time before the first event of the CPU is not known and
 * not credited (the breakdown's covered_ns says how much of the window was). */
#ifndef RTJ_TRACEFS_PARSE_H
#define RTJ_TRACEFS_PARSE_H
#include <stddef.h>
#include <stdint.h>

enum tev_type {
    TEV_OTHER, TEV_SWITCH, TEV_WAKEUP, TEV_IRQ_ENTRY, TEV_IRQ_EXIT, TEV_SOFTIRQ_ENTRY, TEV_SOFTIRQ_EXIT, TEV_IDLE,
    TEV_MARKER, TEV_LOST,
};

#define TEV_COMM_MAX 32
/* power:cpu_idle's state on the way out of idle: PWR_EVENT_EXIT, (u32)-1 */
#define TEV_IDLE_EXIT 4294967295LL

/* One line of the trace. The header's task (comm-pid) is what runs on the CPU at that moment (in an interrupt,
 * the task it interrupted). */
struct tev {
    int64_t t_ns;                  /* the trace clock, ns (the text has µs: the last three digits are 0) */
    int cpu;
    enum tev_type type;
    int pid;                       /* the header's task */
    char comm[TEV_COMM_MAX];
    int64_t num;                   /* irq, softirq vec, idle state, lost events; the woken pid */
    char name[TEV_COMM_MAX];       /* irq's name, softirq's action; switch: next_comm */
    int next_pid, next_prio;       /* sched_switch; sched_wakeup: the woken task's prio in next_prio */
    int prev_pid, prev_prio;       /* sched_switch: the task switched out */
};

/* An x86 interrupt vector traced as irq_vectors:EVENT_entry/_exit: its /proc/interrupts line ("LOC"), what it
 * is ("local timer"), and the negative num its events carry. NULL-terminated. */
struct tev_vector { const char *event, *line, *what; int num; };
extern const struct tev_vector tev_vectors[];

/* One line into ev; 1 when it is an event line, 0 when not (a comment, a buffer-started line), with TEV_LOST for
 * "CPU:N [LOST M EVENTS]". len is the line's length, without its newline. */
int tev_parse(const char *line, size_t len, struct tev *ev);

#define BD_IRQS 64
#define BD_SOFTIRQS 10
#define BD_TASKS 96
#define BD_IGNORE 8

/* irq < 0: an x86 vector (tev_vectors), name its line ("LOC") */
struct bd_irq { int irq; char name[TEV_COMM_MAX]; int64_t handler_ns, thread_ns; int count; };
struct bd_softirq { char name[TEV_COMM_MAX]; int64_t ns; int count; };
struct bd_task { int pid, prio; char comm[TEV_COMM_MAX]; int64_t ns; };

/* The breakdown of one CPU in [t0_ns, t1_ns]. */
struct trace_breakdown {
    int cpu;
    int64_t t0_ns, t1_ns;
    int64_t first_ns, last_ns;     /* the CPU's first and last event in the text (0: none) */
    int64_t covered_ns;            /* the part of the window the events cover */
    int64_t irq_ns, softirq_ns, thread_ns, idle_ns, ignored_ns; /* totals (irq: handlers and irq/N threads) */
    int lost;                      /* lost events reported for the CPU */
    int idle_exits, idle_state_max;
    int64_t idle_exit_first_ns, idle_residency_ns; /* the first exit in the window, and how long it had idled */
    int n_irq, n_softirq, n_task;
    struct bd_irq irq[BD_IRQS];
    struct bd_softirq softirq[BD_SOFTIRQS];
    struct bd_task task[BD_TASKS];
    int ignore[BD_IGNORE];         /* tids whose time is ours (the audio thread): counted in ignored_ns */
    int n_ignore;
};

/* Fills b for cpu over [t0, t1] from the text (len bytes); b->ignore/n_ignore are read, the rest reset. end_ns:
 * when the trace was frozen (the context of the CPU's last event lasted until then), 0 when unknown (then the
 * window is covered up to the CPU's last event only). */
void trace_breakdown_build(struct trace_breakdown *b, const char *text, size_t len, int cpu, int64_t t0_ns,
                           int64_t t1_ns, int64_t end_ns);
/* The IRQ line of a threaded handler's comm ("irq/145-iwlwifi": 145 and "iwlwifi"), or -1. */
int irq_thread_line(const char *comm, char *name, size_t len);

#endif
