/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One happening's culprits, ranked, from the sampler's history (the sampler thread only, never RT).
 *
 * The window is [start - max(2 periods, 1 interval), end + 1 interval]; the samples overlapping it are what the
 * evidence speaks of, and every line states their real span ("in the 100 ms around the spike"): a 20 Hz sampler
 * cannot say more. The rules, and why they rank as they do (scores compare within one happening only):
 *  - our DSP overran the period (callback_max_ns > period_ns): observed by our own clock, so first (1000+);
 *  - what a source saw in the window (a server's log, a profiler, a trace): observed, 500+;
 *  - a real-time task at or above the audio thread's priority that ran on an audio CPU: its CPU time is measured
 *    in ns by schedstat, 100 + 10 per period of run time; without the trace only one pinned to the wait's CPU whose
 *    run time proves it held that CPU for half the wait or more (rule_rt_tasks);
 *  - the audio thread's run delay when no task is named: it waited, someone ran, 50+ (a softirq that surged on its
 *    CPU then goes above it: a real-time thread waits behind softirq work when no higher task runs);
 *  - steal above its usual (the host took the CPU), 40+;
 *  - an IRQ line or softirq type far above its baseline on the audio CPU: counts, not time, so below the task
 *    whose time is measured, 20 + 10 per doubling; a network softirq that surges with function-call IPIs is the
 *    work those IPIs carry (RPS steering packets to this CPU raises NET_RX there by an IPI): it goes above them;
 *  - PSI above its usual, 10+; the clock of the audio CPU dropped, 15;
 *  - nothing: CK_NONE, said, never left out. */
#include "culprit/rank_internal.h"
#include "util/xrun_notes.h"
#include <sys/stat.h>
#include "util/utf8.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long sysconf_clk(void)
{
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? hz : 100;
}



struct culprit *rank_add(struct rank_ctx *c, enum culprit_kind k, enum culprit_basis b, double score,
                           const char *name, const char *fmt, ...)
{
    if (c->n >= CAND_MAX)
        return NULL;
    struct culprit *p = &c->cand[c->n++];
    *p = (struct culprit){.kind = k, .basis = b, .score = score, .cpu = c->one_cpu >= 0 ? c->one_cpu : -1,
                          .irq = -1};
    snprintf(p->name, sizeof p->name, "%s", name);
    utf8_trim(p->name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->evidence, sizeof p->evidence, fmt, ap);
    va_end(ap);
    utf8_trim(p->evidence);
    return p;
}

static bool have_kind(const struct rank_ctx *c, enum culprit_kind k)
{
    for (int i = 0; i < c->n; i++)
        if (c->cand[i].kind == k)
            return true;
    return false;
}

/* The usual count of a counter over a span like the window's, from the rolling sum minus the window's own. */
double rank_usual(const struct rank_ctx *c, uint64_t roll, uint64_t in_window)
{
    int64_t out_ns = c->hist_ns - c->span_ns;
    if (out_ns <= 0 || roll < in_window)
        return -1;
    return (double)(roll - in_window) * (double)c->span_ns / (double)out_ns;
}

void rank_fmt_usual(char *b, size_t n, double u)
{
    snprintf(b, n, u < 10 ? "%.1f" : "%.0f", u);
}

/* ---- the rules ---- */

static void rule_dsp(struct rank_ctx *c)
{
    const struct ce_result *r = c->r;
    if (c->period_ns <= 0 || r->cb_max_ns <= c->period_ns)
        return;
    double ratio = (double)r->cb_max_ns / (double)c->period_ns;
    rank_add(c, CK_DSP, CB_OBSERVED, 1000 + ratio, "our DSP", "our own DSP overran the period: callback %.2f ms for a "
        "%.2f ms period", r->cb_max_ns / 1e6, c->period_ns / 1e6);
}

