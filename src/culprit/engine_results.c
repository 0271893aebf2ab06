/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the report builder reads of a culprit engine (culprit.h struct culprit_results): one happening's culprits
 * by (subject, phase, start), and the top-level "culprits" object: the sampler (rate, window, history, what each
 * reader and source found), its cost (the sampler thread's own CPU time, CLOCK_THREAD_CPUTIME_ID, against the wall
 * time it ran) and the happenings' periodicity (periodic.c) with what ranked top at those moments. Any thread but
 * the RT one; takes the engine's mutex. */
#include "culprit/engine_internal.h"
#include "util/utf8.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ce_kept *ce_kept_pack(const struct culprit *c, int n)
{
    size_t text = 0;
    for (int i = 0; i < n; i++)
        text += strnlen(c[i].name, sizeof c[i].name - 1) + strnlen(c[i].evidence, sizeof c[i].evidence - 1) + 2;
    struct ce_kept *k = n > 0 ? malloc(sizeof *k * (size_t)n + text) : NULL;
    if (!k)
        return NULL;
    char *p = (char *)(k + n);
    for (int i = 0; i < n; i++) {
        size_t nlen = strnlen(c[i].name, sizeof c[i].name - 1), len = strnlen(c[i].evidence, sizeof c[i].evidence - 1);
        k[i] = (struct ce_kept){.kind = (uint8_t)c[i].kind, .basis = (uint8_t)c[i].basis, .pid = c[i].pid,
                                .tid = c[i].tid, .cpu = c[i].cpu, .irq = c[i].irq,
                                .affinity_fixed = (int8_t)c[i].affinity_fixed, .score = c[i].score,
                                .name = p};
        memcpy(p, c[i].name, nlen);
        p[nlen] = 0;
        p += nlen + 1;
        k[i].evidence = p;
        memcpy(p, c[i].evidence, len);
        p[len] = 0;
        p += len + 1;
    }
    return k;
}

void ce_kept_unpack(const struct ce_kept *k, struct culprit *out)
{
    *out = (struct culprit){.kind = (enum culprit_kind)k->kind, .basis = (enum culprit_basis)k->basis, .pid = k->pid,
                            .tid = k->tid, .cpu = k->cpu, .irq = k->irq, .affinity_fixed = k->affinity_fixed,
                            .score = k->score};
    snprintf(out->name, sizeof out->name, "%s", k->name);
    snprintf(out->evidence, sizeof out->evidence, "%s", k->evidence);
}

/* The culprits a spike not noted shares with r: all but a task the counters proved held r's own wait (rank_tasks.c:
 * a proof of that wait, not of this one), "not known" on top in its place. */
static int shared_culprits(const struct ce_result *r, struct culprit *out, int max)
{
    int n = 0;
    bool dropped = false;
    for (int k = 0; k < r->n && n < max; k++) {
        const struct ce_kept *c = &r->c[k];
        if (c->basis == CB_CORRELATED && (c->kind == CK_RT_TASK || c->kind == CK_KTHREAD)) {
            dropped = true;
            continue;
        }
        ce_kept_unpack(c, &out[n++]);
    }
    if (dropped && n == max)
        n--;
    if (dropped) {
        memmove(out + 1, out, sizeof *out * (size_t)n);
        out[0] = (struct culprit){.kind = CK_NONE, .basis = CB_CORRELATED, .cpu = -1, .irq = -1, .name = "not known",
                                  .score = n > 0 ? out[1].score + 1 : 0};
        snprintf(out[0].evidence, sizeof out[0].evidence, "not known without the trace: this spike shares the "
                 "window of one just before it, whose wait a real-time task held, not this one's; run as root, or "
                 "give your group tracefs, to see it");
        n++;
    }
    return n;
}

