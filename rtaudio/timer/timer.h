/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timer backend: the kernel's timers alone, as cyclictest measures them. One SCHED_FIFO thread per selected
 * CPU, pinned, sleeps with clock_nanosleep(TIMER_ABSTIME) to the next deadline of a fixed period grid; the
 * record's start is the deadline (RTREC_HAS_START), so wake-up = entry - deadline, cyclictest's latency.
 *
 * Several CPUs: each thread has its own sink and its own SPSC ring (one producer each), and a relay thread
 * (normal priority, timer_relay.c) drains them all, in time order, into the run's ring, whose only producer it
 * then is. Each thread stamps its stream index on its records, so the statistics pool every CPU's wake-ups but
 * never take a period or a margin across two threads. With one CPU the thread writes the run's sink directly.
 *
 * timer_loop.c holds the RT thread; timer_backend.c the ops and the CPU list. */
#ifndef RTJ_TIMER_H
#define RTJ_TIMER_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "backend.h"
#include "record.h"
#include "ring.h"
#include "rt_sink.h"

struct timer_backend;

struct timer_stream {
    /* --- set before the thread starts, read-only afterwards --- */
    struct timer_backend *b;
    struct rt_sink *sink;              /* the run's sink (one CPU) or own_sink (several) */
    int cpu;
    /* --- RT thread --- */
    atomic_uint_fast64_t skipped;      /* periods whose deadline had passed before the thread was ready for
                                        * them: skipped, never slept for; written by this thread only */
    /* --- own sink and ring, several CPUs only (the relay consumes own_ring) --- */
    struct rt_sink own_sink;
    struct rt_ring own_ring;
    /* --- main thread --- */
    pthread_t thread;
    int started;
    int fifo;                          /* created with SCHED_FIFO (else the policy it inherited) */
};

struct noise_probe;
struct timer_backend {
    struct backend_config cfg;
    void *(*body)(void *);             /* the RT threads' body: timer_thread, or the noise probe's noise_thread
                                        * (rtaudio/noise/: the same grid, CPUs and relay, a busy loop instead of
                                        * sleeps); set before timer_start */
    struct noise_probe *noise;         /* the noise probe's own state, NULL for the timer */
    struct rt_sink *sink;              /* the run's */
    uint32_t nframes, rate_hz;         /* the grid: nframes per period at rate_hz; with --interval, 1 frame = 1 µs */
    atomic_int_fast64_t t0_ns;         /* grid origin (CLOCK_MONOTONIC): deadline k = t0 + k periods; 0 until the
                                        * last thread to start sets it (timer_loop.c) */
    atomic_int ready;                  /* threads started so far */
    atomic_int stop;                   /* the threads leave at their next wake-up */
    int nstreams;
    struct timer_stream streams[RTREC_MAX_STREAMS];
    /* relay (several CPUs) */
    pthread_t relay;
    int relay_started;
    atomic_int relay_stop;
    struct rt_record *batch;           /* nstreams x batch_cap records, the relay's merge buffer */
    size_t batch_cap;
    uint64_t relayed;                  /* records drained from the threads' rings (relay thread only) */
    uint64_t own_dropped;              /* their drops already added to the run's ring (relay thread only) */
    atomic_uint_fast64_t *lost;        /* when the run's sink counts its lost records by tag: nstreams + 1 rows of
                                        * sink->ntags, row i stream i's own sink's (its RT thread writes it), the
                                        * last the relay's own, records the run's full ring refused. The relay,
                                        * the run's ring's only producer, adds them up into the run's sink */
    char cpus_text[256];               /* the CPUs, as a list for the report */
};

/* RT thread body (timer_loop.c). arg is a struct timer_stream. */
void *timer_thread(void *arg);
/* In the RT thread before its first cycle (timer_loop.c): the grid's origin, the same for every thread of the run;
 * 0 when the run stops first. */
int64_t timer_grid_origin(struct timer_backend *b);

/* The ops, for the noise probe that shares them (timer_backend.c): see struct backend_ops. */
int timer_open(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len);
int timer_start(void *priv);
void timer_status(void *priv, struct backend_status *st);
void timer_describe(void *priv, json_t *au);
int timer_stop(void *priv);

/* Relay thread body (timer_relay.c), and one drain of it (also called by stop, after the threads are gone). */
void *timer_relay_thread(void *arg);
void timer_relay_drain(struct timer_backend *b);

/* RT-safe (runs in the RT thread): grid arithmetic, exact in integers: ns of `frames` frames at rate_hz. */
static inline int64_t timer_frames_ns(uint64_t frames, uint32_t rate_hz)
{
    return (int64_t)(frames / rate_hz) * 1000000000LL + (int64_t)(frames % rate_hz) * 1000000000LL / rate_hz;
}

#endif
