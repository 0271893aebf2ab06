/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing a finished phase's segments out and reading them back (phase_spill.h). Not the RT path: the main thread
 * writes a phase the collector has handed over, and reads it back after the collector stopped. */
#include "stats/phase_spill.h"
#include "stats/phase_internal.h"
#include "stats/timeline.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The parts of a segment's bytes written as they are: everything but the dense histogram arrays. */
#define SEG_HEAD offsetof(struct segment, m)
#define SEG_TAIL (offsetof(struct segment, m) + sizeof(((struct segment *)0)->m))
#define M_HEAD offsetof(struct metric_stats, hist)
#define H_TAIL offsetof(struct histogram, total)

static int put(FILE *f, const void *p, size_t len)
{
    return len == 0 || fwrite(p, 1, len, f) == len ? 0 : -1;
}

/* An array: its count (-1 for NULL), then its bytes. */
static int put_array(FILE *f, const void *p, size_t n, size_t size)
{
    int64_t c = p ? (int64_t)n : -1;
    return put(f, &c, sizeof(c)) || (p && put(f, p, n * size)) ? -1 : 0;
}

static int write_segment(FILE *f, const struct segment *s)
{
    for (int m = 0; m < M_COUNT; m++)
        if (!s->m[m].hist.sparse && s->m[m].hist.total)
            return -1; /* not compacted (phase_settle had no memory): its dense arrays are not written */
    if (put(f, s, SEG_HEAD))
        return -1;
    for (int m = 0; m < M_COUNT; m++)
        if (put(f, &s->m[m], M_HEAD) ||
            put(f, &s->m[m].hist.total, sizeof(struct histogram) - H_TAIL) ||
            put_array(f, s->m[m].hist.sparse, s->m[m].hist.nsparse, sizeof(struct hist_bin)))
            return -1;
    const struct event_keep *k = &s->events;
    return put(f, (const char *)s + SEG_TAIL, sizeof(*s) - SEG_TAIL) ||
           put_array(f, k->latest, event_keep_latest_max(k), sizeof(*k->latest)) ||
           put_array(f, k->worst, event_keep_worst_max(k), sizeof(*k->worst)) ||
           put_array(f, k->buckets, k->nbuckets, sizeof(*k->buckets)) ||
           put_array(f, k->deferred, EVENT_DEFER_MAX, sizeof(*k->deferred)) /* its room, all of it */ ||
           put_array(f, s->spikes, s->nspikes, sizeof(*s->spikes)) ||
           put_array(f, s->secs, s->secs_cap, sizeof(*s->secs)) ||
           put_array(f, s->tl.e, s->tl.n, sizeof(*s->tl.e)) ||
           put_array(f, s->buf_jit, s->buf_cap, sizeof(*s->buf_jit)) ||
           put_array(f, s->buf_wake, s->buf_cap, sizeof(*s->buf_wake)) ? -1 : 0;
}

int phase_spill_write(struct phase_stats *p, FILE *f)
{
    int32_t n = p->nseg;
    if (put(f, &n, sizeof(n)))
        return -1;
    for (int i = 0; i < p->nseg; i++)
        if (write_segment(f, p->seg[i]))
            return -1;
    if (fflush(f) != 0 || ferror(f))
        return -1;
    for (int i = 0; i < p->nseg; i++) {
        phase_segment_free(p->seg[i]);
        p->seg[i] = NULL;
    }
    p->spilled = p->nseg;
    p->nseg = 0;
    return 0;
}

static int get(FILE *f, void *p, size_t len)
{
    return len == 0 || fread(p, 1, len, f) == len ? 0 : -1;
}

/* An array put_array wrote: *out malloc'd (NULL for NULL), *n its count; at most max entries. 0 or -1. */
static int get_array(FILE *f, void **out, size_t *n, size_t size, size_t max)
{
    int64_t c;
    *out = NULL;
    *n = 0;
    if (get(f, &c, sizeof(c)) || c < -1 || c > (int64_t)max)
        return -1;
    if (c < 0)
        return 0;
    void *a = malloc(c ? (size_t)c * size : 1);
    if (!a || get(f, a, (size_t)c * size)) {
        free(a);
        return -1;
    }
    *out = a;
    *n = (size_t)c;
    return 0;
}

