/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a segment keeps of its xrun events (stats/eventkeep.c), from a synthetic stream of 100,000 events whose
 * lengths come from a generator this test owns: the worst and the latest are known here by construction (a sort of
 * the generated lengths, the stream's tail), not from the keeping code; the counts and sums are added up here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/eventkeep.h"
#include "stats/phase.h"
#include "report/report_events.h"

#define NEV 100000
#define S 1000000000LL

/* xorshift: the same stream every run */
static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Event i: starts every 0.75 s on average (jittered), lasts 0.1-30 ms, distinct lengths (i is in the low digits). */
static struct xrun_event synth(int i, uint64_t *x)
{
    int64_t start = 5 * S + (int64_t)i * 750000000LL + (int64_t)(rnd(x) % 500000000ULL);
    int64_t len = 100000 + (int64_t)(rnd(x) % 300) * 100000 + i % 100000; /* ns */
    return (struct xrun_event){ .start_ns = start, .end_ns = start + len, .skipped = (uint32_t)(i % 3),
                                .notifications = (uint32_t)(i % 2), .cpu = i % 2 };
}

/* Culprit of the event that began at start_ns: by its start's hundredth of a second, so 40 names, 16 of them past the
 * table of 24 (summed as others); every 10th not known. */
static int named_calls;
static int namer(void *arg, int64_t start_ns, int force, char *kind, size_t kl, char *name, size_t nl)
{
    (void)arg, (void)force;
    named_calls++;
    int64_t c = (start_ns / 10000000) % 40;
    if (c % 10 == 0)
        return 1;
    snprintf(kind, kl, "%s", "rt_task");
    snprintf(name, nl, "task%d", (int)c);
    return 1;
}

/* A namer whose culprits come LAG events late, as the culprit engine's (~0.7 s after an event): an event is known
 * once the event LAG after it has been pushed; forced before, not known. Each known one is named by its start's
 * hundredth of a second mod 7 (the truth the test sums itself). */
struct lagged {
    int64_t known_before;  /* events that began before this are known */
    int calls, forced_unknown;
};

static int lagged_namer(void *arg, int64_t start_ns, int force, char *kind, size_t kl, char *name, size_t nl)
{
    struct lagged *g = arg;
    g->calls++;
    if (start_ns >= g->known_before) {
        if (!force)
            return 0;
        g->forced_unknown++;
        return 1;
    }
    snprintf(kind, kl, "%s", "rt_task");
    snprintf(name, nl, "t%d", (int)((start_ns / 10000000) % 7));
    return 1;
}

static uint64_t sum_of(const struct event_keep *k, const char *name)
{
    for (size_t i = 0; i < k->nculprits; i++)
        if (!strcmp(k->culprits[i].name, name))
            return k->culprits[i].sum.events;
    return 0;
}

/* Events summed before their culprit is known are summed to it once it is: with culprits LAG events late, every
 * summarised event lands under its own culprit (the test's count of the truth), none as not known; settled at the
 * end with the last ones still unknown, those (and only those) are summed as not known. */
/* N synthetic events pushed, each one's culprit known LAG events after it (the namer's rule, g): their starts into
 * start. */
enum { LAG = EVENT_KEEP_LATEST + 100, N = 3000 };
static void push_lagged(struct event_keep *k, struct lagged *g, int64_t *start)
{
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < N; i++) {
        struct xrun_event e = synth(i, &x);
        start[i] = e.start_ns;
        g->known_before = i >= LAG ? start[i - LAG] + 1 : 0;
        assert_int_equal(event_keep_push(k, &e, 0, lagged_namer, g), 0);
        assert_true(k->ndeferred <= EVENT_DEFER_MAX);
    }
}

