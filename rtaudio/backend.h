/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtaudio/: everything that runs in the real-time thread, and the backends that own such a thread.
 * It may include only itself, the C library, jansson (describe) and its backends' libraries (libjack...); never
 * src/, but for headers of src/util/ (below everything): a backend's .c file includes util/optdef.h to declare its
 * params table and util/utf8.h for the strings it describes; the noise probe's classifier thread (never its RT
 * loop) util/noise_counters.h and util/noise_class.h.
 *
 * A backend is a const ops table plus the size of its private state (alsa-utils' axfer `xfer_data`, PipeWire's
 * spa node methods): `run` allocates the private state zeroed, locks it, and calls the ops in the order
 * unavailable -> open -> start -> status* -> describe -> stop. Each op says the thread it may be called from.
 * Runs one after another (a sweep) share a session: backend_session_ops below.
 * Only the backend's RT thread writes the sink (struct rt_sink), which stamps, tags and pushes every record.
 * Adding a backend is one folder under rtaudio/ (or one file) plus one entry in rtaudio/backends.c.
 *
 * The RT contract: what runs in an RT thread does no allocation, lock, printf, file I/O or system call other than
 * the clock, and says "RT-safe (runs in the RT thread)" in its comment ("Not RT-safe" for what must never be called
 * there). tests/integration/rt_callgraph.sh checks it on gcc's call graph from the RT entry points (the callbacks
 * given to libjack, the thread bodies given to rt_thread_start, every function marked RT-safe); what they may call
 * outside our sources is in tests/rt_callgraph.allow, each with its reason. */
#ifndef RTJ_BACKEND_H
#define RTJ_BACKEND_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "rt_sink.h"

struct opt_def; /* src/util/optdef.h: typed, bounded options that generate their own help (cli/options.h) */
struct xrun_notes; /* src/util/xrun_notes.h: when a provider's xrun notifications came */
struct noise_trace_answer; /* src/util/noise_class.h: who the kernel trace saw hold the CPU in a noise gap */

/* What run asks of a backend. Each backend reads only the fields its params table lists. Units in names. */
struct backend_config {
    const char *server;      /* jack: server name, NULL: the running one, else a private one */
    const char *device;      /* jack: private server's ALSA device (NULL: dummy driver); alsa: the PCM */
    int rate_hz;             /* requested sample rate */
    int period_frames;       /* requested frames per period */
    int rate_given, period_given; /* the user asked for them (else they are defaults): never ignored in silence */
    int set_buffer_size;     /* jack: change a running server's buffer size (every client of it sees it) */
    int no_private_server;   /* jack: never start a private server (rtjitter watch: the musician's own session) */
    int nperiods;            /* periods per buffer */
    int priority;            /* requested real-time priority */
    const char *cpus;        /* timer: CPU list such as "0-3,6" (NULL: every CPU this process may use) */
    int interval_us;         /* timer: period in µs instead of --period/--rate (0: from them) */
    int no_dma_latency;      /* timer: do not hold /dev/cpu_dma_latency at 0 */
    int noise_threshold_us;  /* noise: a gap between two clock reads over this is noise (0: its default) */
    /* noise: the kernel trace's account of a gap (util/noise_class.h's noise_trace_fn), set by the run; it answers
     * -ENOENT while no trace is open. NULL: none. Called from the probe's classifier thread, never its RT loop. */
    int (*noise_trace)(void *arg, int cpu, int tid, int64_t t0_ns, int64_t t1_ns, struct noise_trace_answer *out);
    void *noise_trace_arg;
    int dma_latency;         /* run: hold /dev/cpu_dma_latency at 0 while measuring (src/run/dma_hold.h) */
    int duplex;              /* alsa: open the capture side too */
    const char *loopback;    /* jack: "OUT:IN" (ports our output and input connect to) or "internal[:N]"; alsa:
                              * "duplex" (play the reference signal, capture it back); NULL: no loopback */
    double dsp_pct;          /* --dsp: share of each period burnt in the RT thread */
    int quiet;               /* no notices on stderr */
};

