/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The native PipeWire node (pwnode.h): a pw_filter in the graph, its process callback in libpipewire's data thread.
 * Every time it records is the graph's own (spa_io_position's clock, written by the driver at the start of the cycle)
 * or our reading of CLOCK_MONOTONIC, the clock PipeWire stamps clock.nsec on: no derived cycle times. */
#include "pipewire/pwnode.h"
#include "rtclock.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <pipewire/filter.h>
#include <spa/node/io.h>

#define INFO_WAIT_MS 2000 /* the server's answer to our connection */

/* RT-safe (runs in the RT thread): see pwnode.h. */
void pwn_process(void *data, struct spa_io_position *pos)
{
    struct pwn *n = data;
    int64_t entry_ns = rt_now_ns(CLOCK_MONOTONIC);
    atomic_fetch_add_explicit(&n->cycles_seen, 1, memory_order_relaxed);
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.t_entry_ns = entry_ns;
    uint32_t q = atomic_load_explicit(&n->nframes, memory_order_relaxed);
    uint32_t rate = atomic_load_explicit(&n->rate_hz, memory_order_relaxed);
    if (pos && pos->clock.duration > 0 && pos->clock.rate.denom > 0 && pos->clock.rate.num == 1) {
        /* The quantum and rate of this very cycle: a forced quantum is seen on the cycle it happens. */
        uint32_t nq = (uint32_t)pos->clock.duration, nrate = pos->clock.rate.denom;
        if ((q && q != nq) || (rate && rate != nrate))
            atomic_fetch_add_explicit(&n->size_changes, 1, memory_order_relaxed);
        q = nq;
        rate = nrate;
        atomic_store_explicit(&n->nframes, q, memory_order_relaxed);
        atomic_store_explicit(&n->rate_hz, rate, memory_order_relaxed);
        atomic_store_explicit(&n->driver_id, pos->clock.id, memory_order_relaxed);
        r.frame_pos = pos->clock.position;
        int64_t start_ns = (int64_t)pos->clock.nsec;
        if (start_ns > 0 && start_ns <= entry_ns) {
            r.flags = RTREC_HAS_START;
            r.start_ns = start_ns;
        } else if (start_ns > entry_ns) {
            atomic_fetch_add_explicit(&n->start_after_entry, 1, memory_order_relaxed);
        }
    } else {
        atomic_fetch_add_explicit(&n->no_position, 1, memory_order_relaxed);
    }
    if (!atomic_load_explicit(&n->started, memory_order_acquire) || q == 0 || rate == 0)
        return;
    r.nframes = q;
    r.rate_hz = rate;
    int64_t period_ns = (int64_t)q * 1000000000LL / rate;
    int64_t deadline_ns = (r.flags & RTREC_HAS_START ? r.start_ns : entry_ns) + period_ns;
    if (pos && pos->clock.next_nsec > pos->clock.nsec && r.flags & RTREC_HAS_START)
        deadline_ns = (int64_t)pos->clock.next_nsec; /* the driver's own estimate of its next cycle */
    /* Silence out, as a well-behaved client does; the input is only there so that others can feed us. */
    float *out = n->out_port ? pw_filter_get_dsp_buffer(n->out_port, q) : NULL;
    if (out)
        memset(out, 0, (size_t)q * sizeof(float));
    rt_sink_cycle(n->sink, &r, deadline_ns);
}

/* The loop thread: what the server says of itself (its version, its name). */
static void on_core_info(void *data, const struct pw_core_info *info)
{
    struct pwn *n = data;
    snprintf(n->server_version, sizeof(n->server_version), "%s", info->version ? info->version : "");
    snprintf(n->server_name, sizeof(n->server_name), "%s", info->name ? info->name : "");
    atomic_store(&n->info_done, 1);
    pw_thread_loop_signal(n->loop, false);
}