static void test_named_when_known(void **state)
{
    (void)state;
    struct event_keep k;
    struct lagged g = { 0 };
    event_keep_init(&k);
    static int64_t start[N];
    push_lagged(&k, &g, start);
    assert_true(k.ndeferred > 0); /* some were summed before their culprit was known */
    event_keep_settle(&k, lagged_namer, &g); /* the last LAG still unknown: forced */
    assert_int_equal(k.ndeferred, 0);
    /* the truth: the summarised events are those not listed; each known one under t(start) */
    struct xrun_event *l = NULL;
    long n = event_keep_list(&k, &l);
    assert_int_equal((uint64_t)n + k.summarised, N);
    uint64_t want[7] = { 0 }, unknown = 0;
    int64_t last_known = start[N - 1 - LAG];
    for (int i = 0; i < N; i++) {
        int listed = 0;
        for (long j = 0; j < n && !listed; j++)
            listed = l[j].seq == (uint64_t)i;
        if (listed)
            continue;
        if (start[i] > last_known)
            unknown++;
        else
            want[(start[i] / 10000000) % 7]++;
    }
    for (int c = 0; c < 7; c++) {
        char nm[16];
        snprintf(nm, sizeof(nm), "t%d", c);
        assert_int_equal(sum_of(&k, nm), want[c]);
    }
    assert_int_equal(sum_of(&k, ""), unknown);
    assert_int_equal((uint64_t)g.forced_unknown, unknown);
    free(l);
    event_keep_free(&k);
}

static int by_len_desc(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return a > b ? -1 : a < b;
}

/* A segment whose phase is over (no push names its waiting events any more): event_keep_name_known sums each to its
 * culprit once known, without forcing, the oldest first, and frees the waiting list once it is empty; none is summed
 * as not known. The truth: the namer's own rule (t(start), known once its time is passed). */
static void test_named_once_known_later(void **state)
{
    (void)state;
    struct event_keep k;
    struct lagged g = { 0 };
    event_keep_init(&k);
    static int64_t start[N];
    push_lagged(&k, &g, start);
    size_t waiting = k.ndeferred;
    assert_true(waiting > 2);
    /* known up to the middle one waiting: those before it go, the rest wait, the list stays */
    int64_t mid = k.deferred[waiting / 2].start_ns;
    g.known_before = mid;
    size_t left = event_keep_name_known(&k, lagged_namer, &g);
    assert_int_equal(left, k.ndeferred);
    assert_true(left > 0 && left < waiting);
    assert_true(k.deferred[0].start_ns >= mid);
    assert_non_null(k.deferred);
    /* all known: none waits, the list is freed, none was summed as not known */
    g.known_before = INT64_MAX;
    assert_int_equal(event_keep_name_known(&k, lagged_namer, &g), 0);
    assert_null(k.deferred);
    assert_int_equal(g.forced_unknown, 0);
    assert_int_equal(sum_of(&k, ""), 0);
    uint64_t summed = 0;
    for (int c = 0; c < 7; c++) {
        char nm[16];
        snprintf(nm, sizeof(nm), "t%d", c);
        summed += sum_of(&k, nm);
    }
    assert_int_equal(summed, k.summarised);
    event_keep_free(&k);
}

/* A stream of NEV events kept with at most `latest` and `worst` in full (set: event_keep_set_lists; else the
 * defaults, LATEST and WORST), judged against the test's own sort of what it generated. */
