/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test provider: drives the same sink, ring, collector and phase statistics as a real backend, from a real
 * SCHED_FIFO timer thread (SCHED_OTHER when not permitted), with truths injected and known by construction:
 * wake-up delays, threads that wake whole periods late (the provider then skips cycles, as a JACK server does),
 * dropped records (a small ring drained late), frame-clock jumps back and forward, catch-up duplicates.
 *
 * usage: testprov SCENARIO [CYCLES]   — prints one JSON object: what the statistics say ("got") and the truth
 * ("truth"), for tests/integration/truth_provider.sh to compare. SCENARIO: delays, late, drops, jumps, dups,
 * drift+, drift- (no cycle start given: the grid), rephase (a JACK-like provider: its start known to whole frames
 * only, and a schedule re-anchored more than a period later after each injected overrun, as jack2's dummy driver
 * does, while the frame clock goes on by one period per cycle).
 *
 * The truth never comes from the estimator: wake-up truth is (entry - the ideal start the provider scheduled),
 * sorted exactly; event counts are what the provider injected; lost records are the provider's own count of the
 * pushes it saw the ring refuse (its drop counter read around each push), by part: warm-up or measured, and where
 * (in a gap from the warm-up, after the last record that got through). */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "report/report.h"
#include "stats/grid.h"
#include "rtclock.h"
#include "rt_sink.h"
#include "run/collector.h"

#define RATE 48000
#define FRAMES 64
#define PERIOD_NS ((int64_t)FRAMES * 1000000000LL / RATE)
#define WARMUP 750 /* cycles: 1 s */

/* rtjitter-report(5)'s definition of one xrun event (MEASUREMENT): what follows a disturbance before this many
 * clean cycles. */
#define EVENT_CLEAN 8

struct prov {
    const char *scenario;
    int cycles;
    struct rt_ring ring;
    struct rt_sink sink;
    atomic_uint tag;
    int64_t *truth_wake;    /* per emitted record, entry - ideal start of the cycle whose work was due */
    int ntruth;
    int late_events;        /* events of cycles that woke at least a period late (gaps), whose record and the one
                             * before it were both delivered (a lost record hides a gap: that is records_lost's
                             * job); gaps fewer than EVENT_CLEAN clean cycles apart are one event */
    long delivered_measured, last_gap_at; /* measured records delivered so far; that count at the last gap */
    int skipped;            /* cycles the provider skipped in those gaps */
    int jumps, dups;
    int rephases;           /* schedules re-anchored (rephase) */
    int64_t prev_entry, period_min; /* the shortest period between consecutive real cycles' entries */
    int lost_measuring;     /* measured records the ring dropped */
    int lost_warmup;        /* warm-up records the ring dropped */
    int lost_across;        /* measured records lost in a gap that began in the warm-up (no record between) */
    int lost_at_end;        /* measured records lost after the last record that got through (no gap shows them) */
    atomic_uint_fast64_t lost_by_tag[2]; /* the sink's counters (warm-up, measuring): what the product reads */
    atomic_int done;
};