static int lookup(const void *ctx, enum culprit_subject subj, int phase, int64_t start_ns, struct culprit *out,
                  int max)
{
    struct culprit_engine *e = (struct culprit_engine *)ctx;
    int rc = -1;
    pthread_mutex_lock(&e->mu);
    const struct ce_result *r = ce_find(e, subj, phase, start_ns);
    if (r) {
        rc = r->state == 1 ? (r->n < max ? r->n : max) : 0;
        for (int k = 0; k < rc; k++)
            ce_kept_unpack(&r->c[k], &out[k]);
    }
    /* A spike that was not noted on its own (they came thick: culprit_engine.h) shares the window, and so the
     * culprits, of the spike noted nearest before it within one sample interval: the sampler cannot tell them
     * apart. */
    for (int i = e->nres; rc < 0 && subj == CS_SPIKE && i-- > 0;) {
        const struct ce_result *q = &e->res[i];
        if (q->subj != subj || q->phase != phase || q->start_ns > start_ns || start_ns - q->start_ns > e->interval_ns ||
            q->state == 3)
            continue;
        rc = q->state == 1 ? shared_culprits(q, out, max) : 0;
    }
    pthread_mutex_unlock(&e->mu);
    /* an interrupt line: whether the kernel would let its affinity be advised (the verdict's say_irq) */
    for (int i = 0; i < rc; i++)
        if (out[i].kind == CK_IRQ && out[i].irq >= 0)
            out[i].affinity_fixed = culprit_irq_affinity(e->proc, out[i].irq);
    return rc;
}

static json_t *sources_json(const struct culprit_engine *e)
{
    json_t *a = json_array();
    for (int i = 0; i < CER_COUNT; i++) {
        json_t *o = json_pack("{s:s, s:s}", "name", e->readers[i].name, "state", e->readers[i].state);
        if (o && e->readers[i].why[0])
            json_object_set_new(o, "why", utf8_json_string(e->readers[i].why));
        json_array_append_new(a, o);
    }
    for (int i = 0; i < e->nsources; i++) {
        const struct ce_source_slot *s = &e->sources[i];
        json_t *o = json_pack("{s:o, s:s}", "name", utf8_json_string(s->name), "state", s->state);
        if (o && s->why[0])
            json_object_set_new(o, "why", utf8_json_string(s->why));
        if (o && s->summary)
            json_object_set(o, "summary", s->summary);
        json_array_append_new(a, o);
    }
    return a;
}

static const struct ce_result *sort_res;

static int by_start(const void *a, const void *b)
{
    int64_t x = sort_res[*(const int *)a].start_ns, y = sort_res[*(const int *)b].start_ns;
    return x < y ? -1 : x > y;
}

/* What ranked top most often among the happenings that fit the period (a small table of distinct tops). */
static void top_what(const struct culprit_engine *e, const int *idx, const unsigned char *fit, int n, char *what,
                     size_t len)
{
    enum { TOPS = 32 };
    const struct ce_kept *top[TOPS];
    int count[TOPS], ntop = 0, best = -1;
    for (int i = 0; i < n; i++) {
        const struct ce_result *r = &e->res[idx[i]];
        if (!fit[i] || r->n == 0)
            continue;
        int k = 0;
        while (k < ntop && !(top[k]->kind == r->c[0].kind && strcmp(top[k]->name, r->c[0].name) == 0))
            k++;
        if (k == ntop) {
            if (ntop == TOPS)
                continue;
            top[ntop] = &r->c[0];
            count[ntop++] = 0;
        }
        if (++count[k] > (best < 0 ? 0 : count[best]))
            best = k;
    }
    if (best < 0)
        snprintf(what, len, "nothing named");
    else if (top[best]->pid > 0)
        snprintf(what, len, "%s: %s (pid %d)", culprit_kind_name(top[best]->kind), top[best]->name, top[best]->pid);
    else
        snprintf(what, len, "%s: %s", culprit_kind_name(top[best]->kind), top[best]->name);
    utf8_trim(what);
}

/* The same culprit (kind, name, pid). */
static bool same_culprit(const struct ce_kept *x, const struct ce_kept *y)
{
    return x->kind == y->kind && x->pid == y->pid && strcmp(x->name, y->name) == 0;
}

/* Whether r names c among its culprits. */
static bool names(const struct ce_result *r, const struct ce_kept *c)
{
    for (int k = 0; k < r->n; k++)
        if (same_culprit(&r->c[k], c))
            return true;
    return false;
}

