/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bounded keeping of a segment's xrun events (eventkeep.h). Collector thread. */
#include "stats/eventkeep.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void event_keep_init(struct event_keep *k)
{
    memset(k, 0, sizeof(*k));
    k->bucket_ns = EVENT_SUM_BUCKET_NS;
}

void event_keep_free(struct event_keep *k)
{
    free(k->latest);
    free(k->worst);
    free(k->buckets);
    free(k->deferred);
    event_keep_init(k);
}

static uint32_t clamp_keep(uint32_t n, uint32_t max)
{
    return n < 1 ? 1 : n > max ? max : n;
}

void event_keep_set_lists(struct event_keep *k, uint32_t latest, uint32_t worst)
{
    k->keep_latest = clamp_keep(latest, EVENT_KEEP_LATEST);
    k->keep_worst = clamp_keep(worst, EVENT_KEEP_WORST);
}

size_t event_keep_latest_max(const struct event_keep *k)
{
    return k->keep_latest ? k->keep_latest : EVENT_KEEP_LATEST;
}

size_t event_keep_worst_max(const struct event_keep *k)
{
    return k->keep_worst ? k->keep_worst : EVENT_KEEP_WORST;
}

int64_t event_length_ns(const struct xrun_event *e)
{
    return e->end_ns > e->start_ns ? e->end_ns - e->start_ns : 0;
}

static void sum_add(struct event_sum *s, const struct xrun_event *e)
{
    int64_t len = event_length_ns(e);
    s->events++;
    s->skipped += e->skipped;
    s->notifications += e->notifications;
    s->length_ns_sum += len;
    if (len > s->length_ns_max)
        s->length_ns_max = len;
}

static void sum_merge(struct event_sum *a, const struct event_sum *b)
{
    a->events += b->events;
    a->skipped += b->skipped;
    a->notifications += b->notifications;
    a->length_ns_sum += b->length_ns_sum;
    if (b->length_ns_max > a->length_ns_max)
        a->length_ns_max = b->length_ns_max;
}

/* The bucket of an event that began at start_ns, the buckets widened (neighbours merged) until it fits under
 * EVENT_SUM_BUCKETS_MAX; NULL without memory. */
static struct event_sum *bucket_for(struct event_keep *k, int64_t start_ns)
{
    int64_t off = start_ns > k->origin_ns ? start_ns - k->origin_ns : 0;
    while ((uint64_t)(off / k->bucket_ns) >= EVENT_SUM_BUCKETS_MAX) {
        size_t n = (k->nbuckets + 1) / 2;
        for (size_t i = 0; i < n; i++) {
            struct event_sum m = k->buckets[2 * i];
            if (2 * i + 1 < k->nbuckets)
                sum_merge(&m, &k->buckets[2 * i + 1]);
            k->buckets[i] = m;
        }
        if (k->nbuckets > n)
            memset(k->buckets + n, 0, (k->nbuckets - n) * sizeof(*k->buckets));
        k->nbuckets = n;
        k->bucket_ns *= 2;
    }
    size_t idx = (size_t)(off / k->bucket_ns);
    if (idx >= k->buckets_cap) {
        size_t cap = k->buckets_cap ? k->buckets_cap * 2 : 64;
        while (cap <= idx)
            cap *= 2;
        if (cap > EVENT_SUM_BUCKETS_MAX)
            cap = EVENT_SUM_BUCKETS_MAX;
        struct event_sum *b = realloc(k->buckets, cap * sizeof(*b));
        if (!b)
            return NULL;
        memset(b + k->buckets_cap, 0, (cap - k->buckets_cap) * sizeof(*b));
        k->buckets = b;
        k->buckets_cap = cap;
    }
    if (idx >= k->nbuckets)
        k->nbuckets = idx + 1;
    return &k->buckets[idx];
}

static struct event_sum *culprit_for(struct event_keep *k, const char *kind, const char *name)
{
    for (size_t i = 0; i < k->nculprits; i++)
        if (!strcmp(k->culprits[i].kind, kind) && !strcmp(k->culprits[i].name, name))
            return &k->culprits[i].sum;
    if (k->nculprits == EVENT_SUM_CULPRITS_MAX)
        return &k->culprits_other;
    struct event_sum_culprit *c = &k->culprits[k->nculprits++];
    memset(c, 0, sizeof(*c));
    snprintf(c->kind, sizeof(c->kind), "%s", kind);
    snprintf(c->name, sizeof(c->name), "%s", name);
    return &c->sum;
}

/* e summed into its culprit's line, when its culprit is known (or force): 1, else 0. */
static int name_one(struct event_keep *k, const struct xrun_event *e, event_name_fn name, void *arg, int force)
{
    char kind[EVENT_SUM_KIND_MAX] = "", who[EVENT_SUM_NAME_MAX] = "";
    if (!name(arg, e->start_ns, force, kind, sizeof(kind), who, sizeof(who)) && !force)
        return 0;
    sum_add(culprit_for(k, kind, kind[0] ? who : ""), e);
    return 1;
}

/* The events waiting for their culprit, the oldest first, while theirs is known (or all, with force). */
static void name_deferred(struct event_keep *k, event_name_fn name, void *arg, int force)
{
    size_t i = 0;
    while (i < k->ndeferred && name_one(k, &k->deferred[i], name, arg, force))
        i++;
    if (i) {
        memmove(k->deferred, k->deferred + i, (k->ndeferred - i) * sizeof(*k->deferred));
        k->ndeferred -= i;
    }
}