static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void sleep_until(int64_t t)
{
    struct timespec ts = { (time_t)(t / 1000000000LL), (long)(t % 1000000000LL) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
}

/* RT-safe in the measured part (clock reads, integer work, rt_sink_cycle); the truth array is preallocated. */
static void *provider_thread(void *arg)
{
    struct prov *p = arg;
    struct sched_param sp = { .sched_priority = 70 };
    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    int64_t t0 = rt_now_ns(CLOCK_MONOTONIC) + 20 * PERIOD_NS;
    int64_t frame_offset = 0;
    int64_t prev_start = 0;
    int have_prev = 0, prev_delivered = 0, prev_measuring = 0;
    int64_t prev_exit = 0;
    int gap_from_warmup = 0, tail = 0; /* lost records: a gap began in the warm-up; lost since the last through */
    int drift = !strcmp(p->scenario, "drift+") ? 100 : !strcmp(p->scenario, "drift-") ? -100 : 0;
    int rephase = !strcmp(p->scenario, "rephase");
    /* The provider's frame clock against the system clock: one period lasts PERIOD_NS * (1 + ppm / 1e6). */
    double period = (double)PERIOD_NS * (1.0 + drift / 1e6);
    for (int64_t k = 0; k < p->cycles;) {
        int64_t ideal = t0 + (int64_t)((double)k * period);
        int64_t delay = 0;
        int64_t drv = 0; /* rephase: the driver's own wake-up lateness (its start), before the client's */
        /* overruns in the measured part, and one in the warm-up (a load starting): the measured part must not
         * start on the grid from before it */
        int overrun = rephase && ((k > WARMUP && k % 700 == 0) || k == WARMUP - 50);
        if (rephase) {
            drv = (int64_t)(-log(1.0 - uniform() * 0.999) * 10000.0);
            delay = drv + (int64_t)(-log(1.0 - uniform() * 0.999) * 50000.0);
            if (delay > PERIOD_NS / 2)
                delay = PERIOD_NS / 2;
            if (drv > delay)
                drv = delay;
            if (overrun) { /* something before us in the graph stalled: this cycle ends late, by a little or by
                            * more than a period; the schedule re-anchors by that much (see below) */
                static const int64_t over[5] = { 60000, PERIOD_NS * 6 / 5, 250000, 500000, PERIOD_NS * 4 / 5 };
                delay += k < WARMUP ? 250000 : over[(k / 700) % 5];
            }
        } else if (!strcmp(p->scenario, "delays") || drift) {
            /* every cycle: exponential delay, mean 60 µs, capped below a period */
            delay = (int64_t)(-log(1.0 - uniform() * 0.999) * 60000.0);
            if (delay > PERIOD_NS / 2)
                delay = PERIOD_NS / 2;
        } else if (!strcmp(p->scenario, "late") && k > WARMUP && k % 500 == 0) {
            delay = (k / 500) % 2 ? PERIOD_NS * 3 / 2 : PERIOD_NS * 3; /* 1.5 and 3 periods late */
        }
        sleep_until(ideal + delay);
        struct rt_record r;
        memset(&r, 0, sizeof(r));
        r.t_entry_ns = rt_now_ns(CLOCK_MONOTONIC);
        /* The provider's own cycle: the one current at entry (a server skips what its client missed). */
        int64_t cur = rephase ? k : (int64_t)((double)(r.t_entry_ns - t0) / period);
        if (cur < k)
            cur = k;
        int late = cur > k;
        int64_t start = t0 + (int64_t)((double)cur * period);
        if (!strcmp(p->scenario, "jumps") && p->jumps < 2 && k >= WARMUP + 1000 * (p->jumps + 1)) {
            frame_offset += p->jumps == 0 ? -(int64_t)RATE * 100 : (int64_t)RATE * 3600; /* back 100 s, on 1 h */
            p->jumps++;
        }
        r.frame_pos = (uint64_t)(cur * FRAMES + frame_offset);
        r.nframes = FRAMES;
        r.rate_hz = RATE;
        r.start_ns = drift ? 0 : start;
        r.flags = drift ? 0 : RTREC_HAS_START; /* drift: no start given, the statistics fit the grid */
        if (rephase) {
            /* JACK's view: the driver's start seen through jack_frames_since_cycle_start, whole frames floored,
             * taken at the middle of its frame */
            int64_t fns = 1000000000LL / RATE, since = (r.t_entry_ns - (start + drv)) / fns;
            r.start_ns = r.t_entry_ns - since * fns - fns / 2;
            r.flags = RTREC_HAS_START | RTREC_START_COARSE;
        }
        /* The first WARMUP cycles are a warm-up, as in a run: not measured (the grid is fitted on them). */
        int measuring = k >= WARMUP;
        atomic_store(&p->tag, measuring ? 1u : 0u);
        /* Truth: lateness against the cycle whose work was due first (the one after the previous cycle), when
         * the previous cycle is one of this phase's measured ones that got through and had ended by then (it
         * slept through that deadline); else against the start of the cycle it runs for (DESIGN.md's wake-up:
         * no predecessor to keep a lateness from, or one that overran into this cycle's deadline). */
        int pred = have_prev && prev_measuring == measuring && prev_delivered;
        int64_t first_due = prev_start + (int64_t)period;
        int64_t due = pred && cur > k && first_due >= prev_exit ? first_due : start;
        if (measuring && p->ntruth < p->cycles * 2)
            p->truth_wake[p->ntruth++] = r.t_entry_ns - due;
        uint64_t d0 = rt_ring_dropped(&p->ring);
        rt_sink_cycle(&p->sink, &r, start + PERIOD_NS);
        prev_exit = r.t_exit_ns; /* the sink's own exit stamp (a clock read) */
        int delivered = rt_ring_dropped(&p->ring) == d0;
        /* Where each lost record stands, by construction: the provider saw its own push fail. */
        if (delivered) {
            gap_from_warmup = 0;
            tail = 0;
        } else if (measuring) {
            p->lost_measuring++;
            p->lost_across += gap_from_warmup;
            tail++;
        } else {
            p->lost_warmup++;
            gap_from_warmup = 1;
        }
        p->lost_at_end = tail;
        /* A gap can be seen only when this record and the one before it both reached the collector. One event is a
         * gap and those that follow it before EVENT_CLEAN cycles ran clean (rtjitter-report(5): xrun events): cycles
         * as the collector counts them, the measured records that reached it. */
        if (measuring && delivered)
            p->delivered_measured++;
        if (late && delivered && prev_delivered && measuring && k > WARMUP) {
            if (!p->last_gap_at || p->delivered_measured > p->last_gap_at + EVENT_CLEAN)
                p->late_events++;
            p->last_gap_at = p->delivered_measured;
            p->skipped += (int)(cur - k);
        }
        /* Truth of the shortest period: between consecutive measured records of real cycles (duplicates are not
         * cycles), on the provider's own entry times. */
        if (measuring && delivered && prev_delivered && p->prev_entry && r.t_entry_ns - p->prev_entry < p->period_min)
            p->period_min = r.t_entry_ns - p->prev_entry;
        p->prev_entry = r.t_entry_ns;
        prev_delivered = delivered;
        if (!strcmp(p->scenario, "dups") && k % 700 == 699) {
            /* a catch-up duplicate: the same frame time again, a few µs later */
            struct rt_record d = r;
            d.t_entry_ns = rt_now_ns(CLOCK_MONOTONIC);
            d.flags = RTREC_HAS_START;
            rt_sink_cycle(&p->sink, &d, start + PERIOD_NS);
            prev_exit = d.t_exit_ns; /* a duplicate's exit is the one the next deadline is measured from */
            p->dups += measuring;
        }
        prev_start = start;
        prev_measuring = measuring;
        have_prev = 1;
        k = cur + 1;
        if (overrun && !atomic_load(&p->done)) {
            /* jack2's dummy driver finds its next wake-up already past and re-anchors: the next cycle starts a
             * period after now, while the frame clock goes on by one period */
            int64_t now = rt_now_ns(CLOCK_MONOTONIC);
            t0 = now + PERIOD_NS - (int64_t)((double)k * period);
            p->rephases += k > WARMUP; /* the measured part's; the warm-up's is not counted in a phase */
        }
    }
    atomic_store(&p->done, 1);
    return NULL;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double q_us(const int64_t *v, int n, double q)
{
    if (n == 0)
        return NAN;
    int i = (int)ceil(q * n) - 1;
    if (i < 0)
        i = 0;
    return (double)v[i] / 1000.0;
}

int main(int argc, char **argv)
{
    struct prov p;
    memset(&p, 0, sizeof(p));
    p.period_min = INT64_MAX;
    p.scenario = argc > 1 ? argv[1] : "delays";
    p.cycles = (argc > 2 ? atoi(argv[2]) : 3000) + WARMUP;
    int drops = !strcmp(p.scenario, "drops");
    if (rt_ring_init(&p.ring, drops ? 64 : 1u << 14) < 0)
        return 1;
    p.truth_wake = calloc((size_t)p.cycles * 2, sizeof(int64_t));
    atomic_init(&p.tag, 1); /* phase 0, measuring */
    p.sink.ring = &p.ring;
    p.sink.clock = CLOCK_MONOTONIC;
    p.sink.phase_tag = &p.tag;
    p.sink.lost_by_tag = p.lost_by_tag;
    p.sink.ntags = 2;
    struct phase_stats ps;
    phase_init(&ps);
    struct collector c;
    memset(&c, 0, sizeof(c));
    c.ring = &p.ring;
    c.phases = &ps;
    c.nphases = 1;
    c.lost_by_tag = p.lost_by_tag;
    c.ntags = 2;
    pthread_t t;
    pthread_create(&t, NULL, provider_thread, &p);
    /* The collector side, drained from here: every 20 ms, or every 300 ms in the drops scenario (a 64-record ring
     * then overflows: records are lost, cycles are not). The drops scenario loses records at both edges of the
     * measured part, on purpose, where no sequence gap between two measured records shows them: a slow drain
     * begins 200 cycles before the warm-up ends (a gap from the warm-up into the measured part), and the last 750
     * cycles (1 s) are not drained until the provider has stopped (records lost after the last one that got
     * through). A second, not the 200 cycles it was: a drain the machine delayed past its check by more than 200
     * less 64 cycles (180 ms) emptied the ring so near the end that the last records got through (CI, 7 tests at
     * once on 2 CPUs: "0 after the last record through"). */
    while (!atomic_load(&p.done)) {
        int slow = drops && atomic_load(&p.sink.cycles) + 200 > WARMUP;
        struct timespec nap = { 0, (slow ? 300 : 20) * 1000000L };
        nanosleep(&nap, NULL);
        if (drops && atomic_load(&p.sink.cycles) + WARMUP >= (uint64_t)p.cycles)
            continue; /* no more drains: 750 records or more after the last one, in a ring of 64 */
        collector_drain(&c);
    }
    pthread_join(t, NULL);
    collector_drain(&c);
    collector_settle_lost(&c); /* the producer has stopped: the phase's own count of its lost records */
    phase_finish(&ps);

    /* How far the best case moved over the run: the grid's zero is the earliest cycle of its window (GRID_K
     * blocks of half a second: src/stats/grid.h), which a busy machine lifts in some windows more than in others,
     * so what the grid measures and the truth less its one minimum differ by up to that much in any figure, the
     * spread (p99 - p50) too. From the true lateness of each measured cycle, in order: the lowest of each block,
     * the lowest of the last GRID_K blocks at each block, and the range of that over the run. */
    double level_range_us = NAN;
    {
        int64_t blk = (1000000000LL / PERIOD_NS) / 2;
        if (blk < 16)
            blk = 16;
        int64_t nb = p.ntruth / blk, lo = INT64_MAX, hi = INT64_MIN;
        int64_t *bmin = nb > 0 ? calloc((size_t)nb, sizeof(*bmin)) : NULL;
        for (int64_t b = 0; bmin && b < nb; b++) {
            bmin[b] = INT64_MAX;
            for (int64_t i = b * blk; i < (b + 1) * blk; i++)
                if (p.truth_wake[i] < bmin[b])
                    bmin[b] = p.truth_wake[i];
            int64_t lvl = INT64_MAX;
            for (int64_t j = b >= GRID_K - 1 ? b - (GRID_K - 1) : 0; j <= b; j++)
                if (bmin[j] < lvl)
                    lvl = bmin[j];
            lo = lvl < lo ? lvl : lo;
            hi = lvl > hi ? lvl : hi;
        }
        if (bmin)
            level_range_us = (double)(hi - lo) / 1000.0;
        free(bmin);
    }
    qsort(p.truth_wake, (size_t)p.ntruth, sizeof(int64_t), cmp64);
    const struct segment *s = ps.nseg ? ps.seg[0] : NULL;
    json_t *got = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:f, s:f, s:f}",
        "cycles", (json_int_t)(s ? s->cycles : 0),
        "events", (json_int_t)(s ? s->xrun_events : 0),
        "detected", (json_int_t)(s ? s->xruns_detected : 0),
        "skipped_cycles", (json_int_t)(s ? s->skipped_cycles : 0),
        "records_lost", (json_int_t)(s ? s->records_lost : 0),
        "discontinuities", (json_int_t)(s ? s->discontinuities : 0),
        "duplicates", (json_int_t)(s ? s->duplicates : 0),
        "cycles_due", (json_int_t)(s ? s->cycles_due : 0),
        "deadlines_missed", (json_int_t)(s ? s->cycles_due - s->deadlines_met : 0),
        "wakeup_us", s ? report_metric_json(&s->m[M_WAKEUP]) : json_null(),
        "period_us", s ? report_metric_json(&s->m[M_PERIOD]) : json_null(),
        "wakeup_p50_us", s ? (double)metric_quantile(&s->m[M_WAKEUP], 0.5) / 1000.0 : NAN,
        "wakeup_p99_us", s ? (double)metric_quantile(&s->m[M_WAKEUP], 0.99) / 1000.0 : NAN,
        "wakeup_max_us", s ? (double)s->m[M_WAKEUP].max / 1000.0 : NAN);
    json_object_set_new(got, "wakeup_min_us", json_real(s ? (double)s->m[M_WAKEUP].min / 1000.0 : NAN));
    json_object_set_new(got, "wake_grid", json_integer(s ? (json_int_t)s->wake_grid : 0));
    json_object_set_new(got, "rephases", json_integer(s ? (json_int_t)s->rephases : 0));
    json_object_set_new(got, "wake_coarse", json_integer(s ? (json_int_t)s->wake_coarse : 0));
    /* the phase's `dropped` as a run reports it (src/run/run.c): the sink's count of its measured tag */
    json_object_set_new(got, "dropped", json_integer((json_int_t)atomic_load(&p.lost_by_tag[1])));
    json_t *truth = json_pack("{s:i, s:i, s:i, s:i, s:I, s:I, s:f, s:f, s:f}",
        "records", p.ntruth, "late_events", p.late_events, "skipped", p.skipped,
        "jumps_and_dups", p.jumps + p.dups, "ring_dropped", (json_int_t)p.lost_measuring,
        "records_made", (json_int_t)atomic_load(&p.sink.cycles),
        "wakeup_p50_us", q_us(p.truth_wake, p.ntruth, 0.5), "wakeup_p99_us", q_us(p.truth_wake, p.ntruth, 0.99),
        "wakeup_max_us", p.ntruth ? (double)p.truth_wake[p.ntruth - 1] / 1000.0 : NAN);
    /* The grid measures lateness beyond the earliest cycles: the truth of that is the truth less its minimum. */
    json_object_set_new(truth, "wakeup_min_us", json_real(p.ntruth ? (double)p.truth_wake[0] / 1000.0 : NAN));
    json_object_set_new(truth, "level_range_us", json_real(level_range_us));
    json_object_set_new(truth, "rephases", json_integer(p.rephases));
    json_object_set_new(truth, "lost_warmup", json_integer(p.lost_warmup));
    json_object_set_new(truth, "lost_across", json_integer(p.lost_across));
    json_object_set_new(truth, "lost_at_end", json_integer(p.lost_at_end));
    json_object_set_new(truth, "period_min_us", json_real(p.period_min == INT64_MAX ? NAN : (double)p.period_min / 1000.0));
    json_t *out = json_pack("{s:s, s:o, s:o, s:i, s:i}", "scenario", p.scenario, "got", got, "truth", truth,
                            "jumps", p.jumps, "dups", p.dups);
    json_dumpf(out, stdout, JSON_INDENT(1));
    putchar('\n');
    json_decref(out);
    phase_free(&ps);
    rt_ring_free(&p.ring);
    free(p.truth_wake);
    return 0;
}