static void set_lost(struct pwn *n, const char *why, const char *detail)
{
    if (atomic_load(&n->lost))
        return;
    snprintf(n->lost_why, sizeof(n->lost_why), "%s%s%s", why, detail && detail[0] ? ": " : "",
             detail ? detail : "");
    atomic_store_explicit(&n->lost, 1, memory_order_release);
    pw_thread_loop_signal(n->loop, false);
}

/* The loop thread: an error of the connection itself (EPIPE: the server went away) ends the run. */
static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
    (void)seq;
    struct pwn *n = data;
    if (id == PW_ID_CORE)
        set_lost(n, res == -EPIPE ? "the PipeWire server went away" : "the PipeWire server closed our connection",
                 message);
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .info = on_core_info,
    .error = on_core_error,
};

/* The loop thread: our node's state. Once it streamed, leaving that state (destroyed, an error) ends the run. */
static void on_state_changed(void *data, enum pw_filter_state old, enum pw_filter_state state, const char *error)
{
    (void)old;
    struct pwn *n = data;
    if (state == PW_FILTER_STATE_ERROR)
        set_lost(n, "our PipeWire node failed", error);
    else if (state == PW_FILTER_STATE_UNCONNECTED && atomic_load(&n->node_id) != 0)
        set_lost(n, "our PipeWire node was removed from the graph", error);
    if (n->filter && pw_filter_get_node_id(n->filter) != SPA_ID_INVALID)
        atomic_store(&n->node_id, pw_filter_get_node_id(n->filter) + 1);
    pw_thread_loop_signal(n->loop, false);
}

static const struct pw_filter_events filter_events = {
    PW_VERSION_FILTER_EVENTS,
    .state_changed = on_state_changed,
    .process = pwn_process,
};

const char *pwn_library_version(void)
{
    return pw_get_library_version();
}

/* Main thread: wait until cond(n) or ms passed, without the loop's lock (the loop thread signals us, and the data
 * thread's first cycle is polled). */
static int wait_for(struct pwn *n, int (*cond)(struct pwn *), int ms)
{
    for (int waited = 0; waited < ms; waited += 10) {
        if (cond(n) || atomic_load(&n->lost))
            return cond(n);
        mono_nap_ms(10);
    }
    return cond(n);
}

static int have_info(struct pwn *n) { return atomic_load(&n->info_done); }
static int have_cycle(struct pwn *n) { return atomic_load(&n->cycles_seen) > 0 && atomic_load(&n->nframes) > 0; }

static struct pw_properties *port_props(const char *name)
{
    return pw_properties_new(PW_KEY_FORMAT_DSP, "32 bit float mono audio", PW_KEY_PORT_NAME, name, NULL);
}

