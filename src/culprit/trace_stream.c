/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace as a stream: each CPU's contexts as segments and the audio threads' waits, as the events come
 * (trace_stream.h; the accounting of one happening in trace_stream_explain.c). The sampler thread only. */
#include "culprit/trace_stream_internal.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct trace_stream *ts_new(int64_t tick_ns)
{
    struct trace_stream *ts = calloc(1, sizeof(*ts));
    if (!ts)
        return NULL;
    ts->tick_ns = tick_ns > 0 ? tick_ns : 4000000;
    ts->gap_ns = ts->tick_ns + ts->tick_ns / 4;
    ts->idle_exit_ns = -1;
    ts_set_budget(ts, TS_SEG_BUDGET);
    return ts; /* id_of all empty as calloc left it: untouched pages, no private memory until used */
}

void ts_set_budget(struct trace_stream *ts, size_t bytes)
{
    for (int i = 0; i < TS_CPUS; i++)
        if (ts->cpu[i].seg)
            return;
    /* the budget shared out among the machine's CPUs, at least 4096 segments each (a second or so of a busy CPU) */
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    size_t per = bytes / sizeof(struct ts_seg) / (size_t)(ncpu > 2 ? ncpu : 2);
    ts->segs_per_cpu = per < 4096 ? 4096 : (int)per;
}

void ts_set_tick(struct trace_stream *ts, int64_t tick_ns)
{
    if (tick_ns > 0) {
        ts->tick_ns = tick_ns;
        ts->gap_ns = tick_ns + tick_ns / 4;
    }
}

void ts_set_period(struct trace_stream *ts, int64_t period_ns)
{
    ts->lead_ns = period_ns > 0 ? period_ns / 2 : 0;
}

void ts_set_idle_exit(struct trace_stream *ts, int64_t ns)
{
    ts->idle_exit_ns = ns >= 0 ? ns : -1;
}

void ts_set_own_timer(struct trace_stream *ts, int on)
{
    ts->own_timer = on != 0;
}

void ts_free(struct trace_stream *ts)
{
    if (!ts)
        return;
    for (int i = 0; i < TS_CPUS; i++)
        free(ts->cpu[i].seg);
    free(ts);
}

int ts_watch(struct trace_stream *ts, int tid, int any_cpu)
{
    if (tid <= 0 || ts_watched(ts, tid))
        return 0;
    if (ts->nwatch >= TS_WATCH)
        return -1;
    ts->watch[ts->nwatch++] = (struct ts_watch_state){ .tid = tid, .prio = -1, .any_cpu = any_cpu };
    return 0;
}

int ts_watched(const struct trace_stream *ts, int tid)
{
    for (int i = 0; i < ts->nwatch; i++)
        if (ts->watch[i].tid == tid)
            return 1;
    return 0;
}

void ts_set_kthread_probe(struct trace_stream *ts, int (*probe)(int pid, const char *comm))
{
    ts->probe = probe;
}