/* A snapshot of the backend, for the status line, the phase loop and the report. */
struct backend_status {
    unsigned rate_hz, period_frames;  /* in force now */
    uint64_t xruns;                   /* provider's xrun notifications so far */
    uint64_t size_changes;            /* buffer-size or rate changes after the first */
    double dsp_load_pct;              /* the provider's own DSP load figure (jack_cpu_load), < 0 when none */
    const char *lost;                 /* why the provider is gone (server died, device lost), or NULL */
    /* The server process that drives the cycles, when another process does (JACK): its provider ("jack2",
     * "pipewire-jack"), name and pid (a private server's; 0: find it by name). NULL provider: none. */
    const char *server_provider, *server_name;
    int server_pid;
    const char *server_log;           /* a private server's log file (its stderr), NULL: none */
    const struct xrun_notes *xrun_notes; /* when the xrun notifications came (util/xrun_notes.h), NULL: not kept */
};

/* A session (issue 23): what outlives one run, so that a sweep (run/sweep.c) drives a backend from size to size
 * through these ops and names none. Main thread only: nothing here runs in the RT thread (a session starts
 * servers and forks pw-metadata). The caller allocates private_size bytes zeroed, fills who and quiet, and calls
 *     check -> begin -> ( rate -> ( period -> run_execute() )* )* -> end -> describe
 * stopping at the first failure of check, begin or rate; once check succeeded, end and describe are always
 * called (end undoes what succeeded). Each run opens the backend itself (backend_ops.open) with the
 * struct backend_config that period adapted. The strings an op sets in the session are static or live in its
 * private state until the caller frees it. */
struct backend_session {
    const char *who;                  /* set by the caller: each line said on stderr starts "WHO: " */
    int quiet;                        /* set by the caller: no notices on stderr (warnings are said anyway) */
    /* Set by check; the caller's defaults before it: "direct", cfg->server, "". */
    const char *buffer_change;        /* how the size changes from run to run, for the document: "direct" (each run
                                       * opens at the size asked), "set_buffer_size", "pipewire_force_quantum" */
    const char *server;               /* the document's audio.server: "private" (one the session starts), a name, or
                                       * NULL (the running one) */
    const char *not_in_force;         /* appended to "the size was not in force: ..." when a run ran another size */
    const char *why;                  /* set by begin or rate when they fail: the short reason the caller stopped */
};

struct backend_session_ops {
    size_t private_size;              /* bytes of the session's private state: the caller allocates them zeroed */
    /* Before anything runs or starts: can cfg be swept (bad input: -EINVAL with one line in err, exit 2), and how
     * the size will change (buffer_change, server, not_in_force). Starts nothing; may say a notice on stderr. */
    int (*check)(void *ss, struct backend_session *s, const struct backend_config *cfg, char *err, size_t len);
    /* Once, before the first rate: takes over what every run shares (PipeWire's quantum: its old value kept in a
     * state file). 0, or -errno with one line in err and s->why set; nothing to undo but what end undoes. */
    int (*begin)(void *ss, struct backend_session *s, char *err, size_t len);
    /* Before the runs at rate_hz, the first of them at period_frames: what they share (jack: the previous rate's
     * private jackd stopped, one started at this rate). 0, or -errno with one line in err and s->why set. */
    int (*rate)(void *ss, struct backend_session *s, int rate_hz, int period_frames, char *err, size_t len);
    /* Before each run, cfg being that run's (rate_hz and period_frames the size it is to measure): makes that
     * size the one in force where the run alone cannot (PipeWire's forced quantum, read back), and adapts cfg
     * (the server to use, --set-buffer-size). 0, or -errno with err the whole reason the size is not measured
     * (the caller skips the run; the session goes on). */
    int (*period)(void *ss, struct backend_session *s, struct backend_config *cfg, char *err, size_t len);
    /* After the last run, stopped early or not: stops what the session started (a private jackd) and sets back
     * what it changed (PipeWire's quantum; said on stderr). Safe when begin or rate failed or never ran. */
    void (*end)(void *ss, struct backend_session *s);
    /* Optional, after end: what the document's "audio" says of the session besides backend, server, device and
     * buffer_change (jack under PipeWire: "pipewire", the quantum and rate before and whether they were set back). */
    void (*describe)(void *ss, json_t *audio);
};

struct backend_ops {
    const char *name;                 /* --backend NAME */
    const char *summary;              /* one line for --help and --backend list */
    const struct opt_def *params;     /* its options; offsets are into struct backend_config */
    size_t private_size;              /* bytes of private state: run allocates them zeroed and locked */
    int dma_latency_default;          /* run holds /dev/cpu_dma_latency at 0 unless --no-dma-latency (timer: as
                                       * cyclictest does); others only with --dma-latency */

