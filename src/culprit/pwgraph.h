/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every xrun of a PipeWire graph, by PipeWire's own accounting (issue 33 item 2): the profiler's records of each
 * driver cycle (module-profiler, as pw-top and pw-profiler read them; parsed in src_pwprof.c) turned into
 * disturbances, each naming the node that did not finish. pw-top's ERR column counts, per node, the profiled cycles
 * whose status is not finished (3), plus the driver's xrun count; here each node's unfinished cycle is one
 * disturbance at its own signal time, and a rise of the driver's count with no unfinished node in that cycle one
 * naming the driver. Never a node that waited on another: a node whose inputs did not finish is not triggered that
 * cycle, and keeps its previous cycle's finished row (seen on 0.3.65), so it is never a row of status 1 or 2.
 *
 * The collector (run/collector.c) folds the disturbances into the cycles of our own node at their times, as it does
 * with jack2's xrun notifications: one event per disturbance of the graph by the same rule (stats/phase.c).
 *
 * Threads: pwgraph_cycle on libpipewire's loop thread of the profiler source (normal priority); pwgraph_take and
 * pwgraph_summary on any other non-RT thread; a mutex between them. Nothing here runs in the RT thread. Times on
 * CLOCK_MONOTONIC (PipeWire's). */
#ifndef RTJ_PWGRAPH_H
#define RTJ_PWGRAPH_H
#include <jansson.h>
#include <pthread.h>
#include <stdint.h>

#define PWGRAPH_NAME_MAX 64
#define PWGRAPH_QUEUE 2048     /* disturbances waiting for the collector (it takes them every 50 ms) */
#define PWGRAPH_NODES 64       /* nodes whose last disturbed cycle is remembered (pw-profiler keeps 64 too) */
#define PWGRAPH_COUNTED 16     /* nodes named in the summary's counts; the others are summed as "others" */

/* One node's row of one profiled cycle, as src_pwprof.c parsed it. */
struct pwgraph_row {
    uint32_t id;
    const char *name;
    int64_t signal_ns;         /* when it was triggered (0: never) */
    int32_t status;            /* 0 not triggered, 1 triggered, 2 awake, 3 finished */
};

/* One profiled driver cycle. */
struct pwgraph_cycle {
    int64_t nsec;              /* the clock's nsec: the start of the cycle the profile was taken at */
    int64_t period_ns;
    int32_t xrun_count;        /* the driver's, -1 when the profile has none */
    struct pwgraph_row driver;
    const struct pwgraph_row *followers;
    int nfollowers;
};

struct pwgraph_dist {
    int64_t t_ns;              /* the unfinished node's signal in that cycle (the driver's: its count rose) */
    int64_t period_ns;
    char node[PWGRAPH_NAME_MAX];
};

struct pwgraph_count {
    char node[PWGRAPH_NAME_MAX];
    uint64_t cycles;
};

struct pwgraph {
    pthread_mutex_t mu;
    struct pwgraph_dist q[PWGRAPH_QUEUE];
    int qhead, qlen;
    int64_t known_ns;          /* every disturbance of a cycle that started before this is in q (or was taken) */
    struct { uint32_t id; int64_t signal_ns; } last[PWGRAPH_NODES]; /* the loop thread's: no cycle counted twice */
    int nlast, last_next;
    uint32_t drv_id;
    int32_t drv_xruns;         /* the driver's count seen last, -1 before any */
    uint64_t profiles, unfinished, driver_xruns, dropped;
    struct pwgraph_count counted[PWGRAPH_COUNTED];
    int ncounted;
    uint64_t others;
};

void pwgraph_init(struct pwgraph *g);
void pwgraph_destroy(struct pwgraph *g);
/* The profiler's loop thread: one profiled cycle. Bounded: a full queue drops the newest, counted. */
void pwgraph_cycle(struct pwgraph *g, const struct pwgraph_cycle *c);
/* Any non-RT thread: up to max disturbances, oldest first; *known_ns: the time before which every cycle was
 * profiled (0: none yet). Returns how many. */
int pwgraph_take(struct pwgraph *g, struct pwgraph_dist *out, int max, int64_t *known_ns);
/* The counts for the report: {"profiles", "unfinished_cycles", "driver_xruns", "dropped", "by_node": [{"node",
 * "cycles"}]} (node null: the nodes past the first PWGRAPH_COUNTED, summed). */
json_t *pwgraph_summary(struct pwgraph *g);

#endif
