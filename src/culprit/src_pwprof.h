/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit source that reads PipeWire's profiler (module-profiler, the Profiler interface pw-top and pw-profiler
 * read) through libpipewire: per driver cycle, each node's signal, awake and finish times, its status, and the
 * quantum. A follower other than ours that ran longer than the period (finish - awake), or was still unfinished a
 * period after its wake (or trigger) when the cycle was profiled, gives one CK_CLIENT observation per stall ("another JACK client did not finish: NAME (finish -
 * awake 20.3 ms of a 5.3 ms period)"). Our own node's cycles are kept too: its finish - awake includes any
 * preemption, so it tells nothing alone; with the audio thread's run delay over the same cycle (schedstat, the
 * engine's) a DSP overrun (ran long) is told from a preempted node (waited long). Not a pw-profiler child (it writes
 * ~3 MB/s to files in its directory).
 *
 * Threads: libpipewire's own loop (pw_thread_loop, normal priority, never real time) receives the profiles and
 * fills bounded, mutex-protected queues; poll() only drains them. PipeWire times with CLOCK_MONOTONIC: every time
 * given out is converted to the engine's clock with an offset measured at each poll. */
#ifndef RTJ_SRC_PWPROF_H
#define RTJ_SRC_PWPROF_H
#include "culprit/culprit_engine.h"
#include <stddef.h>
#include <time.h>

/* Connects to the PipeWire daemon the environment names (PIPEWIRE_REMOTE, else pipewire-0 in PIPEWIRE_RUNTIME_DIR or
 * XDG_RUNTIME_DIR: as pw-jack's clients do) and binds its Profiler. own_name: our node's name (our JACK client's
 * name under pw-jack), NULL when none. -1 with one line in err when there is no PipeWire ("no PipeWire at ...") or
 * no profiler ("... has no profiler: module-profiler is not loaded"). */
int pwprof_source_open(clockid_t clock, const char *own_name, struct culprit_source *out, char *err, size_t errlen);

/* One cycle of our own node, on the engine's clock. */
struct pwprof_cycle {
    int64_t signal_ns, awake_ns, finish_ns; /* triggered, woke, finished */
    int64_t period_ns;                      /* the quantum's duration */
    int status;                             /* 3: finished within its cycle, finish_ns profiled; 2: it ran over
                                             * into the next cycles, whose finish PipeWire never profiles:
                                             * finish_ns is its next wake (just after it returned) */
};
/* Our node's cycles that started in [t0_ns, t1_ns] (the last few thousand are kept), oldest first; how many, or
 * -1 when src is not an open PipeWire profiler source. The engine's thread may call it beside poll. */
int pwprof_own_cycles(const struct culprit_source *src, int64_t t0_ns, int64_t t1_ns, struct pwprof_cycle *out,
                      int max);

/* The graph's disturbances (pwgraph.h: every node's unfinished cycle, the driver's xrun count), for the collector's
 * events: up to max, oldest first, on the engine's clock (src was opened with it); *known_ns: every cycle that
 * started before it was profiled (0: none yet). Any non-RT thread. src must be an open PipeWire profiler source. */
struct pwgraph_dist;
int pwprof_graph_take(const struct culprit_source *src, struct pwgraph_dist *out, int max, int64_t *known_ns);
/* pwgraph_summary of src's graph (a new reference). */
json_t *pwprof_graph_summary(const struct culprit_source *src);
/* One more holder of src: each holder calls src->close once; the last one closes it. */
void pwprof_source_hold(const struct culprit_source *src);

#endif
