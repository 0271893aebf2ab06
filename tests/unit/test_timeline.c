/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-second timeline, compacted as it is made (stats/timeline.h): fed cycles whose every second's truth the
 * test keeps itself (which seconds it made eventful, each one's wake-up), the entries it ends with are checked
 * against that truth and the rule's own statement, written out here plainly over the whole run at once: which
 * seconds stand alone, that every second is covered once, that the counts and maxima add up to what was fed, and that
 * the memory it holds while the run goes stays bounded (issue 25: a soak's private memory stays flat). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "stats/phase.h"
#include "stats/timeline.h"

#define SEC_NS 1000000000LL
#define FRAMES 48000 /* 1 s cycles at 48 kHz: one cycle a second, half a period is 0.5 s */

/* The run the test makes: n seconds; wake[k] the wake-up of second k's cycle (over 0.5 s: an eventful second). */
struct run {
    int64_t n;
    int64_t *wake;
};

static void feed(struct phase_stats *ps, const struct run *r, int64_t from, int64_t upto)
{
    for (int64_t k = from; k < upto; k++) {
        struct rt_record rec;
        memset(&rec, 0, sizeof(rec));
        rec.seq = (uint64_t)k;
        rec.start_ns = SEC_NS + k * SEC_NS;
        rec.t_entry_ns = rec.start_ns + r->wake[k];
        rec.t_exit_ns = rec.t_entry_ns + 5000;
        rec.frame_pos = (uint64_t)k * FRAMES;
        rec.nframes = FRAMES;
        rec.rate_hz = 48000;
        rec.flags = RTREC_MEASURING | RTREC_HAS_START;
        assert_int_equal(phase_add(ps, &rec), 0);
    }
}

/* A run of n seconds, every second quiet (a wake-up of 1001 µs) but those in ev[] (of nev): 0.6 s and an even,
 * distinct number of µs more. A cycle's jitter is its period's deviation, the change of wake-up from the cycle
 * before: the quiet second after an eventful one has a jitter of that one's wake-up less 1001 µs, over half a period
 * too (an odd number of µs: no two seconds are equally bad, so the worst are unambiguous). */
static struct run make_run(int64_t n, const int64_t *ev, size_t nev)
{
    struct run r = { .n = n, .wake = calloc((size_t)n, sizeof(int64_t)) };
    assert_non_null(r.wake);
    for (int64_t k = 0; k < n; k++)
        r.wake[k] = 1001000;
    for (size_t i = 0; i < nev; i++)
        r.wake[ev[i]] = 600000000 + (int64_t)((ev[i] * 7919) % 100000) * 2000;
    return r;
}

/* How bad second k is by the rule: the larger of its wake-up and its jitter's magnitude; over half a period (0.5 s):
 * eventful. */
static int64_t badness(const struct run *r, int64_t k)
{
    int64_t jit = k > 0 ? r->wake[k] - r->wake[k - 1] : 0;
    if (jit < 0)
        jit = -jit;
    return r->wake[k] > jit ? r->wake[k] : jit;
}
static int is_eventful(const struct run *r, int64_t k) { return badness(r, k) > 500000000; }
static int is_edge(const struct run *r, int64_t k) { return k < TL_EDGE_S || k + TL_EDGE_S >= r->n; }

static int desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

/* The eventful seconds a segment keeps alone at most: TL_DETAIL_MAX, or a phase's share (test_many_events_shared). */
static size_t g_alone = TL_DETAIL_MAX;

/* The rule, over the whole run at once: which seconds stand alone, and how many eventful ones were folded. */
static unsigned char *expected_alone(const struct run *r, uint64_t *folded)
{
    unsigned char *alone = calloc((size_t)r->n, 1);
    assert_non_null(alone);
    size_t nev = 0;
    for (int64_t k = 0; k < r->n; k++)
        nev += !is_edge(r, k) && is_eventful(r, k);
    int capped = nev * (2 * TL_NEAR_S + 1) > g_alone;
    int64_t *w = malloc((nev + 1) * sizeof(*w)), cut = 0;
    size_t m = 0;
    for (int64_t k = 0; k < r->n; k++)
        if (!is_edge(r, k) && is_eventful(r, k))
            w[m++] = badness(r, k);
    qsort(w, m, sizeof(*w), desc);
    if (capped && m > g_alone)
        cut = w[g_alone - 1]; /* no two are equal: exactly g_alone are at or above it */
    free(w);
    for (int64_t k = 0; k < r->n; k++) {
        if (is_edge(r, k)) {
            alone[k] = 1;
        } else if (is_eventful(r, k)) {
            if (!capped || badness(r, k) >= cut)
                alone[k] = 1;
            if (!capped)
                for (int64_t j = k - TL_NEAR_S; j <= k + TL_NEAR_S; j++)
                    if (j >= 0 && j < r->n)
                        alone[j] = 1;
        }
    }
    *folded = capped && nev > g_alone ? nev - g_alone : 0;
    return alone;
}

/* Feeds the run, then holds the timeline the report would print to the truth. */
static size_t g_near; /* check_run's: the seconds alone as an eventful one's neighbours (TL_NEAR) */

static void check_run(const struct run *r)
{
    struct phase_stats ps;
    phase_init(&ps);
    if (g_alone != TL_DETAIL_MAX) {
        struct phase_lists l;
        phase_lists_share(&l, 1);
        l.seconds_alone = (uint32_t)g_alone;
        phase_set_lists(&ps, &l);
    }
    feed(&ps, r, 0, r->n);
    phase_finish(&ps);
    const struct segment *s = ps.seg[0];
    assert_int_equal(s->nsecs, (size_t)r->n);
    assert_int_equal(tl_alone_max(&s->tl), g_alone);
    struct tl_entry *e = NULL;
    size_t n = 0;
    uint64_t folded = 0, want_folded = 0;
    assert_int_equal(timeline_view(s, &e, &n, &folded), 0);
    unsigned char *alone = expected_alone(r, &want_folded);
    uint64_t covered = 0;
    g_near = 0;
    for (size_t i = 0; i < n; i++) {
        g_near += e[i].kind == TL_NEAR;
        assert_int_equal(e[i].s0, covered); /* in order, no hole, no overlap */
        assert_true(e[i].span >= 1 && e[i].span <= TL_SPAN_S);
        int64_t wmax = 0;
        for (uint64_t k = e[i].s0; k < e[i].s0 + e[i].span; k++)
            if (r->wake[k] > wmax)
                wmax = r->wake[k];
        assert_int_equal(e[i].st.cycles, e[i].span);      /* one cycle a second, each counted once */
        assert_int_equal(e[i].st.wakeup_max, wmax);       /* the fold's maximum is the fed maximum */
        if (e[i].kind != TL_FOLDED) {
            assert_int_equal(e[i].span, 1);
            if (!alone[e[i].s0])
                fail_msg("second %llu stands alone, the rule folds it", (unsigned long long)e[i].s0);
        } else {
            for (uint64_t k = e[i].s0; k < e[i].s0 + e[i].span; k++)
                if (alone[k])
                    fail_msg("second %llu is folded (into %llu+%u), the rule keeps it alone", (unsigned long long)k,
                             (unsigned long long)e[i].s0, e[i].span);
            /* compact: a folded entry beside another never fits in one span with it */
            if (i > 0 && e[i - 1].kind == TL_FOLDED)
                assert_true(e[i - 1].span + e[i].span > TL_SPAN_S);
        }
        covered += e[i].span;
    }
    assert_int_equal(covered, (uint64_t)r->n);
    assert_int_equal(folded, want_folded);
    /* the phase settled (a later phase's records came): the window is decided for good and freed, and the view is
     * the one judged above, entry for entry */
    phase_settle(&ps);
    assert_null(s->secs);
    assert_int_equal(s->tl_final, 1);
    struct tl_entry *e2 = NULL;
    size_t n2 = 0;
    uint64_t folded2 = 0;
    assert_int_equal(timeline_view(s, &e2, &n2, &folded2), 0);
    assert_int_equal(n2, n);
    assert_int_equal(folded2, folded);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(e2[i].s0, e[i].s0);
        assert_int_equal(e2[i].span, e[i].span);
        assert_int_equal(e2[i].kind, e[i].kind);
        const struct second_stats *x = &e2[i].st, *y = &e[i].st; /* field by field: not the padding */
        assert_int_equal(x->cycles, y->cycles);
        assert_int_equal(x->xruns_reported, y->xruns_reported);
        assert_int_equal(x->xruns_detected, y->xruns_detected);
        assert_int_equal(x->xrun_events, y->xrun_events);
        assert_int_equal(x->deadlines_missed, y->deadlines_missed);
        assert_int_equal(x->period_max, y->period_max);
        assert_int_equal(x->jitter_abs_max, y->jitter_abs_max);
        assert_int_equal(x->jitter_abs_p99, y->jitter_abs_p99);
        assert_int_equal(x->wakeup_max, y->wakeup_max);
        assert_int_equal(x->wakeup_p99, y->wakeup_p99);
        assert_int_equal(x->callback_max, y->callback_max);
        assert_int_equal(x->margin_min, y->margin_min);
    }
    free(e2);
    free(alone);
    free(e);
    phase_free(&ps);
}

/* Few events, at random seconds (some in the first and last minute, two side by side, two 11 s apart): every
 * second within 5 s of each stands alone, and the edges; the rest is folded. */
static void test_few_events(void **state)
{
    (void)state;
    int64_t ev[40];
    size_t nev = 0;
    srand(25);
    const int64_t n = 5000;
    ev[nev++] = 10;        /* in the first minute: an edge, its neighbours not kept for it */
    ev[nev++] = n - 3;     /* in the last */
    ev[nev++] = 64;        /* its neighbours reach into the first minute */
    ev[nev++] = n - 66;    /* into the last minute, and its lookahead runs into the edge */
    ev[nev++] = 1000;
    ev[nev++] = 1001;
    ev[nev++] = 2000;
    ev[nev++] = 2011;
    while (nev < 40) {
        int64_t k = 60 + rand() % (n - 120);
        int dup = 0;
        for (size_t i = 0; i < nev; i++)
            dup |= ev[i] == k;
        if (!dup)
            ev[nev++] = k;
    }
    struct run r = make_run(n, ev, nev);
    check_run(&r);
    free(r.wake);
}

/* So many events that their neighbours would pass the budget: the worst TL_DETAIL_MAX stand alone, alone, through
 * several trims while the run goes (8,000 eventful seconds: more than twice the budget). */
static void test_many_events(void **state)
{
    (void)state;
    const int64_t n = 20000;
    int64_t *ev = malloc((size_t)n * sizeof(*ev));
    size_t nev = 0;
    srand(24);
    for (int64_t k = 0; k < n; k++)
        if (rand() % 5 < 2)
            ev[nev++] = k;
    struct run r = make_run(n, ev, nev);
    check_run(&r);
    free(r.wake);
    free(ev);
}

/* The same with a phase's share of a run's lists (stats/phase.h): eight phases, an eighth of the seconds alone each;
 * and a run of a few events under that share (each with its neighbours). */
static void test_many_events_shared(void **state)
{
    (void)state;
    struct phase_lists l;
    phase_lists_share(&l, 8);
    assert_int_equal(l.seconds_alone, TL_DETAIL_MAX / 8);
    g_alone = l.seconds_alone;
    test_many_events(state);
    for (size_t want = 5; want <= 7; want++) { /* 6 x 11 <= 75 < 7 x 11 */
        const int64_t n = 12 * (int64_t)want + 200;
        int64_t *ev = malloc(want * sizeof(*ev));
        for (size_t i = 0; i < want; i++)
            ev[i] = 100 + 12 * (int64_t)i;
        struct run r = make_run(n, ev, want);
        check_run(&r);
        free(r.wake);
        free(ev);
    }
    g_alone = TL_DETAIL_MAX;
}

/* Just over the budget's edge (TL_DETAIL_MAX, 600): each late second makes two eventful ones (its wake-up, and the
 * next one's jitter back), so 28 make 56 x 11 = 616 > 600 seconds with their neighbours (capped: only the eventful
 * ones stand alone), 27 make 54 x 11 = 594 (each pair with its 2 x TL_NEAR_S neighbours). */
static void test_budget_edge(void **state)
{
    (void)state;
    assert_int_equal(TL_DETAIL_MAX, 600); /* the edge below is its */
    for (size_t want = 27; want <= 28; want++) {
        const int64_t n = 12 * (int64_t)want + 200;
        int64_t *ev = malloc(want * sizeof(*ev));
        for (size_t i = 0; i < want; i++)
            ev[i] = 100 + 12 * (int64_t)i; /* 12 s apart: neighbourhoods that do not touch */
        struct run r = make_run(n, ev, want);
        check_run(&r);
        if (want == 27)
            assert_int_equal(g_near, 27 * 2 * TL_NEAR_S); /* each pair with its neighbours */
        else
            assert_int_equal(g_near, 0); /* capped: the eventful seconds alone */
        free(r.wake);
        free(ev);
    }
}

/* What the segment holds while a day goes by stays bounded: the window a few minutes, the entries under two per
 * minute plus the seconds alone, whether no second, or every second, is eventful. */
static void test_memory_stays_bounded(void **state)
{
    (void)state;
    const int64_t n = 86400;
    for (int all = 0; all <= 1; all++) {
        int64_t *ev = malloc((size_t)n * sizeof(*ev));
        size_t nev = 0;
        for (int64_t k = 0; all && k < n; k++)
            ev[nev++] = k;
        struct run r = make_run(n, ev, nev);
        struct phase_stats ps;
        phase_init(&ps);
        size_t half_entries = 0, half_cap = 0;
        uint64_t alone_most = 0; /* the most eventful seconds alone at any time (the trim's bound) */
        for (int64_t k = 0; k < n / 2; k += 100) {
            feed(&ps, &r, k, k + 100 < n / 2 ? k + 100 : n / 2);
            if (ps.seg[0]->tl.alone_ev > alone_most)
                alone_most = ps.seg[0]->tl.alone_ev;
        }
        half_entries = ps.seg[0]->tl.n;
        half_cap = ps.seg[0]->tl.cap;
        feed(&ps, &r, n / 2, n);
        const struct segment *s = ps.seg[0];
        size_t window = s->nsecs - s->secs_base, bound = 2 * (size_t)n / TL_SPAN_S + 2 * TL_DETAIL_MAX + 4;
        print_message("# %s: window %zu s (cap %zu), entries %zu at 12 h, %zu at 24 h (cap %zu, %zu), bound %zu\n",
                      all ? "every second eventful" : "no second eventful", window, s->secs_cap, half_entries,
                      s->tl.n, half_cap, s->tl.cap, bound);
        assert_true(window <= 3 * (TL_EDGE_S + TL_NEAR_S));
        assert_true(s->secs_cap <= 256);
        assert_true(s->tl.n <= bound);
        print_message("# the most eventful seconds alone at once in the first 12 h: %llu (trimmed at %d)\n",
                      (unsigned long long)alone_most, TL_TRIM_AT);
        assert_true(alone_most < TL_TRIM_AT);
        if (all) /* every second eventful: the trims happened, each back to TL_DETAIL_MAX */
            assert_true(alone_most >= TL_DETAIL_MAX);
        if (!all) /* quiet: the second half adds a minute's entry a minute, no more */
            assert_true(s->tl.n - half_entries <= (size_t)(n - n / 2) / TL_SPAN_S + 2);
        phase_free(&ps);
        free(r.wake);
        free(ev);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_few_events),
        cmocka_unit_test(test_many_events),
        cmocka_unit_test(test_many_events_shared),
        cmocka_unit_test(test_budget_edge),
        cmocka_unit_test(test_memory_stays_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
