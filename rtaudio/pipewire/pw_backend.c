/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The native PipeWire backend's ops (--backend pipewire, issue 33): our own node in the running PipeWire graph,
 * no pw-jack. The node itself is pwnode.c. */
#include "backend.h"
#include "rtclock.h"
#include "util/optdef.h"
#include "util/utf8.h"
#include "pipewire/pwnode.h"
#include "pipewire/pw_probe.h"
#include "pipewire/pw_size.h"
#include "pipewire/pw_session.h"
#include "jack/pw_settings.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define FIRST_CYCLE_WAIT_MS 3000 /* open waits this long for a driver to run our node */

struct pw_backend {
    struct pwn node;               /* its RT fields are locked with this state */
    struct backend_config cfg;
    char name[64];
    json_t *notes;                 /* requested settings not in force, and why: into the report's warnings */
};

#define O(f) offsetof(struct backend_config, f)
static const struct opt_def pw_params[] = {
    { "server", OPT_STR, O(server), 0, 0, "NAME", "PipeWire socket to connect to (default: pipewire-0 in "
      "XDG_RUNTIME_DIR, or PIPEWIRE_REMOTE)", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* Main thread. libpipewire is linked in: a missing server is open's business. */
static int pw_unavailable(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

/* Main thread: module-rt (client-rt.conf) raises the data thread itself, or asks rtkit when this process may not. */
static const char *pw_realtime_elsewhere(void)
{
    return "PipeWire's module-rt gives its data thread real time (itself, else through rtkit)";
}

static void note(struct pw_backend *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct pw_backend *b, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (!b->notes)
        b->notes = json_array();
    json_array_append_new(b->notes, utf8_json_string(buf));
    if (!b->cfg.quiet)
        fprintf(stderr, "rtjitter: %s\n", buf);
}

/* Main thread: connect, create our node asking for --period as its latency when given, and wait for its first
 * cycle (the quantum and rate in force). A --period or --rate the graph does not run is said, never ignored. */
static int pw_open(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len)
{
    struct pw_backend *b = priv;
    b->cfg = *cfg;
    snprintf(b->name, sizeof(b->name), "rtjitter-%d", (int)getpid());
    /* A sweep that died while it forced PipeWire's quantum (SIGKILL, a crash) left what to set back: the next start
     * does it. */
    pid_t owner = 0;
    if (pw_force_recover(cfg->quiet, &owner) > 1)
        note(b, "another rtjitter sweep (pid %d) is forcing PipeWire's quantum now: this run measures the size it set",
             (int)owner);
    int e = pwn_open(&b->node, sink, cfg->server, b->name, cfg->period_given ? cfg->period_frames : 0,
                     cfg->rate_hz, FIRST_CYCLE_WAIT_MS, err, len);
    if (e < 0)
        return e;
    unsigned q = atomic_load(&b->node.nframes), rate = atomic_load(&b->node.rate_hz);
    if (cfg->period_given && (unsigned)cfg->period_frames != q)
        note(b, "--period %d: PipeWire runs a quantum of %u frames (another node asks for less, or it is forced): "
                "measuring %u; pw-metadata -n settings 0 clock.force-quantum %d forces it for the whole graph",
             cfg->period_frames, q, q, cfg->period_frames);
    if (cfg->rate_given && (unsigned)cfg->rate_hz != rate)
        note(b, "--rate %d: the PipeWire graph runs at %u Hz, and that is what is measured "
                "(pw-metadata -n settings 0 clock.force-rate %d)", cfg->rate_hz, rate, cfg->rate_hz);
    return 0;
}

/* Main thread. */
static int pw_start(void *priv)
{
    struct pw_backend *b = priv;
    pwn_start(&b->node);
    return 0;
}

/* Any non-RT thread: atomics only. */
static void pw_status(void *priv, struct backend_status *st)
{
    struct pw_backend *b = priv;
    st->rate_hz = atomic_load(&b->node.rate_hz);
    st->period_frames = atomic_load(&b->node.nframes);
    st->xruns = 0;
    st->size_changes = atomic_load(&b->node.size_changes);
    st->dsp_load_pct = -1;
    st->lost = pwn_lost(&b->node);
    st->server_provider = "pipewire";
    st->server_name = b->node.server_name[0] ? b->node.server_name : NULL;
    st->server_pid = 0; /* not a private server's: run finds this user's pipewire by its XDG_RUNTIME_DIR */
    st->server_log = NULL;
}

/* Main thread: the provider, its server and what the figures mean, for the report's "audio" object. */
static void pw_describe(void *priv, json_t *au)
{
    struct pw_backend *b = priv;
    struct pwn *n = &b->node;
    json_object_set_new(au, "provider", json_string("pipewire"));
    json_object_set_new(au, "provider_version", utf8_json_string(n->server_version[0] ? n->server_version : NULL));
    json_object_set_new(au, "library", utf8_json_string(pwn_library_version()));
    json_object_set_new(au, "server", json_string("external"));
    json_object_set_new(au, "server_name", utf8_json_string(n->server_name[0] ? n->server_name : NULL));
    json_object_set_new(au, "driver", json_null());
    json_object_set_new(au, "device", json_null());
    json_object_set_new(au, "nperiods", json_null());
    json_object_set_new(au, "clock", json_string("CLOCK_MONOTONIC"));
    /* not asked of the server here: its threads' policy is read from /proc (run_report.c fills it in) */
    json_object_set_new(au, "server_realtime", json_null());
    json_object_set_new(au, "wakeup_measured", json_string(
        "our node's entry into its process callback minus the graph's clock.nsec (spa_io_position, written by the "
        "driver as it starts the cycle: a timer driver's scheduled time, a sound card's measured wake-up), in ns: it "
        "includes the driver's own lateness, the graph's hand-over to us and our data thread's wake-up (pw-profiler's "
        "awake - signal for our node is only the last two); deadlines from the driver's clock.next_nsec"));
    unsigned node_id = atomic_load(&n->node_id);
    json_object_set_new(au, "pipewire", json_pack("{s:I, s:I, s:o, s:I, s:I, s:I, s:I, s:s}",
        "quantum", (json_int_t)atomic_load(&n->nframes), "rate", (json_int_t)atomic_load(&n->rate_hz),
        "node_id", node_id ? json_integer((json_int_t)node_id - 1) : json_null(),
        "driver_clock_id", (json_int_t)atomic_load(&n->driver_id),
        "cycles_seen", (json_int_t)atomic_load(&n->cycles_seen),
        "cycles_without_position", (json_int_t)atomic_load(&n->no_position),
        "start_after_entry", (json_int_t)atomic_load(&n->start_after_entry),
        "xruns", "not told to a node: PipeWire 0.3.65's clock (spa_io_clock) carries no xrun count; cycles the "
                 "graph ran without us show as frame-position gaps, and every node's unfinished cycle is read from "
                 "PipeWire's profiler (audio.pipewire_graph)"));
    if (b->notes)
        json_object_set_new(au, "notes", b->notes); /* handed over: describe is called once, after stop */
    b->notes = NULL;
}

/* Main thread. Safe twice and after a failed open. */
static int pw_stop(void *priv)
{
    struct pw_backend *b = priv;
    pwn_close(&b->node);
    return 0;
}

const struct backend_ops backend_pipewire = {
    .name = "pipewire",
    .summary = "a node of the running PipeWire graph, natively (no pw-jack): wake-up from the graph's own clock",
    .params = pw_params,
    .private_size = sizeof(struct pw_backend),
    .unavailable = pw_unavailable,
    .realtime_elsewhere = pw_realtime_elsewhere,
    .server_answers = pwp_server_answers,
    .server_size = pws_server_size, /* the settings metadata: a forced quantum, or the default while none runs */
    .session = &pipewire_session,   /* pw_session.c: a sweep forces PipeWire's quantum per size, set back after */
    .open = pw_open,
    .start = pw_start,
    .status = pw_status,
    .describe = pw_describe,
    .stop = pw_stop,
};
