/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace stream explained: one happening's account of its longest wait by who held the CPU, and the CPU's
 * segments as text a person reads beside the report (trace_stream.h; the stream is fed in trace_stream.c). The
 * sampler thread only. */
#include "culprit/trace_stream_internal.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The names of IRQ lines and softirq vectors (the stream keeps numbers; names come with the events' text once). */
static const char *const softirq_names[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
                                             "SCHED", "HRTIMER", "RCU" };

/* Whether a task's segment names an identity given to another task since: that task is not known any more. */
static int seg_stale(const struct trace_stream *ts, const struct ts_seg *s)
{
    return s->ctx == TS_TASK && ts->id[s->id].gen != s->gen;
}

static void holder_name(const struct trace_stream *ts, const struct ts_seg *s, struct ts_holder *h)
{
    memset(h, 0, sizeof(*h));
    h->ctx = (enum ts_ctx)s->ctx;
    h->id = s->id;
    h->prio = -1;
    h->kthread = -1;
    if (seg_stale(ts, s)) {
        h->ctx = TS_UNKNOWN;
    } else if (s->ctx == TS_TASK) {
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
    int cap = ts_cap_of(ts);
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
        if (s->ctx == TS_UNKNOWN || s->ctx == TS_LOST || s->ctx == TS_MISSED || seg_stale(ts, s)) {
            acc->unknown_ns += y - x;
            ts->stale += seg_stale(ts, s);
            if (s->ctx == TS_LOST)
                acc->lost_ns += y - x; /* the ring lost events then: who held the CPU is not known */
            if (s->ctx == TS_MISSED)
                acc->missed_ns += y - x; /* a switch came that the trace does not hold: to whom is not known */
            continue;
        }
        struct ts_holder h;
        holder_name(ts, s, &h);
        credit(acc, &h, y - x, s->ctx == TS_TASK && (ts_watched(ts, h.id) || (ts->span_self && h.id == ts->span_self)));
    }
}

/* Whether cpu was idle at t (the segment that holds it). */
static int idle_at(const struct trace_stream *ts, int cpu, int64_t t)
{
    const struct ts_cpu *c = cpu >= 0 && cpu < TS_CPUS ? &ts->cpu[cpu] : NULL;
    if (!c || !c->seg || !c->nseg)
        return 0;
    int cap = ts_cap_of(ts);
    uint32_t oldest = c->nseg > (uint32_t)cap ? c->nseg - (uint32_t)cap : 0;
    for (uint32_t k = c->nseg; k-- > oldest;) {
        const struct ts_seg *s = &c->seg[k % (uint32_t)cap];
        if (s->t0_ns <= t)
            return s->ctx == TS_IDLE;
    }
    return 0;
}

static int by_ns(const void *x, const void *y)
{
    int64_t a = ((const struct ts_holder *)x)->ns, b = ((const struct ts_holder *)y)->ns;
    return a < b ? 1 : a > b ? -1 : 0;
}

static int by_cpu_start(const void *x, const void *y)
{
    const struct ts_span *p = x, *q = y;
    if (p->cpu != q->cpu)
        return p->cpu - q->cpu;
    return p->a < q->a ? -1 : p->a > q->a;
}