/* A thread of the audio server's process (its graph's threads; /proc/PID/task/TID is found under either). */
static int server_task(const struct culprit_engine *e, int tid)
{
    char p[64];
    struct stat st;
    if (e->cfg.server_pid <= 0)
        return 0;
    snprintf(p, sizeof p, "/proc/%d/task/%d", e->cfg.server_pid, tid);
    return tid == e->cfg.server_pid || stat(p, &st) == 0;
}

/* Our own client, as a source names it ("rtjitter-812", jack2 may add "-01"): not "another client". */
static int own_client(const struct culprit_engine *e, const struct culprit_obs *o)
{
    size_t n = strlen(e->own_client);
    return o->kind == CK_CLIENT && n && strncmp(o->name, e->own_client, n) == 0 &&
           (o->name[n] == '\0' || o->name[n] == '-');
}

/* The real-time priority the sampler saw tid run at in the window (its samples' task runs), or -1. */
static int window_rt_prio(const struct rank_ctx *c, int tid)
{
    for (int i = c->i0; tid > 0 && i >= 0 && i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(c->e, i);
        for (int k = 0; k < s->n_task; k++)
            if (s->task[k].tid == tid)
                return s->task[k].prio;
    }
    return -1;
}

/* A holder of the audio threads' waits in this very happening (the trace's account, trace_class.h): classed
 * already, measured in ns of the wait. Above every counter, below our own clock's DSP and the server's word on a
 * client: 600 + 99 x its share of the wait. */
static void add_wait_obs(struct rank_ctx *c, const struct culprit_obs *o)
{
    if (o->t0_ns != c->r->start_ns || o->t1_ns != c->r->end_ns)
        return; /* another happening's */
    /* the audio server's threads run the graph the audio thread is part of (one created after the trace began to
     * follow them, a server thread at another priority): never "a task above the audio thread" */
    if (o->pid > 0 && server_task(c->e, o->pid))
        return;
    for (int i = 0; i < c->n; i++)
        if (c->cand[i].kind == o->kind && strcmp(c->cand[i].name, o->name) == 0)
            return;
    double share = o->wait_ns > 0 ? (double)o->value_ns / (double)o->wait_ns : 0;
    struct culprit *p = rank_add(c, o->kind, CB_OBSERVED, 600 + 99 * fmin(share, 1), o->name, "%s", o->evidence);
    if (p) {
        p->pid = o->pid > 0 ? o->pid : 0;
        p->cpu = o->cpu;
    }
}

/* A client the server's log named (timed when read: its window, stretched by CE_SOURCE_LAG_NS, spans far more than
 * its stall) is named for a happening only where the server sent an xrun notification beside it: jack2 sends one in
 * the cycle it finds each unfinished client (util/xrun_notes.h). A period and 5 ms before, for the cycle the client
 * began stalling in; two periods and 50 ms after, for the notification thread's own lateness on a busy machine. */
static bool client_beside_note(const struct rank_ctx *c, const struct culprit_obs *o)
{
    const struct xrun_notes *x = c->e->cfg.xrun_notes;
    if (o->kind != CK_CLIENT || o->began_exactly || !x)
        return true;
    int64_t p = c->period_ns > 0 ? c->period_ns : 0;
    return xrun_notes_in(x, c->r->start_ns - p - 5000000, c->r->end_ns + 2 * p + 50000000) != 0;
}