#define PERIODS_MAX 4
struct period_entry {
    struct ce_period p;
    char what[CULPRIT_NAME_MAX + 40];
};

/* Adds p unless an entry of a period within 5 % of it is there already. */
static void period_add(struct period_entry *pe, int *npe, const struct ce_period *p, const char *what)
{
    for (int i = 0; i < *npe; i++)
        if (fabs(pe[i].p.period_s - p->period_s) <= 0.05 * p->period_s)
            return;
    if (*npe == 2 * PERIODS_MAX)
        return;
    pe[*npe].p = *p;
    snprintf(pe[*npe].what, sizeof pe[*npe].what, "%s", what);
    (*npe)++;
}

/* Whether a period's "what" names no one ("none: not known", "run_delay: who ran is not known"). */
static bool unnamed(const struct period_entry *x)
{
    return strncmp(x->what, "none:", 5) == 0 || strncmp(x->what, "run_delay:", 10) == 0;
}

/* A culprit's own period before those of "not known" moments (without the trace most are, and noise among many
 * fits some period: one of them had pushed a hog's out of the list), then the most moments first. */
static int by_count_desc(const void *a, const void *b)
{
    const struct period_entry *x = a, *y = b;
    if (unnamed(x) != unnamed(y))
        return unnamed(x) ? 1 : -1;
    return (x->p.count < y->p.count) - (x->p.count > y->p.count);
}

/* The periods of the happenings: first of each culprit's own, the happenings that name it (on top of them or below:
 * at one of a task's bursts the run delay may rank above it; a culprit that comes back is periodic whatever else the
 * machine does: beside stress-ng, the machine's own spikes between a task's bursts made half its period
 * fit more moments), then of all of them together (a period no one culprit tops, with what ranked top most often
 * at its moments; left out when that culprit's own period is listed). At most PERIODS_MAX, named culprits' first,
 * the most moments first. Under the engine's mutex (the sort's static is
 * safe under it). */
static json_t *periodicity_json(const struct culprit_engine *e)
{
    json_t *a = json_array();
    int n = e->nres;
    int *idx = malloc(sizeof *idx * (size_t)(n > 0 ? n : 1));
    int64_t *t = malloc(sizeof *t * (size_t)(n > 0 ? n : 1));
    unsigned char *fit = malloc((size_t)(n > 0 ? n : 1));
    struct period_entry pe[2 * PERIODS_MAX];
    int npe = 0;
    if (idx && t && fit) { /* the happenings still held (a forgotten one left the report's detail) */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (e->res[i].state != 3)
                idx[k++] = i;
        n = k;
    }
    if (idx && t && fit && n >= 3) {
        sort_res = e->res;
        qsort(idx, (size_t)n, sizeof *idx, by_start);
        /* each culprit's happenings (those that name it, on top or below), in time order: the first 32 culprits
         * met on top of one */
        enum { GROUPS = 32 };
        const struct ce_kept *who[GROUPS];
        int ng = 0;
        for (int i = 0; i < n && ng < GROUPS; i++) {
            const struct ce_result *r = &e->res[idx[i]];
            if (r->n == 0)
                continue;
            int g = 0;
            while (g < ng && !same_culprit(who[g], &r->c[0]))
                g++;
            if (g == ng)
                who[ng++] = &r->c[0];
        }
        for (int g = 0; g < ng; g++) {
            int k = 0;
            for (int i = 0; i < n; i++)
                if (names(&e->res[idx[i]], who[g]))
                    t[k++] = e->res[idx[i]].start_ns;
            struct ce_period p;
            if (k >= 3 && ce_period_find(t, k, &p, fit)) {
                const struct ce_kept *c = who[g];
                char what[CULPRIT_NAME_MAX + 40];
                if (c->pid > 0)
                    snprintf(what, sizeof what, "%s: %s (pid %d)", culprit_kind_name(c->kind), c->name, c->pid);
                else
                    snprintf(what, sizeof what, "%s: %s", culprit_kind_name(c->kind), c->name);
                utf8_trim(what);
                period_add(pe, &npe, &p, what);
            }
        }
        for (int i = 0; i < n; i++)
            t[i] = e->res[idx[i]].start_ns;
        struct ce_period p;
        if (ce_period_find(t, n, &p, fit)) {
            char what[CULPRIT_NAME_MAX + 40];
            top_what(e, idx, fit, n, what, sizeof what);
            int own = 0; /* the culprit on top there has a period of its own, listed: this one is not its */
            for (int i = 0; i < npe; i++)
                own |= strcmp(pe[i].what, what) == 0;
            if (!own)
                period_add(pe, &npe, &p, what);
        }
    }
    qsort(pe, (size_t)npe, sizeof pe[0], by_count_desc);
    for (int i = 0; i < npe && i < PERIODS_MAX; i++)
        json_array_append_new(a, json_pack("{s:f, s:i, s:f, s:s}", "period_s", pe[i].p.period_s, "count",
                                           pe[i].p.count, "spread_s", pe[i].p.spread_s, "what", pe[i].what));
    free(idx);
    free(t);
    free(fit);
    return a;
}

