/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rule of real-time tasks for one happening (rank.c calls it): a task at or above the audio thread's priority
 * whose schedstat run time rose in the window. With the trace, its account decides (this only gives the task's
 * process); without it, a task is named only when its counters prove it held the wait's CPU for half the wait or
 * more. The culprit engine's thread only, never RT. */
#include "culprit/rank_internal.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

struct task_sum {
    struct ce_task_run t;
    int64_t run_ns;
};

static int sum_tasks(struct rank_ctx *c, struct task_sum *sum, int max)
{
    int n = 0;
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(c->e, i);
        for (int k = 0; k < s->n_task; k++) {
            const struct ce_task_run *t = &s->task[k];
            /* our own process's other threads (jack's, the timer's relay) are never "a task to stop": what they
             * cost the audio thread is its run delay */
            if (t->tid == c->audio_tid || (c->e->cfg.audio_pid > 0 && t->pid == c->e->cfg.audio_pid) ||
                (c->e->cfg.server_pid > 0 && t->pid == c->e->cfg.server_pid) ||
                t->prio < c->audio_prio || !has_cpu(c, t->cpu))
                continue;
            int j = 0;
            while (j < n && sum[j].t.tid != t->tid)
                j++;
            if (j == n) {
                if (n >= max)
                    continue;
                sum[n++] = (struct task_sum){*t, 0};
            }
            sum[j].run_ns += t->run_ns;
            sum[j].t.cpu = t->cpu;
        }
    }
    return n;
}

/* Without the trace, how long tid surely held the CPU inside the happening's wait W = [start, end], from its
 * schedstat run time per sample: a sample's run time lies in C = (its previous read's stamp, t + the task reads'
 * time], so at most |C \ W| of it fell outside W, the rest inside (0 when it ran less than that). A lower bound,
 * never a guess; only the samples overlapping W can give any. */
static int64_t held_in_wait(const struct rank_ctx *c, int tid)
{
    int64_t held = 0, w0 = c->r->start_ns, w1 = c->r->end_ns;
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(c->e, i);
        for (int k = 0; k < s->n_task; k++) {
            const struct ce_task_run *t = &s->task[k];
            if (t->tid != tid)
                continue;
            int64_t c0 = t->since_ns < s->t0_ns ? t->since_ns : s->t0_ns;
            int64_t c1 = s->t_ns + (s->task_read_ns > 0 ? s->task_read_ns : 0);
            int64_t in = (w1 < c1 ? w1 : c1) - (w0 > c0 ? w0 : c0);
            if (in > 0 && t->run_ns > (c1 - c0) - in)
                held += t->run_ns - ((c1 - c0) - in);
        }
    }
    return held;
}

/* Whether every sample of tid in the window says its affinity allows it only cpu. */
static bool pinned_to(const struct rank_ctx *c, int tid, int cpu)
{
    bool seen = false;
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(c->e, i);
        for (int k = 0; k < s->n_task; k++) {
            if (s->task[k].tid != tid)
                continue;
            if (s->task[k].only_cpu != cpu)
                return false;
            seen = true;
        }
    }
    return seen;
}

static void add_rt_task(struct rank_ctx *c, const struct task_sum *t, double score, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_rt_task(struct rank_ctx *c, const struct task_sum *t, double score, const char *fmt, ...)
{
    char ev[sizeof c->cand[0].evidence];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev, sizeof ev, fmt, ap);
    va_end(ap);
    /* a kernel thread is what its kind allows (culprit_kthread_kind), never a process to lower */
    struct culprit *p = rank_add(c, t->t.kthread ? CK_KTHREAD : CK_RT_TASK, CB_CORRELATED, score, t->t.comm, "%s", ev);
    if (p) {
        p->pid = t->t.pid;
        p->tid = t->t.tid;
        p->cpu = t->t.cpu;
    }
}

void rank_rule_rt_tasks(struct rank_ctx *c)
{
    struct task_sum sum[CE_S_TASK];
    int n = sum_tasks(c, sum, CE_S_TASK);
    int64_t period = c->period_ns > 0 ? c->period_ns : 1000000;
    /* below a tenth of a period (or 20 µs) a task could not have made the audio thread late: a kernel thread's
     * tick of housekeeping, left out so that it does not ride along every event */
    int64_t min_ns = period / 10 > 20000 ? period / 10 : 20000;
    int64_t late = c->r->end_ns - c->r->start_ns;
    for (int i = 0; i < n; i++) {
        const struct task_sum *t = &sum[i];
        if (t->run_ns < min_ns)
            continue;
        const char *rel = c->audio_prio <= 0 ? "" : t->t.prio > c->audio_prio ? " above the audio thread"
                                                                              : " at the audio thread's priority";
        const char *what = t->t.kthread ? "kernel thread" : "task";
        const char *pol = t->t.policy == 'R' ? "RR" : "FIFO";
        if (c->r->traced >= 0) { /* the trace's account decides (trace_rules); this only gives its process */
            add_rt_task(c, t, 100 + fmin(300, 10.0 * t->run_ns / period), "a real-time %s%s ran on CPU %d: %s (pid "
                        "%d, %s %d), %.1f ms %s", what, rel, t->t.cpu, t->t.comm, t->t.pid, pol, t->t.prio,
                        t->run_ns / 1e6, c->around);
            continue;
        }
        /* Without the trace, a task is named only when its counters prove it held the audio CPU for at least half
         * of the wait: its affinity allows it that CPU alone, and its run time in the samples leaves at least that
         * much inside the wait whatever it did outside (held_in_wait). Its run time anywhere in the window, on
         * either CPU, proved nothing: judged against a scheduler trace, 50 of 50 such namings were wrong. */
        if (c->one_cpu < 0 || late <= 0 || !pinned_to(c, t->t.tid, c->one_cpu))
            continue;
        int64_t held = held_in_wait(c, t->t.tid);
        if (held < min_ns || 2 * held < late)
            continue;
        add_rt_task(c, t, 100 + fmin(300, 10.0 * held / period), "a real-time %s%s held CPU %d for at least %.1f ms "
                    "of the %.1f ms wait: %s (pid %d, %s %d), pinned there, ran %.1f ms %s (schedstat)", what, rel,
                    c->one_cpu, held / 1e6, late / 1e6, t->t.comm, t->t.pid, pol, t->t.prio, t->run_ns / 1e6,
                    c->around);
    }
}
