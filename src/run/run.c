/* `rtjitter run`: the orchestrator. Main thread: options, server, phases, status line, report.
 * It owns the phase tag that the RT thread copies into every record. */
#include "run/run.h"
#include "run/run_output.h"
#include "run/collector.h"
#include "render/html.h"
#include "jack/jack_client.h"
#include "jack/jackserver.h"
#include "loadplan.h"
#include "cli/options.h"
#include "verdict/profile.h"
#include "report/report.h"
#include "report/store.h"
#include "sysinfo/sysinfo.h"
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define DEFAULT_LOADS "none,burn,write,read,compile,memload,video,x" /* interbench's set, none first */
#define RING_RECORDS (1u << 16) /* 64 Ki records of 64 bytes: over 5 s at 12,000 cycles/s */

struct run_opts {
    const char *backend, *server, *device, *loads, *label, *output, *json, *html, *tmpdir;
    int rate, period, nperiods, priority, quiet, max_xruns;
    double duration, warmup, dsp, max_jitter_us;
    const char *profile;
};

static const char *const backends[] = { "jack", NULL };

#define O(f) offsetof(struct run_opts, f)
static const struct opt_def run_defs[] = {
    { "backend", OPT_STR, O(backend), 0, 0, "NAME", "audio backend (default jack)", backends },
    { "server", OPT_STR, O(server), 0, 0, "NAME", "JACK server to use (default: the running one, else a private "
      "dummy server)", NULL },
    { "device", OPT_STR, O(device), 0, 0, "DEV", "private server: ALSA device such as hw:0 (default: dummy driver)",
      NULL },
    { "rate", OPT_INT, O(rate), 8000, 384000, "HZ", "private server: sample rate (default 48000)", NULL },
    { "period", OPT_INT, O(period), 16, 8192, "FRAMES", "private server: frames per period (default 64)", NULL },
    { "nperiods", OPT_INT, O(nperiods), 2, 16, "N", "private server, ALSA driver: periods per buffer (default 2)",
      NULL },
    { "duration", OPT_DOUBLE, O(duration), 0.5, 86400, "SECS", "measuring time of each phase (default 10)", NULL },
    { "warmup", OPT_DOUBLE, O(warmup), 0, 60, "SECS", "discarded start of each phase (default 1)", NULL },
    { "loads", OPT_STR, O(loads), 0, 0, "LIST", "phases, one load each (default " DEFAULT_LOADS "; see "
      "rtjitter loads)", NULL },
    { "dsp", OPT_DOUBLE, O(dsp), 0, 95, "PCT", "burn this share of each period in the callback (default 0)", NULL },
    { "priority", OPT_INT, O(priority), 1, 98, "N", "private server: real-time priority (default 70)", NULL },
    { "tmpdir", OPT_STR, O(tmpdir), 0, 0, "DIR", "where loads may write their files (default $TMPDIR or /tmp)",
      NULL },
    { "label", OPT_STR, O(label), 0, 0, "TEXT", "a name for this run, kept in the report", NULL },
    { "output", OPT_STR, O(output), 0, 0, "DIR", "report store directory (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL },
    { "json", OPT_STR, O(json), 0, 0, "FILE", "also write the JSON report to FILE", NULL },
    { "html", OPT_STR, O(html), 0, 0, "FILE", "also write the report as a self-contained HTML page", NULL },
    { "max-xruns", OPT_INT, O(max_xruns), 0, 1000000000, "N", "exit 1 when more xruns than N", NULL },
    { "max-jitter-us", OPT_DOUBLE, O(max_jitter_us), 0, 1e9, "US", "exit 1 when |jitter| exceeds US", NULL },
    { "profile", OPT_STR, O(profile), 0, 0, "NAME", "judge the run by the thresholds of profile NAME: studio "
      "(default) or live (data/profiles/); exit 1 when it fails", NULL },
    { "quiet", OPT_FLAG, O(quiet), 0, 0, "", "no status line, no table: only errors and the report path", NULL },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL },
};
#undef O