static json_t *summary(const void *ctx)
{
    struct culprit_engine *e = (struct culprit_engine *)ctx;
    pthread_mutex_lock(&e->mu);
    int64_t wall = (e->stopped ? e->wall_t1_ns : 0) - e->wall_t0_ns;
    if (!e->stopped) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        wall = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - e->wall_t0_ns;
    }
    double cpu_s = e->cpu_ns / 1e9;
    json_t *sampler = json_pack("{s:f, s:f, s:f, s:o}", "hz", e->cfg.hz, "window_ms", e->interval_ns / 1e6,
                                "history_s", e->cfg.history_s, "sources", sources_json(e));
    if (sampler && (e->res_lost || e->lines_lost || e->tasks_lost || e->obs_lost))
        json_object_set_new(sampler, "lost", json_pack("{s:i, s:i, s:i, s:i}", "happenings", (json_int_t)e->res_lost,
                                                       "irq_lines", (json_int_t)e->lines_lost, "rt_tasks",
                                                       (json_int_t)e->tasks_lost, "observations",
                                                       (json_int_t)e->obs_lost));
    if (sampler && e->kept_lost) /* out of memory: samples kept without their moved counters (never silent) */
        json_object_set_new(sampler, "samples_emptied", json_integer((json_int_t)e->kept_lost));
    if (sampler && e->quiet_ns > 0) { /* watch: how much of the session it sampled slowly, all being quiet */
        json_t *q = json_pack("{s:f, s:f, s:i, s:i, s:i}", "quiet_hz", e->cfg.quiet_hz, "quiet_s",
                              e->quiet_total_ns / 1e9, "ticks", (json_int_t)e->ticks, "quiet_ticks",
                              (json_int_t)e->quiet_ticks, "traced_slow_ticks", (json_int_t)e->traced_slow_ticks);
        if (q)
            json_object_update(sampler, q);
        json_decref(q);
    }
    if (sampler) /* the happenings it held at once at most, and now (noted, not forgotten): what its memory follows */
        json_object_update_new(sampler, json_pack("{s:i, s:i}", "results_peak", (json_int_t)e->res_peak,
                                                  "results_held", (json_int_t)(e->nres - e->nforgotten)));
    if (sampler && e->late_windows) /* the counters could not place them: not known (rank.c: set_window) */
        json_object_set_new(sampler, "late_windows", json_integer(e->late_windows));
    if (sampler && e->forgotten_pending) /* summed as "not known" before the engine came to them */
        json_object_set_new(sampler, "forgotten_unexplained", json_integer((json_int_t)e->forgotten_pending));
    json_t *o = json_pack("{s:o, s:{s:f, s:f}, s:o}", "sampler", sampler, "cost", "cpu_s", cpu_s, "cpu_pct",
                          wall > 0 ? 100.0 * cpu_s / (wall / 1e9) : 0.0, "periodicity", periodicity_json(e));
    pthread_mutex_unlock(&e->mu);
    return o;
}

struct culprit_results culprit_engine_results(const struct culprit_engine *e)
{
    return (struct culprit_results){.lookup = lookup, .summary = summary, .ctx = e};
}
