/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe (--backend noise, issue 38): depth zero, below the kernel's timers. As oslat and rtla osnoise do,
 * a thread pinned to each CPU, at the audio thread's policy and priority (SCHED_FIFO --priority), reads the clock
 * in a tight loop; every gap between two reads over --threshold is a noise event, its start and length. It shares
 * the timer backend's grid, CPUs and relay (struct timer_backend with body = noise_thread): when the clock passes a
 * deadline of the period grid the loop hands the sink a cycle whose start is that deadline, so the run's usual
 * figures (wake-up, skipped periods) come out of a loop that never sleeps, comparable with the timer's.
 *
 * Where the work is done (the RT contract, backend.h):
 * - noise_loop.c, the RT thread: clock reads and integer work only; per gap, its length into fixed per-phase
 *   totals (sum, max, a log2 histogram) and one fixed-size record into its own lock-free ring. No counter is read
 *   there: the loop pays nothing while nothing happens, and the reading of /proc is never part of a gap.
 * - noise_classify.c, a normal-priority thread (on the CPUs this process may use but the probed ones, where there
 *   are any; rtjitter's other threads are best kept off the probed CPUs too, `taskset -c 0 rtjitter run --backend
 *   noise --cpus 1`): reads the probed CPUs' counters every 10 ms (util/noise_counters.h), pops the gap records,
 *   and gives each gap the class of what changed between the last reading before its start and the first after
 *   its end (util/noise_class.h); the windows the probe ran through without a gap are the background.
 * The probe burns the CPUs it measures while it runs: bounded by --duration, never part of `watch`. */
#ifndef RTJ_NOISE_H
#define RTJ_NOISE_H
#include "timer/timer.h"
#include "util/noise_class.h"
#include <stdint.h>

#define NOISE_HBINS 24                 /* gap lengths: bin k holds [2^k, 2^(k+1)) µs, bin 0 everything under 2 µs */
#define NOISE_CPUS_MAX 32
#define NOISE_TAGS_MAX 33              /* phase tags (phase << 1 | measuring): 16 phases */
#define NOISE_EVENTS_MAX 100           /* events listed per phase: the longest; all are counted */
#define NOISE_DEFAULT_THRESHOLD_US 5
/* With the kernel trace (backend_config.noise_trace): the gaps it is asked about, their number a second (its cost
 * stays small: each question drains the trace's pipe and walks one CPU's segments), how many wait at once for the
 * trace to pass their end, and how long at most (then the counters' class stands). */
#define NOISE_TRACE_MIN_NS 20000
#define NOISE_TRACE_PER_S 200
#define NOISE_TRACE_ALWAYS_NS 1000000  /* a gap this long is asked beyond the rate (a CPU has 1,000 a second at most) */
#define NOISE_TRACE_PENDING 512
#define NOISE_TRACE_WAIT_NS 2000000000LL
#define NOISE_HOLDERS_MAX 16           /* the trace's holders named per phase tag (the others: counted) */

/* One phase tag's totals of one probe thread: written by that thread only, read after it stopped. */
struct noise_tagstat {
    int64_t spun_ns;                   /* time the loop ran in this tag */
    int64_t noise_ns;                  /* sum of its gaps */
    int64_t max_ns;                    /* its longest gap */
    uint64_t gaps;
    uint64_t hist[NOISE_HBINS];
};

/* One gap as the classifier placed it. */
struct noise_event {
    int64_t start_ns, len_ns;          /* measurement clock (CLOCK_MONOTONIC) */
    int16_t cpu;
    uint8_t cls;                       /* enum noise_class */
    int16_t line;                      /* the line named, -1 none */
    int8_t by_trace;                   /* the class is the trace's */
    int8_t holder;                     /* the trace's main holder (holders[tag] index), -1 none */
    int64_t held_ns;                   /* its time in the gap (by_trace) */
};

/* A holder the trace named as the main one of gaps (noise_trace_answer), per phase tag: written by the classifier. */
struct noise_holder {
    int kind, cls, id;                 /* enum noise_holder_kind, enum noise_class, pid / line / vector */
    char name[32];
    uint64_t gaps;
    int64_t ns;                        /* its time in them */
};

/* One phase tag's classes of one CPU: written by the classifier only, read after it stopped. */
struct noise_tagclass {
    uint64_t n[NOISE_NCLASS];
    int64_t ns[NOISE_NCLASS], max_ns[NOISE_NCLASS];
    uint64_t by_trace[NOISE_NCLASS];   /* of n, the gaps whose class the kernel trace gave */
};

struct noise_stream {
    struct rt_ring gaps;               /* gap records: t_entry_ns = the last read before the gap, t_exit_ns = the
                                        * first after it, phase = the tag; producer its probe thread */
    struct noise_tagstat tag[NOISE_TAGS_MAX];
    struct noise_tagclass cls[NOISE_TAGS_MAX];
    struct noise_bg bg;                /* the classifier's background of this CPU */
    atomic_int_fast64_t ran_ns;        /* the loop's clock read at its latest deadline: every gap that ended before
                                        * it is in the ring. Written by its probe thread (release) */
};

struct cls_state;
struct noise_probe {
    struct timer_backend tb;           /* first: the timer's ops take a struct noise_probe as their own */
    int64_t threshold_ns;
    unsigned ntags;
    char cpus_default[256];            /* the CPUs probed without --cpus: all this process may use but the first */
    struct noise_stream s[NOISE_CPUS_MAX];
    /* classifier */
    struct cls_state *cls;             /* its state (noise_classify.c), from prepare to the drain */
    const char *proc_root;             /* where /proc is read: NULL this machine's; a test's fake tree */
    pthread_t cls_thread;
    int cls_started;
    atomic_int cls_stop;
    struct noise_lines lines;
    struct noise_event events[NOISE_TAGS_MAX][NOISE_EVENTS_MAX];
    uint64_t nevents[NOISE_TAGS_MAX];  /* events seen (kept: the NOISE_EVENTS_MAX longest) */
    uint64_t line_n[NOISE_TAGS_MAX][NOISE_LINES_MAX]; /* gaps that named each line */
    uint64_t readings;                 /* counter readings taken */
    int64_t read_ns;                   /* time they took, for the report (their cost) */
    int smi_readable;
    /* the kernel trace, through the run (backend_config.noise_trace; NULL: none): written by the classifier */
    int (*trace)(void *arg, int cpu, int tid, int64_t t0_ns, int64_t t1_ns, struct noise_trace_answer *out);
    void *trace_arg;
    struct noise_holder holders[NOISE_TAGS_MAX][NOISE_HOLDERS_MAX];
    int nholders[NOISE_TAGS_MAX];
    uint64_t holders_other[NOISE_TAGS_MAX]; /* gaps whose holder found no slot */
    int trace_seen;                    /* the trace answered anything but "no trace" once (else the report says
                                        * null: the run had none, not root or --no-trace) */
    struct {                           /* the gaps of NOISE_TRACE_MIN_NS or more, by what the trace said */
        uint64_t answered, not_covered, no_trace, late, skipped;
    } tq[NOISE_TAGS_MAX];
};

/* RT thread body (noise_loop.c). arg is a struct timer_stream of the probe's tb. RT-safe (runs in the RT thread). */
void *noise_thread(void *arg);
/* Not RT-safe: the classifier thread's body (noise_classify.c), normal priority. arg is the struct noise_probe. */
void *noise_classify_thread(void *arg);
/* One pass of it: pop the gaps, read the counters, classify (the thread's loop; a test drives it directly). */
void noise_classify_pass(struct noise_probe *np);
/* Main thread, before the classifier starts: its state, and the MSR files opened (they need root). 0 or -ENOMEM. */
int noise_classify_prepare(struct noise_probe *np);
/* Main thread, after the threads and the classifier stopped: the gaps left in the rings, classified; its state
 * freed. Safe without prepare. */
void noise_classify_drain(struct noise_probe *np);

#endif