static void add_obs(struct rank_ctx *c, const struct culprit_obs *o_in)
{
    if (o_in->wait_ns > 0) {
        add_wait_obs(c, o_in);
        return;
    }
    struct culprit_obs fixed = *o_in, *o = &fixed;
    /* A task the trace saw without its priority (its switch-in and wakeup before the trace's text) that the sampler
     * saw run real time in the window is that real-time task. */
    int seen_prio = o->kind == CK_THREAD ? window_rt_prio(c, o->pid) : -1;
    if (seen_prio > 0) {
        o->kind = CK_RT_TASK;
        o->rt_priority = seen_prio;
    }
    /* a polled source's observation may come, and be timed, up to CE_SOURCE_LAG_NS after what it saw */
    int64_t lag = o->kind == CK_CLIENT ? CE_SOURCE_LAG_NS : 0;
    if (o->t0_ns > c->b_ns + lag || o->t1_ns < c->a_ns || (o->cpu >= 0 && !has_cpu(c, o->cpu) && c->one_cpu != -2))
        return;
    if (own_client(c->e, o))
        return; /* our lateness: the DSP rule and the run delay say why */
    if (!client_beside_note(c, o))
        return;
    /* What began after the happening ended did not cause it (a stall client's stall 27 ms after a spike, inside the
     * window's interval after it, was named for it); a period's slack for the two clocks' readings. */
    int64_t slack = c->period_ns > 1000000 ? c->period_ns : 1000000;
    if (o->began_exactly && o->t0_ns > c->r->end_ns + slack)
        return;
    /* A trace sees every task that ran on the CPU in the window, also while the audio thread slept: a task that
     * could not preempt a real-time audio thread (not real time, or below it) only used the CPU it left idle. */
    if (c->audio_prio > 0 && (o->kind == CK_THREAD || (o->kind == CK_RT_TASK && o->rt_priority > 0 &&
                                                      o->rt_priority < c->audio_prio)))
        return;
    if ((o->kind == CK_THREAD || o->kind == CK_RT_TASK) && o->pid > 0 && server_task(c->e, o->pid))
        return;
    /* What took a trifle of the window (a trace's local timer ticks, a short softirq) is the machine's usual
     * housekeeping, not a culprit: the same floor as a real-time task's (a tenth of a period, 20 us), and a
     * twentieth of the window. */
    int64_t floor_ns = c->period_ns / 10 > 20000 ? c->period_ns / 10 : 20000;
    if ((c->b_ns - c->a_ns) / 20 > floor_ns)
        floor_ns = (c->b_ns - c->a_ns) / 20;
    int housekeeping = o->kind == CK_IRQ || o->kind == CK_SOFTIRQ || o->kind == CK_THREAD || o->kind == CK_RT_TASK;
    if (housekeeping && o->value_ns > 0 && o->value_ns < floor_ns)
        return; /* a client that did not finish is never a trifle: its lateness is the glitch */
    for (int i = 0; i < c->n; i++)
        if (c->cand[i].kind == o->kind && strcmp(c->cand[i].name, o->name) == 0)
            return;
    double per = c->period_ns > 0 ? (double)o->value_ns / (double)c->period_ns : 0;
    /* An exit from idle is seen, but not how long it took (the tracepoints do not say): an audio thread that
     * sleeps between cycles leaves idle every cycle, so it ranks below what took measured time. */
    /* The server saying which client did not finish is the most direct word there is after our own clock's:
     * above what a trace saw take the CPU (a softirq's 6 ms in 1453 runs of 4 us does not make a 10 ms stall). */
    double score = o->kind == CK_IDLE_EXIT ? 30 : o->kind == CK_CLIENT ? 700 + fmin(per, 100) : 500 + fmin(per, 100);
    struct culprit *p = rank_add(c, o->kind, CB_OBSERVED, score, o->name, "%s", o->evidence);
    if (p) {
        p->pid = o->pid > 0 ? o->pid : 0;
        p->cpu = o->cpu;
    }
}

static void rule_sources(struct rank_ctx *c)
{
    struct culprit_engine *e = c->e;
    for (int i = 0; i < e->obs_n; i++)
        add_obs(c, &e->obs[(e->obs_head - e->obs_n + i + CE_OBS_MAX) % CE_OBS_MAX]);
    /* the sources' explain() answered when the window had been sampled (ce_ask_sources): in obs[] above */
}

