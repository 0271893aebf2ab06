/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace text of a tracefs instance (its `trace` and `trace_pipe` files, the default output format) read into
 * events, one a line: pure functions of the text (tests/unit/test_tracefs.c). What the events mean is
 * trace_stream.h's. */
#ifndef RTJ_TRACEFS_PARSE_H
#define RTJ_TRACEFS_PARSE_H
#include <stddef.h>
#include <stdint.h>

enum tev_type {
    TEV_OTHER, TEV_SWITCH, TEV_WAKEUP, TEV_IRQ_ENTRY, TEV_IRQ_EXIT, TEV_SOFTIRQ_ENTRY, TEV_SOFTIRQ_EXIT, TEV_IDLE,
    TEV_MARKER, TEV_LOST, TEV_WAKING, TEV_WQ_START, TEV_WQ_END,
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
    int64_t num;                   /* irq, softirq vec, idle state, lost events; the woken (waking) pid */
    char name[TEV_COMM_MAX];       /* irq's name, softirq's action; switch: next_comm */
    int next_pid, next_prio;       /* sched_switch; sched_wakeup/waking: the woken task's prio in next_prio and,
                                    * waking only, its target CPU in next_pid */
    int prev_pid, prev_prio;       /* sched_switch: the task switched out */
    char prev_state[4];            /* sched_switch: its state ("R", "R+": preempted; "S", "D": it slept) */
    char fn[48];                   /* workqueue_execute_start: the work's function */
};

/* An x86 interrupt vector traced as irq_vectors:EVENT_entry/_exit: its /proc/interrupts line ("LOC"), what it
 * is ("local timer"), and the negative num its events carry. NULL-terminated. */
struct tev_vector { const char *event, *line, *what; int num; };
extern const struct tev_vector tev_vectors[];

/* One line into ev; 1 when it is an event line, 0 when not (a comment, a buffer-started line), with TEV_LOST for
 * "CPU:N [LOST M EVENTS]". len is the line's length, without its newline. */
int tev_parse(const char *line, size_t len, struct tev *ev);

#define BD_IGNORE 8 /* audio threads a trace follows */

/* The IRQ line of a threaded handler's comm ("irq/145-iwlwifi": 145 and "iwlwifi"), or -1. */
int irq_thread_line(const char *comm, char *name, size_t len);

#endif
