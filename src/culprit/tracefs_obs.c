/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace breakdown as observed culprits (tracefs_obs.h). */
#include "culprit/tracefs_obs.h"
#include "util/procstat.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line into buf, cut at its size (an evidence line longer than CULPRIT_EVIDENCE_MAX is cut, not lost). */
static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* A duration as the evidence says it: ms with one decimal from 0.1 ms, µs below. */
static const char *dur(char *buf, size_t len, int64_t ns)
{
    if (ns >= 100000)
        snprintf(buf, len, "%.1f ms", ns / 1e6);
    else
        snprintf(buf, len, "%.0f us", ns / 1e3);
    return buf;
}

static struct culprit_obs *add(const struct trace_breakdown *b, struct culprit_obs *out, int *n, int cap,
                               enum culprit_kind kind, int64_t value)
{
    if (*n >= cap)
        return NULL;
    struct culprit_obs *o = &out[(*n)++];
    memset(o, 0, sizeof(*o));
    o->t0_ns = b->t0_ns, o->t1_ns = b->t1_ns, o->kind = kind, o->cpu = b->cpu, o->value_ns = value;
    return o;
}

static int by_value(const void *a, const void *b)
{
    const struct culprit_obs *x = a, *y = b;
    return x->value_ns < y->value_ns ? 1 : x->value_ns > y->value_ns ? -1 : 0;
}

int trace_obs_from_breakdown(const struct trace_breakdown *b, struct culprit_obs *out, int max)
{
    int cap = BD_IRQS + BD_SOFTIRQS + BD_TASKS + 1, n = 0;
    struct culprit_obs *all = calloc((size_t)cap, sizeof(*all)), *o;
    if (!all || max <= 0) {
        free(all);
        return 0;
    }
    char d1[32], d2[32], d3[32], win[32];
    dur(win, sizeof(win), b->t1_ns - b->t0_ns);
    for (int i = 0; i < b->n_irq; i++) {
        const struct bd_irq *q = &b->irq[i];
        int64_t ns = q->handler_ns + q->thread_ns;
        if (ns < TRACE_OBS_MIN_NS || !(o = add(b, all, &n, cap, CK_IRQ, ns)))
            continue;
        if (q->irq >= 0) {
            say(o->name, sizeof(o->name), "IRQ %d (%s)", q->irq, q->name[0] ? q->name : "?");
        } else {
            const char *what = "";
            for (const struct tev_vector *v = tev_vectors; v->event; v++)
                if (v->num == q->irq)
                    what = v->what;
            say(o->name, sizeof(o->name), "%s (%s interrupts)", q->name, what);
        }
        if (q->thread_ns)
            say(o->evidence, sizeof(o->evidence), "%s ran %s on CPU %d in the %s window: %d handler runs "
                     "%s, its thread irq/%d %s (trace)", o->name, dur(d1, sizeof(d1), ns), b->cpu, win, q->count,
                     dur(d2, sizeof(d2), q->handler_ns), q->irq, dur(d3, sizeof(d3), q->thread_ns));
        else
            say(o->evidence, sizeof(o->evidence), "%s ran %s on CPU %d in the %s window, %d handler runs "
                     "(trace)", o->name, dur(d1, sizeof(d1), ns), b->cpu, win, q->count);
    }
    for (int i = 0; i < b->n_softirq; i++) {
        const struct bd_softirq *s = &b->softirq[i];
        if (s->ns < TRACE_OBS_MIN_NS || !(o = add(b, all, &n, cap, CK_SOFTIRQ, s->ns)))
            continue;
        say(o->name, sizeof(o->name), "%s", s->name);
        say(o->evidence, sizeof(o->evidence), "%s softirq ran %s on CPU %d in the %s window, %d runs "
                 "(interrupts within it not counted) (trace)", s->name, dur(d1, sizeof(d1), s->ns), b->cpu, win,
                 s->count);
    }
    for (int i = 0; i < b->n_task; i++) {
        const struct bd_task *t = &b->task[i];
        int prio = t->prio;
        if (prio < 0) { /* switched in before the window (or its sched_switch lost): the task says it itself */
            struct proc_stat ps;
            char path[64];
            snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", t->pid, t->pid);
            if ((proc_stat_read(path, &ps) == 0 || proc_stat_pid(t->pid, &ps) == 0) && ps.have_sched &&
                (ps.policy == 1 || ps.policy == 2))
                prio = 99 - (int)ps.rt_priority;
        }
        int rt = prio >= 0 && prio < 100;
        if (t->ns < TRACE_OBS_MIN_NS || !(o = add(b, all, &n, cap, rt ? CK_RT_TASK : CK_THREAD, t->ns)))
            continue;
        say(o->name, sizeof(o->name), "%s", t->comm);
        o->pid = t->pid;
        o->rt_priority = rt ? 99 - prio : 0;
        char pr[48] = "";
        if (rt) /* the kernel's prio of a real-time task is 99 minus its real-time priority */
            snprintf(pr, sizeof(pr), ", real-time priority %d", 99 - prio);
        say(o->evidence, sizeof(o->evidence), "%s (tid %d%s) ran %s on CPU %d in the %s window (trace)",
                 t->comm, t->pid, pr, dur(d1, sizeof(d1), t->ns), b->cpu, win);
    }
    if (b->idle_exits && (o = add(b, all, &n, cap, CK_IDLE_EXIT, 0))) {
        say(o->name, sizeof(o->name), "exit from idle");
        say(o->evidence, sizeof(o->evidence), "CPU %d left idle %d time%s in the %s window, the first at "
                 "+%s after %s idle (deepest state %d) (trace)", b->cpu, b->idle_exits, b->idle_exits == 1 ? "" :
                 "s", win, dur(d1, sizeof(d1), b->idle_exit_first_ns - b->t0_ns),
                 dur(d2, sizeof(d2), b->idle_residency_ns), b->idle_state_max);
    }
    qsort(all, (size_t)n, sizeof(*all), by_value);
    if (n > max)
        n = max;
    memcpy(out, all, (size_t)n * sizeof(*out));
    free(all);
    return n;
}
