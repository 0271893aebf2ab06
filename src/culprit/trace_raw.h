/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source's reader of the kernel's binary ring (issues 32 and 34): each CPU's per_cpu/cpuN/trace_pipe_raw
 * of our private instance, read without blocking through Debian's libtracefs (tracefs_cpu_read) and decoded by
 * libtraceevent (the events' formats, kbuffer for the sub-buffers) into the same struct tev the text parser makes
 * (tracefs_parse.h), merged across the CPUs in time order. It costs about a quarter of the text's CPU an event
 * (`make bench`'s tracebin): the kernel does not format the text inside our read.
 *
 * What text gave and binary does not is made here: the task in an event's header has only its pid (its comm is
 * taken from the sched_switch and sched_waking events that name it, else /proc/PID/comm, else "<...>" as the kernel
 * prints it); a work item's function is an address (named from /proc/kallsyms only when an explain needs it:
 * trace_raw_name_fns, trace_ksym.h); a switched-out task's state is a number (R, R+, S, D... as the kernel's format prints it).
 * Lost events: a sub-buffer read after the kernel overwrote events says so in its header, with the count where the
 * kernel had room to store it (else the CPU's stats file's overrun since the last count): fed as TEV_LOST, as the
 * text's "CPU:N [LOST M EVENTS]" line. The sampler thread only (normal priority, never the RT thread). */
#ifndef RTJ_CULPRIT_TRACE_RAW_H
#define RTJ_CULPRIT_TRACE_RAW_H
#include "culprit/tracefs.h"
#include "culprit/tracefs_parse.h"
#include <stddef.h>
#include <stdint.h>

struct trace_raw;
struct trace_stream;

/* Opens the rings of the instance t (its per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK, through its directory, no symlink
 * followed) and parses the formats of the events named ("sched/sched_switch", ...; those this reader does not know
 * are skipped when read). 0, or a negative errno with why in err: then nothing is left open (the caller reads the
 * text instead). */
int trace_raw_open(const struct tracefs *t, const char *const *events, int nevents, struct trace_raw **out, char *err,
                   size_t errlen);
/* Feeds every event the rings hold with a time up to horizon_ns (the trace clock: what was written before the
 * call; a later one waits for the next call, so that the CPUs' events go in time order) to feed (the trace source:
 * ts_feed), reading at most max_bytes. Returns the bytes read, or a negative errno when the rings cannot be read
 * (the instance is gone). */
typedef void (*trace_raw_feed_fn)(void *arg, const struct tev *ev);
long trace_raw_drain(struct trace_raw *r, trace_raw_feed_fn feed, void *arg, int64_t horizon_ns, size_t max_bytes);
/* Names the work functions fed as addresses since the last call ("0xffffffffc0a81230" in the stream's table
 * becomes "ext4_end_io_rsv_work", as the kernel's %ps prints it; ts NULL: only remembered for what follows), one
 * read of /proc/kallsyms for all of them. Returns how many were named. */
int trace_raw_name_fns(struct trace_raw *r, struct trace_stream *ts);
/* Lost events counted, in all (fed to the stream as TEV_LOST), and how many of them came from a stats file. */
void trace_raw_lost(const struct trace_raw *r, long long *lost, long long *from_stats);
void trace_raw_close(struct trace_raw *r);

#endif