int ce_ask_sources(struct culprit_engine *e, const struct ce_result *r, int *why, int64_t *wait_ns)
{
    struct ce_source_slot slots[CE_SOURCES_MAX];
    int traced = -1;
    pthread_mutex_lock(&e->mu);
    int ns = e->nsources;
    memcpy(slots, e->sources, sizeof slots);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < ns; i++) {
        if (strcmp(slots[i].state, "on") != 0 || !slots[i].src.explain)
            continue;
        struct culprit_obs o[16];
        /* the happening itself: a trace accounts the audio threads' waits in it, never a window stretched */
        int n = slots[i].src.explain(slots[i].src.ctx, r->start_ns, r->end_ns, r->cpu, o, 16), kept = 0;
        for (int k = 0; k < n && k < 16; k++) {
            if (o[k].kind == CK_NONE) { /* why it names no one: the "not known" says it */
                *why = o[k].none_why;
                *wait_ns = o[k].wait_ns;
                continue;
            }
            ce_keep_obs(e, &o[k]);
            kept++;
        }
        if (ce_is_trace(&slots[i]))
            traced = n >= 0 ? kept : 0;
    }
    return traced;
}

/* A task the trace saw (observed: its tid as pid, its priority known only when the trace held its switch-in) and
 * the same task from the real-time task table (correlated: its process, policy and priority): one culprit, observed,
 * a real-time task with its process. */
static void merge_observed_tasks(struct rank_ctx *c)
{
    for (int i = 0; i < c->n; i++) {
        struct culprit *o = &c->cand[i];
        if (o->basis != CB_OBSERVED || (o->kind != CK_THREAD && o->kind != CK_RT_TASK) || o->pid <= 0)
            continue;
        for (int k = 0; k < c->n; k++) {
            struct culprit *t = &c->cand[k];
            if (k == i || t->basis != CB_CORRELATED || t->kind != CK_RT_TASK || (t->tid != o->pid && t->pid != o->pid))
                continue;
            o->kind = CK_RT_TASK;
            o->tid = t->tid;
            o->pid = t->pid;
            t->score = -1; /* dropped below */
        }
    }
    int n = 0;
    for (int i = 0; i < c->n; i++)
        if (c->cand[i].score >= 0)
            c->cand[n++] = c->cand[i];
    c->n = n;
}


static int64_t window_steal_us(const struct rank_ctx *c, uint64_t *roll)
{
    int64_t us = 0;
    *roll = 0;
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(c->e, i);
        for (int k = 0; k < s->n_steal; k++)
            if (has_cpu(c, s->steal[k].cpu))
                us += s->steal[k].us;
    }
    for (int cpu = 0; cpu < CE_CPUS_MAX; cpu++)
        if (has_cpu(c, cpu))
            *roll += c->e->steal_roll[cpu];
    return us;
}

static void rule_steal(struct rank_ctx *c)
{
    uint64_t roll;
    int64_t us = window_steal_us(c, &roll);
    double u = rank_usual(c, roll, (uint64_t)us);
    /* steal counts in USER_HZ ticks (10 ms here): whole ms is all it can say */
    if (us <= 0 || (u >= 0 && us < 2 * u))
        return;
    c->steal_us = us;
    rank_add(c, CK_STEAL, CB_CORRELATED, 40 + fmin(40, us / 1000.0), "steal", "the hypervisor took %s for %.0f ms %s "
        "(steal; counted in %ld ms ticks)", c->where, us / 1000.0, c->around, 1000 / sysconf_clk());
}

static void rule_run_delay(struct rank_ctx *c)
{
    if (have_kind(c, CK_RT_TASK) || have_kind(c, CK_CLIENT) || have_kind(c, CK_THREAD))
        return;
    int64_t d = 0;
    bool known = false;
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(c->e, i);
        if (s->audio_delay_ns >= 0) {
            d += s->audio_delay_ns;
            known = true;
        }
    }
    int64_t period = c->period_ns > 0 ? c->period_ns : 1000000;
    if (!known || d < period / 2 || d < 100000)
        return;
    c->run_delay_ns = d;
    rank_add(c, CK_RUN_DELAY, CB_CORRELATED, 50 + fmin(40, 10.0 * d / period), "who ran is not known", "the audio "
        "thread was runnable but waited %.1f ms %s (schedstat); who held the CPU is not known without the trace "
        "(run as root, or give your group tracefs)", d / 1e6, c->around);
}

