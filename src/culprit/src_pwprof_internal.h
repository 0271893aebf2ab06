/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PipeWire profiler source's state, shared by its two parts only: the connection, the profile pods and the
 * engine's side (src_pwprof.c), and the stalls each follower's rows make, turned into observations
 * (src_pwprof_stall.c). Callers use src_pwprof.h. */
#ifndef RTJ_SRC_PWPROF_INTERNAL_H
#define RTJ_SRC_PWPROF_INTERNAL_H
#include "culprit/src_pwprof.h"
#include "culprit/pwgraph.h"
#include <stdatomic.h>
#include <pthread.h>
#include <stdint.h>
#include <pipewire/pipewire.h>

#define QUEUE_MAX 256         /* observations waiting for poll (a poll every 50 ms drains them) */
#define OWN_MAX 8192          /* our node's last cycles: 44 s at 5.3 ms periods, 5.5 s at 0.67 ms */
#define NODES_MAX 64          /* followers tracked for open stalls (pw-profiler's MAX_FOLLOWERS too) */
#define STALL_SPAN_MAX_NS 1000000000LL
#define STALL_QUIET_NS 200000000LL /* an open stall with no profile for this long is closed (the graph stopped) */
#define CONNECT_TIMEOUT_S 2

enum { ST_TRIGGERED = 1, ST_AWAKE = 2, ST_FINISHED = 3 };

struct block {
    uint32_t id;
    const char *name;
    int64_t prev_signal, signal, awake, finish;
    int32_t status;
};

struct stall {                /* an open stall of one follower (the loop thread's only) */
    uint32_t id;
    char name[CULPRIT_NAME_MAX];
    int open;
    int64_t t0, t1;           /* CLOCK_MONOTONIC */
    int64_t worst_ns;         /* the longest finish - awake seen, or how long it had run unfinished */
    int finished;             /* worst_ns is a finish - awake (else a lower bound: it had not finished) */
    int cycles;               /* cycles it left unfinished */
    int64_t last_signal;
    int64_t period_ns;
    int64_t last_seen;        /* when the loop last received a profile for it */
    int64_t sig0;             /* the signal of its first unfinished cycle */
    int own;                  /* our own node's: closed into the cycle ring, never an observation */
};

struct pwprof {
    clockid_t clock;
    char own[CULPRIT_NAME_MAX];
    char where[200];
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    struct pw_proxy *profiler;
    struct spa_hook profiler_listener;
    int sync_seq, synced, gone;
    char gone_why[128];
    struct stall nodes[NODES_MAX];
    struct stall own_stall;
    pthread_mutex_t mu;       /* guards what follows: filled by the loop, drained by poll and pwprof_own_cycles */
    struct culprit_obs queue[QUEUE_MAX]; /* times on CLOCK_MONOTONIC until poll converts them */
    int qhead, qlen;
    long dropped, profiles, observations, own_over_period, short_unfinished;
    struct pwprof_cycle own_ring[OWN_MAX]; /* CLOCK_MONOTONIC */
    long own_n;               /* cycles ever stored: the ring holds the last min(own_n, OWN_MAX) */
    uint32_t own_id;
    int64_t own_max_run_ns, own_max_wake_ns;
    struct pwgraph graph;     /* every unfinished cycle of the graph (pwgraph.h): the collector's events */
    atomic_int refs;          /* the engine's and the run's (pwprof_source_hold): the last close frees */
};

/* ---- the stalls (src_pwprof_stall.c), the loop thread's only ---- */

/* Closes s: our own node's into the cycle ring, another's into one queued observation (or counted when it was
 * unfinished for less than a period). Takes p->mu itself. */
void pwprof_stall_close(struct pwprof *p, struct stall *s);
/* The open-stall slot of b's node (a free one when new), NULL when all NODES_MAX are open. */
struct stall *pwprof_stall_slot(struct pwprof *p, const struct block *b);
/* One follower's row of one profiled cycle. now: the driver's latest time in the profile; recv: when it came. */
void pwprof_stall_follower(struct pwprof *p, struct stall *s, const struct block *b, int64_t period_ns, int64_t now,
                           int64_t recv);
/* Our own node's finished cycle into the ring. */
void pwprof_stall_own_cycle(struct pwprof *p, const struct block *b, int64_t period_ns);

#endif