int pwn_open(struct pwn *n, struct rt_sink *sink, const char *remote, const char *name, int latency_frames,
             int rate_hz, int wait_ms, char *err, size_t len)
{
    n->sink = sink;
    sink->clock = CLOCK_MONOTONIC; /* PipeWire's clock.nsec is on it */
    sink->xruns = NULL;            /* the installed spa_io_clock has no xrun count (0.3.65) */
    pw_init(NULL, NULL);
    n->loop = pw_thread_loop_new("rtjitter-pw", NULL);
    /* client-rt.conf loads module-rt: the data thread, where our process callback runs, gets real time. */
    n->context = n->loop ? pw_context_new(pw_thread_loop_get_loop(n->loop),
                                          pw_properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0) : NULL;
    if (!n->context || pw_thread_loop_start(n->loop) < 0) {
        snprintf(err, len, "cannot start libpipewire's loop");
        return -EIO;
    }
    pw_thread_loop_lock(n->loop);
    struct pw_properties *cp = remote ? pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL) : NULL;
    n->core = pw_context_connect(n->context, cp, 0);
    if (n->core)
        pw_core_add_listener(n->core, &n->core_listener, &core_events, n);
    pw_thread_loop_unlock(n->loop);
    if (!n->core) {
        const char *rt = getenv("XDG_RUNTIME_DIR");
        snprintf(err, len, "no PipeWire server is running at %s/%s: start PipeWire first, or name its socket "
                 "with --server", rt ? rt : "(XDG_RUNTIME_DIR unset)", remote ? remote : "pipewire-0");
        return -ENOENT;
    }
    if (!wait_for(n, have_info, INFO_WAIT_MS)) {
        snprintf(err, len, "the PipeWire server does not answer within %d s%s%s", INFO_WAIT_MS / 1000,
                 n->lost_why[0] ? ": " : "", n->lost_why);
        return -ETIMEDOUT;
    }
    char latency[48];
    snprintf(latency, sizeof(latency), "%d/%d", latency_frames, rate_hz > 0 ? rate_hz : 48000);
    pw_thread_loop_lock(n->loop);
    n->filter = pw_filter_new(n->core, name, pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Audio", PW_KEY_MEDIA_CATEGORY, "Duplex", PW_KEY_MEDIA_ROLE, "DSP",
        PW_KEY_NODE_NAME, name, PW_KEY_NODE_DESCRIPTION, name, /* its JACK name too: NAME:in, NAME:out */
        PW_KEY_NODE_ALWAYS_PROCESS, "true", /* scheduled unlinked, as a JACK client is */
        PW_KEY_NODE_WANT_DRIVER, "true",    /* a follower of the graph's driver */
        latency_frames > 0 ? PW_KEY_NODE_LATENCY : NULL, latency, NULL));
    int e = -EIO;
    if (n->filter) {
        pw_filter_add_listener(n->filter, &n->filter_listener, &filter_events, n);
        void *in = pw_filter_add_port(n->filter, PW_DIRECTION_INPUT, PW_FILTER_PORT_FLAG_MAP_BUFFERS, 0,
                                      port_props("in"), NULL, 0);
        n->out_port = pw_filter_add_port(n->filter, PW_DIRECTION_OUTPUT, PW_FILTER_PORT_FLAG_MAP_BUFFERS, 0,
                                         port_props("out"), NULL, 0);
        if (in && n->out_port)
            e = pw_filter_connect(n->filter, PW_FILTER_FLAG_RT_PROCESS, NULL, 0);
    }
    pw_thread_loop_unlock(n->loop);
    if (e < 0) {
        snprintf(err, len, "PipeWire refused our node: %s", strerror(-e));
        return e;
    }
    if (!wait_for(n, have_cycle, wait_ms)) {
        if (atomic_load(&n->lost))
            snprintf(err, len, "%s", n->lost_why);
        else
            snprintf(err, len, "no driver of the PipeWire graph ran our node within %d s (no sink, no dummy driver: "
                     "pw-top shows the drivers)", wait_ms / 1000);
        return atomic_load(&n->lost) ? -EPIPE : -ETIMEDOUT;
    }
    return 0;
}

void pwn_start(struct pwn *n)
{
    atomic_store_explicit(&n->started, 1, memory_order_release);
}

const char *pwn_lost(struct pwn *n)
{
    return atomic_load_explicit(&n->lost, memory_order_acquire) ? n->lost_why : NULL;
}

void pwn_close(struct pwn *n)
{
    if (!n->loop)
        return;
    atomic_store(&n->started, 0);
    pw_thread_loop_lock(n->loop);
    atomic_store(&n->node_id, 0); /* a state change from here on is ours, not a loss */
    if (n->filter)
        pw_filter_destroy(n->filter);
    if (n->core)
        pw_core_disconnect(n->core);
    n->filter = NULL;
    n->core = NULL;
    pw_thread_loop_unlock(n->loop);
    pw_thread_loop_stop(n->loop);
    if (n->context)
        pw_context_destroy(n->context);
    pw_thread_loop_destroy(n->loop);
    n->context = NULL;
    n->loop = NULL;
}
