/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The native PipeWire backend's node (issue 33): a pw_filter with one audio input and one audio output port, a
 * follower of the graph's driver (node.want-driver, node.always-process), whose process callback runs in
 * libpipewire's data thread (PW_FILTER_FLAG_RT_PROCESS: real time through module-rt) and reads the graph's own
 * clock (spa_io_position) each cycle. Its pw_thread_loop (not real time) carries everything else: the connection,
 * the node's state, the server's errors. pw_backend.c is the ops table. */
#ifndef RTJ_PWNODE_H
#define RTJ_PWNODE_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <spa/utils/hook.h>
#include "rt_sink.h"

struct pw_thread_loop;
struct pw_context;
struct pw_core;
struct pw_filter;
struct spa_io_position;

struct pwn {
    /* Set by pwn_open, read by the RT thread. */
    struct rt_sink *sink;
    void *out_port;                   /* our output port's data (pw_filter_add_port) */
    atomic_int started;               /* start was called: cycles become records (before it, only the sizes) */
    /* Written by the RT thread only. */
    atomic_uint rate_hz, nframes;     /* of the last cycle: the graph's clock.rate and clock.duration */
    atomic_uint_fast64_t size_changes; /* quantum or rate changes after the first cycle */
    atomic_uint_fast64_t cycles_seen; /* every process call, before start too */
    atomic_uint_fast64_t no_position; /* cycles without the graph's position: no record's start is known */
    atomic_uint_fast64_t start_after_entry; /* clock.nsec later than our entry (never seen; counted, no start) */
    atomic_uint driver_id;            /* the driver's clock.id of the last cycle */
    /* The loop thread's. */
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct pw_filter *filter;
    struct spa_hook core_listener, filter_listener;
    atomic_int lost;                  /* 0, else lost_why is set: the server or our node went away */
    char lost_why[160];
    atomic_int info_done;             /* the core's info arrived */
    char server_version[64], server_name[64];
    atomic_uint node_id;              /* our node's id in the graph (0xffffffff until bound) */
};

/* Main thread: connect to the PipeWire server (remote NULL: the default one, else its name such as pipewire-0) and
 * create our node, asking for latency_frames/rate_hz when latency_frames > 0 (node.latency: the graph runs the
 * smallest quantum its nodes ask unless one is forced). Waits up to wait_ms for the node's first cycle, which gives
 * the quantum and rate in force. 0, or -ENOENT when no PipeWire answers (bad input: exit 2), -ETIMEDOUT when no
 * driver runs our node, other -errno; one line in err. Safe to pwn_close after a failure. */
int pwn_open(struct pwn *n, struct rt_sink *sink, const char *remote, const char *name, int latency_frames,
             int rate_hz, int wait_ms, char *err, size_t len);
/* Main thread: cycles become records from the next one on. */
void pwn_start(struct pwn *n);
/* Any non-RT thread: why the node or the server is gone, or NULL. */
const char *pwn_lost(struct pwn *n);
/* Main thread: destroy the node, disconnect, stop the loop. Safe twice and after a failed open. */
void pwn_close(struct pwn *n);
/* RT-safe (runs in the RT thread): the filter's process callback (PW_FILTER_FLAG_RT_PROCESS): a clock read, reads of
 * the graph's position (shared memory the driver wrote at the cycle's start), atomic integers, our output buffer
 * cleared (pw_filter_get_dsp_buffer: libpipewire's lock-free buffer queues; skipped when out_port is NULL), one record
 * into the ring (rt_sink_cycle). Before start only the sizes are kept. Global for make bench (bench_pwcycle). */
void pwn_process(void *data, struct spa_io_position *pos);
/* The library's version (pw_get_library_version). */
const char *pwn_library_version(void);

#endif