int ts_kthread_by_name(const char *comm)
{
    static const char *const prefixes[] = {
        "kworker/", "ksoftirqd/", "migration/", "cpuhp/", "idle_inject/", "rcu_", "rcuc/", "rcub/", "rcuog/",
        "rcuop/", "irq/", "watchdog/", "kthreadd", "kswapd", "kcompactd", "jbd2/", "khugepaged", "kauditd",
        "writeback", "oom_reaper", "kblockd", "ksmd", "swapper/", "pr/", "card", "hwrng", "scsi_", "ext4-",
    };
    for (size_t i = 0; comm && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (strncmp(comm, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* ---- identities and function names ---- */

/* A task's name as the identity keeps it (at most 15 bytes, as the kernel keeps it). */
static void set_comm(struct ts_ident *d, const char *comm)
{
    size_t n = comm ? strnlen(comm, sizeof(d->comm) - 1) : 0;
    if (n)
        memcpy(d->comm, comm, n);
    d->comm[n] = '\0';
}

/* The identity of pid: found in its slot or the TS_ID_PROBES after it, else made (the ring's oldest reused) and
 * put in the first of those slots that is free, stale (its identity since reused) or pid's own, else in pid's own
 * slot (nine live pids 8,192 apart: the one there is found no more and gets a new identity when it next comes). */
static int ident(struct trace_stream *ts, int pid, const char *comm, int prio)
{
    unsigned h = (unsigned)pid * 2654435761u % TS_ID_SLOTS, put = TS_ID_SLOTS;
    for (unsigned k = 0; k <= TS_ID_PROBES; k++) {
        unsigned s = (h + k) % TS_ID_SLOTS;
        int i = ts->id_of[s].idx1 - 1;
        int live = i >= 0 && ts->id[i].pid == ts->id_of[s].pid;
        if (live && ts->id_of[s].pid == pid) {
            if (prio >= 0)
                ts->id[i].prio = prio;
            /* a new name for the pid (an exec; "<idle>" in a header is swapper/N's): kept, the task is the same */
            if (pid && comm && comm[0] && comm[0] != '<' && strncmp(ts->id[i].comm, comm, sizeof(ts->id[i].comm) - 1))
                set_comm(&ts->id[i], comm);
            return i;
        }
        if (!live && put == TS_ID_SLOTS)
            put = s;
    }
    int i = (int)(ts->nid % TS_IDS);
    struct ts_ident *d = &ts->id[i];
    d->pid = pid;
    d->prio = prio;
    d->gen = (uint8_t)(ts->nid / TS_IDS % 255 + 1);
    ts->nid++;
    set_comm(d, comm);
    int kt = pid == 0 ? 1 : ts->probe ? ts->probe(pid, d->comm) : -1;
    d->kthread = (int8_t)(kt < 0 && ts_kthread_by_name(d->comm) ? 1 : kt);
    if (put == TS_ID_SLOTS)
        put = h;
    ts->id_of[put].pid = pid;
    ts->id_of[put].idx1 = i + 1;
    return i;
}

/* Whether the identity of the CPU's task was given to another task since it came. */
static int task_reused(const struct trace_stream *ts, const struct ts_cpu *c)
{
    return ts->id[c->task].gen != c->task_gen;
}

/* The CPU's task is now identity i (and that identity's gen: a later reuse of i is seen as such). */
static void set_task(struct trace_stream *ts, struct ts_cpu *c, int i)
{
    c->task = i;
    c->task_gen = ts->id[i].gen;
}

static uint16_t fn_index(struct trace_stream *ts, const char *fn)
{
    if (!fn || !fn[0])
        return 0;
    for (int i = 0; i < ts->nfn; i++)
        if (strcmp(ts->fn[i], fn) == 0)
            return (uint16_t)(i + 1);
    if (ts->nfn >= TS_FNS)
        return 0;
    snprintf(ts->fn[ts->nfn], sizeof(ts->fn[0]), "%s", fn);
    return (uint16_t)(++ts->nfn);
}

static void learn_irq(struct trace_stream *ts, int irq, const char *name)
{
    for (int i = 0; i < ts->nirqname; i++)
        if (ts->irqname[i].irq == irq)
            return;
    if (ts->nirqname < (int)(sizeof(ts->irqname) / sizeof(ts->irqname[0]))) {
        ts->irqname[ts->nirqname].irq = irq;
        snprintf(ts->irqname[ts->nirqname++].name, sizeof(ts->irqname[0].name), "%s", name);
    }
}

/* ---- segments ---- */

static struct ts_cpu *cpu_of(struct trace_stream *ts, int cpu)
{
    if (cpu < 0 || cpu >= TS_CPUS)
        return NULL;
    struct ts_cpu *c = &ts->cpu[cpu];
    if (!c->seg) {
        if (!(c->seg = calloc((size_t)ts->segs_per_cpu, sizeof(*c->seg))))
            return NULL;
        ts->ncpus++;
    }
    return c;
}

static void push_seg(struct trace_stream *ts, struct ts_cpu *c, int64_t t, enum ts_ctx ctx, int32_t id, uint16_t fn)
{
    int cap = ts_cap_of(ts);
    uint8_t gen = ctx == TS_TASK ? ts->id[id].gen : 0;
    if (c->nseg) {
        struct ts_seg *last = &c->seg[(c->nseg - 1) % (uint32_t)cap];
        if (last->ctx == ctx && last->id == id && last->fn == fn && last->gen == gen)
            return; /* the same context goes on */
        if (last->t0_ns >= t) { /* a change at the same instant replaces it */
            *last = (struct ts_seg){ .t0_ns = last->t0_ns, .id = id, .fn = fn, .ctx = (uint8_t)ctx, .gen = gen };
            return;
        }
    }
    c->seg[c->nseg++ % (uint32_t)cap] = (struct ts_seg){ .t0_ns = t, .id = id, .fn = fn, .ctx = (uint8_t)ctx,
                                                         .gen = gen };
}

/* The context on top of a CPU as a segment. */
static void top(const struct ts_cpu *c, const struct trace_stream *ts, enum ts_ctx *ctx, int32_t *id, uint16_t *fn)
{
    *fn = 0;
    if (!c->started || (!c->depth && task_reused(ts, c))) {
        *ctx = TS_UNKNOWN, *id = 0; /* (the task's identity reused since it came: who runs there is not known) */
    } else if (c->depth) {
        *ctx = (enum ts_ctx)c->stack[c->depth - 1].ctx, *id = c->stack[c->depth - 1].id;
    } else if (ts->id[c->task].pid == 0) {
        *ctx = TS_IDLE, *id = 0;
    } else {
        *ctx = TS_TASK, *id = c->task, *fn = c->fn;
    }
}

static void mark(struct trace_stream *ts, struct ts_cpu *c, int64_t t)
{
    enum ts_ctx ctx;
    int32_t id;
    uint16_t fn;
    top(c, ts, &ctx, &id, &fn);
    push_seg(ts, c, t, ctx, id, fn);
}

/* ---- the audio threads ---- */

static struct ts_watch_state *watched(struct trace_stream *ts, int tid)
{
    for (int i = 0; tid > 0 && i < ts->nwatch; i++)
        if (ts->watch[i].tid == tid)
            return &ts->watch[i];
    return NULL;
}

static void switched(struct trace_stream *ts, const struct tev *ev)
{
    struct ts_watch_state *w;
    if ((w = watched(ts, ev->prev_pid))) {
        int runnable = ev->prev_state[0] == 'R';
        w->state = runnable ? 2 : 1;
        w->since_ns = ev->t_ns;
        w->slept_ns = runnable ? 0 : ev->t_ns;
        w->waker_watched = 0;
        w->waker_cpu = -1;
        w->quiet0_ns = w->quiet1_ns = 0;
        if (ev->prev_prio >= 0)
            w->prio = ev->prev_prio;
    }
    if ((w = watched(ts, ev->next_pid))) {
        if (w->state == 2) {
            int64_t q0 = w->since_ns - w->quiet0_ns, q1 = w->since_ns - w->quiet1_ns;
            int quiet = w->waker_cpu >= 0 && w->quiet1_ns > 0 && q0 >= 0 && q0 < 2000000000LL && q1 >= 0;
            ts->wait[ts->nwait++ % TS_WAITS] = (struct ts_wait){ .t0_ns = w->since_ns, .t1_ns = ev->t_ns,
                                                                .slept_ns = w->slept_ns, .tid = w->tid,
                                                                .cpu = (int16_t)ev->cpu,
                                                                .prio = (int16_t)ev->next_prio,
                                                                .waker_watched = (int8_t)w->waker_watched,
                                                                .waker_cpu = (int16_t)w->waker_cpu,
                                                                .any_cpu = (int8_t)w->any_cpu,
                                                                .quiet0_ago = quiet ? (int32_t)q0 : 0,
                                                                .quiet1_ago = quiet ? (int32_t)q1 : 0 };
        }
        w->state = 3;
        w->since_ns = ev->t_ns;
        if (ev->next_prio >= 0)
            w->prio = ev->next_prio;
    }
}

static void waking(struct trace_stream *ts, const struct tev *ev)
{
    struct ts_watch_state *w = watched(ts, (int)ev->num);
    if (!w || w->state == 2 || w->state == 3)
        return; /* already waiting or running: a second waking changes nothing */
    w->state = 2;
    w->since_ns = ev->t_ns;
    w->waker_watched = ev->pid > 0 && watched(ts, ev->pid) != NULL; /* the header's task woke it */
    w->waker_cpu = ev->cpu;
    const struct ts_cpu *c = ev->cpu >= 0 && ev->cpu < TS_CPUS ? &ts->cpu[ev->cpu] : NULL;
    w->quiet0_ns = c ? c->quiet0_ns : 0, w->quiet1_ns = c ? c->quiet1_ns : 0;
    if (ev->next_prio >= 0)
        w->prio = ev->next_prio;
}

/* ---- feeding ---- */

static void stack_push(struct ts_cpu *c, enum ts_ctx ctx, int32_t id)
{
    if (c->depth < STACK_MAX)
        c->stack[c->depth].ctx = (uint8_t)ctx, c->stack[c->depth++].id = id;
}

static void stack_pop(struct ts_cpu *c, enum ts_ctx ctx, int32_t id)
{
    for (int i = c->depth - 1; i >= 0; i--)
        if (c->stack[i].ctx == ctx && c->stack[i].id == id) {
            c->depth = i;
            return;
        }
}

void ts_feed(struct trace_stream *ts, const struct tev *ev)
{
    struct ts_cpu *c = cpu_of(ts, ev->cpu);
    if (!c)
        return;
    if (ev->type == TEV_LOST) { /* what the CPU did from its last event on is not known until its next one */
        ts->lost += ev->num;
        if (c->started)
            push_seg(ts, c, c->last_ns, TS_LOST, 0, 0);
        c->started = 0;
        c->quiet0_ns = c->quiet1_ns = 0; /* a loss is no silence */
        c->depth = 0;
        return;
    }
    if (c->started && ev->t_ns < c->last_ns) {
        ts->late++;
        return;
    }
    ts->events++;
    if (!ts->first_ns)
        ts->first_ns = ev->t_ns;
    ts->last_ns = ev->t_ns;
    if (!c->started) {
        c->started = 1;
        c->depth = 0;
        c->fn = 0;
        set_task(ts, c, ident(ts, ev->pid, ev->comm, -1));
        mark(ts, c, ev->t_ns);
    } else if (ev->t_ns - c->last_ns > ts->gap_ns && (c->depth || ts->id[c->task].pid != 0)) {
        /* busy, and no tick for longer than a tick: after one tick's time, the CPU was not running */
        push_seg(ts, c, c->last_ns + ts->tick_ns, TS_NOEVENT, 0, 0);
        mark(ts, c, ev->t_ns);
    } else if (!c->depth && ts->id[c->task].pid != ev->pid && !task_reused(ts, c)) {
        /* in task context the header names another task than the last switch did: a switch came that the trace
         * does not hold (this kernel sometimes emits no sched_switch for a switch-in: perf, a second instance and
         * our reader all miss it, schedstat counts it; tests/integration/trace_raw.sh). It came somewhere since
         * the CPU's last event: who held the CPU meanwhile is not known, never the task the last switch named. */
        push_seg(ts, c, c->last_ns, TS_MISSED, 0, 0);
        ts->switch_missed++;
    }
    if (c->started && ev->t_ns - c->last_ns >= TS_QUIET_NS) /* a silence: no event at all on the CPU in it */
        c->quiet0_ns = c->last_ns, c->quiet1_ns = ev->t_ns;
    c->last_ns = ev->t_ns;
    /* in task context the header names the task running: trust it over a missed switch */
    if (!c->depth && ev->type != TEV_SWITCH && (ts->id[c->task].pid != ev->pid || task_reused(ts, c))) {
        set_task(ts, c, ident(ts, ev->pid, ev->comm, -1));
        c->fn = 0;
        mark(ts, c, ev->t_ns);
    }
    switch (ev->type) {
    case TEV_SWITCH:
        if (ev->prev_pid >= 0)
            ident(ts, ev->prev_pid, NULL, ev->prev_prio);
        c->depth = 0;
        c->fn = 0;
        set_task(ts, c, ident(ts, ev->next_pid, ev->name, ev->next_prio));
        switched(ts, ev);
        break;
    case TEV_WAKING:
    case TEV_WAKEUP:
        waking(ts, ev);
        return; /* no change of context */
    case TEV_IRQ_ENTRY:
        if (ev->num >= 0)
            learn_irq(ts, (int)ev->num, ev->name);
        stack_push(c, TS_IRQ, (int32_t)ev->num);
        break;
    case TEV_IRQ_EXIT:
        stack_pop(c, TS_IRQ, (int32_t)ev->num);
        break;
    case TEV_SOFTIRQ_ENTRY:
        stack_push(c, TS_SOFTIRQ, (int32_t)ev->num);
        break;
    case TEV_SOFTIRQ_EXIT:
        stack_pop(c, TS_SOFTIRQ, (int32_t)ev->num);
        break;
    case TEV_WQ_START:
        c->fn = fn_index(ts, ev->fn);
        break;
    case TEV_WQ_END:
        c->fn = 0;
        break;
    default:
        return;
    }
    mark(ts, c, ev->t_ns);
}

void ts_rename_fn(struct trace_stream *ts, const char *from, const char *to)
{
    for (int i = 0; i < ts->nfn; i++)
        if (strcmp(ts->fn[i], from) == 0) {
            snprintf(ts->fn[i], sizeof(ts->fn[i]), "%s", to);
            return;
        }
}

int ts_feed_line(struct trace_stream *ts, const char *line, size_t len)
{
    struct tev ev;
    if (!tev_parse(line, len, &ev))
        return 0;
    ts_feed(ts, &ev);
    return 1;
}

void ts_get_stats(const struct trace_stream *ts, struct ts_stats *out)
{
    *out = (struct ts_stats){ .events = ts->events, .lost = ts->lost, .waits = ts->nwait, .late_events = ts->late,
                              .identities = ts->nid, .stale = ts->stale, .switch_missed = ts->switch_missed,
                              .cpus = ts->ncpus, .segs_per_cpu = ts->segs_per_cpu, .first_ns = ts->first_ns,
                              .last_ns = ts->last_ns };
}
