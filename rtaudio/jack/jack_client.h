/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JACK backend's client: a process callback that measures every cycle. jack_backend.c wraps it (and the
 * private server) in the backend ops. Fields under "RT thread" are touched by the process callback; everything it
 * touches is allocated, zeroed and locked (it lives in the backend's private state) before activation. */
#ifndef RTJ_JACK_CLIENT_H
#define RTJ_JACK_CLIENT_H
#include "util/xrun_notes.h"
#include <jack/jack.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include "ring.h"
#include "rt_sink.h"

struct rtj_jack {
    jack_client_t *client;
    jack_port_t *in, *out;

    /* --- RT thread (process, xrun, buffer-size, sample-rate and shutdown callbacks) --- */
    struct rt_sink *sink;            /* ring, clock (the one jack_get_time() follows), phase tag, DSP units */
    uint64_t frame_pos;              /* jack_last_frame_time() widened to 64 bits: RT thread only */
    uint32_t last_frame_time;
    int have_frame_time;
    atomic_uint nframes;             /* written by the buffer-size callback */
    atomic_uint rate_hz;             /* written by the sample-rate callback */
    atomic_uint_fast64_t xruns;      /* server xrun notifications; written by the xrun callback only */
    struct xrun_notes xrun_notes;    /* and when they came, on the sink's clock (util/xrun_notes.h) */
    atomic_uint_fast64_t size_changes; /* buffer-size callbacks after the first */
    atomic_int shutdown;             /* the server went away */
    int loopback;                    /* play the reference signal (loopsig) and push the input into sink->cap */
    int cycle_times_exact;           /* set before activation: jack_get_cycle_times() gives the driver's own
                                      * cycle start (PipeWire's JACK on CLOCK_MONOTONIC in µs), not a DLL's */

    /* --- non-RT: what the report says about the server --- */
    char provider[32];               /* "jack2" or "pipewire-jack" */
    char library[256];               /* path of the libjack in use */
    char version[64];                /* jack_get_version_string() */
    char server_name[128];
    char clock_name[32];             /* "CLOCK_MONOTONIC_RAW" / "CLOCK_MONOTONIC" */
    char time_unit[4];               /* "us" or "ns" */
    int64_t clock_offset_ns;         /* |median (measurement clock - JACK clock)|, ns: ~0 when they are one clock */
    int64_t clock_offsets_ns[2];     /* the same against CLOCK_MONOTONIC_RAW and CLOCK_MONOTONIC */
    int clock_ambiguous;             /* both match (MONOTONIC == RAW), or neither within 50 ms */
    int realtime_server;             /* jack_is_realtime() */
    /* jack2 delivers xrun notifications on its client's notification thread, a SCHED_OTHER thread: beside stress-ng
     * (load 21) 2 of 8 cells of tests/experiments/stall_events.sh had an event of one lone notification that no
     * observer saw, none once that thread ran SCHED_FIFO 1. The graph-order callback, which jack2 calls on that
     * thread as the client activates, raises it the first time: above every ordinary task, below every real-time
     * one. Refused (no real-time rights: the run measures then only with --allow-no-rt), it stays as it was. */
    atomic_int notify_tid;           /* that thread's TID, once seen: it is raised once */
};

/* Non-RT. Opens a client named `client_name` on server `server_name` (NULL: the default), never starting a
 * server. Finds the JACK clock, registers ports and callbacks. Returns 0 or -errno; err gets one line. */
int rtj_jack_open(struct rtj_jack *j, const char *server_name, const char *client_name,
                  struct rt_sink *sink, char *err, size_t errlen);
int rtj_jack_activate(struct rtj_jack *j);
void rtj_jack_close(struct rtj_jack *j);
/* Non-RT: can a client reach server `name` (NULL: default)? Waits on the server without a deadline (libjack's
 * open and close read its socket): a stopped or hung server blocks it for good. */
int rtj_jack_server_running(const char *name);
/* Non-RT: rtj_jack_server_running with a deadline: 1 or 0 as it answers, or -ETIMEDOUT when it has not within
 * deadline_ms (a stopped or hung server); the call is then left behind in a detached thread of its own, which ends
 * when the server does (or the process). */
int rtj_jack_server_answers(const char *name, int deadline_ms);
/* Non-RT: rtj_jack_server_answers, and when it answers (1) the rate and buffer size it runs at (each pointer may be
 * NULL): the backend's server_size op (a ladder's depths run at the size of the server at its top). */
int rtj_jack_server_size(const char *name, int deadline_ms, int *rate_hz, int *period_frames);
/* Non-RT: which libjack is in use: "jack2" or "pipewire-jack"; path into lib. */
const char *rtj_jack_provider(char *lib, size_t liblen);

#endif