static atomic_int g_signal;
static sigset_t g_stop_signals; /* SIGINT, SIGTERM, SIGHUP: blocked in every thread, taken by sigtimedwait */

/* Async-signal-safe: sets a flag, nothing else. Installed so that the signals are not ignored (a shell starts
 * background jobs with SIGINT ignored, and an ignored signal never becomes pending for sigtimedwait). */
static void on_signal(int sig)
{
    atomic_store(&g_signal, sig);
}

/* Sleep up to ms, waking at once for a stop signal. */
static void wait_signal_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    int sig = sigtimedwait(&g_stop_signals, NULL, &ts);
    if (sig > 0)
        atomic_store(&g_signal, sig);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *policy_name(int pol)
{
    switch (pol) {
    case SCHED_FIFO: return "SCHED_FIFO";
    case SCHED_RR: return "SCHED_RR";
    case SCHED_OTHER: return "SCHED_OTHER";
#ifdef SCHED_BATCH
    case SCHED_BATCH: return "SCHED_BATCH";
#endif
#ifdef SCHED_IDLE
    case SCHED_IDLE: return "SCHED_IDLE";
#endif
    default: return "unknown";
    }
}

struct run_state {
    struct run_opts o;
    struct rt_ring ring;
    atomic_uint phase_tag;
    struct rtj_jack jack;
    struct private_server srv;
    struct collector col;
    struct load_plan *plan;
    struct phase_stats *stats;
    struct phase_result *results;
    int nphases;
    json_t *warnings;
    json_t *profile;               /* the verdict's thresholds (data/profiles/) */
    const char *stop_reason;
    int status_on;
};

/* Why must the run stop now? NULL while it may go on. */
static const char *stop_reason(struct run_state *st)
{
    int sig = atomic_load(&g_signal);
    if (sig == SIGINT)
        return "interrupted (SIGINT)";
    if (sig == SIGTERM)
        return "terminated (SIGTERM)";
    if (sig == SIGHUP)
        return "hung up (SIGHUP)";
    if (atomic_load(&st->jack.shutdown))
        return "the JACK server went away";
    if (st->srv.pid != 0 && !jackserver_alive(&st->srv))
        return "the private JACK server died";
    if (st->col.error)
        return "out of memory in the collector";
    return NULL;
}

static void status_line(struct run_state *st, int phase, double elapsed, double total, int warming)
{
    if (!st->status_on)
        return;
    char when[32];
    if (warming)
        snprintf(when, sizeof(when), "warm-up");
    else
        snprintf(when, sizeof(when), "%.1f/%.0f s", elapsed, total);
    printf("\r\033[K[%d/%d] %-12s %-10s cycles %llu  xruns %llu/%llu  worst jitter %.0f us", phase + 1,
           st->nphases, load_plan_name(st->plan, phase), when,
           (unsigned long long)atomic_load(&st->col.st_cycles), (unsigned long long)atomic_load(&st->jack.xruns),
           (unsigned long long)atomic_load(&st->col.st_detected),
           (double)atomic_load(&st->col.st_worst_jitter_ns) / 1000.0);
    fflush(stdout);
}

