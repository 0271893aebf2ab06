/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jack/jack_client.h"
#include "capring.h"
#include "loopsig.h"
#include "rtclock.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* RT-safe (runs in the RT thread): clock reads, JACK's shared-memory getters, integer updates, one ring push
 * (rt_sink_cycle, whose first, never measured, cycle reads the scheduling policy the thread really got). */
static int process_cb(jack_nframes_t nframes, void *arg)
{
    struct rtj_jack *j = arg;
    struct rt_record r;
    r.t_entry_ns = rt_now_ns(j->sink->clock);
    /* The provider's start is known to whole frames only (RTREC_START_COARSE): wake-up is measured against the
     * frame clock's fitted grid at ns resolution, the whole-frame start guiding it (src/stats/phase.c: when
     * jack2's dummy driver re-phases its frame clock after an overrun, the two disagree and the grid is fitted
     * anew); deadlines and margins use the whole-frame start, as the --dsp burn below does. */
    r.flags = RTREC_HAS_START | RTREC_START_COARSE;
    uint32_t ft = jack_last_frame_time(j->client);
    if (j->have_frame_time) /* signed 32-bit difference: wraps correctly, and a jump back stays a jump back */
        j->frame_pos += (uint64_t)(int64_t)(int32_t)(ft - j->last_frame_time);
    j->last_frame_time = ft;
    j->have_frame_time = 1;
    r.frame_pos = j->frame_pos;
    uint32_t since = jack_frames_since_cycle_start(j->client);
    r.nframes = nframes;
    r.rate_hz = atomic_load_explicit(&j->rate_hz, memory_order_relaxed);
    int64_t rate = r.rate_hz ? r.rate_hz : 48000;

    /* The measured cycle start: the provider's own begin time, seen through jack_frames_since_cycle_start()
     * (whole frames, floored: the start lies within [since, since + 1) frames before entry; take the middle).
     * jack2's current_usecs is a DLL prediction that lags for hundreds of cycles after a stall, so it is not
     * used for wake-up or deadlines. */
    int64_t frame_ns = 1000000000LL / rate;
    r.start_ns = r.t_entry_ns - (int64_t)since * frame_ns - frame_ns / 2;
    int64_t coarse_ns = r.t_entry_ns - (int64_t)since * 1000000000LL / rate - frame_ns / 2;
    if (since > 4 * nframes) { /* a frame clock that jumped (server restart): no measured start this cycle */
        r.flags = 0;
        r.start_ns = 0;
    }
    /* PipeWire's JACK: jack_get_cycle_times() gives the driver's own start of this cycle (its clock.nsec: the
     * dummy driver's scheduled time, so a late driver is in the wake-up) in whole µs, on CLOCK_MONOTONIC. It is
     * taken as the exact start when it agrees with the whole-frame one (the same clock.nsec, floored to frames)
     * within two frames: a unit or clock mismatch falls back to the grid. jack2's cycle times are a DLL's
     * prediction and are never used (cycle_times_exact is 0 there). */
    if (j->cycle_times_exact) {
        jack_nframes_t cf;
        jack_time_t cur_us, next_us;
        float per_us;
        if (jack_get_cycle_times(j->client, &cf, &cur_us, &next_us, &per_us) == 0) {
            int64_t exact = (int64_t)cur_us * 1000 + 500; /* the middle of its µs */
            int64_t d = exact - coarse_ns;
            if (d <= 2 * frame_ns && d >= -2 * frame_ns && exact <= r.t_entry_ns + 1000) {
                r.flags = RTREC_HAS_START;
                r.start_ns = exact;
            }
        }
    }

    /* Silence out, as a well-behaved client does; the input is only there so others can feed us. With a loopback,
     * the reference signal at the frame clock's position: a cycle the server skipped is a jump in it, heard as
     * one at the far end of the loop. */
    float *out = jack_port_get_buffer(j->out, nframes);
    if (out && j->loopback)
        loopsig_fill(out, r.frame_pos, nframes);
    else if (out)
        memset(out, 0, nframes * sizeof(float));

    /* The deadline is the next cycle start: the measured start of this one plus a period. */
    int64_t deadline = r.flags & RTREC_HAS_START ? r.start_ns + (int64_t)nframes * 1000000000LL / rate
                                                  : r.t_entry_ns + (int64_t)nframes * 1000000000LL / rate;
    rt_sink_cycle(j->sink, &r, deadline);
    /* After the record, so the capture carries the cycle's own seq and phase; its copy (nframes floats) is not in
     * the measured callback time. */
    if (j->loopback && j->sink->cap)
        cap_ring_push(j->sink->cap, r.frame_pos, r.seq, r.t_entry_ns, r.phase, (r.flags & RTREC_MEASURING) != 0,
                      r.xruns, jack_port_get_buffer(j->in, nframes), nframes);
    return 0;
}