static void hundred_thousand(int set, int LATEST, int WORST)
{
    struct event_keep k;
    event_keep_init(&k);
    if (set)
        event_keep_set_lists(&k, (uint32_t)LATEST, (uint32_t)WORST);
    assert_int_equal(event_keep_latest_max(&k), LATEST);
    assert_int_equal(event_keep_worst_max(&k), WORST);
    named_calls = 0;
    uint64_t x = 88172645463325252ULL;
    int64_t *len = malloc(NEV * sizeof(*len));
    int64_t *start = malloc(NEV * sizeof(*start));
    assert_non_null(len);
    assert_non_null(start);
    uint64_t skipped = 0, notes = 0;
    int64_t len_sum = 0;
    for (int i = 0; i < NEV; i++) {
        struct xrun_event e = synth(i, &x);
        len[i] = e.end_ns - e.start_ns;
        start[i] = e.start_ns;
        skipped += e.skipped;
        notes += e.notifications;
        len_sum += len[i];
        assert_int_equal(event_keep_push(&k, &e, 0, namer, NULL), 0);
    }
    /* counts exact */
    assert_int_equal(k.total, NEV);
    assert_int_equal(k.lost, 0);
    assert_int_equal(k.nlatest, LATEST);
    assert_int_equal(k.nworst, WORST);
    assert_int_equal(k.summarised, NEV - LATEST - WORST);
    assert_int_equal(named_calls, (int)k.summarised);  /* each summarised event named once */
    /* the list: every kept event once, in time order */
    struct xrun_event *l = NULL;
    long n = event_keep_list(&k, &l);
    assert_int_equal(n, LATEST + WORST);
    for (long i = 1; i < n; i++)
        assert_true(l[i].seq > l[i - 1].seq);
    /* latest kept: the stream's last LATEST, whole */
    for (int i = 0; i < LATEST; i++) {
        const struct xrun_event *e = &l[n - LATEST + i];
        assert_int_equal(e->seq, NEV - LATEST + i);
        assert_int_equal(e->start_ns, start[e->seq]);
        assert_int_equal(e->end_ns - e->start_ns, len[e->seq]);
    }
    /* worst kept: the WORST longest of the events before them, from a sort of the generated lengths */
    int older = NEV - LATEST;
    int64_t *sorted = malloc((size_t)older * sizeof(*sorted));
    memcpy(sorted, len, (size_t)older * sizeof(*sorted));
    qsort(sorted, (size_t)older, sizeof(*sorted), by_len_desc);
    int64_t cut = sorted[WORST - 1];
    assert_true(sorted[WORST] < cut); /* the generator's lengths are distinct around the cut */
    for (long i = 0; i < n - LATEST; i++) {
        assert_true(l[i].seq < (uint64_t)older);
        assert_true(l[i].end_ns - l[i].start_ns >= cut);
        assert_int_equal(l[i].end_ns - l[i].start_ns, len[l[i].seq]);
    }
    /* the longest of the whole stream is listed */
    int64_t all_max = 0;
    for (int i = 0; i < NEV; i++)
        all_max = len[i] > all_max ? len[i] : all_max;
    int found = 0;
    for (long i = 0; i < n; i++)
        found |= l[i].end_ns - l[i].start_ns == all_max;
    assert_true(found);
    /* per-minute sums add up to the total: events, lengths, skipped cycles, notifications */
    uint64_t b_ev = 0, b_sk = 0, b_no = 0;
    int64_t b_len = 0, l_len = 0;
    for (size_t i = 0; i < k.nbuckets; i++) {
        b_ev += k.buckets[i].events;
        b_sk += k.buckets[i].skipped;
        b_no += k.buckets[i].notifications;
        b_len += k.buckets[i].length_ns_sum;
    }
    uint64_t l_sk = 0, l_no = 0;
    for (long i = 0; i < n; i++) {
        l_sk += l[i].skipped;
        l_no += l[i].notifications;
        l_len += l[i].end_ns - l[i].start_ns;
    }
    assert_int_equal(b_ev + (uint64_t)n, NEV);
    assert_int_equal(b_sk + l_sk, skipped);
    assert_int_equal(b_no + l_no, notes);
    assert_int_equal(b_len + l_len, len_sum);
    /* 100,000 events at 0.75 s: ~20.8 h, under the 1,440 minutes: the buckets are still a minute wide */
    assert_int_equal(k.bucket_ns, EVENT_SUM_BUCKET_NS);
    assert_true(k.nbuckets <= EVENT_SUM_BUCKETS_MAX);
    /* a bucket by hand: the events summarised whose start falls in minute 100 */
    uint64_t m100 = 0;
    for (int i = 0; i < NEV; i++) {
        int listed = 0;
        for (long j = 0; j < n && !listed; j++)
            listed = l[j].seq == (uint64_t)i;
        m100 += !listed && start[i] / EVENT_SUM_BUCKET_NS == 100;
    }
    assert_int_equal(k.buckets[100].events, m100);
    /* per-culprit sums add up too (the table, the others) */
    uint64_t c_ev = k.culprits_other.events, unknown = 0;
    for (size_t i = 0; i < k.nculprits; i++) {
        c_ev += k.culprits[i].sum.events;
        if (!k.culprits[i].kind[0])
            unknown += k.culprits[i].sum.events;
    }
    assert_int_equal(c_ev, k.summarised);
    assert_int_equal(k.nculprits, EVENT_SUM_CULPRITS_MAX);
    assert_true(k.culprits_other.events > 0);
    assert_true(unknown > k.summarised / 20 && unknown < k.summarised / 5); /* 4 of 40 hundredths: ~10 % */
    /* memory bounded: the ring, the heap and at most EVENT_SUM_BUCKETS_MAX buckets, whatever the count */
    assert_true(k.buckets_cap <= EVENT_SUM_BUCKETS_MAX);
    free(sorted);
    free(l);
    free(len);
    free(start);
    event_keep_free(&k);
}