static void rule_psi(struct rank_ctx *c)
{
    static const char *const names[3] = {"CPU pressure", "I/O pressure", "memory pressure"};
    for (int k = 0; k < 3; k++) {
        int64_t us = 0;
        bool known = false;
        for (int i = c->i0; i <= c->i1; i++) {
            const struct ce_sample *s = ce_hist_at(c->e, i);
            if (s->psi_us[k] >= 0) {
                us += s->psi_us[k];
                known = true;
            }
        }
        double u = rank_usual(c, (uint64_t)c->e->psi_roll[k], (uint64_t)us);
        double share = c->span_ns > 0 ? us * 1000.0 / (double)c->span_ns : 0;
        /* a tenth of the window stalled, and twice what is usual here: a machine always under pressure is its
         * baseline, not a culprit of one spike */
        if (!known || share < 0.10 || (u >= 0 && us < 2 * u))
            continue;
        char us_s[16];
        rank_fmt_usual(us_s, sizeof us_s, u / 1000.0);
        rank_add(c, CK_PRESSURE, CB_CORRELATED, (k == 1 ? 5 : 10) + 20 * share, names[k], "%s: tasks stalled %.0f ms "
            "%s (usually %s ms)", names[k], us / 1000.0, c->around, u >= 0 ? us_s : "unknown");
    }
}

static void rule_freq(struct rank_ctx *c)
{
    struct culprit_engine *e = c->e;
    int cpus[CE_AUDIO_CPUS], ncpus;
    pthread_mutex_lock(&e->mu);
    ncpus = e->naudio_cpus;
    memcpy(cpus, e->audio_cpus, sizeof cpus);
    pthread_mutex_unlock(&e->mu);
    for (int k = 0; k < ncpus; k++) {
        int cpu = cpus[k];
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int i = 0; i < e->hist_n; i++) {
            const struct ce_sample *s = ce_hist_at(e, i);
            for (int f = 0; f < s->n_freq; f++) {
                if (s->freq[f].cpu != cpu)
                    continue;
                if (i >= c->i0 && i <= c->i1 && s->freq[f].khz < lo)
                    lo = s->freq[f].khz;
                if (s->freq[f].khz > hi)
                    hi = s->freq[f].khz;
            }
        }
        if (lo == UINT32_MAX || !has_cpu(c, cpu) || lo >= 0.8 * hi)
            continue;
        char name[32];
        snprintf(name, sizeof name, "CPU %d clock", cpu);
        struct culprit *p = rank_add(c, CK_FREQ, CB_CORRELATED, 15, name, "CPU %d ran at %u MHz %s, %u MHz at most in "
                                "the last %.0f s", cpu, lo / 1000, c->around, hi / 1000, c->hist_ns / 1e9);
        if (p)
            p->cpu = cpu;
    }
}

/* With the trace on, what it measured is the answer: the counters' guesses (a task's run time anywhere in 50 ms, an
 * interrupt's surge) are dropped; steal stays (the host's own count). When it had no account of the audio threads'
 * waits in the happening, and neither our clock nor the server names anything, the culprit is not known: said. */