    /* Main thread, before open: 0 when it can run here, else -errno and one line in why. */
    int (*unavailable)(char *why, size_t len);
    /* Optional, main thread, before open: non-NULL (one line) when its RT thread gets real time another way than
     * this process's own rights (PipeWire's JACK: rtkit), so a run without them is still a real-time test. */
    const char *(*realtime_elsewhere)(void);
    /* Optional, main thread, no session: does the server `server` (NULL: the default) answer a client now? 1 or 0, or
     * -ETIMEDOUT when it did not answer within deadline_ms and a call had to be left behind (a stopped or hung jackd;
     * PipeWire's probe leaves nothing behind and says 0). watch waits with it for a server that went away to come
     * back. */
    int (*server_answers)(const char *server, int deadline_ms);
    /* Optional, main thread, no session: as server_answers, and when the server answers (1) the sample rate and
     * period it runs at, which a client cannot change (a depth ladder runs its other depths at that size). */
    int (*server_size)(const char *server, int deadline_ms, int *rate_hz, int *period_frames);
    /* Main thread: connect or open the device (starting a private server when needed), find the clock, prepare
     * everything the RT thread will touch, and hand the sink its ring and clock. Does not start cycles.
     * Returns 0, -errno with one line in err (exit 2 for bad input such as a missing device, 3 otherwise). */
    int (*open)(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len);
    /* Main thread: start the cycles. The first cycle may run before it returns. */
    int (*start)(void *priv);
    /* Any non-RT thread, cheap (polled every 50 ms): a snapshot. */
    void (*status)(void *priv, struct backend_status *st);
    /* Main thread, after stop or before: what the report says of the provider, added to the "audio" object. A
     * "notes" array there (requested settings that are not in force, and why) goes to the report's warnings. */
    void (*describe)(void *priv, json_t *audio);
    /* Main thread: stop cycles, close, stop a private server. Safe after a failed open and when called twice;
     * returns within about a second even when the provider hangs. Returns 0, or 1 when a call into the provider
     * had to be left behind in another thread: the private state must then stay allocated and the process should
     * leave with _exit() (the provider library's own exit handlers may wait on that call). */
    int (*stop)(void *priv);
    /* Optional, main thread, after stop: what the backend measured of phase i beside its cycles, placed in the
     * report as phases[].noise (the noise probe's per-CPU noise and its events); a new reference, or NULL. */
    json_t *(*phase_json)(void *priv, int phase);
    /* A session for runs one after another at changing sizes (above). NULL: none is needed, each run opens the
     * backend anew at the size asked (buffer_change "direct"). */
    const struct backend_session_ops *session;
};

/* The one list of backends, the first the default: each X(NAME) is the `const struct backend_ops backend_NAME` its
 * own folder or file defines. The declarations here and rtj_backends[] (backends.c) are made from it. */
#define BACKENDS(X) X(jack) X(timer) X(alsa) X(noise) X(pipewire)
#define BACKEND_DECLARE(n) extern const struct backend_ops backend_##n;
BACKENDS(BACKEND_DECLARE)

/* The registered backends, NULL-terminated, in BACKENDS' order; the first is the default. */
extern const struct backend_ops *const rtj_backends[];
/* The backend called name, or NULL. */
const struct backend_ops *backend_find(const char *name);
/* Main thread, before any backend opens. --backend auto (issue 33): the server a client would reach now, asked of
 * the servers themselves (`server`: --server, a JACK server's name and a PipeWire socket's; NULL: the defaults,
 * JACK_DEFAULT_SERVER, PIPEWIRE_REMOTE and the runtime dirs as the libraries take them). A PipeWire that answers:
 * pipewire; a jackd that answers: jack; under pw-jack (libjack is PipeWire's) a PipeWire that answers: jack, as
 * pw-jack asks. One line in why, which it chose and why, *rc 0. NULL when it cannot choose, the line in why:
 * both or neither answer (*rc 2, bad input), a jackd that is there but hangs (*rc 3; a call into libjack is left
 * behind: leave with fflush + _exit). */
const struct backend_ops *backend_auto(const char *server, char *why, size_t len, int *rc);

#endif
