/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's culprit engine and its sources (run_culprits.h). */
#include "run/run_culprits.h"
#include "run/run_state.h"
#include "culprit/culprit_engine.h"
#include "culprit/src_jacklog.h"
#include "culprit/src_pwprof.h"
#include "culprit/src_trace.h"
#include "sysinfo/sysinfo.h"
#include "util/utf8.h"
#include <dirent.h>
#include <sched.h>
#include <sys/stat.h>

/* The sampler's interval at 20 Hz: spikes closer than this to the last one noted are not noted on their own. */
#define RUN_SPIKE_NOTE_GAP_NS 50000000LL

/* The period in force, ns (0 unknown). */
static int64_t period_ns(struct run_state *st)
{
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    return bs.rate_hz ? (int64_t)bs.period_frames * 1000000000LL / bs.rate_hz : 0;
}

/* A source that opened is the engine's; one that did not is named in the summary with its reason. */
static int add(struct run_state *st, const char *name, int rc, const struct culprit_source *src, const char *err)
{
    if (rc == 0 && culprit_engine_add_source(st->culprits, src) == 0)
        return 0;
    if (rc == 0 && src->close)
        src->close(src->ctx);
    culprit_engine_source_unavailable(st->culprits, name, rc == 0 ? "too many sources" : err);
    return -1;
}

/* The audio server's log: --server-log FILE, else the private jackd's own log, else jackdbus's where it exists. */
static void add_server_log(struct run_state *st, const struct backend_status *bs)
{
    const struct run_plan *p = st->p;
    char path[4096] = "", err[256] = "";
    int from_start = 0;
    if (p->server_log)
        snprintf(path, sizeof(path), "%s", p->server_log);
    else if (bs->server_log) {
        snprintf(path, sizeof(path), "%s", bs->server_log);
        from_start = 1; /* a private server's log is new: every line of it is of this run */
    } else if (bs->server_provider && strcmp(bs->server_provider, "jack2") == 0 &&
               jacklog_default_path(path, sizeof(path)) < 0) {
        culprit_engine_source_unavailable(st->culprits, "jackd log", "no --server-log FILE, and no jackdbus log "
                                          "($HOME/.log/jack/jackdbus.log): the clients that did not finish are not "
                                          "named by the server");
        return;
    }
    if (!path[0])
        return;
    struct culprit_source src;
    int rc = jacklog_source_open(path, from_start, st->sink.clock, &src, err, sizeof(err));
    if (rc < 0 && p->server_log) /* asked for by name: said, not only kept in the summary */
        run_warn(st, err);
    add(st, "jackd log", rc, &src, err);
}

/* Under PipeWire: its profiler, opened once the node runs, before the collector (which folds the graph's xruns into
 * the events) and the engine (which names them). */
static void open_graph(struct run_state *st, const char *own)
{
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    if (!bs.server_provider || strncmp(bs.server_provider, "pipewire", 8) != 0) /* pw-jack, or the native node */
        return;
    if (pwprof_source_open(st->sink.clock, own, &st->graph_src, st->graph_why, sizeof(st->graph_why)) < 0) {
        char w[512];
        snprintf(w, sizeof(w), "PipeWire's own xrun accounting is not read (only our node's frame-clock gaps and "
                 "the xruns the library tells find events): %s", st->graph_why);
        run_warn(st, w);
        return;
    }
    st->graph_open = 1;
    st->col.graph_take = run_graph_take;
    st->col.graph_arg = st;
}

int run_graph_take(void *arg, struct pwgraph_dist *out, int max, int64_t *known_ns)
{
    struct run_state *st = arg;
    return pwprof_graph_take(&st->graph_src, out, max, known_ns);
}

json_t *run_graph_json(struct run_state *st)
{
    if (st->graph_json)
        return json_incref(st->graph_json);
    return st->graph_why[0] ? json_pack("{s:o}", "unavailable", utf8_json_string(st->graph_why)) : NULL;
}

