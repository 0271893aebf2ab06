/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter run`'s engine: a plan executed phase by phase on the main thread. It owns the phase tag that the RT
 * thread copies into every record, and the backend's private state. */
#include "run/run.h"
#include "run/run_state.h"
#include "run/run_spill.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include "run/collector.h"
#include "run/loopback_run.h"
#include "run/run_output.h"
#include "run/signals.h"
#include "run/ramp_driver.h"
#include "run/rt_cpu.h"
#include "loadplan.h"
#include "report/report.h"
#include "report/report_ramp.h"
#include "render/render.h"
#include "render/text.h"
#include "report/thresholds.h"
#include "rtclock.h"
#include "sysinfo/sysinfo.h"
#include "verdict/profile.h"
#include "checks/privileges.h"
#include "util/wrap.h"
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include "util/hurry.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The ring holds a quarter of a second of cycles at least, at the rate the backend opened with (the collector drains
 * it every 50 ms: 5 times the margin, and over twice the 100 ms stalls this VM's host makes), and never fewer than
 * RING_MIN records, so that a later, smaller buffer size still has room (a full ring loses records, counted, never
 * blocks). rt_ring_init rounds up to a power of two: 16 frames at 192 kHz get 4 Ki records, 0.34 s, 288 KiB. The
 * most it held when the collector came (run_stats.ring_high_water) was 1,209 records (0.1 s) with four loads beside
 * stress-ng; half a second (8 Ki records, 576 KiB) was an eighth of the run's private memory there. */
#define RING_PER_S_DIV 4
#define RING_MIN 4096

static size_t ring_records(unsigned rate_hz, unsigned period_frames)
{
    size_t per_s = rate_hz && period_frames ? (rate_hz + period_frames - 1) / period_frames : 0;
    size_t n = per_s / RING_PER_S_DIV;
    return n < RING_MIN ? RING_MIN : n;
}

void run_plan_defaults(struct run_plan *p)
{
    memset(p, 0, sizeof(*p));
    p->backend = rtj_backends[0];
    p->be = (struct backend_config){ .rate_hz = 48000, .period_frames = 64, .nperiods = 2,
                                     .priority = RTJ_AUDIO_PRIORITY, .noise_threshold_us = 5 };
    p->loads = RUN_DEFAULT_LOADS;
    p->duration_s = 10;
    p->warmup_s = 1;
    p->max_xruns = -1;
    p->max_jitter_us = -1;
    p->min_deadlines_pct = -1;
    p->max_wakeup_p99_us = -1;
    p->stop_at_us = -1;
}

/* struct run_state: run/run_state.h */

static int g_exit_fast;
static const char *g_who = "rtjitter run";

const char *run_who(void)
{
    return g_who;
}

void run_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", g_who);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

int run_must_exit_fast(void)
{
    return g_exit_fast;
}

/* Before anything starts: bad input is found at once and gives exit 2. */
static int run_prepare(struct run_state *st)
{
    const struct run_plan *p = st->p;
    char err[512];
    if (profile_load(p->profile ? p->profile : PROFILE_DEFAULT, &st->profile, err, sizeof(err)) < 0) {
        run_err("--profile: %s\n", term_fix(err, sizeof(err))); /* it may quote the file */
        return -EINVAL;
    }
    if (st->be->unavailable(err, sizeof(err)) < 0) {
        run_err("--backend %s cannot run here: %s\n", st->be->name, err);
        return -EINVAL;
    }
    struct run_outputs outs = { .store = p->output, .json = p->json, .html = p->html, .junit = p->junit,
                                .record = p->record, .label = p->label };
    if (run_check_outputs(&outs) < 0)
        return -EINVAL;
    const char *tmpdir = p->tmpdir ? p->tmpdir : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    int e = load_plan_parse(p->loads, tmpdir, &st->plan, err, sizeof(err));
    if (e < 0) {
        /* -EPERM: an unsafe --tmpdir, named in err; anything else is about --loads. */
        run_err("%s%s\n", e == -EPERM ? "" : "--loads: ", err);
        return -EINVAL;
    }
    /* Bad input first (above); then: without real-time rights a run says nothing about the kernel. Say so, with
     * the one fix, and stop, unless asked to measure anyway (or the provider gives real time itself). */
    privileges_check(p->be.priority, &st->priv);
    const char *elsewhere = st->be->realtime_elsewhere ? st->be->realtime_elsewhere() : NULL;
    if ((!st->priv.realtime || !st->priv.mlock) && !elsewhere) {
        /* wrapped to the terminal: a first line of 330 characters is not read (issue 35) */
        int w = wrap_width(stderr);
        char first[64], head[160];
        snprintf(first, sizeof(first), "%s: ", run_who());
        snprintf(head, sizeof(head), "%s.",
                 st->priv.realtime ? "this login cannot lock memory" : "no real-time scheduling for this login");
        wrap_text(stderr, first, 2, w, head);
        wrap_text(stderr, "  why: ", 7, w, st->priv.why);
        wrap_text(stderr, "  fix: ", 7, w, st->priv.fix);
        if (!p->allow_no_rt)
            wrap_text(stderr, "  or: ", 6, w, WRAP_CMD("--allow-no-rt") " measures anyway, as a test of this login's "
                      "scheduling, not a kernel test.");
        if (!p->allow_no_rt)
            return -EPERM;
    }
    if (lbr_wanted(p) && !(st->lbr = lbr_prepare(p)))
        return -EINVAL;
    return 0;
}

/* The phases, one load each: warm-up (discarded), then the measured part. */
static void run_phases(struct run_state *st)
{
    const struct run_plan *p = st->p;
    if (st->calibrated)
        run_calibrate_in_run(st);
    for (int i = 0; i < st->nphases && !st->stop_reason; i++) {
        struct phase_result *res = &st->results[i];
        atomic_store(&st->phase_tag, (unsigned)i << 1);
        load_phase_start(st->plan, i);
        st->part_t0 = mono_s();
        st->part_warming = 1;
        if (run_wait_phase(st, i, p->warmup_s, NULL, p->duration_s) == 0) {
            if (i == 0 && !atomic_load(&st->sink.sched_known))
                run_signals_wait_ms(100); /* a very short warm-up: give the first cycle a chance */
            load_phase_measure(st->plan, i);
            atomic_store(&st->phase_tag, ((unsigned)i << 1) | 1u);
            res->measured = 1;
            st->part_t0 = mono_s();
            st->part_warming = 0;
            struct rt_cpu_reading ra, rb;
            rt_cpu_read(&st->meter, &ra);
            if (st->ramps) {
                struct ramp_wait w = { st, i, res, res->duration_s, mono_s(), 0 };
                rampdrv_drive(&st->dsp, &st->ramps[i], p->dsp_ramp_step_pct, p->dsp_ramp_step_s, run_ramp_wait_step, &w);
                run_ramp_mark(st, i); /* the last step's end */
                res->measured_s = w.measured_s; /* the ramp's own length: it ends at its 1 % point */
            } else {
                run_wait_phase(st, i, p->duration_s, res, p->duration_s);
            }
            /* a stop found in the last wait of the part leaves stop_reason set: the phase was cut short */
            /* rtjitter watch: a stop by signal (Ctrl-C, SIGTERM) is how a session ends, not a cut: complete */
            if (st->watch && st->stop_reason && st->stop_reason == run_signals_reason()) {
                st->stop_reason = NULL;
                res->duration_s = res->measured_s;
            } else if (st->watch) {
                res->duration_s = res->measured_s;
            }
            res->finished = !st->stop_reason;
            atomic_store(&st->phase_tag, (unsigned)(i + 1) << 1);
            rt_cpu_read(&st->meter, &rb);
            st->shares[i] = run_share_json(st, &ra, &rb, st->ramps ? -1.0 : p->be.dsp_pct);
            res->dsp_share = st->shares[i];
        }
        load_phase_stop(st->plan, i, res->load_metrics, &res->load_error);
        /* A supervisor lost at the phase's end (stopped, killed, gone): its loads go now, and the run stops. */
        if (!load_plan_alive(st->plan, st->load_why, sizeof(st->load_why))) {
            load_plan_abort(st->plan);
            if (!st->stop_reason)
                st->stop_reason = st->load_why;
        }
    }
    atomic_store(&st->phase_tag, (unsigned)st->nphases << 1);
    if (st->status_on)
        printf("\r\033[K");
}

/* The exit status of a failed open (backend.h): bad input (a missing, busy or forbidden device, a CPU list that
 * names no CPU here) is 2; anything else (a server that does not answer) is 3. */
static int open_failure_status(int e)
{
    return e == -EINVAL || e == -ENODEV || e == -ENOENT || e == -EBUSY || e == -EACCES || e == -EPERM ? 2 : 3;
}

/* Lock what is mapped now and what is touched later, as it is touched (MCL_ONFAULT): the RT path's memory (the ring,
 * the backend's state, the RT thread's stack) is touched before the first cycle, while a thread's stack or a report
 * tree is not made resident and locked whole. Kernels before 4.4 have no MCL_ONFAULT. 1 when locked: not being able
 * to lock memory or to run real time is the verdict's first advice (audio.privileges). */
static int measure_lock_memory(void)
{
#ifdef MCL_ONFAULT
    return mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0 || mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
#else
    return mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
#endif
}

/* What the RT thread writes through its sink, ready before the backend opens: 0, or the exit status 3. */
static int measure_sink_prepare(struct run_state *st)
{
    atomic_init(&st->phase_tag, 0);
    st->sink.ring = &st->ring; /* sized below, once the backend says how fast its cycles come */
    st->sink.phase_tag = &st->phase_tag;
    st->sink.dsp = &st->dsp; /* before open: a backend with several sinks hands each this pointer */
    /* Each record the ring drops is counted under the tag it carried (phase << 1 | measuring): a phase's `dropped`
     * is exactly its measured records lost, wherever in the phase, and read after the producer has stopped (not
     * a count read by this thread beside the tag's switch, while a cycle of the old tag may still be under way). */
    st->nphases = load_plan_count(st->plan);
    st->sink.ntags = 2u * (unsigned)st->nphases + 1u; /* the last tag: nphases << 1, after the last phase */
    st->lost_by_tag = calloc(st->sink.ntags, sizeof(*st->lost_by_tag));
    if (!st->lost_by_tag) {
        run_err("out of memory\n");
        return 3;
    }
    mlock(st->lost_by_tag, st->sink.ntags * sizeof(*st->lost_by_tag)); /* the RT thread writes it */
    st->sink.lost_by_tag = st->lost_by_tag;
    memset(&st->meter, 0, sizeof(st->meter)); /* touched before the RT threads touch it */
    st->sink.meter = &st->meter;
    if (st->lbr)
        st->sink.cap = lbr_ring(st->lbr); /* sized below with the record ring */
    return 0;
}

/* The backend opened, the record ring sized for its cycles, the culprit engine and the loopback's analysis started:
 * 0, or the exit status (2: bad input, 3). */
static int measure_backend_open(struct run_state *st)
{
    const struct run_plan *p = st->p;
    char err[512];
    int e;
    st->bpriv = calloc(1, st->be->private_size);
    if (!st->bpriv) {
        run_err("out of memory\n");
        return 3;
    }
    mlock(st->bpriv, st->be->private_size); /* the RT thread touches it; mlockall may have failed */
    struct backend_config cfg = p->be;
    cfg.quiet = p->quiet;
    cfg.noise_trace = run_noise_trace; /* --backend noise: the trace's account of its gaps, once the trace opened */
    cfg.noise_trace_arg = st;
    if ((e = st->be->open(st->bpriv, &cfg, &st->sink, err, sizeof(err))) < 0) {
        fprintf(stderr, "%s: %s\n", run_who(), err);
        return open_failure_status(e);
    }
    struct backend_status bs0 = { 0 };
    st->be->status(st->bpriv, &bs0);
    if ((e = rt_ring_init(&st->ring, ring_records(bs0.rate_hz, bs0.period_frames))) < 0) {
        run_err("cannot allocate the record ring: %s\n", strerror(-e));
        return 3;
    }
    run_culprits_start(st); /* before the collector, which tells it of every event and spike */
    if (st->lbr && (e = lbr_start(st->lbr, bs0.rate_hz, bs0.period_frames, err, sizeof(err))) < 0) {
        run_err("%s\n", err);
        return e == -EINVAL ? 2 : 3;
    }
    return 0;
}

/* The DSP work is calibrated once, here, for every backend, and kept in the report: 0, or the exit status 3. */
static int measure_dsp_calibrate(struct run_state *st)
{
    const struct run_plan *p = st->p;
    if (p->be.dsp_pct > 0 || p->dsp_ramp_step_pct > 0) {
        rampdrv_calibrate(&st->dsp, &st->cal);
        st->calibrated = 1;
        if (!(st->cal.units_per_us > 0)) {
            run_err("--dsp: the DSP work could not be calibrated (no try was timed)\n");
            return 3;
        }
        /* The share stays 0 until the in-run calibration (run_phases) has the RT threads' own figure. */
    }
    return 0;
}

/* Each phase's statistics, result, share and ramp, and the soak's histogram: 0, or the exit status 3. */
static int measure_phases_prepare(struct run_state *st)
{
    const struct run_plan *p = st->p;
    st->stats = calloc((size_t)st->nphases, sizeof(*st->stats));
    st->results = calloc((size_t)st->nphases, sizeof(*st->results));
    st->shares = calloc((size_t)st->nphases, sizeof(*st->shares));
    st->nmarks = calloc((size_t)st->nphases, sizeof(*st->nmarks));
    if (!st->stats || !st->results || !st->shares || !st->nmarks) {
        run_err("out of memory\n");
        return 3;
    }
    st->marks_cap = p->dsp_ramp_step_pct > 0 ? (int)floor(100.0 / p->dsp_ramp_step_pct + 1e-9) + 2 : 0;
    if (p->dsp_ramp_step_pct > 0 && (!(st->ramps = calloc((size_t)st->nphases, sizeof(*st->ramps))) ||
                                     !(st->marks = calloc((size_t)st->nphases * (size_t)st->marks_cap,
                                                          sizeof(*st->marks))))) {
        run_err("out of memory\n");
        return 3;
    }
    /* the run's lists shared among its phases: its memory and its report hold one phase's lists, whatever the
     * number of phases (stats/phase.h) */
    struct phase_lists lists;
    phase_lists_share(&lists, st->nphases);
    for (int i = 0; i < st->nphases; i++) {
        phase_init(&st->stats[i]);
        phase_set_lists(&st->stats[i], &lists);
        if (p->spike_us > 0)
            phase_set_spike_threshold(&st->stats[i], (int64_t)(p->spike_us * 1000.0));
        if (st->culprits || st->watch)
            phase_set_notify(&st->stats[i], run_culprits_happening, st);
        if (st->culprits) /* each event summarised is summed under its culprit (stats/eventkeep.h) */
            phase_set_namer(&st->stats[i], run_culprits_name, st);
        st->results[i].stats = &st->stats[i];
        st->results[i].load = load_plan_name(st->plan, i);
        st->results[i].duration_s = st->ramps ? rampdrv_max_s(p->dsp_ramp_step_pct, p->dsp_ramp_step_s) : p->duration_s;
        st->results[i].load_metrics = json_array();
        if (st->ramps && ramp_init(&st->ramps[i], p->dsp_ramp_step_pct, st->cal.units_per_us / 1000.0) < 0) {
            run_err("out of memory\n");
            return 3;
        }
    }
    if (p->soak_s > 0 && run_soak_init(st) < 0) {
        run_err("out of memory\n");
        return 3;
    }
    return 0;
}

/* The collector thread started on the ring and the phases: 0, or the exit status 3. */
static int measure_collector_start(struct run_state *st)
{
    int e;
    st->col.ramps = st->ramps;
    st->col.ring = &st->ring;
    st->col.phases = st->stats;
    st->col.nphases = st->nphases;
    st->col.lost_by_tag = st->lost_by_tag;
    st->col.ntags = st->sink.ntags;
    st->col.clock = st->sink.clock;
    if (st->culprits) {
        st->col.on_cpu = run_culprits_cpu;
        st->col.on_cpu_arg = st;
    }
    if (run_spill_setup(st) < 0) {
        run_err("out of memory\n");
        return 3;
    }
    if ((e = collector_start(&st->col)) < 0) {
        run_err("cannot start the collector thread: %s\n", strerror(-e));
        return 3;
    }
    return 0;
}

/* The idle trap's cure (dma_hold.h), held from before the first cycle to after the last. */
static void measure_dma_take(struct run_state *st)
{
    const struct run_plan *p = st->p;
    int want_dma = p->be.dma_latency || (st->be->dma_latency_default && !p->be.no_dma_latency);
    if (dma_hold_take(&st->dma, "/dev/cpu_dma_latency", want_dma,
                      p->be.no_dma_latency ? "off (--no-dma-latency)"
                                           : "off (this backend's default; --dma-latency holds it)") < 0 &&
        p->be.dma_latency) { /* asked for, not only the backend's default: a warning */
        char w[260];
        snprintf(w, sizeof(w), "--dma-latency: %s", st->dma.note);
        run_warn(st, w);
    }
}

/* The cycles started, the phases run, and what only a running server shows read: the exit status so far (0, 3:
 * stopped or the backend would not start). */
static int measure_cycles(struct run_state *st)
{
    if (st->be->start(st->bpriv) < 0) {
        run_err("cannot start the %s backend\n", st->be->name);
        return 3;
    }
    /* What the server's threads really run at (not what it asked for), read while it runs: a private server is
     * gone by the report. */
    struct backend_status bsv = { 0 };
    st->be->status(st->bpriv, &bsv);
    if (bsv.server_provider)
        st->server_sched = sysinfo_server_sched(bsv.server_provider, bsv.server_name, bsv.server_pid);
    if (st->culprits && st->server_sched && run_culprits_server_pid(st, &bsv) > 0)
        culprit_engine_set_server(st->culprits, run_culprits_server_pid(st, &bsv));
    run_signals_cont_here(st->sink.clock); /* every RT thread runs now, with SIGCONT blocked */
    if (st->watch)
        run_watch_begin(st, &bsv);
    run_phases(st);
    /* the measuring is over: the backend, the culprits and the report are finished at more than a fair share of a
     * busy machine (an interrupted run exits within 2 s); the nice is put back at the end (watch runs on) */
    st->hurried = hurry_begin(0);
    int rc = st->stop_reason ? 3 : 0;
    /* the audio thread and the interrupt threads as the kernel shows them, read while the thread still lives */
    if (atomic_load(&st->sink.sched_known))
        st->client_thread = sysinfo_thread_sched((int)getpid(), atomic_load(&st->sink.tid));
    st->irq_threads = sysinfo_irq_threads("");
    return rc;
}

/* Everything stopped in its order (the backend, the loopback's capture, the collector, then the culprits, which
 * the collector told of the last events), and each phase's records dropped read. */
static void measure_stop(struct run_state *st, struct run_info *ri)
{
    /* The run's own private memory while it measures (jack's shared segments excluded): make bench watches it. */
    ri->stats.private_dirty_kib = run_proc_kib("/proc/self/smaps_rollup", "Private_Dirty:");
    st->abandoned = st->be->stop(st->bpriv) == 1;
    dma_hold_release(&st->dma);
    if (!st->abandoned)
        lbr_stop(st->lbr); /* the RT thread pushes no more: the rest of the capture is analyzed */
    collector_stop(&st->col);
    run_spill_restore(st); /* the phases written out read back: from here on they are as they were */
    run_culprits_stop(st); /* after the collector: it told the last events at its stop */
    for (int i = 0; i < st->nphases; i++) /* the events summed before the engine explained them: to their culprit */
        phase_names_settle(&st->stats[i]);
    run_graph_close(st);
    if (st->watch) {
        watch_feed_poll(st->watch, run_culprits_results(st), 1);
        watch_feed_summary(st->watch); /* the session's, before its report's path */
    }
    for (int i = 0; i < st->nphases; i++)
        if (st->results[i].measured)
            st->results[i].dropped = atomic_load(&st->lost_by_tag[(unsigned)i << 1 | 1u]);
}

/* Open the backend, start the collector and the cycles, run the phases, stop, report. */
static int run_measure(struct run_state *st)
{
    int rc;
    struct run_info ri;
    memset(&ri, 0, sizeof(ri));
    clock_gettime(CLOCK_REALTIME, &ri.started);
    int mlocked = measure_lock_memory();
    if ((rc = measure_sink_prepare(st)) || (rc = measure_backend_open(st)) || (rc = measure_dsp_calibrate(st)) ||
        (rc = measure_phases_prepare(st)) || (rc = measure_collector_start(st)))
        return rc;
    measure_dma_take(st);
    double t_active = mono_s();
    rc = measure_cycles(st);
    measure_stop(st, &ri);
    ri.stats.wall_s = mono_s() - t_active;
    if (rc == 0 && atomic_load(&st->col.soak_tripped))
        rc = 1; /* --stop-at-us: ended at a wake-up beyond the threshold asked for (run_soak.c) */
    return run_report(st, &ri, rc, mlocked);
}

int run_execute(const struct run_plan *p)
{
    struct run_state *st = calloc(1, sizeof(*st));
    if (!st) {
        run_err("out of memory\n");
        return 3;
    }
    st->hurried = HURRY_NONE;
    if (p->who)
        g_who = p->who;
    st->p = p;
    st->watch = p->watch;
    st->dma.fd = -1;
    st->be = p->backend ? p->backend : rtj_backends[0];
    int rc = 2;
    if (run_prepare(st) == 0) {
        st->warnings = json_array();
        st->status_on = !p->quiet && !p->tap && isatty(STDOUT_FILENO);
        struct render_opts ro;
        render_opts_detect(&ro, stdout);
        st->us = ro.ascii ? "us" : "µs";
        run_signals_setup();
        rc = run_measure(st);
    }
    load_plan_free(st->plan);
    if (st->bpriv && !st->abandoned)
        st->abandoned = st->be->stop(st->bpriv) == 1;
    /* the stop's reason may be the backend's own text (its private state, freed below): said from a copy */
    char reason[512];
    if (st->stop_reason)
        snprintf(reason, sizeof(reason), "%s", st->stop_reason);
    if (st->stats) {
        for (int i = 0; i < st->nphases; i++) {
            phase_free(&st->stats[i]);
            json_decref(st->results[i].load_metrics);
        }
    }
    if (st->ramps)
        for (int i = 0; i < st->nphases; i++) {
            ramp_free(&st->ramps[i]);
            json_decref(st->results[i].ramp);
        }
    for (int i = 0; st->shares && i < st->nphases; i++)
        json_decref(st->shares[i]);
    run_soak_free(st);
    run_spill_free(st);
    free(st->shares);
    free(st->marks);
    free(st->nmarks);
    free(st->ramps);
    free(st->stats);
    free(st->results);
    if (!st->abandoned)
        lbr_free(st->lbr); /* its folder goes if the report did not take it */
    if (st->abandoned) {
        g_exit_fast = 1; /* bpriv and the ring stay: the left-behind thread may still touch them */
    } else {
        free(st->bpriv);
        rt_ring_free(&st->ring);
        free(st->lost_by_tag);
    }
    json_decref(st->warnings);
    json_decref(st->profile);
    json_decref(st->server_sched);
    json_decref(st->client_thread);
    json_decref(st->irq_threads);
    run_graph_close(st); /* a run that ended before its collector did (the collector had not started) */
    json_decref(st->graph_json);
    run_culprits_free(st);
    char shown[1024];
    if (p->watch) /* gone, neither hung (a call left behind) nor stopped by a signal: watch may wait for it */
        p->watch->server_gone = rc == 3 && st->provider_lost && !st->abandoned && !run_signals_reason();
    if (st->stop_reason && rc == 3 && p->watch) /* watch is quiet, but the session's end is said (issue 34) */
        fprintf(stderr, "rtjitter watch: the session ended: %s; its report is marked incomplete\n",
                term_str(shown, sizeof(shown), reason));
    else if (st->stop_reason && rc == 3 && !p->quiet)
        fprintf(stderr, "rtjitter: run incomplete: %s\n", term_str(shown, sizeof(shown), reason));
    hurry_end(0, st->hurried);
    free(st);
    return rc;
}
