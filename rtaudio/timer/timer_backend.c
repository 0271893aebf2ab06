/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timer backend's ops: the CPU list, the threads (timer_loop.c) and the relay (timer_relay.c). The run holds
 * /dev/cpu_dma_latency at 0 while it runs, as cyclictest does (dma_latency_default; src/run/dma_hold.h). See
 * timer.h. */
#include "timer/timer.h"
#include "cpulist.h"
#include "rt_thread.h"
#include "util/optdef.h"
#include "rtclock.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK_BYTES (256 * 1024) /* mlockall(MCL_FUTURE) would lock a default 8 MiB stack per thread */
/* The grid starts this long after timer_start: every thread is created, pinned and on its stack before its first
 * deadline. Without it a thread that came up later than two periods after the origin (one CPU's thread created
 * after the other's, on a busy machine) counted the deadlines of its own start-up as skipped periods. */

#define O(f) offsetof(struct backend_config, f)
static const struct opt_def timer_params[] = {
    { "cpus", OPT_STR, O(cpus), 0, 0, "LIST", "CPUs to measure on, one pinned thread each, such as 0-3,6 "
      "(default: every CPU this process may run on)", NULL, 0 },
    { "interval", OPT_INT, O(interval_us), 20, 1000000, "US", "period in µs, as cyclictest -i (default: "
      "--period frames at --rate)", NULL, 0 },
    { "priority", OPT_INT, O(priority), 1, 98, "N", "real-time priority of the threads, SCHED_FIFO (default 70)",
      NULL, 'P' },
    { "no-dma-latency", OPT_FLAG, O(no_dma_latency), 0, 0, "", "do not hold /dev/cpu_dma_latency at 0 while "
      "measuring (held by default here, as cyclictest does; other backends hold it with --dma-latency)", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* Main thread: clock_nanosleep is always there. */
static int timer_unavailable(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

/* Main thread: the grid, the CPUs, one sink and ring per thread when there are several. */
int timer_open(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len)
{
    struct timer_backend *b = priv;
    b->cfg = *cfg;
    b->sink = sink;
    sink->clock = CLOCK_MONOTONIC; /* cyclictest's default clock (-c 0) */
    if (cfg->interval_us > 0) {
        b->nframes = (uint32_t)cfg->interval_us; /* a frame clock of 1 MHz: one frame per µs */
        b->rate_hz = 1000000;
    } else {
        b->nframes = (uint32_t)cfg->period_frames;
        b->rate_hz = (uint32_t)cfg->rate_hz;
    }
    if (b->nframes == 0 || b->rate_hz == 0) {
        snprintf(err, len, "the timer needs a period: --interval US, or --period and --rate");
        return -EINVAL;
    }
    /* Default: the CPUs this process may run on (`taskset -c 1-3 rtjitter ...` keeps CPU 0 out). A list may name
     * any online CPU: `taskset -c 0 rtjitter run --cpus 1` keeps rtjitter's other threads off the measured CPU,
     * as cyclictest's main thread stays where it was started while -a pins the measuring threads. */
    cpu_set_t set;
    int e = cpulist_select(cfg->cpus, &set, err, len);
    if (e < 0)
        return e;
    if (CPU_COUNT(&set) > RTREC_MAX_STREAMS) {
        snprintf(err, len, "--cpus: at most %d CPUs at a time (this machine offers %d: give a list)",
                 RTREC_MAX_STREAMS, CPU_COUNT(&set));
        return -EINVAL;
    }
    cpulist_text(&set, b->cpus_text, sizeof(b->cpus_text));
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) {
            struct timer_stream *ts = &b->streams[b->nstreams++];
            ts->b = b;
            ts->cpu = c;
            ts->sink = sink;
        }
    if (b->nstreams == 1)
        return 0;

    /* Several threads: each its own sink and ring (half a second of its records), merged by the relay. */
    double per_s = (double)b->rate_hz / b->nframes;
    size_t cap = 1024;
    while ((double)cap < per_s / 2 && cap < (1u << 16))
        cap <<= 1;
    b->batch_cap = cap;
    b->batch = calloc((size_t)b->nstreams * cap, sizeof(*b->batch));
    if (!b->batch) {
        snprintf(err, len, "out of memory for %d timer threads", b->nstreams);
        return -ENOMEM;
    }
    if (sink->lost_by_tag && sink->ntags) {
        size_t n = (size_t)(b->nstreams + 1) * sink->ntags;
        if (!(b->lost = calloc(n, sizeof(*b->lost)))) {
            snprintf(err, len, "out of memory for %d timer threads", b->nstreams);
            return -ENOMEM;
        }
        (void)mlock(b->lost, n * sizeof(*b->lost)); /* the RT threads write it */
    }
    for (int i = 0; i < b->nstreams; i++) {
        struct timer_stream *ts = &b->streams[i];
        int e = rt_ring_init(&ts->own_ring, cap);
        if (e < 0) {
            snprintf(err, len, "out of memory for %d timer threads", b->nstreams);
            return e;
        }
        ts->own_sink.ring = &ts->own_ring;
        ts->own_sink.clock = CLOCK_MONOTONIC;
        ts->own_sink.phase_tag = sink->phase_tag;
        ts->own_sink.stream = (uint16_t)i;
        ts->own_sink.dsp = sink->dsp; /* the run's DSP request, calibration and (ramping) share */
        if (b->lost) {
            ts->own_sink.lost_by_tag = b->lost + (size_t)i * sink->ntags;
            ts->own_sink.ntags = sink->ntags;
        }
        ts->own_sink.meter = sink->meter; /* and its CPU-time meter: each thread claims its own slot */
        ts->sink = &ts->own_sink;
    }
    return 0;
}

/* Main thread: one thread, pinned to its CPU from birth, SCHED_FIFO at --priority; without the right to
 * real-time scheduling, the same thread at the policy it inherits (the report then says so). */
static int spawn_stream(struct timer_stream *ts, int priority)
{
    int e = rt_thread_start(&ts->thread, STACK_BYTES, priority, ts->cpu, ts->b->body ? ts->b->body : timer_thread, ts,
                            &ts->fifo);
    if (e == 0)
        ts->started = 1;
    return e;
}

int timer_stop(void *priv);

/* Main thread: starts the threads; the last of them to run sets the grid's origin (timer_loop.c), so that a main
 * thread the busy machine delays between the two (it is not real-time) never makes the threads start behind
 * their first deadlines: a skipped period no stall of the CPU made (seen beside stress-ng with a 50 ms allowance
 * taken here before the threads were created). */
int timer_start(void *priv)
{
    struct timer_backend *b = priv;
    /* The grid's phase is wherever now falls, as cyclictest's (without -A): one fixed phase, such as whole
     * milliseconds, would meet or miss the scheduler tick's timer every time (measured here: at whole
     * milliseconds of CLOCK_MONOTONIC, p50 2-7 us above the same run half a millisecond later). */
    atomic_store(&b->t0_ns, 0);
    atomic_store(&b->ready, 0);
    for (int i = 0; i < b->nstreams; i++) {
        int e = spawn_stream(&b->streams[i], b->cfg.priority);
        if (e < 0) {
            timer_stop(b);
            return e;
        }
    }
    if (b->nstreams > 1) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, STACK_BYTES);
        int e = pthread_create(&b->relay, &attr, timer_relay_thread, b);
        pthread_attr_destroy(&attr);
        if (e == 0)
            pthread_setname_np(b->relay, "rtj-relay");
        if (e) {
            timer_stop(b);
            return -e;
        }
        b->relay_started = 1;
    }
    return 0;
}

