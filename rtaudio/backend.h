/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtaudio/: everything that runs in the real-time thread, and the backends that own such a thread.
 * It may include only itself, the C library, jansson (describe) and its backends' libraries (libjack...); never
 * src/, but for two type-and-helper headers of src/util/ (below everything): a backend's .c file includes
 * util/optdef.h to declare its params table and util/utf8.h for the strings it describes.
 *
 * A backend is a const ops table plus the size of its private state (alsa-utils' axfer `xfer_data`, PipeWire's
 * spa node methods): `run` allocates the private state zeroed, locks it, and calls the ops in the order
 * unavailable -> open -> start -> status* -> describe -> stop. Each op says the thread it may be called from.
 * Only the backend's RT thread writes the sink (struct rt_sink), which stamps, tags and pushes every record.
 * Adding a backend is one folder under rtaudio/ (or one file) plus one entry in rtaudio/backends.c. */
#ifndef RTJ_BACKEND_H
#define RTJ_BACKEND_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "rt_sink.h"

struct opt_def; /* src/util/optdef.h: typed, bounded options that generate their own help (cli/options.h) */

/* What run asks of a backend. Each backend reads only the fields its params table lists. Units in names. */
struct backend_config {
    const char *server;      /* jack: server name, NULL: the running one, else a private one */
    const char *device;      /* jack: private server's ALSA device (NULL: dummy driver); alsa: the PCM */
    int rate_hz;             /* requested sample rate */
    int period_frames;       /* requested frames per period */
    int rate_given, period_given; /* the user asked for them (else they are defaults): never ignored in silence */
    int set_buffer_size;     /* jack: change a running server's buffer size (every client of it sees it) */
    int nperiods;            /* periods per buffer */
    int priority;            /* requested real-time priority */
    const char *cpus;        /* timer: CPU list such as "0-3,6" (NULL: every CPU this process may use) */
    int interval_us;         /* timer: period in µs instead of --period/--rate (0: from them) */
    int no_dma_latency;      /* timer: do not hold /dev/cpu_dma_latency at 0 */
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
};

/* The registered backends, NULL-terminated; the first is the default. */
extern const struct backend_ops *const rtj_backends[];
/* The backend called name, or NULL. */
const struct backend_ops *backend_find(const char *name);

#endif