/* e leaves the full detail: summed into its bucket, and into its culprit's line now or once its culprit is known. */
static void summarise(struct event_keep *k, const struct xrun_event *e, event_name_fn name, void *arg)
{
    struct event_sum *b = bucket_for(k, e->start_ns);
    if (!b) { /* no memory for its bucket: counted as lost, so that the buckets still add up to summarised */
        k->lost++;
        return;
    }
    k->summarised++;
    sum_add(b, e);
    if (!name)
        return;
    k->named = 1;
    if (!k->deferred)
        k->deferred = malloc(EVENT_DEFER_MAX * sizeof(*k->deferred)); /* no memory: named at once */
    int room = k->deferred && k->ndeferred < EVENT_DEFER_MAX;
    if (name_one(k, e, name, arg, !room))
        return;
    k->deferred[k->ndeferred++] = *e;
}

void event_keep_settle(struct event_keep *k, event_name_fn name, void *arg)
{
    if (name)
        name_deferred(k, name, arg, 1);
}

size_t event_keep_name_known(struct event_keep *k, event_name_fn name, void *arg)
{
    if (name && k->ndeferred)
        name_deferred(k, name, arg, 0);
    if (!k->ndeferred) {
        free(k->deferred); /* a segment that gets no more events: its 16 KB go (summarise allocates it again) */
        k->deferred = NULL;
    }
    return k->ndeferred;
}

static int shorter(const struct xrun_event *a, const struct xrun_event *b)
{
    int64_t la = event_length_ns(a), lb = event_length_ns(b);
    return la < lb || (la == lb && a->seq > b->seq); /* of two as long, the later goes first: the first stays */
}

static void heap_down(struct xrun_event *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && shorter(&h[l], &h[m]))
            m = l;
        if (r < n && shorter(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        struct xrun_event t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void heap_up(struct xrun_event *h, size_t i)
{
    while (i > 0 && shorter(&h[i], &h[(i - 1) / 2])) {
        struct xrun_event t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

/* e has left the latest: kept among the worst, or summed (or the shortest of the worst is, in its place). */
static void retire(struct event_keep *k, const struct xrun_event *e, event_name_fn name, void *arg)
{
    if (k->nworst < event_keep_worst_max(k)) {
        k->worst[k->nworst] = *e;
        heap_up(k->worst, k->nworst++);
        return;
    }
    if (!shorter(&k->worst[0], e)) {
        summarise(k, e, name, arg);
        return;
    }
    struct xrun_event out = k->worst[0];
    k->worst[0] = *e;
    heap_down(k->worst, k->nworst, 0);
    summarise(k, &out, name, arg);
}

int event_keep_push(struct event_keep *k, const struct xrun_event *e, int64_t origin_ns, event_name_fn name,
                    void *arg)
{
    if (!k->latest) {
        k->latest = malloc(event_keep_latest_max(k) * sizeof(*k->latest));
        k->worst = malloc(event_keep_worst_max(k) * sizeof(*k->worst));
        if (!k->latest || !k->worst) {
            free(k->latest);
            free(k->worst);
            k->latest = k->worst = NULL;
            k->total++;
            k->lost++;
            return -ENOMEM;
        }
        k->origin_ns = origin_ns;
    }
    if (name && k->ndeferred)
        name_deferred(k, name, arg, 0); /* those whose culprit is known by now, the oldest first */
    struct xrun_event n = *e;
    n.seq = k->total++;
    if (n.end_ns < n.start_ns)
        n.end_ns = n.start_ns; /* its last disturbed cycle's entry before its due time: a grid that moved */
    size_t cap = event_keep_latest_max(k);
    if (k->nlatest == cap) {
        struct xrun_event old = k->latest[k->latest_first];
        k->latest[k->latest_first] = n;
        k->latest_first = (k->latest_first + 1) % cap;
        retire(k, &old, name, arg);
    } else {
        k->latest[(k->latest_first + k->nlatest++) % cap] = n;
    }
    return 0;
}

struct xrun_event *event_keep_newest(struct event_keep *k)
{
    if (!k->nlatest)
        return NULL;
    return &k->latest[(k->latest_first + k->nlatest - 1) % event_keep_latest_max(k)];
}

const struct xrun_event *event_keep_seq(const struct event_keep *k, uint64_t seq)
{
    if (!k->nlatest)
        return NULL;
    const struct xrun_event *first = &k->latest[k->latest_first];
    if (seq < first->seq || seq - first->seq >= k->nlatest)
        return NULL;
    return &k->latest[(k->latest_first + (size_t)(seq - first->seq)) % event_keep_latest_max(k)];
}

static int by_seq(const void *pa, const void *pb)
{
    const struct xrun_event *a = pa, *b = pb;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

long event_keep_list(const struct event_keep *k, struct xrun_event **out)
{
    size_t n = k->nlatest + k->nworst;
    *out = NULL;
    if (!n)
        return 0;
    struct xrun_event *a = malloc(n * sizeof(*a));
    if (!a)
        return -ENOMEM;
    memcpy(a, k->worst, k->nworst * sizeof(*a));
    for (size_t i = 0; i < k->nlatest; i++)
        a[k->nworst + i] = k->latest[(k->latest_first + i) % event_keep_latest_max(k)];
    qsort(a, n, sizeof(*a), by_seq);
    *out = a;
    return (long)n;
}