/* In the process thread, before its first cycle (jack_set_thread_init_callback): its stack is touched here, not
 * in a measured cycle. */
static void thread_init_cb(void *arg)
{
    struct rtj_jack *j = arg;
    rt_sink_touch_stack();
    atomic_store_explicit(&j->sink->stack_touched, 1, memory_order_relaxed);
}

/* RT-safe: PipeWire's JACK calls this from the RT thread. One atomic increment, nothing else. */
/* RT-safe (PipeWire's JACK may call it on its data thread; jack2 on its notification thread): a clock read and
 * atomic stores. */
static int xrun_cb(void *arg)
{
    struct rtj_jack *j = arg;
    if (j->sink)
        xrun_notes_add(&j->xrun_notes, rt_now_ns(j->sink->clock));
    atomic_fetch_add_explicit(&j->xruns, 1, memory_order_release);
    return 0;
}

/* jack2 only (registered for it alone): runs on its notification thread, never the RT thread. The first call
 * raises that thread to SCHED_FIFO 1 (jack_client.h says why) and names it rtj-jacknotify: a culprit the trace
 * finds there (at 16 frames / 192 kHz it held the audio CPU in the kernel 20-40 us while xrun notifications came)
 * is then told from the main thread, whose name, rtjitter, it had. jack2 makes it as the client activates. */
static int graph_order_cb(void *arg)
{
    struct rtj_jack *j = arg;
    int zero = 0;
    if (atomic_compare_exchange_strong(&j->notify_tid, &zero, (int)gettid())) {
        struct sched_param sp = { .sched_priority = 1 };
        (void)sched_setscheduler(0, SCHED_FIFO, &sp); /* refused: it stays as it was (jack_client.h) */
        (void)pthread_setname_np(pthread_self(), "rtj-jacknotify");
    }
    return 0;
}

/* RT-safe (may run in the RT thread): atomic stores and arithmetic only. */
static int bufsize_cb(jack_nframes_t nframes, void *arg)
{
    struct rtj_jack *j = arg;
    unsigned old = atomic_exchange_explicit(&j->nframes, nframes, memory_order_relaxed);
    if (old != 0 && old != nframes)
        atomic_fetch_add_explicit(&j->size_changes, 1, memory_order_relaxed);
    return 0; /* the --dsp work follows by itself: each cycle sizes it for its own nframes (rt_sink.c) */
}

/* RT-safe (may run in the RT thread). */
static int srate_cb(jack_nframes_t rate, void *arg)
{
    struct rtj_jack *j = arg;
    unsigned old = atomic_exchange_explicit(&j->rate_hz, rate, memory_order_relaxed);
    if (old != 0 && old != rate)
        atomic_fetch_add_explicit(&j->size_changes, 1, memory_order_relaxed);
    return 0;
}

/* May run in any JACK thread: one atomic store. */
static void shutdown_cb(jack_status_t code, const char *reason, void *arg)
{
    (void)code;
    (void)reason;
    struct rtj_jack *j = arg;
    atomic_store_explicit(&j->shutdown, 1, memory_order_release);
}

static void silent_error(const char *msg)
{
    (void)msg;
}

const char *rtj_jack_provider(char *lib, size_t liblen)
{
    Dl_info info;
    const char *path = "";
    if (dladdr((void *)jack_client_open, &info) && info.dli_fname)
        path = info.dli_fname;
    if (lib)
        snprintf(lib, liblen, "%s", path);
    return strstr(path, "pipewire") ? "pipewire-jack" : "jack2";
}