static void trace_rules(struct rank_ctx *c)
{
    if (c->r->traced < 0)
        return;
    int n = 0, named = 0;
    for (int i = 0; i < c->n; i++) {
        const struct culprit *p = &c->cand[i];
        if (p->basis == CB_CORRELATED && p->kind != CK_STEAL)
            continue;
        named += p->basis == CB_OBSERVED;
        c->cand[n++] = *p;
    }
    c->n = n;
    if (!named) { /* why the trace names no one, as it said (src_trace.c): its summary counts the same three */
        if (c->r->trace_why == CNW_SHORT_WAIT)
            rank_add(c, CK_NONE, CB_NONE, 1, "not known", "the audio threads waited only %.0f us in it (trace): "
                     "what made it late is not who held their CPU, and nothing else names a cause",
                     c->r->trace_wait_ns / 1e3);
        else if (c->r->trace_why == CNW_LOST && c->r->trace_wait_ns > 0)
            rank_add(c, CK_NONE, CB_NONE, 1, "not known", "the trace lost events in the audio threads' %.1f ms wait "
                     "in it (its ring overflowed): who held their CPU then is not known", c->r->trace_wait_ns / 1e6);
        else if (c->r->trace_why == CNW_LOST)
            rank_add(c, CK_NONE, CB_NONE, 1, "not known", "the trace lost events in it (its ring overflowed): the "
                     "audio threads' wait and who held their CPU then are not known");
        else if (c->r->trace_why == CNW_MISSED)
            rank_add(c, CK_NONE, CB_NONE, 1, "not known", "the kernel switched the audio threads' CPU in their "
                     "%.1f ms wait in it with no sched_switch event: who ran then is not known",
                     c->r->trace_wait_ns / 1e6);
        else if (c->r->trace_why == CNW_NOT_COVERED)
            rank_add(c, CK_NONE, CB_NONE, 1, "not known", "most of the audio threads' wait in it is before the "
                     "trace's ring, or in events it lost, and nothing else names a cause");
        else
            rank_add(c, CK_NONE, CB_NONE, 1, "not known", "the trace holds no wait of the audio threads in it, "
                     "and nothing else names a cause");
    }
}

/* Without the trace, counters that rose around a happening (an interrupt's, a softirq's, pressure, the clock) do not
 * show who held the CPU in its wait: judged against a scheduler trace, a default run's surges on top named the
 * wrong culprit in 105 of 105 waits. Such a top gives way to "not known", the surges kept below it as context. */
static void counters_not_proof(struct rank_ctx *c)
{
    if (c->r->traced >= 0 || c->n == 0)
        return;
    int top = 0;
    for (int i = 1; i < c->n; i++)
        if (c->cand[i].score > c->cand[top].score)
            top = i;
    enum culprit_kind k = c->cand[top].kind;
    if (c->cand[top].basis != CB_CORRELATED ||
        (k != CK_IRQ && k != CK_SOFTIRQ && k != CK_PRESSURE && k != CK_FREQ && k != CK_IDLE_EXIT))
        return;
    rank_add(c, CK_NONE, CB_CORRELATED, c->cand[top].score + 1, "not known", "not known without the trace: "
             "counters rose around it (below), which does not show who held the CPU; run as root, or give your "
             "group tracefs, to see it");
}

static void rule_none(struct rank_ctx *c)
{
    if (c->n > 0)
        return;
    /* nothing the counters read names it: not known, on no basis (nothing seen; the trace tells the host's stalls, "below the kernel", from a
     * task's; counters alone cannot) */
    rank_add(c, CK_NONE, CB_NONE, 0, "not known", "not known without the trace: none of the counters it reads "
             "named a cause %s", c->around);
}

/* ---- the window and the order ---- */

static void set_cpus(struct rank_ctx *c)
{
    struct culprit_engine *e = c->e;
    memset(c->cpus, 0, sizeof c->cpus);
    pthread_mutex_lock(&e->mu);
    c->audio_tid = e->audio_tid;
    c->audio_prio = e->audio_prio;
    int n = 0;
    if (c->r->cpu >= 0 && c->r->cpu < CE_CPUS_MAX) {
        c->cpus[c->r->cpu / 64] |= 1ull << (c->r->cpu % 64);
        n = 1;
    } else {
        for (int i = 0; i < e->naudio_cpus; i++, n++)
            c->cpus[e->audio_cpus[i] / 64] |= 1ull << (e->audio_cpus[i] % 64);
    }
    c->one_cpu = n == 0 ? -2 : n == 1 ? (c->r->cpu >= 0 ? c->r->cpu : e->audio_cpus[0]) : -1;
    pthread_mutex_unlock(&e->mu);
    if (c->one_cpu >= 0)
        snprintf(c->where, sizeof c->where, "CPU %d", c->one_cpu);
    else
        snprintf(c->where, sizeof c->where, "%s", c->one_cpu == -1 ? "the audio CPUs" : "all CPUs");
}