/* Wait `secs`, sampling the server's DSP load into pr when given. Returns 0, or -EINTR when the run must stop. */
static int wait_phase(struct run_state *st, int phase, double secs, struct phase_result *pr, double t_total)
{
    double t0 = now_s(), next_status = 0;
    unsigned last_frames = atomic_load(&st->jack.nframes), last_rate = atomic_load(&st->jack.rate_hz);
    while (now_s() - t0 < secs) {
        if ((st->stop_reason = stop_reason(st)))
            return -EINTR;
        wait_signal_ms(50);
        if (pr) {
            double l = jack_cpu_load(st->jack.client);
            pr->cpu_load_mean += (l - pr->cpu_load_mean) / ++pr->cpu_load_samples;
            if (l > pr->cpu_load_max)
                pr->cpu_load_max = l;
            pr->measured_s = now_s() - t0;
        }
        unsigned fr = atomic_load(&st->jack.nframes), ra = atomic_load(&st->jack.rate_hz);
        if (fr != last_frames || ra != last_rate) {
            char w[160];
            snprintf(w, sizeof(w), "buffer changed during phase %s: %u frames @ %u Hz -> %u frames @ %u Hz",
                     load_plan_name(st->plan, phase), last_frames, last_rate, fr, ra);
            json_array_append_new(st->warnings, json_string(w));
            last_frames = fr;
            last_rate = ra;
        }
        if (now_s() >= next_status) {
            status_line(st, phase, now_s() - t0, t_total, pr == NULL);
            next_status = now_s() + 0.25;
        }
    }
    return 0;
}

/* VmHWM of this process, KiB; -1 when unknown. */
static long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %ld", &v) == 1)
            break;
    fclose(f);
    return v;
}

static void setup_signals(sigset_t *blocked)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigemptyset(blocked);
    sigaddset(blocked, SIGINT);
    sigaddset(blocked, SIGTERM);
    sigaddset(blocked, SIGHUP);
}

static void warn(struct run_state *st, const char *msg)
{
    json_array_append_new(st->warnings, json_string(msg));
    if (!st->o.quiet)
        fprintf(stderr, "rtjitter: warning: %s\n", msg);
}

