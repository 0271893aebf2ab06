/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's classifier thread (see noise.h). Not RT-safe: normal priority; it reads /proc. Every 10 ms it
 * pops the gap records, then reads the probed CPUs' counters; a gap's window runs from the last reading that ended
 * before the gap began to this one, which began after the gap ended: what changed in it is what the gap can be
 * blamed on (util/noise_class.h). Windows overlap: a gap that began while a reading was taken has the window from
 * the reading before it, and so shares the next window's rise with that window's gaps. Each reading keeps, per line,
 * how much of the rise since the one before no gap has spent yet (left), and a window's budget is capped by what its
 * readings have left: a line is named for no more gaps than its count rose, summed over the run too. A window the
 * probe ran through without any gap is that CPU's background (bg_settle says when that is known). With the kernel
 * trace (np->trace), a gap of NOISE_TRACE_MIN_NS or more waits (bounded) until the trace has seen its CPU past its
 * end, and the trace's split of the CPU's events inside it wins over the counters' class. */
#include "noise/noise.h"
#include "rtclock.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY 64                     /* readings kept: 640 ms at least; a gap longer than that is not known */
#define BATCH 1024

struct reading {
    int64_t t0_ns, t1_ns;              /* the reading began, and ended */
    uint64_t seq;                      /* readings taken before it */
    struct noise_counts c[NOISE_CPUS_MAX];
};

struct cls_state {
    struct noise_reader rd;
    struct reading *hist;              /* HISTORY, a ring: reading seq in slot seq % HISTORY */
    int n;                             /* readings kept */
    uint64_t taken;                    /* readings taken */
    int64_t bg_from[NOISE_CPUS_MAX];   /* per CPU, the first reading (seq) of the stretch of windows without a gap
                                        * popped that waits to be learnt as background (bg_settle), -1 none */
    int cpus[NOISE_CPUS_MAX], tids[NOISE_CPUS_MAX];
    struct rt_record batch[BATCH];
    uint32_t budget[NOISE_LINES_MAX];  /* the window's, per line (noise_budget) */
    uint32_t *left;                    /* per reading slot, CPU and line: how much of the line's rise since the
                                        * reading before is not yet spent on a gap (HISTORY x nstreams x lines) */
    int nstreams;
    struct pending {                   /* gaps waiting for the trace: a FIFO ring */
        struct rt_record g;
        struct noise_why w;
        unsigned tag;
    } pend[NOISE_TRACE_PENDING];
    int pend_head, pend_n;
    int64_t rate_t0_ns;                /* the second the rate bound counts in, and its questions so far */
    int rate_n;
};

static const struct reading *reading_at(const struct cls_state *c, int back) /* 0: the newest */
{
    return &c->hist[(c->taken - 1 - (uint64_t)back) % HISTORY];
}

/* Reading seq, or NULL when it is no longer (or not yet) kept. */
static const struct reading *reading_seq(const struct cls_state *c, uint64_t seq)
{
    return seq < c->taken && c->taken - seq <= (uint64_t)c->n ? &c->hist[seq % HISTORY] : NULL;
}

/* The newest reading that ended before t_ns, or NULL. */
static const struct reading *before(const struct cls_state *c, int64_t t_ns)
{
    for (int i = 1; i < c->n; i++) { /* 0 is the reading taken after the gap */
        const struct reading *r = reading_at(c, i);
        if (r->t1_ns <= t_ns)
            return r;
    }
    return NULL;
}

static uint32_t *left_of(struct cls_state *c, uint64_t seq, int i)
{
    return &c->left[((seq % HISTORY) * (uint64_t)c->nstreams + (uint64_t)i) * NOISE_LINES_MAX];
}