static void test_hundred_thousand(void **state)
{
    (void)state;
    hundred_thousand(0, EVENT_KEEP_LATEST, EVENT_KEEP_WORST);
}

/* A phase's share of a run's lists (stats/phase.h, phase_lists_share): eight phases keep an eighth each; more keep no
 * less; the setter clamps to 1 .. the whole. */
static void test_hundred_thousand_shared(void **state)
{
    (void)state;
    struct phase_lists l;
    phase_lists_share(&l, 8);
    assert_int_equal(l.events_latest, EVENT_KEEP_LATEST / 8);
    assert_int_equal(l.events_worst, EVENT_KEEP_WORST / 8);
    hundred_thousand(1, (int)l.events_latest, (int)l.events_worst);
    phase_lists_share(&l, 40);
    assert_int_equal(l.events_latest, EVENT_KEEP_LATEST / PHASE_LISTS_FLOOR_DIV);
    phase_lists_share(&l, 3);
    assert_int_equal(l.events_latest, (EVENT_KEEP_LATEST + 2) / 3);
    phase_lists_share(&l, 1);
    assert_int_equal(l.events_latest, EVENT_KEEP_LATEST);
    assert_int_equal(l.spikes, SEGMENT_SPIKES_MAX);
    hundred_thousand(1, 1, 1);
    struct event_keep k;
    event_keep_init(&k);
    event_keep_set_lists(&k, 0, 100000);
    assert_int_equal(event_keep_latest_max(&k), 1);
    assert_int_equal(event_keep_worst_max(&k), EVENT_KEEP_WORST);
}

/* A week of events: the buckets widen (neighbours merged), never grow past their cap, and still add up. */
static void test_buckets_widen(void **state)
{
    (void)state;
    struct event_keep k;
    event_keep_init(&k);
    const int n = 20000;
    for (int i = 0; i < n; i++) {
        int64_t t = (int64_t)i * 30 * S; /* every 30 s: 6.9 days */
        struct xrun_event e = { .start_ns = t, .end_ns = t + 1000000 };
        assert_int_equal(event_keep_push(&k, &e, 0, NULL, NULL), 0);
    }
    assert_true(k.bucket_ns > EVENT_SUM_BUCKET_NS);
    assert_true(k.nbuckets <= EVENT_SUM_BUCKETS_MAX && k.buckets_cap <= EVENT_SUM_BUCKETS_MAX);
    /* the bucket's width times its count covers the session */
    assert_true((int64_t)k.nbuckets * k.bucket_ns > (int64_t)(n - EVENT_KEEP_LATEST - 1) * 30 * S); /* the last summarised */
    uint64_t b = 0;
    for (size_t i = 0; i < k.nbuckets; i++)
        b += k.buckets[i].events;
    assert_int_equal(b, k.summarised);
    assert_int_equal(b + k.nlatest + k.nworst, (uint64_t)n);
    assert_false(k.named);
    event_keep_free(&k);
}