/* Any non-RT thread. */
void timer_status(void *priv, struct backend_status *st)
{
    struct timer_backend *b = priv;
    st->rate_hz = b->rate_hz;
    st->period_frames = b->nframes;
    st->xruns = 0; /* no provider tells of xruns here: late periods are frame gaps (detected, skipped_cycles) */
    st->size_changes = 0;
    st->dsp_load_pct = -1;
    st->lost = NULL;
}

static const char *policy_name(int pol)
{
    return pol == SCHED_FIFO ? "SCHED_FIFO" : pol == SCHED_RR ? "SCHED_RR" : pol == SCHED_OTHER ? "SCHED_OTHER"
                                                                                               : "other";
}

/* Main thread: the grid, the CPUs with what each thread got, the skipped periods and the DMA latency. */
void timer_describe(void *priv, json_t *au)
{
    struct timer_backend *b = priv;
    json_object_set_new(au, "provider", json_string("timer"));
    json_object_set_new(au, "provider_version", json_null());
    json_object_set_new(au, "server", json_null());
    json_object_set_new(au, "server_name", json_null());
    json_object_set_new(au, "driver", json_string("clock_nanosleep(TIMER_ABSTIME)"));
    json_object_set_new(au, "device", json_null());
    json_object_set_new(au, "nperiods", json_null());
    json_object_set_new(au, "clock", json_string("CLOCK_MONOTONIC"));
    json_object_set_new(au, "wakeup_method", json_string("entry minus the clock_nanosleep deadline, in ns "
                                                         "(cyclictest's latency, which it truncates to µs)"));
    json_object_set_new(au, "interval_us", json_real((double)timer_frames_ns(b->nframes, b->rate_hz) / 1000.0));
    json_object_set_new(au, "frame_clock", json_string(b->cfg.interval_us > 0 ? "1 frame = 1 µs (--interval)"
                                                                              : "--rate frames per second"));
    json_object_set_new(au, "cpus", json_string(b->cpus_text));
    json_t *threads = json_array();
    uint64_t skipped = 0;
    for (int i = 0; i < b->nstreams; i++) {
        struct timer_stream *ts = &b->streams[i];
        int known = atomic_load(&ts->sink->sched_known);
        uint64_t sk = atomic_load(&ts->skipped);
        skipped += sk;
        json_array_append_new(threads, json_pack("{s:i, s:I, s:I, s:o, s:o}", "cpu", ts->cpu,
            "cycles", (json_int_t)atomic_load(&ts->sink->cycles), "skipped_periods", (json_int_t)sk,
            "sched_policy", known ? json_string(policy_name(atomic_load(&ts->sink->sched_policy))) : json_null(),
            "priority", known ? json_integer(atomic_load(&ts->sink->sched_priority)) : json_null()));
    }
    json_object_set_new(au, "threads", threads);
    json_object_set_new(au, "skipped_periods", json_integer((json_int_t)skipped));
}