/* The probe's state, shared with its thread: whichever of the two lets go of it last frees it. */
struct probe_call {
    atomic_int refs;
    atomic_int done;
    int rc;
    int rate_hz, period_frames; /* what the server runs at, when it answered */
    char name[];
};

static int server_size_now(const char *name, int *rate_hz, int *period_frames);

static void probe_release(struct probe_call *pc)
{
    if (atomic_fetch_sub(&pc->refs, 1) == 1)
        free(pc);
}

static void *probe_call_thread(void *arg)
{
    struct probe_call *pc = arg;
    pc->rc = server_size_now(pc->name[0] ? pc->name : NULL, &pc->rate_hz, &pc->period_frames);
    atomic_store(&pc->done, 1);
    probe_release(pc);
    return NULL;
}

int rtj_jack_server_answers(const char *name, int deadline_ms)
{
    return rtj_jack_server_size(name, deadline_ms, NULL, NULL);
}

int rtj_jack_server_size(const char *name, int deadline_ms, int *rate_hz, int *period_frames)
{
    size_t n = name ? strlen(name) : 0;
    struct probe_call *pc = malloc(sizeof(*pc) + n + 1);
    if (!pc)
        return server_size_now(name, rate_hz, period_frames);
    atomic_init(&pc->refs, 2);
    atomic_init(&pc->done, 0);
    pc->rc = 0;
    memcpy(pc->name, name ? name : "", n + 1);
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int e = pthread_create(&t, &attr, probe_call_thread, pc);
    pthread_attr_destroy(&attr);
    if (e) {
        free(pc);
        return server_size_now(name, rate_hz, period_frames);
    }
    for (int waited = 0; waited < deadline_ms && !atomic_load(&pc->done); waited += 5)
        mono_nap_ms(5);
    int rc = atomic_load(&pc->done) ? pc->rc : -ETIMEDOUT;
    if (rc == 1 && rate_hz)
        *rate_hz = pc->rate_hz;
    if (rc == 1 && period_frames)
        *period_frames = pc->period_frames;
    probe_release(pc);
    return rc;
}

int rtj_jack_server_running(const char *name)
{
    return server_size_now(name, NULL, NULL);
}

static int server_size_now(const char *name, int *rate_hz, int *period_frames)
{
    jack_status_t st;
    jack_set_error_function(silent_error);
    jack_set_info_function(silent_error);
    jack_options_t opt = JackNoStartServer | (name ? JackServerName : 0);
    jack_client_t *c = name ? jack_client_open("rtjitter-probe", opt, &st, name)
                            : jack_client_open("rtjitter-probe", opt, &st);
    if (!c)
        return 0;
    if (rate_hz)
        *rate_hz = (int)jack_get_sample_rate(c);
    if (period_frames)
        *period_frames = (int)jack_get_buffer_size(c);
    jack_client_close(c);
    return 1;
}

/* Which clock does jack_get_time() follow, and in which unit? Compare with both candidates several times and
 * take the median offset of each. Every figure rtjitter reports comes from its own clock readings, so this only
 * says which clock the JACK times are on: when neither matches within 50 ms, or both match (CLOCK_MONOTONIC equals
 * CLOCK_MONOTONIC_RAW when nothing slews the clock), the report says so ("clock_ambiguous") instead of refusing
 * the run. */