int ts_explain(struct trace_stream *ts, int64_t t0_ns, int64_t t1_ns, int cpu, struct ts_account *out)
{
    memset(out, 0, sizeof(*out));
    out->longest_cpu = -1;
    out->audio_prio = -1;
    out->idle_exit_ns = -1;
    /* every wait of the ring that overlaps: a 368 ms event at 64 frames held ~550 waits of two audio threads, and
     * the first 256 gathered (the newest) left out its longest wait, 5.7 ms at its start (the default run against
     * perf: another wait's holder was named) */
    enum { SPANS = TS_WAITS };
    struct ts_span *sp = ts->span, late = { 0, 0, -1, -1 };
    int64_t quiet0 = 0, quiet1 = 0; /* the late wake's CPU's silence before it */
    int n = 0;
    long long lo = ts->nwait > TS_WAITS ? ts->nwait - TS_WAITS : 0;
    int primary = ts->nwatch ? ts->watch[0].tid : -1;
    /* a server thread's last wait before the happening began (its switch-in began the cycle): one a thread, the
     * newest; an older one in the lead is the previous cycle's (a cycle 1.8 ms late behind dd, the next on time
     * 0.85 ms after: its wait was not this one's, perf) */
    int lead_tid[TS_WATCH], nlead = 0;
    for (long long k = ts->nwait - 1; k >= lo && n < SPANS; k--) {
        const struct ts_wait *w = &ts->wait[k % TS_WAITS];
        if (w->t1_ns < t0_ns - (w->any_cpu ? ts->lead_ns : 0)) {
            if (w->t1_ns < t0_ns - 1000000000LL)
                break; /* waits are in order of their ends: nothing older overlaps */
            continue;
        }
        if (w->t1_ns < t0_ns) { /* a server's, in the lead: its newest only */
            int seen = 0;
            for (int i = 0; i < nlead; i++)
                seen |= lead_tid[i] == w->tid;
            if (seen)
                continue;
            if (nlead < TS_WATCH)
                lead_tid[nlead++] = w->tid;
        }
        if (w->t0_ns > t1_ns || (cpu >= 0 && w->cpu != cpu && !w->any_cpu))
            continue;
        sp[n++] = (struct ts_span){ w->t0_ns, w->t1_ns, w->cpu, w->prio };
        /* the primary slept through its cycle's due time and was woken after it, on the CPU it then waited on (its
         * own timer's interrupt, not another audio thread): its wake came late, and that CPU is why. A wake sent
         * from another CPU was late there: what this CPU did meanwhile delayed nothing. */
        if (w->tid == primary && !w->waker_watched && w->waker_cpu == w->cpu && w->slept_ns &&
            w->slept_ns <= t0_ns && t0_ns < w->t0_ns) {
            late = (struct ts_span){ t0_ns, w->t1_ns, w->cpu, w->prio };
            quiet0 = w->quiet1_ago ? w->t0_ns - w->quiet0_ago : 0;
            quiet1 = w->quiet1_ago ? w->t0_ns - w->quiet1_ago : 0;
        }
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
    struct ts_span best = sp[0];
    for (int i = 1; i < m; i++)
        if (sp[i].b - sp[i].a > best.b - best.a)
            best = sp[i];
    /* unless the wake itself came later than that wait was long: then from the due time (what held the CPU while
     * the timer's interrupt did not come) */
    int from_due = late.cpu >= 0 && late.b - late.a > 2 * (best.b - best.a);
    if (from_due)
        best = late;
    out->waits = m;
    out->wait_ns = out->longest_ns = best.b - best.a;
    out->longest_cpu = best.cpu;
    out->audio_prio = best.prio;
    out->idle_exit_ns = ts->idle_exit_ns;
    /* its own timer's interrupt was due at the happening's start, and its CPU, busy, recorded no event at all from
     * then until the interrupt that woke it came (a silence of TS_QUIET_NS or more): nothing ran there that the
     * kernel knew of, whoever the last event named (culprits_softirq beside stress-ng: perf and a canary saw CPU 1
     * silent 4.4 ms, under the gap_ns that makes a TS_NOEVENT stretch as events come) */
    int64_t s0 = quiet0 > best.a ? quiet0 : best.a, s1 = quiet1 < best.b ? quiet1 : best.b;
    if (from_due && ts->own_timer && quiet1 > 0 && s1 - s0 >= TS_QUIET_NS && !idle_at(ts, best.cpu, s0)) {
        account_cpu(ts, best.cpu, best.a, s0, out);
        struct ts_holder h = { .ctx = TS_NOEVENT, .id = 0, .prio = -1, .kthread = -1 };
        credit(out, &h, s1 - s0, 0);
        out->due_silent_ns = s1 - s0;
        account_cpu(ts, best.cpu, s1, best.b, out);
    } else {
        account_cpu(ts, best.cpu, best.a, best.b, out);
    }
    qsort(out->held, (size_t)out->nheld, sizeof(out->held[0]), by_ns);
    return out->waits;
}

int ts_account_span(struct trace_stream *ts, int cpu, int self_tid, int64_t t0_ns, int64_t t1_ns,
                    struct ts_account *out)
{
    memset(out, 0, sizeof(*out));
    out->longest_cpu = cpu;
    out->audio_prio = -1;
    out->idle_exit_ns = ts->idle_exit_ns;
    if (t1_ns <= t0_ns)
        return 1;
    out->wait_ns = out->longest_ns = t1_ns - t0_ns;
    ts->span_self = self_tid;
    account_cpu(ts, cpu, t0_ns, t1_ns, out);
    ts->span_self = 0;
    qsort(out->held, (size_t)out->nheld, sizeof(out->held[0]), by_ns);
    return cpu >= 0 && cpu < TS_CPUS && ts->cpu[cpu].nseg && ts->cpu[cpu].last_ns >= t1_ns;
}

static int64_t lost_on(const struct trace_stream *ts, const struct ts_cpu *c, int64_t a, int64_t b)
{
    if (!c->seg || !c->nseg)
        return 0;
    int cap = ts_cap_of(ts);
    uint32_t oldest = c->nseg > (uint32_t)cap ? c->nseg - (uint32_t)cap : 0;
    int64_t n = 0;
    for (uint32_t k = c->nseg; k-- > oldest;) {
        const struct ts_seg *s = &c->seg[k % (uint32_t)cap];
        int64_t s1 = k + 1 < c->nseg ? c->seg[(k + 1) % (uint32_t)cap].t0_ns : c->last_ns;
        if (s1 <= a)
            break; /* the segments are in time order: nothing older overlaps */
        if (s->ctx == TS_LOST && s->t0_ns < b)
            n += (s1 < b ? s1 : b) - (s->t0_ns > a ? s->t0_ns : a);
    }
    return n;
}

int64_t ts_lost_in(const struct trace_stream *ts, int cpu, int64_t t0_ns, int64_t t1_ns)
{
    int64_t most = 0;
    for (int i = cpu >= 0 ? cpu : 0; i < TS_CPUS && (cpu < 0 || i == cpu); i++) {
        int64_t n = lost_on(ts, &ts->cpu[i], t0_ns, t1_ns);
        most = n > most ? n : most;
    }
    return most;
}

/* ---- what a person reads beside the report ---- */

static const char *ctx_word(enum ts_ctx c)
{
    static const char *const w[] = { "not known", "task", "IRQ", "softirq", "idle", "no event", "lost" };
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
    int cap = ts_cap_of(ts);
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
