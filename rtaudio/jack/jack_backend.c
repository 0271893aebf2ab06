/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JACK backend's ops: the running server (jack2 or PipeWire's JACK), or a private jackd that it starts
 * when none runs and stops at the end. The client itself is jack_client.c; the private server jackserver.c; a
 * sweep's session (its size changed from run to run) jack_session.c. */
#include "backend.h"
#include "rtclock.h"
#include "util/optdef.h"
#include "util/utf8.h"
#include "jack/jack_client.h"
#include "jack/jack_loopback.h"
#include "jack/jackserver.h"
#include "jack/jack_session.h"
#include "jack/pw_settings.h"
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct jack_backend {
    struct rtj_jack jack;          /* the client; its RT fields are locked with this state */
    struct private_server srv;     /* pid 0: none started */
    struct backend_config cfg;
    struct rt_sink *sink;
    atomic_int call_done;          /* the thread of call_with_deadline() returned: call_rc, call_err are set */
    int call_rc;
    char call_err[512];
    const char *call_server;
    atomic_int closing;            /* stop began: no more calls into libjack from status */
    atomic_int closed;             /* the closing thread returned from jack_client_close */
    int abandoned;                 /* the closing thread was left behind, blocked in libjack */
    json_t *notes;                 /* requested settings not in force, and why: into the report's warnings */
    json_t *pipewire;              /* PipeWire's clock settings (pw-metadata), under pw-jack */
    /* --loopback */
    struct jlb_client loop;        /* internal: the in-process loop client (loop.client NULL: none) */
    int loop_internal;
    char lb_out[320], lb_in[320];  /* OUT:IN: the ports our output and our input connect to */
    int lb_connected;
    int lb_reported_latency;       /* what JACK says OUT's playback and IN's capture latency add (frames), -1: unknown */
};

/* A quantum above this many frames is far from what a studio runs (PipeWire's default is 1024). */
#define PW_STUDIO_QUANTUM 256
#define CALL_DEADLINE_MS 5000 /* for one call that waits on the server: connecting, probing */

/* A detached thread with a small stack (mlockall(MCL_FUTURE) would lock a default 8 MiB one). */
static int spawn_detached(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int e = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return e;
}

