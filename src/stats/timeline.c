/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-second timeline, compacted as it is made (timeline.h says by which rule and why). Collector thread, and
 * the report's thread once the phase has ended (timeline_view changes nothing). Not RT code. */
#include "stats/timeline.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void second_merge(struct second_stats *a, const struct second_stats *b)
{
    a->cycles += b->cycles;
    a->xruns_reported += b->xruns_reported;
    a->xruns_detected += b->xruns_detected;
    a->xrun_events += b->xrun_events;
    a->deadlines_missed += b->deadlines_missed;
#define MAXF(f) if (b->f > a->f) a->f = b->f
    MAXF(period_max); MAXF(jitter_abs_max); MAXF(jitter_abs_p99); MAXF(wakeup_max); MAXF(wakeup_p99);
    MAXF(callback_max);
#undef MAXF
    if (b->margin_min < a->margin_min)
        a->margin_min = b->margin_min;
}

static int eventful(const struct second_stats *ss, int64_t half_period_ns)
{
    return ss->xruns_reported || ss->xruns_detected || ss->xrun_events || ss->deadlines_missed ||
           ss->wakeup_max > half_period_ns || ss->jitter_abs_max > half_period_ns;
}

/* How bad a second was, for choosing the seconds that stand alone when there are too many: xrun events, then
 * missed deadlines, then the largest wake-up or jitter spike. */
static double severity(const struct second_stats *ss)
{
    double spike = (double)(ss->wakeup_max > ss->jitter_abs_max ? ss->wakeup_max : ss->jitter_abs_max);
    return (double)ss->xrun_events * 1e15 + (double)ss->deadlines_missed * 1e12 + spike;
}

static int64_t half_period(const struct segment *s)
{
    return s->rate_hz ? (int64_t)s->nframes * 500000000LL / s->rate_hz : INT64_MAX;
}

size_t tl_alone_max(const struct tl_acc *a)
{
    return a->alone_max ? a->alone_max : TL_DETAIL_MAX;
}

static int acc_push(struct tl_acc *a, const struct tl_entry *e)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 64;
        struct tl_entry *n = realloc(a->e, cap * sizeof(*n));
        if (!n)
            return -ENOMEM;
        a->e = n;
        a->cap = cap;
    }
    a->e[a->n++] = *e;
    return 0;
}

/* Can b be folded onto a (side by side, both folded, within a span)? */
static int foldable(const struct tl_entry *a, const struct tl_entry *b)
{
    return a->kind == TL_FOLDED && b->kind == TL_FOLDED && a->s0 + a->span == b->s0 && a->span + b->span <= TL_SPAN_S;
}

/* One pass, in place: the entries for which stays() is false become folded and join the folded entry before them
 * where the two fit in a span. Afterwards no two folded entries side by side fit in one span. */
static void acc_rebuild(struct tl_acc *a, int (*stays)(const struct tl_entry *, void *), void *arg)
{
    size_t w = 0;
    for (size_t r = 0; r < a->n; r++) {
        struct tl_entry e = a->e[r];
        if (e.kind != TL_FOLDED && !stays(&e, arg))
            e.kind = TL_FOLDED;
        if (w > 0 && foldable(&a->e[w - 1], &e)) {
            a->e[w - 1].span += e.span;
            second_merge(&a->e[w - 1].st, &e.st);
        } else {
            a->e[w++] = e;
        }
    }
    a->n = w;
}

static int not_near(const struct tl_entry *e, void *arg)
{
    (void)arg;
    return e->kind != TL_NEAR;
}

struct trim_arg {
    double threshold;              /* the keep-th largest severity */
    size_t ties;                   /* how many entries at exactly the threshold still stay */
};

static int worst_stay(const struct tl_entry *e, void *arg)
{
    struct trim_arg *t = arg;
    if (e->kind != TL_EVENTFUL)
        return 1;
    if (e->severity > t->threshold)
        return 1;
    if (e->severity == t->threshold && t->ties > 0) {
        t->ties--;
        return 1;
    }
    return 0;
}

static int by_severity_desc(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a < b) - (a > b);
}

/* Only the keep worst eventful seconds stay alone (the earliest of equals); the rest are folded. */
static void acc_trim(struct tl_acc *a, size_t keep)
{
    if (a->alone_ev <= keep)
        return;
    double *sev = malloc(a->alone_ev * sizeof(*sev));
    if (!sev)
        return; /* out of memory: more seconds stay alone until the next trim, nothing is lost */
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->e[i].kind == TL_EVENTFUL && k < a->alone_ev)
            sev[k++] = a->e[i].severity;
    qsort(sev, k, sizeof(*sev), by_severity_desc);
    struct trim_arg t = { .threshold = sev[keep - 1], .ties = 0 };
    size_t above = 0;
    while (above < k && sev[above] > t.threshold)
        above++;
    t.ties = keep - above;
    free(sev);
    acc_rebuild(a, worst_stay, &t);
    a->alone_ev = keep;
}

/* The second i (of the window win, whose first second is base and which holds wn) decided into a's entries. total:
 * the segment's seconds when `final` (then the last TL_EDGE_S are edges); otherwise every second that i's rule
 * looks at (up to i + TL_NEAR_S) is in the window and closed. 0 or -ENOMEM. */