static void take_reading(struct noise_probe *np, struct cls_state *c)
{
    struct timer_backend *b = &np->tb;
    for (int i = 0; i < b->nstreams; i++)
        if (!c->tids[i])
            c->tids[i] = atomic_load(&b->streams[i].sink->tid);
    struct reading *r = &c->hist[c->taken % HISTORY];
    r->seq = c->taken;
    r->t0_ns = rt_now_ns(CLOCK_MONOTONIC);
    noise_read(&c->rd, &np->lines, c->cpus, c->tids, b->nstreams, r->c);
    r->t1_ns = rt_now_ns(CLOCK_MONOTONIC);
    np->readings++;
    np->read_ns += r->t1_ns - r->t0_ns;
    const int need = NOISE_OK_IRQ | NOISE_OK_SOFTIRQ;
    const struct reading *p = c->taken ? reading_at(c, 0) : NULL;
    for (int i = 0; i < b->nstreams; i++) {
        uint32_t *left = left_of(c, r->seq, i);
        for (int l = 0; l < NOISE_LINES_MAX; l++) {
            uint64_t d = p && (p->c[i].ok & r->c[i].ok & need) == need && l < np->lines.n &&
                         r->c[i].line[l] > p->c[i].line[l] ? r->c[i].line[l] - p->c[i].line[l] : 0;
            left[l] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
        }
    }
    c->taken++;
    if (c->n < HISTORY)
        c->n++;
}

/* The holder's slot of this tag (a new one while there is room), or -1. */
static int holder_slot(struct noise_probe *np, unsigned tag, const struct noise_trace_answer *a)
{
    if (a->kind == NH_NONE)
        return -1;
    for (int i = 0; i < np->nholders[tag]; i++) {
        const struct noise_holder *h = &np->holders[tag][i];
        if (h->kind == a->kind && h->id == a->id && strcmp(h->name, a->name) == 0)
            return i;
    }
    if (np->nholders[tag] >= NOISE_HOLDERS_MAX)
        return -1;
    struct noise_holder *h = &np->holders[tag][np->nholders[tag]];
    *h = (struct noise_holder){ .kind = a->kind, .cls = a->cls, .id = a->id };
    snprintf(h->name, sizeof(h->name), "%s", a->name);
    return np->nholders[tag]++;
}

/* tr: the trace's answer that gave w its class, or NULL. */
static void place(struct noise_probe *np, unsigned tag, const struct rt_record *g, const struct noise_why *w,
                  const struct noise_trace_answer *tr)
{
    struct noise_tagclass *tc = &np->s[g->stream].cls[tag];
    int64_t len = g->t_exit_ns - g->t_entry_ns;
    int holder = -1;
    if (tr) {
        tc->by_trace[w->cls]++;
        if ((holder = holder_slot(np, tag, tr)) >= 0) {
            np->holders[tag][holder].gaps++;
            np->holders[tag][holder].ns += tr->held_ns;
        } else if (tr->kind != NH_NONE) {
            np->holders_other[tag]++;
        }
    }
    tc->n[w->cls]++;
    tc->ns[w->cls] += len;
    if (len > tc->max_ns[w->cls])
        tc->max_ns[w->cls] = len;
    if (w->line >= 0 && w->line < NOISE_LINES_MAX)
        np->line_n[tag][w->line]++;
    /* The longest NOISE_EVENTS_MAX are kept: a full list gives its shortest slot to a longer gap. */
    uint64_t k = np->nevents[tag]++;
    if (k >= NOISE_EVENTS_MAX) {
        k = 0;
        for (int j = 1; j < NOISE_EVENTS_MAX; j++)
            if (np->events[tag][j].len_ns < np->events[tag][k].len_ns)
                k = (uint64_t)j;
        if (np->events[tag][k].len_ns >= len)
            return;
    }
    np->events[tag][k] = (struct noise_event){
        .start_ns = g->t_entry_ns, .len_ns = len, .cpu = g->cpu, .cls = (uint8_t)w->cls, .line = (int16_t)w->line,
        .by_trace = tr != NULL, .holder = (int8_t)holder, .held_ns = tr ? tr->held_ns : 0 };
}

/* Asks the trace about the pending gaps, oldest first; those it answered, or never will, are placed. last: the
 * probe stopped, what is not answered now is not waited for. */