#define O(f) offsetof(struct backend_config, f)
static const struct opt_def jack_params[] = {
    { "server", OPT_STR, O(server), 0, 0, "NAME", "JACK server to use (default: the running one, else a private "
      "dummy server)", NULL, 0 },
    { "device", OPT_STR, O(device), 0, 0, "DEV", "private server: ALSA device such as hw:0 (default: dummy driver)",
      NULL, 'd' },
    { "nperiods", OPT_INT, O(nperiods), 2, 16, "N", "private server, ALSA driver: periods per buffer (default 2)",
      NULL, 'n' },
    { "priority", OPT_INT, O(priority), 1, 98, "N", "private server: real-time priority (default 70)", NULL, 'P' },
    { "set-buffer-size", OPT_FLAG, O(set_buffer_size), 0, 0, "", "jack2: set --period on a running server (every "
      "client of that server gets the new size)", NULL, 0 },
    { "loopback", OPT_STR, O(loopback), 0, 0, "OUT:IN|internal[:N]", "play a test signal and listen to it coming "
      "back: connect our output to port OUT and port IN to our input (a cable), or through a loop client inside "
      "JACK adding N frames (default 0); finds every dropout in the audio itself and the round-trip latency",
      NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* Main thread: PipeWire's JACK gives its clients' threads real time itself (through rtkit). */
static const char *jack_realtime_elsewhere(void)
{
    return strcmp(rtj_jack_provider(NULL, 0), "pipewire-jack") == 0
               ? "PipeWire's JACK gives its clients real time itself (rtkit)" : NULL;
}

/* Main thread. libjack is linked in, so the backend can always try; a missing server is open's business. */
static int jack_unavailable(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

/* jack_client_open waits for the server without a deadline, so each call that may meet a hung server runs in a
 * thread of its own and is left behind (b->abandoned) after CALL_DEADLINE_MS. The private server is started
 * from the main thread: PR_SET_PDEATHSIG fires when the thread that forked it ends, not the process. */
static void *probe_thread(void *arg)
{
    struct jack_backend *b = arg;
    b->call_rc = rtj_jack_server_running(NULL);
    atomic_store(&b->call_done, 1);
    return NULL;
}

static void *client_thread(void *arg)
{
    struct jack_backend *b = arg;
    char client_name[64];
    snprintf(client_name, sizeof(client_name), "rtjitter-%d", (int)getpid());
    b->call_rc = rtj_jack_open(&b->jack, b->call_server, client_name, b->sink, b->call_err,
                               sizeof(b->call_err));
    atomic_store(&b->call_done, 1);
    return NULL;
}

/* Runs fn(b) in a detached thread and waits for it up to CALL_DEADLINE_MS. Returns 0, or -ETIMEDOUT (the call is
 * left behind and b must stay allocated). */
static int call_with_deadline(struct jack_backend *b, void *(*fn)(void *))
{
    pthread_t t;
    atomic_store(&b->call_done, 0);
    if (spawn_detached(&t, fn, b) != 0)
        fn(b); /* no thread to spare: call it here */
    for (int waited = 0; waited < CALL_DEADLINE_MS && !atomic_load(&b->call_done); waited += 10)
        mono_nap_ms(10);
    if (atomic_load(&b->call_done))
        return 0;
    b->abandoned = 1;
    return -ETIMEDOUT;
}

static void note(struct jack_backend *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct jack_backend *b, const char *fmt, ...)
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

/* Main thread, once the client is open: a --period or --rate the user gave is never ignored in silence. A private
 * server was started with them; a running one keeps its own unless jack2 is asked (--set-buffer-size) to change
 * its buffer size for every client; PipeWire sets the quantum itself. */
static void settle_settings(struct jack_backend *b)
{
    const struct backend_config *cfg = &b->cfg;
    int pw = strcmp(b->jack.provider, "pipewire-jack") == 0;
    if (pw)
        b->pipewire = pw_settings_read();
    if (b->srv.name[0])
        return;
    unsigned frames = atomic_load(&b->jack.nframes), rate = atomic_load(&b->jack.rate_hz);
    if (cfg->period_given && (unsigned)cfg->period_frames != frames) {
        if (pw)
            note(b, "--period %d: PipeWire sets the quantum (it runs %u frames): measuring %u; for %d, run "
                    "PIPEWIRE_QUANTUM=%d/%u pw-jack rtjitter ..., or pw-metadata -n settings 0 clock.force-quantum %d",
                 cfg->period_frames, frames, frames, cfg->period_frames, cfg->period_frames, rate,
                 cfg->period_frames);
        else if (cfg->set_buffer_size && jack_set_buffer_size(b->jack.client, (jack_nframes_t)cfg->period_frames) == 0)
            note(b, "--set-buffer-size: the server's buffer size changed from %u to %d frames for every client of it",
                 frames, cfg->period_frames);
        else if (cfg->set_buffer_size)
            note(b, "--set-buffer-size: the server refused %d frames: measuring its %u", cfg->period_frames, frames);
        else
            note(b, "--period %d: the running server keeps its %u frames, and that is what is measured (a server "
                    "rtjitter did not start is not changed: --set-buffer-size changes it for every client, or stop "
                    "the server and rtjitter starts its own)", cfg->period_frames, frames);
    }
    if (pw && !cfg->period_given)
        note(b, "PipeWire runs a quantum of %u frames at %u Hz (%.2f ms): that is what is measured; for another size "
                "(%u frames, say) run PIPEWIRE_QUANTUM=%u/%u pw-jack rtjitter run ..., or set it for the whole graph "
                "with pw-metadata -n settings 0 clock.force-quantum %u (and 0 after, to let PipeWire choose again)",
             frames, rate, rate ? 1000.0 * frames / rate : 0.0, frames == 128 ? 64 : 128, frames == 128 ? 64 : 128,
             rate, frames == 128 ? 64 : 128);
    if (pw && !cfg->period_given && frames > PW_STUDIO_QUANTUM)
        note(b, "a quantum of %u frames is far above a studio's (%d or less): this run says little about low-latency "
                "audio; measure %d with PIPEWIRE_QUANTUM=%d/%u pw-jack rtjitter run ..., or rtjitter sweep under "
                "pw-jack (it sets each size itself)", frames, PW_STUDIO_QUANTUM, PW_STUDIO_QUANTUM, PW_STUDIO_QUANTUM,
             rate);
    if (cfg->rate_given && (unsigned)cfg->rate_hz != rate)
        note(b, "--rate %d: the running server runs at %u Hz, and that is what is measured (a running JACK server's "
                "rate cannot be changed%s)", cfg->rate_hz, rate,
             pw ? "; PipeWire: pw-metadata -n settings 0 clock.force-rate" : "");
}

/* Main thread: is `name` a port, and an audio one with the direction `flag` (JackPortIsInput for OUT, which our
 * output feeds; JackPortIsOutput for IN, which feeds our input)? 0, or -ENOENT / -EINVAL with one line in err. */
static int check_port(struct jack_backend *b, const char *what, const char *name, unsigned long flag, char *err,
                      size_t len)
{
    jack_port_t *p = jack_port_by_name(b->jack.client, name);
    if (!p) {
        snprintf(err, len, "--loopback: no JACK port '%s' (%s; jack_lsp lists them)", name, what);
        return -ENOENT;
    }
    if (!(jack_port_flags(p) & flag) || strcmp(jack_port_type(p), JACK_DEFAULT_AUDIO_TYPE) != 0) {
        snprintf(err, len, "--loopback: '%s' cannot be connected as %s: it is %s %s port", name, what,
                 (jack_port_flags(p) & JackPortIsInput) ? "an input (playback)" : "an output (capture)",
                 strcmp(jack_port_type(p), JACK_DEFAULT_AUDIO_TYPE) ? "non-audio" : "audio");
        return -EINVAL;
    }
    return 0;
}

/* Main thread, after our client is open: --loopback internal[:N] opens the loop client; OUT:IN finds the two
 * ports (port names hold colons themselves: every split is tried, and the one where both sides exist wins; else
 * the message names the side that does not). The connections are made in start, once the clients are active. */
static int loopback_open(struct jack_backend *b, const char *server, char *err, size_t len)
{
    const char *spec = b->cfg.loopback;
    unsigned n = 0;
    int k = jlb_parse(spec, &n);
    if (k < 0) {
        snprintf(err, len, "--loopback %s: N must be a number of frames from 0 to %u", spec, JLB_MAX_DELAY);
        return -EINVAL;
    }
    b->jack.loopback = 1;
    if (k == 1) {
        char name[64];
        snprintf(name, sizeof(name), "rtjitter-loop-%d", (int)getpid());
        int e = jlb_open(&b->loop, server, name, n, err, len);
        if (e < 0)
            return e;
        b->loop_internal = 1;
        snprintf(b->lb_out, sizeof(b->lb_out), "%s", jack_port_name(b->loop.in));
        snprintf(b->lb_in, sizeof(b->lb_in), "%s", jack_port_name(b->loop.out));
        return 0;
    }
    int best = -1, best_score = -1;
    size_t sl = strlen(spec);
    for (size_t i = 1; i + 1 < sl; i++) {
        if (spec[i] != ':' || i >= sizeof(b->lb_out) || sl - i - 1 >= sizeof(b->lb_in))
            continue;
        char o[320], in[320];
        snprintf(o, sizeof(o), "%.*s", (int)i, spec);
        snprintf(in, sizeof(in), "%s", spec + i + 1);
        int score = (jack_port_by_name(b->jack.client, o) != NULL) + (jack_port_by_name(b->jack.client, in) != NULL);
        if (score > best_score) {
            best_score = score;
            best = (int)i;
        }
    }
    if (best < 0) {
        snprintf(err, len, "--loopback '%s': give OUT:IN (JACK port names, such as system:playback_1:system:capture_1)"
                 " or internal[:N]", spec);
        return -EINVAL;
    }
    snprintf(b->lb_out, sizeof(b->lb_out), "%.*s", best, spec);
    snprintf(b->lb_in, sizeof(b->lb_in), "%s", spec + best + 1);
    int e = check_port(b, "OUT, which our output feeds", b->lb_out, JackPortIsInput, err, len);
    if (e == 0)
        e = check_port(b, "IN, which feeds our input", b->lb_in, JackPortIsOutput, err, len);
    return e;
}

/* Main thread, once the clients are active: our output -> OUT, IN -> our input. */
static int loopback_connect(struct jack_backend *b)
{
    if (b->loop_internal && jlb_activate(&b->loop) < 0) {
        if (!b->cfg.quiet)
            fprintf(stderr, "rtjitter: --loopback: cannot activate the loop client\n");
        return -EIO;
    }
    int e1 = jack_connect(b->jack.client, jack_port_name(b->jack.out), b->lb_out);
    int e2 = jack_connect(b->jack.client, b->lb_in, jack_port_name(b->jack.in));
    if ((e1 && e1 != EEXIST) || (e2 && e2 != EEXIST)) {
        if (!b->cfg.quiet)
            fprintf(stderr, "rtjitter: --loopback: JACK refused to connect %s\n",
                    e1 && e1 != EEXIST ? b->lb_out : b->lb_in);
        return -EIO;
    }
    b->lb_connected = 1;
    /* What the ports say they add (a sound card's playback and capture latency; 0 for the internal loop). */
    jack_latency_range_t po = { 0, 0 }, ci = { 0, 0 };
    jack_port_t *op = jack_port_by_name(b->jack.client, b->lb_out), *ip = jack_port_by_name(b->jack.client, b->lb_in);
    if (op && ip) {
        jack_port_get_latency_range(op, JackPlaybackLatency, &po);
        jack_port_get_latency_range(ip, JackCaptureLatency, &ci);
        b->lb_reported_latency = (int)(po.max + ci.max);
    }
    return 0;
}

/* Main thread: a private server when none runs (and --server was not given), then the client. */
static int jack_open(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len)
{
    struct jack_backend *b = priv;
    b->cfg = *cfg;
    b->sink = sink;
    const char *server = cfg->server;
    /* A sweep that died while it forced PipeWire's quantum (SIGKILL, a crash) left what to set back: the next start
     * does it. */
    pid_t owner = 0;
    if (strcmp(rtj_jack_provider(NULL, 0), "pipewire-jack") == 0 && pw_force_recover(cfg->quiet, &owner) > 1)
        note(b, "another rtjitter sweep (pid %d) is forcing PipeWire's quantum now: this run measures the size it set",
             (int)owner);
    if (!server) {
        if (call_with_deadline(b, probe_thread) < 0) {
            snprintf(err, len, "the default JACK server does not answer within %d s (hung or stopped?)",
                     CALL_DEADLINE_MS / 1000);
            return -ETIMEDOUT;
        }
        if (!b->call_rc) {
            if (strcmp(rtj_jack_provider(NULL, 0), "pipewire-jack") == 0) {
                snprintf(err, len, "PipeWire's JACK is in use but no PipeWire server is reachable");
                return -ECONNREFUSED;
            }
            if (cfg->no_private_server) {
                snprintf(err, len, "no JACK server is running: start your session first (or name its server with "
                         "--server NAME)");
                return -ENOENT;
            }
            if (!cfg->quiet)
                fprintf(stderr, "rtjitter: no JACK server running; starting a private one (%s, %d frames @ %d Hz)\n",
                        cfg->device ? cfg->device : "dummy driver", cfg->period_frames, cfg->rate_hz);
            int e = jackserver_start(&b->srv, cfg->device, cfg->rate_hz, cfg->period_frames, cfg->nperiods,
                                     cfg->priority, err, len);
            if (e < 0)
                return e;
            server = b->srv.name;
        }
    }
    b->call_server = server;
    if (call_with_deadline(b, client_thread) < 0) {
        snprintf(err, len, "the JACK server '%s' does not answer within %d s (hung or stopped?)",
                 server ? server : "default", CALL_DEADLINE_MS / 1000);
        return -ETIMEDOUT;
    }
    if (b->call_rc < 0) {
        snprintf(err, len, "%s", b->call_err);
        return b->call_rc;
    }
    settle_settings(b);
    return cfg->loopback ? loopback_open(b, server, err, len) : 0;
}

/* Main thread. */
static int jack_start(void *priv)
{
    struct jack_backend *b = priv;
    int e = rtj_jack_activate(&b->jack);
    if (e == 0 && b->cfg.loopback)
        e = loopback_connect(b);
    return e;
}

/* Any non-RT thread. */
static void jack_status(void *priv, struct backend_status *st)
{
    struct jack_backend *b = priv;
    st->rate_hz = atomic_load(&b->jack.rate_hz);
    st->period_frames = atomic_load(&b->jack.nframes);
    st->xruns = atomic_load(&b->jack.xruns);
    st->xrun_notes = &b->jack.xrun_notes;
    st->size_changes = atomic_load(&b->jack.size_changes);
    st->dsp_load_pct = b->jack.client && !atomic_load(&b->jack.shutdown) && !atomic_load(&b->closing)
                           ? jack_cpu_load(b->jack.client) : -1;
    st->lost = NULL;
    st->server_provider = b->jack.provider[0] ? b->jack.provider : NULL;
    st->server_log = jackserver_log_path(&b->srv);
    st->server_name = b->jack.server_name;
    st->server_pid = (int)b->srv.pid;
    if (atomic_load(&b->jack.shutdown))
        st->lost = "the JACK server went away";
    else if (b->srv.pid != 0 && !jackserver_alive(&b->srv))
        st->lost = "the private JACK server died";
}

/* Outside strings (a server name from the command line or the environment, a library path) may hold invalid
 * UTF-8: kept with U+FFFD, never dropped. NULL gives null. */
#define str_or_null utf8_json_string

/* Main thread: the provider, its server and its clock, for the report's "audio" object. */
static void jack_describe(void *priv, json_t *au)
{
    struct jack_backend *b = priv;
    int private = b->srv.name[0] != '\0';
    json_object_set_new(au, "provider", str_or_null(b->jack.provider[0] ? b->jack.provider : NULL));
    json_object_set_new(au, "provider_version", str_or_null(b->jack.version[0] ? b->jack.version : NULL));
    json_object_set_new(au, "library", str_or_null(b->jack.library[0] ? b->jack.library : NULL));
    json_object_set_new(au, "server", json_string(private ? "private" : "external"));
    json_object_set_new(au, "server_name", str_or_null(b->jack.server_name[0] ? b->jack.server_name : NULL));
    json_object_set_new(au, "driver", str_or_null(private ? b->srv.driver : NULL));
    json_object_set_new(au, "device", str_or_null(private ? b->cfg.device : NULL));
    json_object_set_new(au, "nperiods", private && b->cfg.device ? json_integer(b->cfg.nperiods) : json_null());
    json_object_set_new(au, "clock", str_or_null(b->jack.clock_name[0] ? b->jack.clock_name : NULL));
    json_object_set_new(au, "jack_time_unit", str_or_null(b->jack.time_unit[0] ? b->jack.time_unit : NULL));
    json_object_set_new(au, "clock_offset_us", json_real((double)b->jack.clock_offset_ns / 1000.0));
    json_object_set_new(au, "clock_offsets_us", json_pack("{s:f, s:f}",
        "CLOCK_MONOTONIC_RAW", (double)b->jack.clock_offsets_ns[0] / 1000.0,
        "CLOCK_MONOTONIC", (double)b->jack.clock_offsets_ns[1] / 1000.0));
    json_object_set_new(au, "clock_ambiguous", json_boolean(b->jack.clock_ambiguous));
    json_object_set_new(au, "server_realtime", json_boolean(b->jack.realtime_server));
    /* What wake-up includes here, and its resolution. */
    unsigned rate = atomic_load(&b->jack.rate_hz);
    char wk[800];
    if (b->jack.cycle_times_exact)
        snprintf(wk, sizeof(wk), "callback entry minus the driver's own start of the cycle (PipeWire's "
                 "jack_get_cycle_times current_usecs: the driver's clock.nsec, its dummy driver's scheduled time; "
                 "whole us, taken at the middle: resolution 1 us), checked each cycle against the whole-frame start "
                 "(jack_frames_since_cycle_start; the frame clock's fitted grid when they disagree); it includes the "
                 "driver's own lateness, the graph's hand-over to us and our thread's wake-up (pw-profiler's "
                 "awake - signal is only the last); deadlines and margins from the same start");
    else
        snprintf(wk, sizeof(wk), "callback entry against the frame clock's ideal period grid, fitted per segment "
                 "(lower envelope of entry times: lateness beyond the best cycles, ns resolution; a cycle before it "
                 "lowers it, one half a period or more before it is left out and counted), re-fitted when the "
                 "provider's own cycle start (jack_frames_since_cycle_start, whole frames: %.1f us at %u Hz) shows "
                 "the frame clock re-phased; deadlines and margins from that start; %s", rate ? 1e6 / rate : 0.0,
                 rate, strcmp(b->jack.provider, "pipewire-jack") == 0
                     ? "PipeWire's driver starts a cycle at its scheduled time, so it includes the driver's own "
                       "lateness"
                     : "jack2 starts a cycle at its driver's wake-up: the grid follows the driver's schedule, so a "
                       "late driver wake-up is included");
    json_object_set_new(au, "wakeup_measured", json_string(wk));
    if (strcmp(b->jack.provider, "pipewire-jack") == 0) {
        /* What the figures mean under PipeWire: its JACK delivers the graph driver's xruns once per change, and
         * never a client's own overrun; frame-clock gaps show those. */
        json_object_set_new(au, "pipewire", json_pack("{s:I, s:I, s:O, s:s}",
            "quantum", (json_int_t)atomic_load(&b->jack.nframes), "rate", (json_int_t)atomic_load(&b->jack.rate_hz),
            "settings", b->pipewire ? b->pipewire : json_null(),
            "xruns", "reported: the graph driver's xruns, once per change (a fresh driver's first is skipped); "
                     "a client's own overrun is not reported: detected frame-clock gaps show it"));
    } else {
        json_object_set_new(au, "xruns_meaning", json_string("reported: jack2 notifies every client once per "
                            "unfinished client and once per driver xrun; events count each stall once"));
    }
    if (b->cfg.loopback)
        json_object_set_new(au, "loopback", json_pack("{s:s, s:o, s:o, s:o, s:b, s:o, s:o}",
            "mode", b->loop_internal ? "internal" : "ports",
            "loop_delay_frames", b->loop_internal ? json_integer(b->loop.delay_frames) : json_null(),
            "out", str_or_null(b->lb_out[0] ? b->lb_out : NULL), "in", str_or_null(b->lb_in[0] ? b->lb_in : NULL),
            "connected", b->lb_connected,
            "reported_latency_frames", b->lb_connected ? json_integer(b->lb_reported_latency) : json_null(),
            "loop_cycles_too_long", b->loop_internal ? json_integer((json_int_t)atomic_load(&b->loop.too_long))
                                                     : json_null()));
    if (b->notes)
        json_object_set_new(au, "notes", b->notes); /* handed over: describe is called once, after stop */
    json_decref(b->pipewire);
    b->notes = b->pipewire = NULL;
}

/* A thread of its own: jack_deactivate and jack_client_close wait for the server without a deadline (a
 * SIGSTOPped jackd kept rtjitter 10 minutes after Ctrl-C). */
static void *close_thread(void *arg)
{
    struct jack_backend *b = arg;
    rtj_jack_close(&b->jack); /* ours first: its last cycles still hear the loop, not a loop that went silent */
    jlb_close(&b->loop);
    atomic_store(&b->closed, 1);
    return NULL;
}

/* Wait up to ms for the closing thread. Returns 1 when it finished. */
static int closed_within(struct jack_backend *b, int ms)
{
    for (int waited = 0; waited < ms && !atomic_load(&b->closed); waited += 10)
        mono_nap_ms(10);
    return atomic_load(&b->closed);
}

/* Main thread: close the client with a deadline, then stop a private server (which also unblocks a close that
 * waits on it). Safe twice and after a failed open. */
static int jack_stop(void *priv)
{
    struct jack_backend *b = priv;
    if (b->abandoned)
        return 1;
    if (b->jack.client && !atomic_load(&b->closing)) {
        atomic_store(&b->closing, 1);
        pthread_t t;
        if (spawn_detached(&t, close_thread, b) != 0)
            close_thread(b); /* no thread to spare: close here */
        if (!closed_within(b, 700)) {
            if (b->srv.pid != 0)
                jackserver_stop(&b->srv);
            if (!closed_within(b, 300)) {
                b->abandoned = 1;
                return 1;
            }
        }
    }
    if (b->srv.pid != 0)
        jackserver_stop(&b->srv);
    return 0;
}

const struct backend_ops backend_jack = {
    .name = "jack",
    .summary = "a client of the JACK graph: jack2, or PipeWire's JACK (pw-jack); a private jackd when none runs",
    .params = jack_params,
    .private_size = sizeof(struct jack_backend),
    .unavailable = jack_unavailable,
    .realtime_elsewhere = jack_realtime_elsewhere,
    .server_answers = rtj_jack_server_answers,
    .server_size = rtj_jack_server_size,
    .open = jack_open,
    .start = jack_start,
    .status = jack_status,
    .describe = jack_describe,
    .stop = jack_stop,
    .session = &jack_session, /* jack_session.c: a private jackd per rate, --set-buffer-size, PipeWire's quantum */
};