/* Limits against a file that is not what was written: no array of a segment is larger. */
#define SPILL_MAX (1u << 26)

static struct segment *read_segment(FILE *f)
{
    struct segment *s = calloc(1, sizeof(*s)); /* the dense histograms zeros, as phase_settle left them */
    if (!s)
        return NULL;
    int bad = get(f, s, SEG_HEAD) != 0;
    struct event_keep *k = &s->events;
    /* every pointer read is stale: cleared at once, so that nothing stale is ever freed */
    k->latest = k->worst = k->deferred = NULL;
    k->buckets = NULL;
    s->spikes = NULL;
    for (int m = 0; !bad && m < M_COUNT; m++) {
        struct histogram *h = &s->m[m].hist;
        size_t n;
        bad = get(f, &s->m[m], M_HEAD) || get(f, &h->total, sizeof(*h) - H_TAIL) ||
              get_array(f, (void **)&h->sparse, &n, sizeof(*h->sparse), SPILL_MAX) || n != h->nsparse ||
              (!h->sparse && h->total);
        if (bad)
            h->sparse = NULL, h->nsparse = 0;
    }
    if (!bad) {
        bad = get(f, (char *)s + SEG_TAIL, sizeof(*s) - SEG_TAIL);
        s->secs = NULL;
        s->tl.e = NULL;
        s->buf_jit = s->buf_wake = NULL;
    }
    size_t n;
    if (!bad) {
        size_t want_n[2] = { event_keep_latest_max(k), event_keep_worst_max(k) };
        bad = get_array(f, (void **)&k->latest, &n, sizeof(*k->latest), SPILL_MAX) ||
              (k->latest && n != want_n[0]) ||
              get_array(f, (void **)&k->worst, &n, sizeof(*k->worst), SPILL_MAX) || (k->worst && n != want_n[1]);
    }
    if (!bad) {
        size_t nb = k->nbuckets, nd = k->ndeferred, ns = s->nspikes, nt = s->tl.n, cap = s->buf_cap;
        size_t secs_cap = s->secs_cap;
        bad = get_array(f, (void **)&k->buckets, &n, sizeof(*k->buckets), SPILL_MAX) || n != nb ||
              get_array(f, (void **)&k->deferred, &n, sizeof(*k->deferred), SPILL_MAX) ||
              (k->deferred && (n != EVENT_DEFER_MAX || nd > n)) ||
              get_array(f, (void **)&s->spikes, &n, sizeof(*s->spikes), SPILL_MAX) || n != ns ||
              get_array(f, (void **)&s->secs, &n, sizeof(*s->secs), SPILL_MAX) || (s->secs && n != secs_cap) ||
              get_array(f, (void **)&s->tl.e, &n, sizeof(*s->tl.e), SPILL_MAX) || n != nt ||
              get_array(f, (void **)&s->buf_jit, &n, sizeof(*s->buf_jit), SPILL_MAX) || (s->buf_jit && n != cap) ||
              get_array(f, (void **)&s->buf_wake, &n, sizeof(*s->buf_wake), SPILL_MAX) || (s->buf_wake && n != cap);
        k->buckets_cap = k->nbuckets;
        s->spikes_cap = s->nspikes;
        s->tl.cap = s->tl.n;
        if (!s->secs)
            s->secs_cap = 0;
        if (!s->buf_jit || !s->buf_wake)
            s->buf_cap = 0;
    }
    if (bad) {
        phase_segment_free(s);
        return NULL;
    }
    return s;
}

int phase_spill_read(struct phase_stats *p, FILE *f)
{
    int32_t n;
    if (fseek(f, 0, SEEK_SET) != 0 || get(f, &n, sizeof(n)) || n != p->spilled || n < 0 ||
        n > PHASE_MAX_SEGMENTS)
        return -1;
    struct segment *seg[PHASE_MAX_SEGMENTS];
    for (int i = 0; i < n; i++)
        if (!(seg[i] = read_segment(f))) {
            while (i-- > 0)
                phase_segment_free(seg[i]);
            return -1;
        }
    for (int i = 0; i < n; i++)
        p->seg[i] = seg[i];
    p->nseg = n;
    p->spilled = 0;
    return 0;
}
