/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace as a stream: each CPU's contexts as segments, the audio threads' waits, and one happening's account
 * (trace_stream.h). The sampler thread only. */
#include "culprit/trace_stream.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One stretch of a CPU: from t0_ns to the next segment's t0_ns (the newest: to the CPU's last event). */
struct ts_seg {
    int64_t t0_ns;
    int32_t id;               /* TS_TASK: an identity's index; TS_IRQ/TS_SOFTIRQ: the line, the vector */
    uint16_t fn;              /* TS_TASK: a workqueue function's index + 1, 0 none */
    uint8_t ctx;              /* enum ts_ctx */
    uint8_t pad;
};

#define STACK_MAX 8

struct ts_cpu {
    struct ts_seg *seg;       /* a ring of the stream's segs_per_cpu */
    uint32_t nseg;            /* segments made; the ring holds the last nseg_cap */
    int64_t last_ns;          /* the CPU's last event */
    int started;              /* its context is known (after its first event, or after lost events) */
    int task;                 /* the identity on it */
    uint16_t fn;              /* the workqueue function of the work item running, index + 1 */
    int depth;
    struct { uint8_t ctx; int32_t id; } stack[STACK_MAX];
};

/* An audio thread's wait: [t0, t1] on cpu (where it then ran); slept_ns: when it had gone to sleep before the
 * waking that began the wait (0: it was preempted, runnable). */
struct ts_wait {
    int64_t t0_ns, t1_ns, slept_ns;
    int tid, cpu, prio, any_cpu;
    int waker_watched;        /* another audio thread woke it (the server's: its lateness is that thread's wait) */
    int waker_cpu;            /* where the waking was issued (-1: not seen) */
};

struct ts_watch_state {
    int tid, state;           /* 0 unknown, 1 asleep, 2 runnable (waiting), 3 running */
    int any_cpu;              /* a server's thread: its waits count on any CPU */
    int64_t since_ns, slept_ns;
    int prio, waker_watched, waker_cpu;
};

struct trace_stream {
    int64_t tick_ns, gap_ns;
    int segs_per_cpu, ncpus;
    struct ts_cpu cpu[TS_CPUS];
    struct ts_ident id[TS_IDS];
    int nid;                  /* identities made; the ring holds the last TS_IDS */
    int id_of[8192];          /* pid hash -> identity index (checked against its pid) */
    char fn[TS_FNS][48];
    int nfn;
    struct { int irq; char name[TEV_COMM_MAX]; } irqname[256];
    int nirqname;
    struct ts_watch_state watch[TS_WATCH];
    int nwatch;
    struct ts_wait wait[TS_WAITS];
    long long nwait;
    int (*probe)(int pid, const char *comm);
    long long events, lost, late;
    int64_t first_ns, last_ns;
};

struct trace_stream *ts_new(int64_t tick_ns)
{
    struct trace_stream *ts = calloc(1, sizeof(*ts));
    if (!ts)
        return NULL;
    ts->tick_ns = tick_ns > 0 ? tick_ns : 4000000;
    ts->gap_ns = ts->tick_ns + ts->tick_ns / 4;
    /* the budget shared out among the machine's CPUs, at least 4096 segments each (a second or so of a busy CPU) */
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    size_t per = TS_SEG_BUDGET / sizeof(struct ts_seg) / (size_t)(ncpu > 2 ? ncpu : 2);
    ts->segs_per_cpu = per < 4096 ? 4096 : (int)per;
    memset(ts->id_of, -1, sizeof(ts->id_of));
    return ts;
}

