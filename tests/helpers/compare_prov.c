/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test provider in report form, for `rtjitter compare` (issue 8, the A/A test): drives the real sink, ring,
 * collector, phase statistics and report builder from a SCHED_FIFO timer thread (SCHED_OTHER when not permitted),
 * like tests/helpers/testprov.c, and writes a whole report (rtjitter.report/1) that compare reads like any other.
 * Every cycle's wake-up is delayed on purpose by an exponential delay (mean 40 µs, capped at a quarter period)
 * plus EXTRA_US: the change a comparison must find is known by construction. The seed makes two runs of "the same
 * set-up" differ as two real runs do (different draws, the machine's own noise on top), never identical.
 *
 * usage: compare_prov OUT.json SECONDS_PER_PHASE PHASES EXTRA_US SEED [PRIO [LABEL [TRUTH [STALLS]]]]
 *   PRIO: SCHED_FIFO, default 70; LABEL: the report's label, default "testprov" (compare takes the runs of one label
 *   and set-up found beside a report as its replicates: give an injected change a label of its own)
 *   STALLS (issue 19: a disaster to be found): stalls injected in the measured cycles, each a wake-up
 *   STALL_PERIODS periods late (a frame-clock gap: one xrun event, STALL_PERIODS cycles that never ran). "N": N a
 *   second, evenly spaced; "bN": bursts, as a busy machine gives them: each second, with probability 1/4 (drawn
 *   from the seed), a cluster of N stalls STALL_GAP cycles apart, else none. Default 0. Prints the stalls injected
 *   per phase ("stalls injected N M ..."): the truth of the xrun events beside the machine's own. TRUTH "-": none.
 * Each phase: 0.5 s warm-up, then SECONDS measured; 64 frames at 48 kHz. Prints the injected mean delay.
 *
 * TRUTH (a file name; give it no .json ending, or compare would take it for a report beside the runs): the
 * provider's own account of every measured second, kept outside the code under test. The provider knows each
 * cycle's true wake-up: its entry minus the start it slept for (the deadline of the cycle it scheduled, a skipped
 * cycle's when it woke periods late), both on the one clock it stamps entries with; when the cycle before was still
 * running at that deadline (preempted inside it: it never slept through it), the start of the cycle it runs for. It keeps those, its entries
 * and its injected delays in arrays of its own (allocated before the thread starts) and, after the run, sorts
 * each second's values itself (qsort, nearest rank: the smallest value with at least 99 % of the second's cycles
 * at or below it) and writes one tab-separated line per second:
 *   phase  second  cycles  wakeup_p99_us  wakeup_max_us  jitter_abs_p99_us  injected_p99_us  injected_jitter_p99_us
 * A second is the cycles entered in [s, s + 1) seconds after the phase's first measured entry (the report's
 * timeline seconds); |jitter| is |entry - previous entry - period x cycles advanced| (0 for a phase's first cycle,
 * which has no period in the phase, as the report counts it); injected is the delay drawn for that cycle, exponential plus EXTRA,
 * which no load on the machine can move, and injected jitter |this draw - the previous cycle's| (EXTRA cancels). */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "report/doc.h"
#include "report/report.h"
#include "rtclock.h"
#include "rt_sink.h"
#include "run/collector.h"
#include "sysinfo/sysinfo.h"

#define RATE 48000
#define FRAMES 64
#define PERIOD_NS ((int64_t)FRAMES * 1000000000LL / RATE)
#define WARMUP_CYCLES 375 /* 0.5 s */
#define MAX_PHASES 8
#define CYCLES_PER_S (RATE / FRAMES) /* 750 */
#define STALL_PERIODS 6 /* 8 ms: a stall a musician hears, and 6 missed deadlines */
#define STALL_GAP 16 /* cycles between the stalls of a cluster: more than the 8 clean cycles that end an event */

struct prov {
    int phases;
    int64_t measured_cycles; /* per phase */
    int64_t extra_ns;
    int prio;
    uint64_t rng;
    struct rt_ring ring;
    struct rt_sink sink;
    atomic_uint tag;
    double injected_sum_ns;
    int64_t injected_n;
    atomic_int done;
    int stall_n, stall_bursty;         /* STALLS above */
    int64_t stalls[MAX_PHASES];        /* stalls injected per phase */
    /* the provider's own truth, one entry per measured cycle it ran, per phase (see TRUTH above) */
    int64_t *t_entry, *t_wake, *t_jit, *t_inj, *t_ijit;
    int64_t t_n[MAX_PHASES];
};