void run_graph_close(struct run_state *st)
{
    if (!st->graph_open)
        return;
    json_t *j = pwprof_graph_summary(&st->graph_src);
    json_object_set_new(j, "folded_into_cycles", json_integer((json_int_t)st->col.graph_xruns));
    json_object_set_new(j, "told_late", json_integer((json_int_t)st->col.graph_late));
    json_object_set_new(j, "dropped_by_collector", json_integer((json_int_t)st->col.graph_dropped));
    st->graph_json = j;
    if (st->graph_src.close)
        st->graph_src.close(st->graph_src.ctx);
    st->graph_open = 0;
}

void run_culprits_start(struct run_state *st)
{
    const struct run_plan *p = st->p;
    char own[64];
    snprintf(own, sizeof(own), "rtjitter-%d", (int)getpid()); /* the JACK client's and the PipeWire node's name */
    open_graph(st, own);
    if (p->no_culprits)
        return;
    struct culprit_config cfg = { .clock = st->sink.clock, .hz = 20, .history_s = 30, .audio_pid = (int)getpid(),
                                  .period_ns = period_ns(st), .own_client = own };
    /* watch is left on for hours: while nothing happens it samples /proc at 4 Hz, not 20 (issue 34), and any
     * event's first cycle brings 20 Hz back at once (run_culprits_happening) */
    if (st->watch)
        cfg.quiet_hz = 4;
    struct backend_status bs0 = { 0 };
    st->be->status(st->bpriv, &bs0);
    cfg.server_pid = bs0.server_pid;
    cfg.xrun_notes = bs0.xrun_notes;
    char err[256];
    if (!(st->culprits = culprit_engine_start(&cfg, err, sizeof(err)))) {
        char w[320];
        snprintf(w, sizeof(w), "culprits: the sampler did not start: %s", err);
        run_warn(st, w);
        return;
    }
    st->culprit_res = culprit_engine_results(st->culprits); /* looked up while it runs too (rtjitter watch) */
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    add_server_log(st, &bs);
    if (st->graph_open) { /* the same connection: the engine holds it too */
        pwprof_source_hold(&st->graph_src);
        add(st, "PipeWire profiler", 0, &st->graph_src, "");
    } else if (st->graph_why[0]) {
        add(st, "PipeWire profiler", -1, NULL, st->graph_why);
    }
}

int run_culprits_server_pid(const struct run_state *st, const struct backend_status *bs)
{
    int pid = st->server_sched ? (int)json_integer_value(json_object_get(st->server_sched, "pid")) : 0;
    return pid > 0 ? pid : bs->server_pid;
}

/* The audio server's real-time threads (its driver's and its graph's): their waits are the audio's too. */
static void watch_server_threads(struct culprit_source *src, int server_pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", server_pid);
    DIR *d = server_pid > 0 ? opendir(path) : NULL;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        int tid = atoi(de->d_name);
        int pol = tid > 0 ? sched_getscheduler(tid) : -1;
        if (pol == SCHED_FIFO || pol == SCHED_RR)
            trace_source_server_tid(src, tid);
    }
    if (d)
        closedir(d);
}

/* The kernel's tick from its configuration (CONFIG_HZ), 0 when not known. */
/* The kernel's tick, and the exit latency of the slowest idle state enabled on some CPU (0: none, the CPUs halt) as
 * the system identity reads them. */
static void kernel_facts(int64_t *tick_ns, int64_t *idle_exit_ns)
{
    json_t *sys = sysinfo_collect("");
    json_t *hz = json_object_get(json_object_get(sys, "kernel"), "hz");
    *tick_ns = json_is_integer(hz) && json_integer_value(hz) > 0 ? 1000000000LL / json_integer_value(hz) : 0;
    const json_t *states = json_object_get(json_object_get(json_object_get(sys, "cpu"), "idle"), "states"), *s;
    size_t i;
    *idle_exit_ns = states ? 0 : -1;
    json_array_foreach(states, i, s) {
        json_int_t lat = json_integer_value(json_object_get(s, "latency_us"));
        if (json_integer_value(json_object_get(s, "enabled_cpus")) > 0 && lat * 1000 > *idle_exit_ns)
            *idle_exit_ns = lat * 1000;
    }
    json_decref(sys);
}