static int acc_decide(struct tl_acc *a, const struct second_stats *win, uint64_t base, size_t wn, uint64_t i,
                      uint64_t total, int final, int64_t half)
{
#define EDGE(j) ((j) < TL_EDGE_S || (final && (j) + TL_EDGE_S >= total))
    const struct second_stats *st = &win[i - base];
    struct tl_entry e = { .s0 = i, .span = 1, .kind = TL_FOLDED, .severity = 0, .st = *st };
    int edge = EDGE(i), ev = !edge && eventful(st, half);
    if (ev) {
        a->eventful++;
        a->last_ev = (int64_t)i;
        if (!a->capped && a->eventful * (2 * TL_NEAR_S + 1) > tl_alone_max(a)) {
            a->capped = 1; /* too many to keep their neighbours: from now on the eventful seconds alone */
            acc_rebuild(a, not_near, NULL);
        }
    }
    if (edge) {
        e.kind = TL_EDGE;
    } else if (ev) {
        e.kind = TL_EVENTFUL;
        e.severity = severity(st);
    } else if (!a->capped) {
        int near = a->last_ev >= 0 && i - (uint64_t)a->last_ev <= TL_NEAR_S;
        for (uint64_t j = i + 1; !near && j <= i + TL_NEAR_S && j < base + wn; j++)
            near = !EDGE(j) && eventful(&win[j - base], half);
        if (near)
            e.kind = TL_NEAR;
    }
#undef EDGE
    if (e.kind == TL_FOLDED && a->n > 0 && foldable(&a->e[a->n - 1], &e)) {
        a->e[a->n - 1].span++;
        second_merge(&a->e[a->n - 1].st, st);
        return 0;
    }
    if (acc_push(a, &e) < 0) {
        if (ev)
            a->eventful--; /* undecided: it is decided again next time */
        return -ENOMEM;
    }
    if (e.kind == TL_EVENTFUL && ++a->alone_ev >= tl_alone_max(a) + tl_alone_max(a) / 4 && a->capped)
        acc_trim(a, tl_alone_max(a)); /* TL_TRIM_AT's rule, for this segment's share */
    return 0;
}

int timeline_compact(struct segment *s)
{
    if (s->cur_sec < 0)
        return 0;
    uint64_t cur = (uint64_t)s->cur_sec, lag = TL_EDGE_S + TL_NEAR_S;
    if (cur < s->secs_base + 2 * lag)
        return 0; /* in batches: the window moves every lag seconds, not every second */
    uint64_t limit = cur - lag, i = s->secs_base; /* the seconds before limit: every one that i's rule reads is
                                                   * closed, and none is among the last TL_EDGE_S */
    size_t wn = s->nsecs - s->secs_base;
    int64_t half = half_period(s);
    int rc = 0;
    for (; i < limit; i++)
        if ((rc = acc_decide(&s->tl, s->secs, s->secs_base, wn, i, 0, 0, half)) < 0)
            break;
    size_t drop = i - s->secs_base;
    memmove(s->secs, s->secs + drop, (wn - drop) * sizeof(*s->secs));
    s->secs_base = i;
    return rc;
}

/* s's entries with its window's seconds decided as the last ones, the eventful alone trimmed: into *out (its own
 * array, which the caller frees; the counters as they then are). 0 or -ENOMEM. */
static int view_acc(const struct segment *s, struct tl_acc *out)
{
    struct tl_acc a = s->tl;
    a.e = NULL;
    a.n = a.cap = 0;
    size_t wn = s->nsecs - s->secs_base;
    size_t need = s->tl.n + wn + 1;
    a.e = malloc(need * sizeof(*a.e));
    if (!a.e)
        return -ENOMEM;
    a.cap = need;
    if (s->tl.n)
        memcpy(a.e, s->tl.e, s->tl.n * sizeof(*a.e));
    a.n = s->tl.n;
    int64_t half = half_period(s);
    for (uint64_t i = s->secs_base; i < s->nsecs; i++)
        if (acc_decide(&a, s->secs, s->secs_base, wn, i, s->nsecs, 1, half) < 0) {
            free(a.e);
            return -ENOMEM;
        }
    if (a.capped)
        acc_trim(&a, tl_alone_max(&a));
    *out = a;
    return 0;
}

int timeline_view(const struct segment *s, struct tl_entry **out, size_t *n, uint64_t *folded)
{
    struct tl_acc a;
    if (view_acc(s, &a) < 0)
        return -ENOMEM;
    *folded = a.capped && a.eventful > a.alone_ev ? a.eventful - a.alone_ev : 0;
    *out = a.e;
    *n = a.n;
    return 0;
}

int timeline_settle(struct segment *s)
{
    struct tl_acc a;
    if (s->tl_final)
        return 0;
    if (view_acc(s, &a) < 0)
        return -ENOMEM;
    if (a.n) { /* the view's room for the window's seconds, no longer needed */
        struct tl_entry *fit = realloc(a.e, a.n * sizeof(*a.e));
        if (fit)
            a.e = fit, a.cap = a.n;
    }
    free(s->tl.e);
    s->tl = a;
    free(s->secs);
    s->secs = NULL;
    s->secs_cap = 0;
    s->secs_base = s->nsecs;
    s->tl_final = 1;
    return 0;
}