static void ask_trace(struct noise_probe *np, struct cls_state *c, int64_t now_ns, int last)
{
    int n = c->pend_n;
    unsigned char later[NOISE_CPUS_MAX] = { 0 }; /* a CPU the trace has not passed yet: its newer gaps neither */
    for (int k = 0; k < n; k++) {
        struct pending p = c->pend[c->pend_head];
        c->pend_head = (c->pend_head + 1) % NOISE_TRACE_PENDING;
        c->pend_n--;
        int fresh = !last && now_ns - p.g.t_exit_ns < NOISE_TRACE_WAIT_NS;
        struct noise_trace_answer a;
        int r = later[p.g.stream] && fresh ? 0 : np->trace(np->trace_arg, np->tb.streams[p.g.stream].cpu,
                                                           c->tids[p.g.stream], p.g.t_entry_ns, p.g.t_exit_ns, &a);
        if (r != -ENOENT)
            np->trace_seen = 1;
        if (r == 0 && fresh) { /* not yet: back in the ring, asked again next pass */
            later[p.g.stream] = 1;
            c->pend[(c->pend_head + c->pend_n) % NOISE_TRACE_PENDING] = p;
            c->pend_n++;
            continue;
        }
        if (r == 1) {
            np->tq[p.tag].answered++;
            p.w.cls = (enum noise_class)a.cls;
            p.w.line = -1;
        } else if (r == 0) {
            np->tq[p.tag].late++;
        } else if (r == -ENOENT) {
            np->tq[p.tag].no_trace++;
        } else {
            np->tq[p.tag].not_covered++;
        }
        place(np, p.tag, &p.g, &p.w, r == 1 ? &a : NULL);
    }
}

/* A gap classed by the counters (w): placed now, or held for the trace when it is long enough and the bounds
 * allow (a gap over the bounds keeps the counters' class, counted as skipped). */
static void settle(struct noise_probe *np, struct cls_state *c, unsigned tag, const struct rt_record *g,
                   const struct noise_why *w)
{
    if (!np->trace || g->t_exit_ns - g->t_entry_ns < NOISE_TRACE_MIN_NS) {
        place(np, tag, g, w, NULL);
        return;
    }
    if (g->t_exit_ns - c->rate_t0_ns >= 1000000000LL) {
        c->rate_t0_ns = g->t_exit_ns;
        c->rate_n = 0;
    }
    int64_t len = g->t_exit_ns - g->t_entry_ns;
    if ((c->rate_n >= NOISE_TRACE_PER_S && len < NOISE_TRACE_ALWAYS_NS) || c->pend_n >= NOISE_TRACE_PENDING) {
        np->tq[tag].skipped++;
        place(np, tag, g, w, NULL);
        return;
    }
    c->rate_n++;
    c->pend[(c->pend_head + c->pend_n) % NOISE_TRACE_PENDING] = (struct pending){ *g, *w, tag };
    c->pend_n++;
}

/* The n gaps g[] of CPU i whose window runs from reading a (NULL: older than the history: not known) to now. */
static void window(struct noise_probe *np, struct cls_state *c, int i, const struct reading *a,
                   const struct reading *now, const struct rt_record *g, size_t n)
{
    unsigned char sched[BATCH];
    memset(sched, 0, n);
    uint64_t ns = a ? noise_sched_count(&a->c[i], &now->c[i]) : 0;
    for (uint64_t s = 0; s < ns && s < n; s++) { /* the longest gap not yet given to the scheduler */
        size_t best = n;
        for (size_t k = 0; k < n; k++)
            if (!sched[k] && (best == n || g[k].t_exit_ns - g[k].t_entry_ns > g[best].t_exit_ns - g[best].t_entry_ns))
                best = k;
        sched[best] = 1;
    }
    if (a) {
        noise_budget(&a->c[i], &now->c[i], np->lines.n, &np->s[i].bg, now->t0_ns - a->t1_ns, c->budget);
        for (int l = 0; l < np->lines.n && l < NOISE_LINES_MAX; l++) { /* capped by the rise not yet spent */
            uint64_t left = 0;
            for (uint64_t s = a->seq + 1; s <= now->seq && c->budget[l]; s++)
                left += left_of(c, s, i)[l];
            if (left < c->budget[l])
                c->budget[l] = (uint32_t)left;
        }
    }
    for (size_t k = 0; k < n; k++) {
        struct noise_why w = { NOISE_UNKNOWN, -1, 0 };
        if (sched[k])
            w.cls = NOISE_SCHED;
        else if (a)
            noise_classify_gap(&a->c[i], &now->c[i], np->lines.n, c->budget, &w);
        if (w.cls == NOISE_IRQ && w.line >= 0 && w.line < NOISE_LINES_MAX) /* one unit spent, oldest first */
            for (uint64_t s = a->seq + 1; s <= now->seq; s++)
                if (left_of(c, s, i)[w.line]) {
                    left_of(c, s, i)[w.line]--;
                    break;
                }
        settle(np, c, g[k].phase < np->ntags ? g[k].phase : np->ntags - 1, &g[k], &w);
    }
}