/* With privileges (root, or a tracefs the user's group may write): observed evidence from a trace, the audio
 * threads' waits accounted by who held their CPU (so opened once the audio thread's tid is known). */
static void add_trace(struct run_state *st, int tid)
{
    char err[256];
    struct culprit_source src;
    int rc = trace_source_open(NULL, st->sink.clock, &src, err, sizeof(err));
    if (rc == 0) {
        int64_t tick_ns, idle_exit_ns;
        kernel_facts(&tick_ns, &idle_exit_ns);
        trace_source_tick(&src, tick_ns);
        trace_source_period(&src, period_ns(st));
        if (st->watch) /* it explains within ~0.3 s of a happening's end: half the segments (trace_stream.h) */
            trace_source_segments(&src, TRACE_SEG_BUDGET_WATCH);
        if (idle_exit_ns >= 0)
            trace_source_idle_exit(&src, idle_exit_ns);
        /* the timer backend's threads sleep on their own timers, due at the cycles' starts */
        trace_source_own_timer(&src, strcmp(st->be->name, "timer") == 0);
        trace_source_ignore_tid(&src, tid); /* the primary: its cycles' due times are the happenings' starts */
        const struct rt_meter *m = st->sink.meter; /* our other real-time threads (the timer's, one a CPU) */
        int claimed = m ? atomic_load(&m->claimed) : 0;
        for (int i = 0; i < claimed && i < RT_METER_SLOTS; i++)
            trace_source_ignore_tid(&src, atomic_load(&m->slot[i].tid));
        struct backend_status bs = { 0 };
        st->be->status(st->bpriv, &bs);
        /* a server rtjitter did not start (watch beside a session) is known only by the pid found for it by name:
         * without it, its driver's waits went unseen and a happening it made late was "not known" (jackd's driver
         * held 2.6-5.3 ms by a kworker, perf; the report: "waited only 79 us") */
        watch_server_threads(&src, run_culprits_server_pid(st, &bs));
        st->trace_slices = trace_source_slices(&src);
    }
    if (add(st, "tracefs", rc, &src, err) == 0) { /* the noise probe may ask it about its gaps from now on */
        st->trace_src = src;
        atomic_store_explicit(&st->trace_live, 1, memory_order_release);
    }
}

int run_noise_trace(void *arg, int cpu, int tid, int64_t t0_ns, int64_t t1_ns, struct noise_trace_answer *out)
{
    struct run_state *st = arg;
    if (!atomic_load_explicit(&st->trace_live, memory_order_acquire))
        return -ENOENT;
    return trace_source_span(&st->trace_src, cpu, tid, t0_ns, t1_ns, out);
}

void run_culprits_audio(struct run_state *st)
{
    if (!st->culprits || st->culprits_audio_told || !atomic_load(&st->sink.sched_known))
        return;
    st->culprits_audio_told = 1;
    int pol = atomic_load(&st->sink.sched_policy), tid = atomic_load(&st->sink.tid);
    culprit_engine_set_audio(st->culprits, tid,
                             pol == SCHED_FIFO || pol == SCHED_RR ? atomic_load(&st->sink.sched_priority) : 0);
    if (!st->p->no_trace)
        add_trace(st, tid);
    else
        culprit_engine_source_unavailable(st->culprits, "tracefs", "not asked for (--no-trace)");
}

/* The trace's slices beside the saved report: REPORT.trace/trace-NN-cpuC.txt (none saved: nothing said). */
void run_culprits_save_slices(struct run_state *st, const char *report_path)
{
    if (!st->trace_slices || !report_path || !report_path[0])
        return;
    char dir[4200], err[256];
    size_t n = strlen(report_path);
    if (n > 5 && strcmp(report_path + n - 5, ".json") == 0)
        n -= 5;
    snprintf(dir, sizeof(dir), "%.*s.trace", (int)n, report_path);
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        fprintf(stderr, "rtjitter: the trace slices were not saved: %s: %s\n", dir, strerror(errno));
        return;
    }
    /* said only when it fails: stdout is the table's and the report path's (--tap: TAP's) */
    if (trace_slices_save(st->trace_slices, dir, err, sizeof(err)) < 0)
        fprintf(stderr, "rtjitter: the trace slices were not saved: %s\n", err);
}