/* An event whose end falls before its start is clamped to length 0, as the report always clamped it. */
static void test_clamp(void **state)
{
    (void)state;
    struct event_keep k;
    event_keep_init(&k);
    struct xrun_event e = { .start_ns = 10 * S, .end_ns = 10 * S - 300000 };
    assert_int_equal(event_keep_push(&k, &e, 0, NULL, NULL), 0);
    assert_int_equal(event_keep_newest(&k)->end_ns, 10 * S);
    assert_int_equal(event_length_ns(event_keep_newest(&k)), 0);
    assert_non_null(event_keep_seq(&k, 0));
    assert_null(event_keep_seq(&k, 1));
    event_keep_free(&k);
}

/* Through phase_stats and the report: 6,000 gaps, every one told begun and closed once, the report's list and
 * summary adding up to the count. */
struct told { int begun, closed; int64_t last_begun; int order_ok; };
static void tell(void *arg, const struct phase_stats *p, enum phase_happening what, int64_t start_ns, int64_t end_ns,
                 int cpu, int64_t cb)
{
    (void)p, (void)end_ns, (void)cpu, (void)cb;
    struct told *t = arg;
    if (what == PH_EVENT_BEGIN) {
        t->order_ok &= start_ns > t->last_begun;
        t->last_begun = start_ns;
        t->begun++;
    } else if (what == PH_EVENT) {
        t->closed++;
    }
}

static void test_phase_tells_every_event(void **state)
{
    (void)state;
    struct phase_stats p;
    struct told t = { .order_ok = 1, .last_begun = -1 };
    phase_init(&p);
    phase_set_notify(&p, tell, &t);
    const int64_t per = 1333333; /* 64 frames at 48 kHz */
    int k = 0, gaps = 6000; /* past the 4,096 listed before issue 34, after which nothing was told */
    for (int n = 0; n < gaps * 40; n++, k++) {
        if (n % 40 == 20)
            k += 2; /* two cycles never ran: a new event every 40 cycles (more than 8 clean between) */
        struct rt_record r = { .seq = (uint64_t)n, .t_entry_ns = S + k * per, .t_exit_ns = S + k * per + 10000,
                               .frame_pos = (uint64_t)k * 64, .nframes = 64, .rate_hz = 48000, .cpu = 1 };
        assert_int_equal(phase_add_cycle(&p, &r, 0, 0), 0);
    }
    phase_finish(&p);
    const struct segment *s = p.seg[0];
    assert_int_equal(s->xrun_events, gaps);
    assert_int_equal(t.begun, gaps);
    assert_int_equal(t.closed, gaps);
    assert_true(t.order_ok);
    json_t *ev = report_events_json(s, 0, NULL, 0);
    json_t *sum = report_events_summary_json(s, 0);
    assert_int_equal(json_array_size(ev), EVENT_KEEP_LATEST + EVENT_KEEP_WORST);
    /* each listed event carries its number in the segment: the last is the 6,000th, the list in order */
    assert_int_equal(json_integer_value(json_object_get(json_array_get(ev, json_array_size(ev) - 1), "n")), gaps);
    for (size_t j = 1; j < json_array_size(ev); j++)
        assert_true(json_integer_value(json_object_get(json_array_get(ev, j), "n")) >
                    json_integer_value(json_object_get(json_array_get(ev, j - 1), "n")));
    assert_int_equal(report_events_unlisted(s), gaps - EVENT_KEEP_LATEST - EVENT_KEEP_WORST);
    assert_int_equal(json_integer_value(json_object_get(sum, "total")), gaps);
    size_t i;
    json_t *b;
    long long bev = 0;
    json_array_foreach(json_object_get(sum, "per_minute"), i, b)
        bev += json_integer_value(json_object_get(b, "events"));
    assert_int_equal(bev + (long long)json_array_size(ev), gaps);
    assert_true(json_is_null(json_object_get(sum, "per_culprit"))); /* no culprits sought */
    json_decref(ev);
    json_decref(sum);
    phase_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hundred_thousand),
        cmocka_unit_test(test_hundred_thousand_shared),
        cmocka_unit_test(test_named_when_known),
        cmocka_unit_test(test_named_once_known_later),
        cmocka_unit_test(test_buckets_widen),
        cmocka_unit_test(test_clamp),
        cmocka_unit_test(test_phase_tells_every_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