/* The stretch of windows of CPU i in which no gap was popped (readings bg_from[i] to the one before this pass's),
 * settled: a window is learnt as background once the probe is known to have run past its end with no gap in it,
 * dropped when a gap overlapped it. first: the oldest gap popped in this pass (NULL: none); ran_ns: the probe's
 * ran_ns, loaded before that pop. A window in which no gap was popped may still lie inside a gap: one that had not
 * ended when its pass popped (the probe preempted, or stopped by the real-time throttle for 50 ms a second). The
 * CPU's interrupts go on meanwhile: learnt as background, the IPIs of a storm made that line "usual" and the
 * storm's own gaps were then put below the kernel (issue 38: the throttle's windows taught 144 to 757 function
 * call IPIs "usual" a 10 ms window, of the 80 to 120 the storm sent in one). A gap popped later that began before a
 * window's end covers it (it ended after that window's pass popped, which was after the window began); the probe
 * seen running past its end (ran_ns), with no gap popped since, clears it. */
static void bg_settle(struct noise_probe *np, struct cls_state *c, int i, const struct rt_record *first,
                      int64_t ran_ns)
{
    if (c->bg_from[i] < 0 || c->taken < 2)
        return;
    uint64_t s = (uint64_t)c->bg_from[i], last = c->taken - 2; /* windows (s, s + 1) with s + 1 <= last */
    for (; s + 1 <= last; s++) {
        const struct reading *a = reading_seq(c, s), *b = reading_seq(c, s + 1);
        if (!a || !b)
            continue; /* older than the history: not learnt */
        if (first ? first->t_entry_ns < b->t1_ns : ran_ns < b->t1_ns) /* its counts were read until t1 */
            break;
        if (a->c[i].ok & b->c[i].ok & NOISE_OK_SCHED) /* the probe's own time: both readings saw its thread */
            noise_bg_add(&np->s[i].bg, &a->c[i], &b->c[i], np->lines.n, b->t0_ns - a->t1_ns);
    }
    c->bg_from[i] = first || s + 1 > last ? -1 : (int64_t)s; /* a gap settles them all: the rest it overlapped */
}

