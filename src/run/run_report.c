/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report of a run (run_state.h): what the backend, the RT thread, the collector and the run's other parts
 * (its stops, --dsp, --loopback, the privileges, a ladder's depths below, the verdict) produced, handed to the one
 * builder (report_build(), report/report.h), then the text on stdout and the outputs. Main thread, after the
 * backend stopped. */
#include "run/run_state.h"
#include "sysinfo/sysinfo.h"
#include "run/run.h"
#include "run/run_stopped.h"
#include "verdict/verdict.h"
#include "util/termtext.h"

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

/* A "Key: N kB" line of a /proc/self file, KiB; -1 when unknown. */
long run_proc_kib(const char *file, const char *key)
{
    FILE *f = fopen(file, "r");
    char line[256];
    long v = -1;
    size_t klen = strlen(key);
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, klen) == 0 && sscanf(line + klen, " %ld", &v) == 1)
            break;
    fclose(f);
    return v;
}

/* The verdict, last: the builder hands it the document as built (verdict/verdict.h). */
struct run_judge {
    const json_t *profile;
    int strict;
    const struct report_limits *lim;
    int exceeded;                  /* verdict_judge()'s: 1 a threshold the user chose was exceeded, -1 no memory */
};

static void run_judge(void *arg, const json_t *doc, struct report_judgement *j)
{
    struct run_judge *rj = arg;
    rj->exceeded = verdict_judge(doc, rj->profile, rj->strict, rj->lim, j);
}

/* audio.client_thread (the audio thread as /proc shows it, else what it read of itself in its first cycle),
 * audio.irq_threads and audio.below_irq_threads: a real-time audio thread below the highest interrupt thread
 * (null when there is no interrupt thread or the audio thread's scheduling is unknown). */
static void priorities_describe(const struct run_state *st, json_t *provider, int known, int pol)
{
    json_t *ct = st->client_thread ? json_incref(st->client_thread) : NULL;
    if (!ct && known)
        ct = json_pack("{s:s, s:i, s:s}", "policy", policy_name(pol), "priority",
                       atomic_load(&st->sink.sched_priority), "read_from",
                       "sched_getscheduler and sched_getparam in the thread's first cycle");
    json_object_set_new(provider, "client_thread", ct ? ct : json_null());
    json_object_set_new(provider, "irq_threads", st->irq_threads ? json_incref(st->irq_threads) : json_null());
    const char *cp = ct ? json_string_value(json_object_get(ct, "policy")) : NULL;
    long long prio = ct ? json_integer_value(json_object_get(ct, "priority")) : -1;
    int n = st->irq_threads ? (int)json_integer_value(json_object_get(st->irq_threads, "count")) : 0;
    json_t *below = json_null();
    if (cp && n > 0) {
        int rtp = strcmp(cp, "SCHED_FIFO") == 0 || strcmp(cp, "SCHED_RR") == 0;
        below = json_boolean(!rtp || prio < sysinfo_irq_floor(st->irq_threads));
    }
    json_object_set_new(provider, "below_irq_threads", below);
}