static double uniform(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void sleep_until(int64_t t)
{
    struct timespec ts = { (time_t)(t / 1000000000LL), (long)(t % 1000000000LL) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
}

/* RT-safe in the measured part: clock reads, integer work, rt_sink_cycle. */
static void *provider_thread(void *arg)
{
    struct prov *p = arg;
    struct sched_param sp = { .sched_priority = p->prio };
    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    int64_t per_phase = WARMUP_CYCLES + p->measured_cycles, total = per_phase * p->phases;
    int64_t t0 = rt_now_ns(CLOCK_MONOTONIC) + 20 * PERIOD_NS;
    int64_t prev_entry = 0, prev_cur = 0, prev_delay = 0, prev_exit = 0;
    int64_t cur_sec = -1, next_stall = 0, stall_step = 1, stalls_left = 0;
    for (int64_t k = 0; k < total;) {
        int phase = (int)(k / per_phase), measuring = k % per_phase >= WARMUP_CYCLES;
        atomic_store(&p->tag, ((unsigned)phase << 1) | (unsigned)measuring);
        int64_t ideal = t0 + k * PERIOD_NS;
        int64_t delay = (int64_t)(-log(1.0 - uniform(&p->rng) * 0.999) * 40000.0);
        if (delay > PERIOD_NS / 4)
            delay = PERIOD_NS / 4;
        delay += p->extra_ns;
        /* an injected stall: the next one due at or before this cycle (a cycle skipped by the machine's own stall
         * does not lose it) */
        if (measuring && p->stall_n > 0) {
            int64_t m = k % per_phase - WARMUP_CYCLES, sec = m / CYCLES_PER_S, in_s = m % CYCLES_PER_S;
            if (sec != cur_sec) { /* a new second: where its stalls fall */
                cur_sec = sec;
                int on = !p->stall_bursty || uniform(&p->rng) < 0.25;
                int64_t step = p->stall_bursty ? STALL_GAP : CYCLES_PER_S / p->stall_n;
                next_stall = on ? (p->stall_bursty ? 100 : step / 2) : CYCLES_PER_S;
                stall_step = step;
                stalls_left = on ? p->stall_n : 0;
            }
            if (stalls_left > 0 && in_s >= next_stall && in_s < CYCLES_PER_S - STALL_PERIODS - 1) {
                delay += STALL_PERIODS * PERIOD_NS + PERIOD_NS / 2;
                p->stalls[phase]++;
                stalls_left--;
                next_stall = in_s + stall_step;
            }
        }
        if (measuring) {
            p->injected_sum_ns += (double)delay;
            p->injected_n++;
        }
        sleep_until(ideal + delay);
        struct rt_record r;
        memset(&r, 0, sizeof(r));
        r.t_entry_ns = rt_now_ns(CLOCK_MONOTONIC);
        /* the provider's own cycle: the one current at entry (a server skips what its client missed) */
        int64_t cur = (r.t_entry_ns - t0) / PERIOD_NS;
        if (cur < k)
            cur = k;
        int64_t start = t0 + cur * PERIOD_NS;
        r.frame_pos = (uint64_t)(cur * FRAMES);
        r.nframes = FRAMES;
        r.rate_hz = RATE;
        r.start_ns = start;
        r.flags = RTREC_HAS_START;
        rt_sink_cycle(&p->sink, &r, start + PERIOD_NS);
        /* the cycle's exit: the instant the sink stamped in the record (a clock read, no estimate), which a
         * preemption between its stamp and one of ours here would move past the next deadline */
        int64_t exit_own = r.t_exit_ns;
        /* the truth of this cycle, in the provider's own arrays (no allocation, no call: RT-safe). Its phase and
         * measuring flag are those of the cycle it slept for (k), the tag the sink stamped on the record. */
        if (measuring && p->t_n[phase] < p->measured_cycles) {
            int first = p->t_n[phase] == 0; /* a phase's first cycle has no period in the phase: |jitter| 0 */
            int64_t i = (int64_t)phase * p->measured_cycles + p->t_n[phase]++;
            int64_t jit = !first ? r.t_entry_ns - prev_entry - PERIOD_NS * (cur - prev_cur) : 0;
            p->t_entry[i] = r.t_entry_ns;
            /* A cycle whose predecessor was still running at its deadline (preempted inside it) did not sleep
             * through that deadline: it is late from its own cycle's start, and the overrun is the predecessor's
             * (DESIGN.md's wake-up: the ideal start of the cycle it runs for). One asleep past it keeps the
             * lateness from the deadline it slept for. */
            /* A phase's first measured cycle has no predecessor in the phase to have kept a lateness from: it is
             * measured from its own cycle's start too. */
            p->t_wake[i] = r.t_entry_ns - (cur > k && (first || ideal < prev_exit) ? start : ideal);
            p->t_jit[i] = jit < 0 ? -jit : jit;
            p->t_inj[i] = delay;
            p->t_ijit[i] = !first ? (delay > prev_delay ? delay - prev_delay : prev_delay - delay) : 0;
        }
        prev_delay = delay;
        prev_entry = r.t_entry_ns;
        prev_exit = exit_own;
        prev_cur = cur;
        k = cur + 1;
    }
    atomic_store(&p->tag, (unsigned)p->phases << 1);
    atomic_store(&p->done, 1);
    return NULL;
}

static int i64cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* nearest rank: the smallest value with at least q of the n sorted values at or below it */
static int64_t nearest_rank(const int64_t *sorted, size_t n, double q)
{
    size_t r = (size_t)ceil(q * (double)n - 1e-9);
    return sorted[(r < 1 ? 1 : r > n ? n : r) - 1];
}

static int write_truth(const struct prov *p, const char *path)
{
    FILE *f = fopen(path, "wx");
    if (!f)
        return -1;
    fprintf(f, "phase\tsecond\tcycles\twakeup_p99_us\twakeup_max_us\tjitter_abs_p99_us\tinjected_p99_us\t"
               "injected_jitter_p99_us\n");
    int64_t *w = malloc((size_t)p->measured_cycles * sizeof(int64_t) * 4);
    if (!w) {
        fclose(f);
        return -1;
    }
    int64_t *j = w + p->measured_cycles, *d = j + p->measured_cycles, *dj = d + p->measured_cycles;
    for (int ph = 0; ph < p->phases; ph++) {
        const int64_t *e = p->t_entry + (size_t)ph * (size_t)p->measured_cycles;
        size_t base = (size_t)ph * (size_t)p->measured_cycles, n = (size_t)p->t_n[ph];
        for (size_t i = 0; i < n;) {
            int64_t sec = (e[i] - e[0]) / 1000000000LL;
            size_t m = 0;
            for (; i < n && (e[i] - e[0]) / 1000000000LL == sec; i++, m++) {
                w[m] = p->t_wake[base + i];
                j[m] = p->t_jit[base + i];
                d[m] = p->t_inj[base + i];
                dj[m] = p->t_ijit[base + i];
            }
            qsort(w, m, sizeof(int64_t), i64cmp);
            qsort(j, m, sizeof(int64_t), i64cmp);
            qsort(d, m, sizeof(int64_t), i64cmp);
            qsort(dj, m, sizeof(int64_t), i64cmp);
            fprintf(f, "%d\t%lld\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", ph, (long long)sec, m,
                    (double)nearest_rank(w, m, 0.99) / 1000.0, (double)w[m - 1] / 1000.0,
                    (double)nearest_rank(j, m, 0.99) / 1000.0, (double)nearest_rank(d, m, 0.99) / 1000.0,
                    (double)nearest_rank(dj, m, 0.99) / 1000.0);
        }
    }
    free(w);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 10) {
        fprintf(stderr, "usage: %s OUT.json SECONDS_PER_PHASE PHASES EXTRA_US SEED [PRIO [LABEL [TRUTH [STALLS]]]]\n",
                argv[0]);
        return 2;
    }
    struct prov p;
    memset(&p, 0, sizeof(p));
    double secs = atof(argv[2]);
    p.phases = atoi(argv[3]);
    p.extra_ns = (int64_t)(atof(argv[4]) * 1000.0);
    p.rng = 88172645463325252ULL ^ (strtoull(argv[5], NULL, 10) * 0x9e3779b97f4a7c15ULL);
    if (p.rng == 0)
        p.rng = 1;
    p.prio = argc >= 7 ? atoi(argv[6]) : 70;
    if (argc >= 10) {
        const char *st = argv[9];
        p.stall_bursty = st[0] == 'b';
        char *end;
        long n = strtol(st + p.stall_bursty, &end, 10);
        if (*end || end == st + p.stall_bursty || n < 0 || n > (p.stall_bursty ? 30 : 60)) {
            fprintf(stderr, "compare_prov: bad STALLS '%s' (N: 0-60 a second; bN: 0-30 in a cluster)\n", st);
            return 2;
        }
        p.stall_n = (int)n;
    }
    if (!(secs > 0 && secs <= 3600) || p.phases < 1 || p.phases > MAX_PHASES || p.extra_ns < 0 ||
        p.extra_ns > PERIOD_NS / 2 || p.prio < 1 || p.prio > 99) {
        fprintf(stderr, "compare_prov: bad arguments\n");
        return 2;
    }
    p.measured_cycles = (int64_t)(secs * RATE / FRAMES);
    if (rt_ring_init(&p.ring, 1u << 14) < 0)
        return 1;
    size_t tcap = (size_t)p.phases * (size_t)p.measured_cycles;
    p.t_entry = calloc(tcap, sizeof(int64_t));
    p.t_wake = calloc(tcap, sizeof(int64_t));
    p.t_jit = calloc(tcap, sizeof(int64_t));
    p.t_inj = calloc(tcap, sizeof(int64_t));
    p.t_ijit = calloc(tcap, sizeof(int64_t));
    if (!p.t_entry || !p.t_wake || !p.t_jit || !p.t_inj || !p.t_ijit)
        return 1;
    /* As rtjitter run does (run.c): every page the RT thread touches is resident before it starts (calloc hands out
     * untouched zero pages, and a first touch from the RT thread would be a page fault in a measured cycle). */
    mlockall(MCL_CURRENT | MCL_FUTURE);
    memset(p.t_entry, 0, tcap * sizeof(int64_t));
    memset(p.t_wake, 0, tcap * sizeof(int64_t));
    memset(p.t_jit, 0, tcap * sizeof(int64_t));
    memset(p.t_inj, 0, tcap * sizeof(int64_t));
    memset(p.t_ijit, 0, tcap * sizeof(int64_t));
    atomic_init(&p.tag, 0);
    p.sink.ring = &p.ring;
    p.sink.clock = CLOCK_MONOTONIC;
    p.sink.phase_tag = &p.tag;
    struct phase_stats ps[MAX_PHASES];
    struct phase_result res[MAX_PHASES];
    char names[MAX_PHASES][32];
    memset(res, 0, sizeof(res));
    for (int i = 0; i < p.phases; i++)
        phase_init(&ps[i]);
    struct collector c;
    memset(&c, 0, sizeof(c));
    c.ring = &p.ring;
    c.phases = ps;
    c.nphases = p.phases;
    struct run_info ri;
    memset(&ri, 0, sizeof(ri));
    clock_gettime(CLOCK_REALTIME, &ri.started);
    pthread_t t;
    pthread_create(&t, NULL, provider_thread, &p);
    while (!atomic_load(&p.done)) {
        struct timespec nap = { 0, 20 * 1000000L };
        nanosleep(&nap, NULL);
        collector_drain(&c);
    }
    pthread_join(t, NULL);
    collector_drain(&c);
    clock_gettime(CLOCK_REALTIME, &ri.finished);
    for (int i = 0; i < p.phases; i++) {
        phase_finish(&ps[i]);
        snprintf(names[i], sizeof(names[i]), "testprov-%d", i + 1);
        res[i].load = names[i];
        res[i].duration_s = secs;
        res[i].measured_s = secs;
        res[i].measured = 1;
        res[i].stats = &ps[i];
    }
    json_t *provider = json_pack("{s:s, s:s}", "provider", "testprov", "clock", "CLOCK_MONOTONIC");
    ri.command = "compare_prov";
    ri.label = argc >= 8 ? argv[7] : "testprov";
    ri.complete = 1;
    ri.audio.backend = "testprov";
    ri.audio.provider = provider;
    ri.audio.rate_hz = RATE;
    ri.audio.period_frames = FRAMES;
    ri.audio.realtime = 1;
    ri.audio.sched_policy = "SCHED_FIFO";
    ri.audio.priority = ri.audio.priority_requested = p.prio;
    ri.phases = res;
    ri.nphases = p.phases;
    ri.system = sysinfo_collect("");
    ri.max_xruns = -1;
    ri.max_jitter_us = -1;
    json_t *doc = report_build(&ri);
    int rc = doc && json_dump_file(doc, argv[1], JSON_COMPACT) == 0 ? 0 : 1;
    printf("injected mean delay %.3f us over %lld measured cycles\n",
           p.injected_n ? p.injected_sum_ns / (double)p.injected_n / 1000.0 : NAN, (long long)p.injected_n);
    printf("stalls injected");
    for (int i = 0; i < p.phases; i++)
        printf(" %lld", (long long)p.stalls[i]);
    printf("\n");
    if (argc >= 9 && strcmp(argv[8], "-") && write_truth(&p, argv[8]) < 0) {
        fprintf(stderr, "compare_prov: cannot write %s\n", argv[8]);
        rc = 1;
    }
    json_decref(doc);
    json_decref(provider);
    json_decref(ri.system);
    for (int i = 0; i < p.phases; i++)
        phase_free(&ps[i]);
    rt_ring_free(&p.ring);
    free(p.t_entry);
    free(p.t_wake);
    free(p.t_jit);
    free(p.t_inj);
    free(p.t_ijit);
    return rc;
}