/* One pass: pop, read, classify; the windows without a gap wait to be learnt as their CPU's background. */
static void pass(struct noise_probe *np, struct cls_state *c)
{
    struct timer_backend *b = &np->tb;
    size_t got[NOISE_CPUS_MAX];
    int64_t ran_ns[NOISE_CPUS_MAX];
    for (int i = 0; i < b->nstreams; i++) /* before the pop: every gap that ended before it is popped now */
        ran_ns[i] = atomic_load_explicit(&np->s[i].ran_ns, memory_order_acquire);
    /* Pop first, read after: every gap popped ended before the reading began. */
    size_t total = 0;
    for (int i = 0; i < b->nstreams; i++) {
        got[i] = rt_ring_pop(&np->s[i].gaps, c->batch + total, (BATCH - total) / (size_t)(b->nstreams - i));
        total += got[i];
    }
    take_reading(np, c);
    const struct reading *now = reading_at(c, 0);
    size_t o = 0;
    for (int i = 0; i < b->nstreams; i++) {
        bg_settle(np, c, i, got[i] ? &c->batch[o] : NULL, ran_ns[i]);
        if (!got[i] && c->bg_from[i] < 0 && c->taken >= 2)
            c->bg_from[i] = (int64_t)(c->taken - 2); /* the window from the reading before to this one */
        /* The gaps of one window (those whose last reading before them is the same) share what it counted: the
         * probe thread's involuntary switches go to its longest gaps, one each; a line is named for no more of them
         * than its count rose. */
        for (size_t k0 = 0, k1; k0 < got[i]; k0 = k1) {
            const struct rt_record *g0 = &c->batch[o + k0];
            const struct reading *a = before(c, g0->t_entry_ns);
            for (k1 = k0 + 1; k1 < got[i] && before(c, c->batch[o + k1].t_entry_ns) == a; k1++)
                ;
            window(np, c, i, a, now, c->batch + o + k0, k1 - k0);
        }
        o += got[i];
    }
    if (c->pend_n)
        ask_trace(np, c, now->t1_ns, 0);
}

static struct cls_state *cls_new(struct noise_probe *np)
{
    struct cls_state *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->nstreams = np->tb.nstreams;
    c->hist = calloc(HISTORY, sizeof(*c->hist));
    c->left = calloc((size_t)HISTORY * (size_t)(c->nstreams ? c->nstreams : 1), NOISE_LINES_MAX * sizeof(uint32_t));
    if (!c->hist || !c->left) {
        free(c->hist);
        free(c->left);
        free(c);
        return NULL;
    }
    for (int i = 0; i < np->tb.nstreams; i++) {
        c->cpus[i] = np->tb.streams[i].cpu;
        c->bg_from[i] = -1;
    }
    noise_reader_open(&c->rd, np->proc_root ? np->proc_root : "", c->cpus, np->tb.nstreams);
    for (int i = 0; i < np->tb.nstreams; i++)
        np->smi_readable |= c->rd.msr_fd[i] >= 0;
    return c;
}

static void cls_free(struct noise_probe *np, struct cls_state *c)
{
    noise_reader_close(&c->rd, np->tb.nstreams);
    free(c->hist);
    free(c->left);
    free(c);
}

void *noise_classify_thread(void *arg)
{
    struct noise_probe *np = arg;
    struct cls_state *c = np->cls;
    while (!atomic_load_explicit(&np->cls_stop, memory_order_acquire)) {
        pass(np, c);
        mono_nap_ms(10);
    }
    return NULL;
}

void noise_classify_pass(struct noise_probe *np)
{
    if (np->cls)
        pass(np, np->cls);
}

void noise_classify_drain(struct noise_probe *np)
{
    if (!np->cls)
        return;
    for (int round = 0; round < 64; round++) { /* rings of up to 64 batches */
        size_t left = 0;
        for (int i = 0; i < np->tb.nstreams; i++)
            left += rt_ring_fill(&np->s[i].gaps);
        if (!left && round > 0)
            break;
        pass(np, np->cls);
    }
    /* the gaps still waiting for the trace: it may need a moment to pass their end (the probe's exit is an event
     * of their CPU); at most 200 ms, then they keep the counters' class */
    for (int round = 0; np->cls->pend_n && round < 10; round++) {
        mono_nap_ms(20);
        ask_trace(np, np->cls, rt_now_ns(CLOCK_MONOTONIC), 0);
    }
    if (np->cls->pend_n)
        ask_trace(np, np->cls, rt_now_ns(CLOCK_MONOTONIC), 1);
    cls_free(np, np->cls);
    np->cls = NULL;
}

int noise_classify_prepare(struct noise_probe *np)
{
    if (!np->cls)
        np->cls = cls_new(np);
    return np->cls ? 0 : -ENOMEM;
}