/* The report of what was measured, its verdict, the text on stdout and the outputs. Returns the exit status. */
int run_report(struct run_state *st, struct run_info *ri, int rc, int mlocked)
{
    const struct run_plan *p = st->p;
    clock_gettime(CLOCK_REALTIME, &ri->finished);
    int known = atomic_load(&st->sink.sched_known);
    int pol = atomic_load(&st->sink.sched_policy);
    if (!known)
        run_warn(st, "no audio cycle ran: the scheduling policy of the audio thread is unknown");
    if (st->col.records_seen == 0)
        rc = 3;
    for (int i = 0; i < st->nphases; i++)
        if (st->stats[i].ignored_records) { /* never silent (a phase keeps PHASE_MAX_SEGMENTS buffer sizes) */
            char w[200];
            snprintf(w, sizeof(w), "phase %s: %llu records of a ninth buffer size were counted and left out of its "
                     "figures (records_unmeasured)", load_plan_name(st->plan, i),
                     (unsigned long long)st->stats[i].ignored_records);
            run_warn(st, w);
        }
    ri->command = p->command_line;
    ri->label = p->label;
    ri->session = p->watch ? "watch" : NULL; /* the phase of no load is the user's own session (the verdict says so) */
    int tripped = rc == 1 && atomic_load(&st->col.soak_tripped); /* --stop-at-us ended it: done as asked */
    ri->complete = rc == 0 || tripped;
    ri->incomplete_reason = rc == 0 || tripped ? NULL : st->stop_reason ? st->stop_reason : "no audio cycle was measured";
    if (st->spill_lost && ri->complete) { /* a phase's figures are missing (run_spill.h): said, never silent */
        ri->complete = 0;
        ri->incomplete_reason = st->spill_lost;
    }
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    json_t *provider = json_object();
    st->be->describe(st->bpriv, provider);
    dma_hold_describe(&st->dma, provider);
    if (p->backend_auto && (!p->auto_chosen || p->auto_chosen == p->backend))
        json_object_set_new(provider, "backend_auto", utf8_json_string(p->backend_auto));
    if (json_object_get(provider, "server_realtime")) {
        /* jack_is_realtime() says what the server asked for; its threads' policy in /proc says what it got. */
        json_object_set(provider, "server_realtime_asked", json_object_get(provider, "server_realtime"));
        /* true or false only as read: a server not found in /proc (another user's) leaves it unknown */
        json_object_set(provider, "server_realtime",
                        st->server_sched ? json_object_get(st->server_sched, "realtime") : json_null());
        json_object_set_new(provider, "server_sched", st->server_sched ? json_incref(st->server_sched) : json_null());
    }
    priorities_describe(st, provider, known, pol);
    json_t *graph = run_graph_json(st);
    if (graph)
        json_object_set_new(provider, "pipewire_graph", graph);
    json_t *notes = json_object_get(provider, "notes"), *note;
    size_t ni;
    json_array_foreach(notes, ni, note)
        json_array_append(st->warnings, note);
    json_object_del(provider, "notes");
    struct audio_info *a = &ri->audio;
    a->backend = st->be->name;
    {
        struct timespec rt, mc;
        clock_gettime(CLOCK_REALTIME, &rt);
        clock_gettime(st->sink.clock, &mc);
        a->wall_offset_ns = (rt.tv_sec - mc.tv_sec) * 1000000000LL + (rt.tv_nsec - mc.tv_nsec);
    }
    a->provider = provider;
    a->rate_hz = (int)bs.rate_hz;
    a->period_frames = (int)bs.period_frames;
    a->realtime = known && (pol == SCHED_FIFO || pol == SCHED_RR);
    a->sched_policy = known ? policy_name(pol) : NULL;
    a->priority = known ? atomic_load(&st->sink.sched_priority) : -1;
    a->priority_requested = p->be.priority;
    a->mlocked = mlocked;
    a->dsp_pct = p->be.dsp_pct;
    a->buffer_changes = (unsigned)bs.size_changes;
    for (int i = 0; st->ramps && i < st->nphases; i++) {
        st->results[i].ramp = report_ramp_json(&st->ramps[i]);
        run_ramp_steps_measured(st, i, st->results[i].ramp);
    }
    run_soak_report(st, a->wall_offset_ns); /* --soak: its phase's "soak" */
    for (int i = 0; st->be->phase_json && i < st->nphases; i++) /* --backend noise: its phase's "noise" */
        st->results[i].noise = st->be->phase_json(st->bpriv, i);
    ri->phases = st->results;
    ri->nphases = st->nphases;
    ri->system = sysinfo_collect("");
    ri->warnings = st->warnings;
    ri->stats.collector_cpu_s = (double)st->col.cpu_ns / 1e9;
    ri->stats.records = st->col.records_seen;
    ri->stats.dropped = rt_ring_dropped(&st->ring);
    ri->stats.ring_capacity = st->ring.capacity;
    ri->stats.ring_high_water = st->col.ring_high;
    ri->stats.peak_rss_kib = run_proc_kib("/proc/self/status", "VmHWM:");
    /* What the run's other parts produced, each placed by the one builder (report_build). */
    struct report_parts *pt = &ri->parts;
    /* rtjitter's own stops (SIGSTOP, Ctrl-Z): the verdict says their skipped cycles are not the kernel's */
    pt->run = run_stopped_json(&st->col, st->plan, a->wall_offset_ns);
    if (st->calibrated) {
        pt->dsp_calibration = rampdrv_calibration_json(&st->cal);
        if (st->ramps)
            pt->dsp_ramp = json_pack("{s:f, s:f, s:f}", "step_pct", p->dsp_ramp_step_pct, "step_s",
                                     p->dsp_ramp_step_s, "one_pct_rule", 100.0 * RAMP_ONE_PCT);
    }
    int record_failed = 0;
    pt->loopback = lbr_report(st->lbr, provider, ri, &record_failed);
    if (record_failed) {
        pt->lost_output = "--record: the capture was not written in full (see loopback.record)";
        run_err("%s\n", pt->lost_output);
    }
    pt->privileges = privileges_json(&st->priv);
    pt->culprits = run_culprits_results(st);
    {
        /* what the culprit engine could not explain for want of samples is said where a reader looks (issue 32:
         * windows never stretch; those happenings are "not known") */
        json_t *sum = pt->culprits && pt->culprits->summary ? pt->culprits->summary(pt->culprits->ctx) : NULL;
        const json_t *smp = json_object_get(sum, "sampler");
        json_int_t late = json_integer_value(json_object_get(smp, "late_windows"));
        json_int_t emptied = json_integer_value(json_object_get(smp, "samples_emptied"));
        char w[256];
        if (late > 0) {
            snprintf(w, sizeof(w), "culprits: %lld happening%s 'not known' because the culprit sampler's samples came "
                     "too late to cover %s (a busy machine)", (long long)late, late == 1 ? " is" : "s are",
                     late == 1 ? "it" : "them");
            json_array_append_new(st->warnings, json_string(w));
        }
        /* the trace's rings lost events in a happening's wait: who held the CPU then is not known (issue 32) */
        json_int_t lost = 0, missed = 0;
        size_t k;
        json_t *src;
        json_array_foreach(json_object_get(smp, "sources"), k, src) {
            lost += json_integer_value(json_object_get(json_object_get(src, "summary"), "lost_waits"));
            missed += json_integer_value(json_object_get(json_object_get(src, "summary"), "missed_waits"));
        }
        if (lost > 0) {
            snprintf(w, sizeof(w), "culprits: %lld happening%s 'not known' because the trace lost events then (its "
                     "ring overflowed: a busy machine)", (long long)lost, lost == 1 ? " is" : "s are");
            json_array_append_new(st->warnings, json_string(w));
        }
        /* the kernel switched the audio CPU with no sched_switch event in a happening's wait (issue 32) */
        if (missed > 0) {
            snprintf(w, sizeof(w), "culprits: %lld happening%s 'not known' because the kernel switched the audio "
                     "CPU then without a sched_switch event", (long long)missed, missed == 1 ? " is" : "s are");
            json_array_append_new(st->warnings, json_string(w));
        }
        if (emptied > 0) {
            snprintf(w, sizeof(w), "culprits: %lld sample%s of the counters kept empty (out of memory)",
                     (long long)emptied, emptied == 1 ? "" : "s");
            json_array_append_new(st->warnings, json_string(w));
        }
        json_decref(sum);
    }
    if (p->ladder_below) /* the verdict judges this depth knowing the ones below */
        pt->ladder = json_pack("{s:s, s:o}", "depth", p->backend->name, "below", json_deep_copy(p->ladder_below));
    struct report_limits lim = { p->max_xruns, p->max_jitter_us, p->min_deadlines_pct, p->max_wakeup_p99_us };
    struct run_judge rj = { st->profile, p->profile != NULL, &lim, 0 };
    pt->judge = run_judge;
    pt->judge_arg = &rj;
    json_t *doc = report_build(ri);
    if (rc == 0 && rj.exceeded)
        rc = 1;
    thresholds_print_failures(stderr, doc, "rtjitter run");
    if (!p->quiet && !p->tap) {
        struct render_opts ro;
        render_opts_detect(&ro, stdout);
        ro.wide = p->wide;
        text_print_report_opts(stdout, doc, &ro);
    }
    struct run_outputs outs = { .store = p->output, .json = p->json, .html = p->html, .junit = p->junit,
                                .label = p->label, .started = ri->started, .tap = p->tap,
                                .saved_path = p->report_path, .saved_path_len = p->report_path_len };
    if (p->tap) /* after the table's place, before the report's path (a TAP comment then) */
        renderer_find("tap")->report(stdout, doc, NULL);
    char stored[4608] = "";
    outs.stored_path = stored;
    outs.stored_path_len = sizeof(stored);
    int written = run_write_outputs(doc, &outs) == 0;
    if (written)
        run_culprits_save_slices(st, stored[0] ? stored : p->json);
    if (!written)
        rc = 3; /* the run did not complete its job: its report is not where it was asked to be */
    if (record_failed)
        rc = 3;
    if (lbr_finish(st->lbr, written) < 0)
        rc = 3; /* the glitch recordings the report names are not where it says */
    if (p->result)
        *p->result = json_incref(doc);
    json_decref(doc);
    json_decref(ri->system);
    json_decref(provider);
    for (int i = 0; i < st->nphases; i++) {
        json_decref(st->results[i].noise);
        st->results[i].noise = NULL;
    }
    return rc;
}