/* Main thread: the threads leave at their next wake-up (at most one period), the relay drains what is left.
 * Safe twice and after a failed open. */
int timer_stop(void *priv)
{
    struct timer_backend *b = priv;
    atomic_store_explicit(&b->stop, 1, memory_order_release);
    for (int i = 0; i < b->nstreams; i++)
        if (b->streams[i].started) {
            pthread_join(b->streams[i].thread, NULL);
            b->streams[i].started = 0;
        }
    if (b->relay_started) {
        atomic_store_explicit(&b->relay_stop, 1, memory_order_release);
        pthread_join(b->relay, NULL);
        b->relay_started = 0;
        timer_relay_drain(b); /* what the threads pushed after the relay's last look */
    }
    for (int i = 0; i < b->nstreams; i++) {
        rt_ring_free(&b->streams[i].own_ring);
        b->streams[i].own_sink.lost_by_tag = NULL;
    }
    free(b->batch);
    b->batch = NULL;
    free(b->lost);
    b->lost = NULL;
    return 0;
}

const struct backend_ops backend_timer = {
    .name = "timer",
    .summary = "the kernel's timers alone, as cyclictest: a SCHED_FIFO thread per CPU, no audio device",
    .params = timer_params,
    .private_size = sizeof(struct timer_backend),
    .dma_latency_default = 1,
    .unavailable = timer_unavailable,
    .open = timer_open,
    .start = timer_start,
    .status = timer_status,
    .describe = timer_describe,
    .stop = timer_stop,
    .session = NULL, /* none: each run of a sweep opens it anew at the size asked ("direct") */
};
