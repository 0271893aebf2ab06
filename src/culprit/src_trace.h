/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source (culprit_engine.h struct culprit_source): with privileges (root, or a tracefs the user may
 * write), a private tracefs instance records the scheduler, interrupt, softirq and idle tracepoints on the
 * measurement clock; when the engine explains a happening, the source marks the trace (trace_marker), freezes it
 * (tracing_on=0: this kernel, like many, has no per-instance snapshot), reads the CPU's trace, resumes it, and
 * rebuilds an rtla-style breakdown of the window (tracefs_parse.h): each interrupt line, softirq type, thread and
 * exit from idle that took the CPU, as observed culprits ("IRQ 145 (iwlwifi) ran 1.2 ms on CPU 2 in the 5.0 ms
 * window (trace)"). The lines of each window are kept as a slice, saved beside the report by the caller.
 *
 * Wiring (the lead's part):
 *     struct culprit_source src;
 *     if (trace_source_open(NULL, clock, &src, err, sizeof(err)) == 0) {
 *         trace_source_ignore_tid(&src, audio_tid);          // its own time is not a culprit
 *         struct trace_slices *sl = trace_source_slices(&src); // a reference that outlives the source
 *         culprit_engine_add_source(engine, &src);
 *         ... run ...; culprit_engine_stop(engine);            // closes the source: the instance is removed
 *         trace_slices_save(sl, report_dir, err, sizeof(err)); // trace-NN-cpuC.txt beside the report
 *         trace_slices_unref(sl);
 *     } else culprit_engine_source_unavailable(engine, "tracefs", err);
 * All of it runs in normal-priority threads (the engine's sampler calls explain; never the RT thread). */
#ifndef RTJ_SRC_TRACE_H
#define RTJ_SRC_TRACE_H
#include "culprit/culprit_engine.h"
#include <time.h>

/* Per CPU. A full 2 MB buffer held 2 s of these events on this busy 2-CPU machine and read as 8 MB of text in
 * 0.43 s; 1 MB halves both, and still holds the ~0.1 s between a happening and its explain many times over. */
#define TRACE_BUFFER_KB 1024
#define TRACE_SLICES_MAX 16      /* the last slices kept (each at most TRACE_SLICE_MAX bytes) */
#define TRACE_SLICE_MAX (256 * 1024)
#define TRACE_READ_MAX (64u << 20) /* the most of one CPU's trace text read at a freeze */
#define TRACE_READ_GAP_NS 1000000000LL /* at most one read (freeze and dump) a second: between, counters only */

/* Opens the source: finds (or, as root, mounts) tracefs at tracefs_root (NULL: find it), removes stale instances
 * of dead rtjitter processes, makes instances/rtjitter-PID with trace_clock matching clock (CLOCK_MONOTONIC:
 * mono, CLOCK_MONOTONIC_RAW: mono_raw), the events, a bounded buffer, and starts tracing. 0, or a negative errno
 * with one line in err (then nothing is left changed). */
int trace_source_open(const char *tracefs_root, clockid_t clock, struct culprit_source *out, char *err,
                      size_t errlen);
/* A thread whose running time is ours (the audio thread): counted apart, never named a culprit. Up to 8. */
void trace_source_ignore_tid(struct culprit_source *src, int tid);

/* The slices of trace the source keeps: a reference counted object, so that it outlives the source (the engine
 * closes the source at stop; the report's directory is known after). */
struct trace_slices;
struct trace_slices *trace_source_slices(struct culprit_source *src);
/* Writes each slice kept as DIR/trace-NN-cpuC.txt (created, never replacing a file); returns how many, or a
 * negative errno with why in err. The slices' file names are in the source's summary. */
int trace_slices_save(struct trace_slices *s, const char *dir, char *err, size_t errlen);
void trace_slices_unref(struct trace_slices *s);

#endif
