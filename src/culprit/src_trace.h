/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source (culprit_engine.h struct culprit_source): with privileges (root, or a tracefs the user may
 * write), a private tracefs instance records the scheduler, interrupt, softirq and workqueue tracepoints on the
 * measurement clock, and the source reads them as they come (the instance's binary rings, trace_raw.h, or its
 * trace_pipe text where they cannot be read; never blocking) into a
 * stream (trace_stream.h): what each CPU was doing, and the audio threads' waits. When the engine explains a
 * happening, the waits that overlap it are accounted by who held the CPU, one class each (trace_class.h): the
 * culprit is who held most of the wait, in measured time. Nothing is frozen and nothing is read twice; what came
 * too late or was lost is "not known", counted in the summary. A slice of each explained wait's CPU (its segments,
 * one a line) is kept for the report.
 *
 * Wiring (the lead's part):
 *     struct culprit_source src;
 *     if (trace_source_open(NULL, clock, &src, err, sizeof(err)) == 0) {
 *         trace_source_ignore_tid(&src, audio_tid);          // an audio thread: its waits are explained
 *         struct trace_slices *sl = trace_source_slices(&src); // a reference that outlives the source
 *         culprit_engine_add_source(engine, &src);
 *         ... run ...; culprit_engine_stop(engine);            // closes the source: the instance is removed
 *         trace_slices_save(sl, report_dir, err, sizeof(err)); // trace-NN-cpuC.txt beside the report
 *         trace_slices_unref(sl);
 *     } else culprit_engine_source_unavailable(engine, "tracefs", err);
 * All of it runs in normal-priority threads (the engine's sampler calls poll and explain; never the RT thread). */
#ifndef RTJ_SRC_TRACE_H
#define RTJ_SRC_TRACE_H
#include "culprit/culprit_engine.h"
#include "util/noise_class.h"
#include <time.h>

/* Per CPU: the ring the kernel writes between two reads of the pipe (the sampler's poll reads it every
 * TRACE_DRAIN_NS or more, every fourth tick at 20 Hz and every tick of watch's quiet 4 Hz, and every explanation
 * first reads what it holds; ~14,000 events a second
 * a CPU under load fill ~1 MB of it in a second, 27,000 on a machine busy with tests in half a second: what does not
 * fit is counted by the kernel and shown as lost_events). */
#define TRACE_BUFFER_KB 1024
#define TRACE_DRAIN_NS 180000000LL
#define TRACE_SEG_BUDGET_WATCH (1u << 19) /* watch's segments (trace_source_segments): 16,384 a CPU on 2 CPUs, ~1.1 s
                                          * of a CPU at 14,000 events a second, where watch with the trace explains a
                                          * happening within ~0.3 s of its end (engine.c: it samples at quiet_hz);
                                          * half a MiB less for a watch left on for hours (issue 34: 4 MiB) */
#define TRACE_SLICES_MAX 16      /* the last slices kept (each at most TRACE_SLICE_MAX bytes) */
#define TRACE_SLICE_MAX (16 * 1024)
#define TRACE_PIPE_READ_MAX (32u << 20) /* the most read from the pipe in one call (the rest: the next call) */

/* Opens the source: finds (or, as root, mounts) tracefs at tracefs_root (NULL: find it), removes stale instances
 * of dead rtjitter processes, makes instances/rtjitter-PID with trace_clock matching clock (CLOCK_MONOTONIC:
 * mono, CLOCK_MONOTONIC_RAW: mono_raw), the events, a bounded buffer, and starts tracing. 0, or a negative errno
 * with one line in err (then nothing is left changed). */
int trace_source_open(const char *tracefs_root, clockid_t clock, struct culprit_source *out, char *err,
                      size_t errlen);
/* An audio thread (ours first, then the server's real-time threads): its waits are what is explained, its own
 * time is never a culprit. Up to 8. */
void trace_source_ignore_tid(struct culprit_source *src, int tid);
/* The audio server's real-time thread: its waits count for a happening on any CPU (ours: on the happening's). */
void trace_source_server_tid(struct culprit_source *src, int tid);
/* The slowest enabled idle state's exit latency (0: the CPUs have no idle states and halt), when known. */
void trace_source_idle_exit(struct culprit_source *src, int64_t ns);
/* The primary sleeps on its own timer, due at each cycle's start (ts_set_own_timer). */
void trace_source_own_timer(struct culprit_source *src, int on);
/* The audio period: a server's wait that ended just before a happening is its (ts_set_period). */
void trace_source_period(struct culprit_source *src, int64_t period_ns);
/* The kernel's tick (1 s / CONFIG_HZ), when known: a busy CPU with no event for longer is not running. */
void trace_source_tick(struct culprit_source *src, int64_t tick_ns);
/* The stream's segment budget in bytes (TS_SEG_BUDGET unless set; watch: TRACE_SEG_BUDGET_WATCH), before the source is
 * first polled. */
void trace_source_segments(struct culprit_source *src, size_t bytes);

/* Who held cpu over [t0_ns, t1_ns] by the trace (the noise probe's gaps, issue 38; util/noise_class.h): drains the
 * pipe, accounts the span (ts_account_span: the followed threads, the probe's own among them, are no holder) and
 * classes its main holder (tid: the probe thread of that CPU, never a holder). Thread-safe against the engine's sampler (the source's lock): any normal-priority
 * thread, while the source is open. Returns as noise_trace_fn. */
int trace_source_span(const struct culprit_source *src, int cpu, int tid, int64_t t0_ns, int64_t t1_ns,
                      struct noise_trace_answer *out);

/* The slices of trace the source keeps: a reference counted object, so that it outlives the source (the engine
 * closes the source at stop; the report's directory is known after). */
struct trace_slices;
struct trace_slices *trace_source_slices(struct culprit_source *src);
/* Writes each slice kept as DIR/trace-NN-cpuC.txt (created, never replacing a file); returns how many, or a
 * negative errno with why in err. The slices' file names are in the source's summary. */
int trace_slices_save(struct trace_slices *s, const char *dir, char *err, size_t errlen);
void trace_slices_unref(struct trace_slices *s);

#endif