void run_culprits_happening(void *arg, const struct phase_stats *p, enum phase_happening what, int64_t start_ns,
                            int64_t end_ns, int cpu, int64_t callback_max_ns)
{
    struct run_state *st = arg;
    int phase = (int)(p - st->stats);
    if (st->watch) { /* the size of the event's own cycles: the segment it is told from */
        const struct segment *s = p->telling;
        watch_feed_note(st->watch, what, start_ns, end_ns, s ? s->nframes : 0, s ? s->rate_hz : 0);
    }
    if (st->culprits && what == PH_EVENT_BEGIN)
        culprit_engine_wake(st->culprits);
    if (!st->culprits || what == PH_EVENT_BEGIN || what == PH_BUFFER)
        return;
    if (what == PH_SPIKE_DROPPED) {
        /* no longer listed: the engine need not keep its culprits. Not without the trace: there a listed spike
         * that was not noted (below) shares those of the one noted before it, which may be this one. Kept, they
         * grow only as spikes enter the list: about 128 x ln(n / 128) in n spikes (phase.h) */
        if (st->trace_slices)
            culprit_engine_forget(st->culprits, CS_SPIKE, phase, start_ns);
        return;
    }
    /* one spike a sample interval is noted, the others sharing its window (culprit_engine.h), unless a trace follows
     * the audio threads: then each has its own wait */
    if (what == PH_SPIKE && !st->trace_slices) {
        if (st->spike_noted_ns && phase == st->spike_noted_phase && start_ns >= st->spike_noted_ns &&
            start_ns - st->spike_noted_ns <= RUN_SPIKE_NOTE_GAP_NS)
            return;
        st->spike_noted_ns = start_ns;
        st->spike_noted_phase = phase;
    }
    culprit_engine_note(st->culprits, what == PH_SPIKE ? CS_SPIKE : CS_EVENT, phase, start_ns, end_ns, cpu,
                        callback_max_ns);
}

void run_culprits_cpu(void *arg, int cpu)
{
    struct run_state *st = arg;
    if (st->culprits)
        culprit_engine_audio_cpu(st->culprits, cpu);
}

void run_culprits_stop(struct run_state *st)
{
    atomic_store_explicit(&st->trace_live, 0, memory_order_release);
    if (!st->culprits)
        return;
    culprit_engine_stop(st->culprits); /* st->culprit_res, set at the start, stays valid until the free */
}

const struct culprit_results *run_culprits_results(struct run_state *st)
{
    return st->culprits ? &st->culprit_res : NULL;
}

void run_culprits_free(struct run_state *st)
{
    atomic_store_explicit(&st->trace_live, 0, memory_order_release);
    if (st->trace_slices)
        trace_slices_unref(st->trace_slices);
    st->trace_slices = NULL;
    culprit_engine_free(st->culprits);
    st->culprits = NULL;
}

int run_culprits_name(void *arg, const struct phase_stats *p, int64_t start_ns, int force, char *kind,
                      size_t kind_len, char *name, size_t name_len)
{
    struct run_state *st = arg;
    struct culprit c[1];
    int phase = (int)(p - st->stats);
    /* not explained yet (the engine explains ~0.7 s after an event): asked again later, summed to its culprit then */
    if (!force && culprit_engine_pending(st->culprits, CS_EVENT, phase, start_ns))
        return 0;
    int n = st->culprit_res.lookup ? st->culprit_res.lookup(st->culprit_res.ctx, CS_EVENT, phase, start_ns, c, 1) : 0;
    /* the event left the report's detail for good: the engine need not hold its culprits any more (its memory stays
     * bounded whatever the session's length) */
    culprit_engine_forget(st->culprits, CS_EVENT, phase, start_ns);
    if (n < 1)
        return 1; /* not known: summed as such */
    snprintf(kind, kind_len, "%s", culprit_kind_name(c[0].kind));
    snprintf(name, name_len, "%s", c[0].name);
    return 1;
}