int cmd_run(int argc, char **argv, const char *command_line)
{
    struct run_state *st = calloc(1, sizeof(*st));
    char err[512];
    int rc = 3;
    if (!st) {
        fprintf(stderr, "rtjitter run: out of memory\n");
        return 3;
    }
    st->o = (struct run_opts){ .backend = "jack", .rate = 48000, .period = 64, .nperiods = 2, .duration = 10,
                               .warmup = 1, .loads = DEFAULT_LOADS, .priority = 70, .max_xruns = -1,
                               .max_jitter_us = -1 };
    int np = 0;
    int pr = opts_parse("run", run_defs, &st->o, argc, argv, NULL, 0, &np);
    if (pr != 0) {
        if (pr == 1)
            opts_help(stdout, "run", "[OPTIONS]", run_defs);
        free(st);
        return pr == 1 ? 0 : 2;
    }
    /* Before anything starts: a wrong --profile is bad usage, found at once. */
    if (profile_load(st->o.profile ? st->o.profile : PROFILE_DEFAULT, &st->profile, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter run: --profile: %s\n", err);
        free(st);
        return 2;
    }
    const char *tmpdir = st->o.tmpdir ? st->o.tmpdir : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    if (load_plan_parse(st->o.loads, tmpdir, &st->plan, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter run: --loads: %s\n", err);
        json_decref(st->profile);
        free(st);
        return 2;
    }
    st->warnings = json_array();
    st->status_on = !st->o.quiet && isatty(STDOUT_FILENO);

    setup_signals(&g_stop_signals);
    /* Blocked in every thread (threads created from here on inherit the mask); the main thread takes them
     * synchronously with sigtimedwait() in its wait loop. */
    pthread_sigmask(SIG_BLOCK, &g_stop_signals, NULL);

    struct run_info ri;
    memset(&ri, 0, sizeof(ri));
    clock_gettime(CLOCK_REALTIME, &ri.started);
    int mlocked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
    if (!mlocked)
        warn(st, "memory could not be locked (mlockall): page faults may add latency; raise the memlock limit "
                 "(ulimit -l; the audio group's /etc/security/limits.d/audio.conf)");

    int e = rt_ring_init(&st->ring, RING_RECORDS);
    if (e < 0) {
        fprintf(stderr, "rtjitter run: cannot allocate the record ring: %s\n", strerror(-e));
        goto out;
    }
    atomic_init(&st->phase_tag, 0);

    const char *server = st->o.server;
    if (!server && !rtj_jack_server_running(NULL)) {
        if (strcmp(rtj_jack_provider(NULL, 0), "pipewire-jack") == 0) {
            fprintf(stderr, "rtjitter run: PipeWire's JACK is in use but no PipeWire server is reachable\n");
            goto out;
        }
        if (!st->o.quiet)
            fprintf(stderr, "rtjitter: no JACK server running; starting a private one (%s, %d frames @ %d Hz)\n",
                    st->o.device ? st->o.device : "dummy driver", st->o.period, st->o.rate);
        e = jackserver_start(&st->srv, st->o.device, st->o.rate, st->o.period, st->o.nperiods, st->o.priority,
                             err, sizeof(err));
        if (e < 0) {
            fprintf(stderr, "rtjitter run: %s\n", err);
            goto out;
        }
        server = st->srv.name;
    }
    char client_name[64];
    snprintf(client_name, sizeof(client_name), "rtjitter-%d", (int)getpid());
    e = rtj_jack_open(&st->jack, server, client_name, &st->ring, &st->phase_tag, st->o.dsp, err, sizeof(err));
    if (e < 0) {
        fprintf(stderr, "rtjitter run: %s\n", err);
        goto out;
    }

    st->nphases = load_plan_count(st->plan);
    st->stats = calloc((size_t)st->nphases, sizeof(*st->stats));
    st->results = calloc((size_t)st->nphases, sizeof(*st->results));
    if (!st->stats || !st->results) {
        fprintf(stderr, "rtjitter run: out of memory\n");
        goto out_close;
    }
    for (int i = 0; i < st->nphases; i++) {
        phase_init(&st->stats[i]);
        st->results[i].stats = &st->stats[i];
        st->results[i].load = load_plan_name(st->plan, i);
        st->results[i].duration_s = st->o.duration;
        st->results[i].load_metrics = json_array();
    }
    st->col.ring = &st->ring;
    st->col.phases = st->stats;
    st->col.nphases = st->nphases;
    if ((e = collector_start(&st->col)) < 0) {
        fprintf(stderr, "rtjitter run: cannot start the collector thread: %s\n", strerror(-e));
        goto out_close;
    }
    double t_active = now_s();
    if (rtj_jack_activate(&st->jack) < 0) {
        fprintf(stderr, "rtjitter run: cannot activate the JACK client\n");
        goto out_collector;
    }

    for (int i = 0; i < st->nphases && !st->stop_reason; i++) {
        struct phase_result *res = &st->results[i];
        atomic_store(&st->phase_tag, (unsigned)i << 1);
        load_phase_start(st->plan, i);
        if (wait_phase(st, i, st->o.warmup, NULL, st->o.duration) == 0) {
            if (i == 0 && !atomic_load(&st->jack.sched_known))
                wait_signal_ms(100); /* a very short warm-up: give the first cycle a chance */
            uint64_t d0 = rt_ring_dropped(&st->ring);
            load_phase_measure(st->plan, i);
            atomic_store(&st->phase_tag, ((unsigned)i << 1) | 1u);
            res->measured = 1;
            wait_phase(st, i, st->o.duration, res, st->o.duration);
            atomic_store(&st->phase_tag, (unsigned)(i + 1) << 1);
            res->dropped = rt_ring_dropped(&st->ring) - d0;
        }
        load_phase_stop(st->plan, i, res->load_metrics, &res->load_error);
    }
    atomic_store(&st->phase_tag, (unsigned)st->nphases << 1);
    if (st->status_on)
        printf("\r\033[K");
    rc = st->stop_reason ? 3 : 0;

out_collector:
    rtj_jack_close(&st->jack);
    collector_stop(&st->col);
    ri.stats.wall_s = now_s() - t_active;
    if (!st->stats)
        goto out;
    clock_gettime(CLOCK_REALTIME, &ri.finished);
    {
        int known = atomic_load(&st->jack.sched_known);
        int pol = atomic_load(&st->jack.sched_policy);
        if (!known)
            warn(st, "no audio cycle ran: the scheduling policy of the audio thread is unknown");
        else if (pol != SCHED_FIFO && pol != SCHED_RR)
            warn(st, "the audio thread ran without real-time scheduling: start the JACK server with -R and give "
                     "your user real-time rights (the audio group, /etc/security/limits.d/audio.conf)");
        if (st->col.records_seen == 0)
            rc = 3;
        ri.command = command_line;
        ri.label = st->o.label;
        ri.complete = rc == 0;
        ri.incomplete_reason = rc == 0 ? NULL : st->stop_reason ? st->stop_reason : "no audio cycle was measured";
        struct audio_info *a = &ri.audio;
        a->backend = "jack";
        a->provider = st->jack.provider;
        a->provider_version = st->jack.version;
        a->library = st->jack.library;
        a->server = st->srv.name[0] ? "private" : "external";
        a->server_name = st->jack.server_name;
        a->driver = st->srv.name[0] ? st->srv.driver : NULL;
        a->device = st->srv.name[0] && st->o.device ? st->o.device : NULL;
        a->rate_hz = (int)atomic_load(&st->jack.rate_hz);
        a->period_frames = (int)atomic_load(&st->jack.nframes);
        a->nperiods = st->srv.name[0] && st->o.device ? st->o.nperiods : 0;
        a->clock = st->jack.clock_name;
        a->jack_time_unit = st->jack.time_unit;
        a->clock_offset_us = (double)st->jack.clock_offset_ns / 1000.0;
        a->realtime = known && (pol == SCHED_FIFO || pol == SCHED_RR);
        a->sched_policy = known ? policy_name(pol) : NULL;
        a->priority = known ? atomic_load(&st->jack.sched_priority) : -1;
        a->priority_requested = st->o.priority;
        a->mlocked = mlocked;
        a->server_realtime = st->jack.realtime_server;
        a->dsp_pct = st->o.dsp;
        a->buffer_changes = (unsigned)atomic_load(&st->jack.size_changes);
        ri.phases = st->results;
        ri.nphases = st->nphases;
        ri.system = sysinfo_collect("");
        ri.warnings = st->warnings;
        ri.stats.collector_cpu_s = (double)st->col.cpu_ns / 1e9;
        ri.stats.records = st->col.records_seen;
        ri.stats.dropped = rt_ring_dropped(&st->ring);
        ri.stats.ring_capacity = st->ring.capacity;
        ri.stats.peak_rss_kib = peak_rss_kib();
        json_t *doc = report_build(&ri);
        int exceeded = report_verdict(doc, st->profile, st->o.profile != NULL, st->o.max_xruns,
                                     st->o.max_jitter_us);
        if (rc == 0 && exceeded)
            rc = 1;
        if (!st->o.quiet)
            report_print_text(stdout, doc);
        struct run_outputs outs = { .store = st->o.output, .json = st->o.json, .html = st->o.html,
                                    .label = st->o.label, .started = ri.started };
        run_write_outputs(doc, &outs);
        json_decref(doc);
        json_decref(ri.system);
    }
    goto out;
out_close:
    rtj_jack_close(&st->jack);
out:
    load_plan_free(st->plan);
    if (st->srv.pid != 0)
        jackserver_stop(&st->srv);
    if (st->stats) {
        for (int i = 0; i < st->nphases; i++) {
            phase_free(&st->stats[i]);
            json_decref(st->results[i].load_metrics);
        }
    }
    free(st->stats);
    free(st->results);
    rt_ring_free(&st->ring);
    json_decref(st->warnings);
    json_decref(st->profile);
    if (st->stop_reason && rc == 3 && !st->o.quiet)
        fprintf(stderr, "rtjitter: run incomplete: %s\n", st->stop_reason);
    free(st);
    return rc;
}