void ts_set_tick(struct trace_stream *ts, int64_t tick_ns)
{
    if (tick_ns > 0) {
        ts->tick_ns = tick_ns;
        ts->gap_ns = tick_ns + tick_ns / 4;
    }
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

static int ident(struct trace_stream *ts, int pid, const char *comm, int prio)
{
    unsigned h = (unsigned)pid * 2654435761u % 8192u;
    int i = ts->id_of[h];
    if (i >= 0 && ts->id[i].pid == pid) {
        if (prio >= 0)
            ts->id[i].prio = prio;
        /* a new name for the pid (an exec; "<idle>" in a header is swapper/N's): kept, the task is the same */
        if (pid && comm && comm[0] && comm[0] != '<' && strcmp(ts->id[i].comm, comm) != 0)
            snprintf(ts->id[i].comm, sizeof(ts->id[i].comm), "%s", comm);
        return i;
    }
    i = ts->nid++ % TS_IDS;
    struct ts_ident *d = &ts->id[i];
    d->pid = pid;
    d->prio = prio;
    snprintf(d->comm, sizeof(d->comm), "%s", comm ? comm : "");
    d->kthread = pid == 0 ? 1 : ts->probe ? ts->probe(pid, d->comm) : -1;
    if (d->kthread < 0 && ts_kthread_by_name(d->comm))
        d->kthread = 1;
    ts->id_of[h] = i;
    return i;
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

static int cap_of(const struct trace_stream *ts, const struct ts_cpu *c)
{
    (void)c; /* one size for every CPU, set at the start */
    return ts->segs_per_cpu;
}

static void push_seg(struct trace_stream *ts, struct ts_cpu *c, int64_t t, enum ts_ctx ctx, int32_t id, uint16_t fn)
{
    int cap = cap_of(ts, c);
    if (c->nseg) {
        struct ts_seg *last = &c->seg[(c->nseg - 1) % (uint32_t)cap];
        if (last->ctx == ctx && last->id == id && last->fn == fn)
            return; /* the same context goes on */
        if (last->t0_ns >= t) { /* a change at the same instant replaces it */
            *last = (struct ts_seg){ .t0_ns = last->t0_ns, .id = id, .fn = fn, .ctx = (uint8_t)ctx };
            return;
        }
    }
    c->seg[c->nseg++ % (uint32_t)cap] = (struct ts_seg){ .t0_ns = t, .id = id, .fn = fn, .ctx = (uint8_t)ctx };
}

/* The context on top of a CPU as a segment. */
static void top(const struct ts_cpu *c, const struct trace_stream *ts, enum ts_ctx *ctx, int32_t *id, uint16_t *fn)
{
    *fn = 0;
    if (!c->started) {
        *ctx = TS_UNKNOWN, *id = 0;
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
        if (ev->prev_prio >= 0)
            w->prio = ev->prev_prio;
    }
    if ((w = watched(ts, ev->next_pid))) {
        if (w->state == 2) {
            ts->wait[ts->nwait++ % TS_WAITS] = (struct ts_wait){ .t0_ns = w->since_ns, .t1_ns = ev->t_ns,
                                                                .slept_ns = w->slept_ns, .tid = w->tid,
                                                                .cpu = ev->cpu, .prio = ev->next_prio,
                                                                .waker_watched = w->waker_watched,
                                                                .waker_cpu = w->waker_cpu,
                                                                .any_cpu = w->any_cpu };
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
            push_seg(ts, c, c->last_ns, TS_UNKNOWN, 0, 0);
        c->started = 0;
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
        c->task = ident(ts, ev->pid, ev->comm, -1);
        mark(ts, c, ev->t_ns);
    } else if (ev->t_ns - c->last_ns > ts->gap_ns && (c->depth || ts->id[c->task].pid != 0)) {
        /* busy, and no tick for longer than a tick: after one tick's time, the CPU was not running */
        push_seg(ts, c, c->last_ns + ts->tick_ns, TS_NOEVENT, 0, 0);
        mark(ts, c, ev->t_ns);
    }
    c->last_ns = ev->t_ns;
    /* in task context the header names the task running: trust it over a missed switch */
    if (!c->depth && ev->type != TEV_SWITCH && ts->id[c->task].pid != ev->pid) {
        c->task = ident(ts, ev->pid, ev->comm, -1);
        c->fn = 0;
        mark(ts, c, ev->t_ns);
    }
    switch (ev->type) {
    case TEV_SWITCH:
        if (ev->prev_pid >= 0)
            ident(ts, ev->prev_pid, NULL, ev->prev_prio);
        c->depth = 0;
        c->fn = 0;
        c->task = ident(ts, ev->next_pid, ev->name, ev->next_prio);
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

int ts_feed_line(struct trace_stream *ts, const char *line, size_t len)
{
    struct tev ev;
    if (!tev_parse(line, len, &ev))
        return 0;
    ts_feed(ts, &ev);
    return 1;
}

/* ---- explaining ---- */

/* The names of IRQ lines and softirq vectors (the stream keeps numbers; names come with the events' text once). */
static const char *const softirq_names[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
                                             "SCHED", "HRTIMER", "RCU" };

static void holder_name(const struct trace_stream *ts, const struct ts_seg *s, struct ts_holder *h)
{
    memset(h, 0, sizeof(*h));
    h->ctx = (enum ts_ctx)s->ctx;
    h->id = s->id;
    h->prio = -1;
    h->kthread = -1;
    if (s->ctx == TS_TASK) {
        const struct ts_ident *d = &ts->id[s->id];
        h->id = d->pid, h->prio = d->prio, h->kthread = d->kthread;
        snprintf(h->name, sizeof(h->name), "%s", d->comm);
        if (s->fn && s->fn <= ts->nfn)
            snprintf(h->fn, sizeof(h->fn), "%s", ts->fn[s->fn - 1]);
    } else if (s->ctx == TS_IRQ) {
        for (const struct tev_vector *v = tev_vectors; s->id < 0 && v->event; v++)
            if (v->num == s->id)
                snprintf(h->name, sizeof(h->name), "%s", v->line);
        for (int i = 0; s->id >= 0 && i < ts->nirqname; i++)
            if (ts->irqname[i].irq == s->id)
                snprintf(h->name, sizeof(h->name), "%s", ts->irqname[i].name);
    } else if (s->ctx == TS_SOFTIRQ && s->id >= 0 && s->id < (int)(sizeof(softirq_names) / sizeof(*softirq_names))) {
        snprintf(h->name, sizeof(h->name), "%s", softirq_names[s->id]);
    }
}

static void credit(struct ts_account *a, const struct ts_holder *h, int64_t ns, int watched_self)
{
    if (ns <= 0 || watched_self)
        return;
    for (int i = 0; i < a->nheld; i++) {
        struct ts_holder *x = &a->held[i];
        if (x->ctx == h->ctx && x->id == h->id && strcmp(x->fn, h->fn) == 0 &&
            (h->ctx != TS_TASK || strcmp(x->name, h->name) == 0)) {
            x->ns += ns;
            return;
        }
    }
    if (a->nheld < TS_HOLDERS) {
        a->held[a->nheld] = *h;
        a->held[a->nheld++].ns = ns;
        return;
    }
    /* full: the smallest gives way to a larger one */
    int m = 0;
    for (int i = 1; i < a->nheld; i++)
        if (a->held[i].ns < a->held[m].ns)
            m = i;
    if (a->held[m].ns < ns) {
        a->held[m] = *h;
        a->held[m].ns = ns;
    }
}

/* Who held cpu in [a, b]: credited into acc; what the ring no longer (or never) covered is unknown. */
static void account_cpu(struct trace_stream *ts, int cpu, int64_t a, int64_t b, struct ts_account *acc)
{
    struct ts_cpu *c = cpu >= 0 && cpu < TS_CPUS ? &ts->cpu[cpu] : NULL;
    if (!c || !c->seg || !c->nseg) {
        acc->unknown_ns += b - a;
        return;
    }
    int cap = cap_of(ts, c);
    uint32_t oldest = c->nseg > (uint32_t)cap ? c->nseg - (uint32_t)cap : 0;
    /* what came before the oldest segment kept is not known */
    int64_t first = c->seg[oldest % (uint32_t)cap].t0_ns;
    if (a < first) {
        acc->unknown_ns += (b < first ? b : first) - a;
        a = first;
    }
    /* and what comes after the CPU's last event is not known yet */
    if (b > c->last_ns) {
        acc->unknown_ns += b - (a > c->last_ns ? a : c->last_ns);
        b = c->last_ns;
    }
    if (b <= a)
        return;
    /* the newest segment that starts at or before a, found backwards (the windows are recent) */
    uint32_t k = c->nseg - 1;
    while (k > oldest && c->seg[k % (uint32_t)cap].t0_ns > a)
        k--;
    for (; k < c->nseg; k++) {
        const struct ts_seg *s = &c->seg[k % (uint32_t)cap];
        int64_t s0 = s->t0_ns, s1 = k + 1 < c->nseg ? c->seg[(k + 1) % (uint32_t)cap].t0_ns : c->last_ns;
        if (s0 >= b)
            break;
        int64_t x = s0 > a ? s0 : a, y = s1 < b ? s1 : b;
        if (y <= x)
            continue;
        if (s->ctx == TS_UNKNOWN) {
            acc->unknown_ns += y - x;
            continue;
        }
        struct ts_holder h;
        holder_name(ts, s, &h);
        credit(acc, &h, y - x, s->ctx == TS_TASK && ts_watched(ts, h.id));
    }
}

static int by_ns(const void *x, const void *y)
{
    int64_t a = ((const struct ts_holder *)x)->ns, b = ((const struct ts_holder *)y)->ns;
    return a < b ? 1 : a > b ? -1 : 0;
}

struct span { int64_t a, b; int cpu, prio; };

static int by_cpu_start(const void *x, const void *y)
{
    const struct span *p = x, *q = y;
    if (p->cpu != q->cpu)
        return p->cpu - q->cpu;
    return p->a < q->a ? -1 : p->a > q->a;
}

int ts_explain(struct trace_stream *ts, int64_t t0_ns, int64_t t1_ns, int cpu, struct ts_account *out)
{
    memset(out, 0, sizeof(*out));
    out->longest_cpu = -1;
    out->audio_prio = -1;
    enum { SPANS = 256 };
    struct span sp[SPANS], late = { 0, 0, -1, -1 };
    int n = 0;
    long long lo = ts->nwait > TS_WAITS ? ts->nwait - TS_WAITS : 0;
    int primary = ts->nwatch ? ts->watch[0].tid : -1;
    for (long long k = ts->nwait - 1; k >= lo && n < SPANS; k--) {
        const struct ts_wait *w = &ts->wait[k % TS_WAITS];
        if (w->t1_ns < t0_ns) {
            if (w->t1_ns < t0_ns - 1000000000LL)
                break; /* waits are in order of their ends: nothing older overlaps */
            continue;
        }
        if (w->t0_ns > t1_ns || (cpu >= 0 && w->cpu != cpu && !w->any_cpu))
            continue;
        sp[n++] = (struct span){ w->t0_ns, w->t1_ns, w->cpu, w->prio };
        /* the primary slept through its cycle's due time and was woken after it, on the CPU it then waited on (its
         * own timer's interrupt, not another audio thread): its wake came late, and that CPU is why. A wake sent
         * from another CPU was late there: what this CPU did meanwhile delayed nothing. */
        if (w->tid == primary && !w->waker_watched && w->waker_cpu == w->cpu && w->slept_ns &&
            w->slept_ns <= t0_ns && t0_ns < w->t0_ns)
            late = (struct span){ t0_ns, w->t1_ns, w->cpu, w->prio };
    }
    if (!n)
        return 0;
    qsort(sp, (size_t)n, sizeof(sp[0]), by_cpu_start);
    /* overlapping waits on one CPU (two audio threads waiting together) are its time once */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && sp[m - 1].cpu == sp[i].cpu && sp[i].a <= sp[m - 1].b) {
            if (sp[i].b > sp[m - 1].b)
                sp[m - 1].b = sp[i].b;
            if (sp[i].prio >= 0 && (sp[m - 1].prio < 0 || sp[i].prio < sp[m - 1].prio))
                sp[m - 1].prio = sp[i].prio;
            continue;
        }
        sp[m++] = sp[i];
    }
    /* the longest wait is the one accounted (a stall is one wait; the short ones around it are every cycle's) */
    struct span best = sp[0];
    for (int i = 1; i < m; i++)
        if (sp[i].b - sp[i].a > best.b - best.a)
            best = sp[i];
    /* unless the wake itself came later than that wait was long: then from the due time (what held the CPU while
     * the timer's interrupt did not come) */
    if (late.cpu >= 0 && late.b - late.a > 2 * (best.b - best.a))
        best = late;
    out->waits = m;
    out->wait_ns = out->longest_ns = best.b - best.a;
    out->longest_cpu = best.cpu;
    out->audio_prio = best.prio;
    account_cpu(ts, best.cpu, best.a, best.b, out);
    qsort(out->held, (size_t)out->nheld, sizeof(out->held[0]), by_ns);
    return out->waits;
}

void ts_get_stats(const struct trace_stream *ts, struct ts_stats *out)
{
    *out = (struct ts_stats){ .events = ts->events, .lost = ts->lost, .waits = ts->nwait, .late_events = ts->late,
                              .cpus = ts->ncpus, .segs_per_cpu = ts->segs_per_cpu, .first_ns = ts->first_ns,
                              .last_ns = ts->last_ns };
}

/* ---- what a person reads beside the report ---- */

static const char *ctx_word(enum ts_ctx c)
{
    static const char *const w[] = { "not known", "task", "IRQ", "softirq", "idle", "no event" };
    return (unsigned)c < sizeof(w) / sizeof(w[0]) ? w[c] : "?";
}

size_t ts_describe(struct trace_stream *ts, int cpu, int64_t a, int64_t b, char *buf, size_t len)
{
    struct ts_cpu *c = cpu >= 0 && cpu < TS_CPUS ? &ts->cpu[cpu] : NULL;
    size_t o = 0;
    if (!len)
        return 0;
    buf[0] = '\0';
    if (!c || !c->seg || !c->nseg)
        return 0;
    int cap = cap_of(ts, c);
    uint32_t oldest = c->nseg > (uint32_t)cap ? c->nseg - (uint32_t)cap : 0, k = c->nseg - 1;
    while (k > oldest && c->seg[k % (uint32_t)cap].t0_ns > a)
        k--;
    for (; k < c->nseg && o + 160 < len; k++) {
        const struct ts_seg *s = &c->seg[k % (uint32_t)cap];
        int64_t s1 = k + 1 < c->nseg ? c->seg[(k + 1) % (uint32_t)cap].t0_ns : c->last_ns;
        if (s->t0_ns >= b)
            break;
        if (s1 <= a)
            continue;
        struct ts_holder h;
        holder_name(ts, s, &h);
        o += (size_t)snprintf(buf + o, len - o, "%lld.%09lld %10.3f ms  %-8s %s", (long long)(s->t0_ns / 1000000000LL),
                              (long long)(s->t0_ns % 1000000000LL), (s1 - s->t0_ns) / 1e6, ctx_word(h.ctx), h.name);
        if (h.ctx == TS_TASK)
            o += (size_t)snprintf(buf + o, len - o, "-%d prio %d%s%s%s", h.id, h.prio, h.kthread == 1 ? " kthread" : "",
                                  h.fn[0] ? " work " : "", h.fn);
        else if (h.ctx == TS_IRQ || h.ctx == TS_SOFTIRQ)
            o += (size_t)snprintf(buf + o, len - o, " (%d)", h.id);
        o += (size_t)snprintf(buf + o, len - o, "\n");
    }
    return o < len ? o : len - 1;
}