static void detect_clock(struct rtj_jack *j)
{
    static const clockid_t ids[2] = { CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC };
    static const char *names[2] = { "CLOCK_MONOTONIC_RAW", "CLOCK_MONOTONIC" };
    static const int64_t scales[2] = { 1000, 1 };
    static const char *units[2] = { "us", "ns" };
    int64_t best = INT64_MAX;
    int bi = 1, bs = 0;
    for (int c = 0; c < 2; c++) {
        int64_t best_c = INT64_MAX;
        for (int s = 0; s < 2; s++) {
            int64_t off[9];
            for (int k = 0; k < 9; k++) {
                int64_t a = rt_now_ns(ids[c]);
                int64_t jt = (int64_t)jack_get_time() * scales[s];
                int64_t b = rt_now_ns(ids[c]);
                off[k] = (a + b) / 2 - jt;
            }
            for (int x = 1; x < 9; x++) /* insertion sort for the median */
                for (int y = x; y > 0 && off[y - 1] > off[y]; y--) {
                    int64_t t = off[y]; off[y] = off[y - 1]; off[y - 1] = t;
                }
            int64_t a = off[4] < 0 ? -off[4] : off[4];
            if (a < best_c)
                best_c = a;
            if (a < best) {
                best = a;
                bi = c;
                bs = s;
            }
        }
        j->clock_offsets_ns[c] = best_c;
    }
    int64_t d = j->clock_offsets_ns[0] - j->clock_offsets_ns[1];
    j->clock_ambiguous = best > 50 * 1000 * 1000 || (d < 0 ? -d : d) < 1000 * 1000;
    if (best > 50 * 1000 * 1000)
        bi = 1; /* neither: our own readings on CLOCK_MONOTONIC */
    j->sink->clock = ids[bi];
    j->clock_offset_ns = best; /* |median offset|: reading noise of a few µs when they are one clock */
    snprintf(j->clock_name, sizeof(j->clock_name), "%s", names[bi]);
    snprintf(j->time_unit, sizeof(j->time_unit), "%s", units[bs]);
}

int rtj_jack_open(struct rtj_jack *j, const char *server_name, const char *client_name,
                  struct rt_sink *sink, char *err, size_t errlen)
{
    jack_status_t st = 0;
    jack_set_error_function(silent_error);
    jack_set_info_function(silent_error);
    j->sink = sink;
    sink->xruns = &j->xruns;
    jack_options_t opt = JackNoStartServer | (server_name ? JackServerName : 0);
    j->client = server_name ? jack_client_open(client_name, opt, &st, server_name)
                            : jack_client_open(client_name, opt, &st);
    if (!j->client) {
        snprintf(err, errlen, "cannot connect to JACK server '%s' (status 0x%x)",
                 server_name ? server_name : "default", (unsigned)st);
        return -ECONNREFUSED;
    }
    snprintf(j->provider, sizeof(j->provider), "%s", rtj_jack_provider(j->library, sizeof(j->library)));
    const char *v = jack_get_version_string();
    snprintf(j->version, sizeof(j->version), "%s", v ? v : "unknown");
    snprintf(j->server_name, sizeof(j->server_name), "%s", server_name ? server_name :
             (getenv("JACK_DEFAULT_SERVER") ? getenv("JACK_DEFAULT_SERVER") : "default"));
    detect_clock(j);
    j->cycle_times_exact = strcmp(j->provider, "pipewire-jack") == 0 && j->sink->clock == CLOCK_MONOTONIC &&
                           strcmp(j->time_unit, "us") == 0;
    atomic_store(&j->rate_hz, jack_get_sample_rate(j->client));
    atomic_store(&j->nframes, jack_get_buffer_size(j->client));
    j->realtime_server = jack_is_realtime(j->client);

    j->in = jack_port_register(j->client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    j->out = jack_port_register(j->client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (!j->in || !j->out || jack_set_process_callback(j->client, process_cb, j) ||
        jack_set_xrun_callback(j->client, xrun_cb, j) || jack_set_buffer_size_callback(j->client, bufsize_cb, j) ||
        jack_set_sample_rate_callback(j->client, srate_cb, j) || jack_set_thread_init_callback(j->client,
                                                                                              thread_init_cb, j)) {
        snprintf(err, errlen, "cannot register JACK ports or callbacks");
        jack_client_close(j->client);
        j->client = NULL;
        return -EIO;
    }
    if (strcmp(j->provider, "jack2") == 0)
        jack_set_graph_order_callback(j->client, graph_order_cb, j);
    jack_on_info_shutdown(j->client, shutdown_cb, j);
    return 0;
}

int rtj_jack_activate(struct rtj_jack *j)
{
    return jack_activate(j->client) ? -EIO : 0;
}

void rtj_jack_close(struct rtj_jack *j)
{
    if (!j->client)
        return;
    if (!atomic_load(&j->shutdown))
        jack_deactivate(j->client);
    jack_client_close(j->client);
    j->client = NULL;
}