/* The samples overlapping [a, b]; false when none does. */
static bool set_window(struct rank_ctx *c)
{
    struct culprit_engine *e = c->e;
    int64_t before = 2 * c->period_ns > e->interval_ns ? 2 * c->period_ns : e->interval_ns;
    c->a_ns = c->r->start_ns - before;
    c->b_ns = c->r->end_ns + e->interval_ns;
    c->i0 = -1;
    bool quiet = false;
    for (int i = 0; i < e->hist_n; i++) {
        const struct ce_sample *s = ce_hist_at(e, i);
        if (s->t_ns > c->a_ns && s->t0_ns < c->b_ns) {
            if (c->i0 < 0)
                c->i0 = i;
            c->i1 = i;
            quiet |= s->quiet;
        }
    }
    if (c->i0 < 0)
        return false;
    c->span_ns = ce_hist_at(e, c->i1)->t_ns - ce_hist_at(e, c->i0)->t0_ns;
    /* A window never stretches: samples that came late (a sampler held off the CPU) span far more than the window
     * asked; what they counted cannot be placed in it, so the counters say nothing of this happening. A sample that
     * followed a quiet wait (watch's 4 Hz: all quiet, or the trace on) spans up to quiet_ns by design, one at each
     * end of the window: the span they may add is allowed, and said in the evidence ("in the N ms around"). */
    c->late = c->span_ns > (c->b_ns - c->a_ns) + 3 * e->interval_ns +
                               (quiet ? 2 * (e->quiet_ns - e->interval_ns) : 0);
    c->hist_ns = ce_hist_at(e, e->hist_n - 1)->t_ns - ce_hist_at(e, 0)->t0_ns;
    snprintf(c->around, sizeof c->around, "in the %.0f ms around the %s", c->span_ns / 1e6,
             c->r->subj == CS_SPIKE ? "spike" : "event");
    return true;
}

static int by_score(const void *a, const void *b)
{
    double x = ((const struct culprit *)a)->score, y = ((const struct culprit *)b)->score;
    return x < y ? 1 : x > y ? -1 : 0;
}

int ce_rank(struct culprit_engine *e, const struct ce_result *r, struct culprit *out, int max)
{
    /* large: not on the stack, and kept by the engine from one explanation to the next (a calloc and free of its
     * 22 kB at each one left holes in the sampler's heap that its smaller blocks then split) */
    if (!e->rank_scratch && !(e->rank_scratch = malloc(sizeof *e->rank_scratch)))
        return 0;
    struct rank_ctx *c = e->rank_scratch;
    memset(c, 0, sizeof *c);
    c->e = e;
    c->r = r;
    c->period_ns = e->cfg.period_ns;
    c->ipi = -1;
    int n = 0;
    if (set_window(c)) {
        set_cpus(c);
        rule_dsp(c);
        rule_sources(c);
        if (c->late) {
            /* the trace, when it looked, says why it named no one (its rings do not depend on the sampler) */
            if (c->n == 0 && r->traced >= 0)
                trace_rules(c);
            if (c->n == 0) { /* counted: the report's warning says how many were not known for this */
                e->late_windows++;
                rank_add(c, CK_NONE, CB_CORRELATED, 0, "not known", "not known: the sampler's samples around it "
                         "came late (they span %.0f ms), so its counters cannot be placed in it", c->span_ns / 1e6);
            }
            goto ranked;
        }
        rank_rule_rt_tasks(c);
        merge_observed_tasks(c);
        rule_run_delay(c);
        rule_steal(c);
        rank_rule_irqs(c);
        rank_rule_softirqs(c);
        rank_softirq_over_run_delay(c);
        rule_psi(c);
        rule_freq(c);
        trace_rules(c);
        counters_not_proof(c);
        rule_none(c);
    ranked:
        qsort(c->cand, (size_t)c->n, sizeof c->cand[0], by_score);
        n = c->n < max ? c->n : max;
        memcpy(out, c->cand, sizeof out[0] * (size_t)n);
    }
    return n;
}
