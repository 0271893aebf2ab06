/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the report document from a run. Every string from outside (the label, the command line, load names
 * and errors, the server's names) goes in through utf8_json_string(): jansson would drop it, key and all, if it
 * were not UTF-8. */
#include "report/report.h"
#include "report/doc.h"
#include "report/report_culprits.h"
#include "report/report_events.h"
#include "stats/timeline.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

json_t *report_metric_json(const struct metric_stats *m)
{
    if (m->count == 0)
        return json_null();
    static const struct { const char *k; double q; } qs[] = {
        { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 }, { "p9999", 0.9999 },
    };
    json_t *o = json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "count", (json_int_t)m->count,
                          "mean", m->w.mean / 1000.0, "sd", welford_sd(&m->w) / 1000.0,
                          "min", us(m->min), "max", us(m->max), "abs_max", us(m->abs_max));
    /* A q-quantile needs at least 1/(1 - q) values to say anything beyond the maximum: null below that. */
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
        json_object_set_new(o, qs[i].k, quantile_defined(m->count, qs[i].q)
                                            ? json_real(us(metric_quantile(m, qs[i].q))) : json_null());
    return o;
}

/* |jitter|'s p99 and p99.9, the jitter figures the tables show (a cycle early by 500 µs follows one late by as
 * much): computed here once, by the rule of the other quantiles, and read by every renderer, the verdict and
 * compare through phasefig_quantile() (report/phase_figures.h). */
static void abs_quantiles_json(json_t *o, const struct metric_stats *m)
{
    static const struct { const char *k; double q; } qs[] = { { "abs_p99", 0.99 }, { "abs_p999", 0.999 } };
    for (size_t i = 0; json_is_object(o) && i < sizeof(qs) / sizeof(qs[0]); i++)
        json_object_set_new(o, qs[i].k, quantile_defined(m->count, qs[i].q)
                                            ? json_real(us(metric_abs_quantile(m, qs[i].q))) : json_null());
}

json_t *report_hist_json(const struct histogram *h)
{
    json_t *a = json_array();
    struct hist_iter it = { 0 };
    int neg, b;
    uint64_t n, lo, hi;
    while (hist_next(h, &it, &neg, &b, &n)) { /* most negative first: a negative bucket's edges are mirrored */
        hist_bucket_edges(b, &lo, &hi);
        double x0 = neg ? -(double)hi : (double)lo, x1 = neg ? -(double)lo : (double)hi;
        json_array_append_new(a, json_pack("[f,f,I]", x0 / 1000.0, x1 / 1000.0, (json_int_t)n));
    }
    return a;
}

/* The timeline of a long run stays small, by stats/timeline.h's rule (compacted as the run goes, so that a soak's
 * memory stays flat too): every second of the first and last TL_EDGE_S seconds and within TL_NEAR_S of any event (an
 * xrun, a missed deadline, a wake-up or jitter spike over half a period) alone, entries of up to TL_SPAN_S seconds
 * elsewhere. A longer entry has "span_s" (the seconds it covers); its counts are sums, its maxima maxima, its p99s
 * the largest per-second p99 in it. On a machine where nearly every second has an event, the seconds kept alone are
 * capped at TL_DETAIL_MAX: then the worst eventful seconds (xrun events first, then missed deadlines, then the
 * largest spike) stand alone, without their neighbours, and the phase says how many eventful seconds were folded
 * ("timeline_detail"). Nothing is lost from the counts either way. A 24 h soak of 8 phases: at most about
 * 8 x (120 + 3,000 + 2 x 1,440) entries, under 20 MB, not 200. */
static json_t *second_json(uint64_t s0, size_t span, const struct second_stats *ss)
{
    json_t *o = json_pack("{s:I, s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
        "s", (json_int_t)s0, "cycles", (int)ss->cycles, "xruns_reported", (int)ss->xruns_reported,
        "xruns_detected", (int)ss->xruns_detected, "xrun_events", (int)ss->xrun_events,
        "deadlines_missed", (int)ss->deadlines_missed,
        "period_max_us", us(ss->period_max),
        "jitter_abs_max_us", us(ss->jitter_abs_max), "jitter_abs_p99_us", us(ss->jitter_abs_p99),
        "wakeup_max_us", us(ss->wakeup_max), "wakeup_p99_us", us(ss->wakeup_p99),
        "callback_max_us", us(ss->callback_max),
        "margin_min_us", ss->margin_min == INT64_MAX ? json_null() : json_real(us(ss->margin_min)));
    if (span > 1)
        json_object_set_new(o, "span_s", json_integer((json_int_t)span));
    return o;
}

static json_t *timeline_json(const struct segment *s, uint64_t *folded)
{
    json_t *a = json_array();
    struct tl_entry *e = NULL;
    size_t n = 0;
    *folded = 0;
    if (timeline_view(s, &e, &n, folded) < 0)
        return a; /* out of memory: an empty timeline; the phase's own figures stand */
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, second_json(e[i].s0, e[i].span, &e[i].st));
    free(e);
    return a;
}

/* Where the phase's happenings go (events, spikes and their culprits): the run's phase index, what explains them. */
struct phase_place {
    int64_t wall_off_ns;
    const struct culprit_results *culprits;
    int phase;
};

static json_t *phase_json(const struct phase_result *pr, const struct segment *s, int nseg,
                          const struct phase_place *at)
{
    json_t *o = json_object();
    json_object_set_new(o, "load", utf8_json_string(pr->load));
    json_object_set_new(o, "duration_s", json_real(pr->duration_s));
    json_object_set_new(o, "measured_s", json_real(pr->measured_s));
    /* false: the run stopped during this phase's measured part (its figures cover measured_s only) */
    json_object_set_new(o, "finished", json_boolean(pr->finished));
    json_object_set_new(o, "period_frames", s ? json_integer(s->nframes) : json_null());
    json_object_set_new(o, "rate", s ? json_integer(s->rate_hz) : json_null());
    json_object_set_new(o, "period_us", s && s->rate_hz ? json_real((double)s->nframes * 1e6 / s->rate_hz)
                                                        : json_null());
    json_object_set_new(o, "cycles", json_integer(s ? (json_int_t)s->cycles : 0));
    /* First and last measured cycle entry, in seconds of the measurement clock (audio.clock): lets a test or
     * another tool line up events it timed on the same clock. */
    json_object_set_new(o, "clock_window_s", s && s->cycles ? json_pack("[f,f]", (double)s->t0_ns / 1e9,
                                                                        (double)s->prev_entry_ns / 1e9)
                                                            : json_null());
    /* The same, exact: integer ns (8 significant digits of seconds lose 0.1 s after 11 days of uptime). */
    json_object_set_new(o, "clock_window_ns", s && s->cycles ? json_pack("[I,I]", (json_int_t)s->t0_ns,
                                                                         (json_int_t)s->prev_entry_ns)
                                                             : json_null());
    /* Dropped records belong to the phase, not to a buffer size: shown on every segment of it. */
    json_object_set_new(o, "dropped", json_integer((json_int_t)pr->dropped));
    json_object_set_new(o, "segments_in_phase", json_integer(nseg));
    /* events: the cycles on which the provider's counter changed or the frame clock skipped (one stall is one
     * event); reported: the provider's raw notifications (jack2 sends one per unfinished client and one per
     * driver xrun; PipeWire collapses them); detected: frame-clock gaps; skipped_cycles: the cycles lost in them. */
    json_object_set_new(o, "xruns", json_pack("{s:I, s:I, s:I, s:I}",
        "events", (json_int_t)(s ? s->xrun_events : (pr->stats->pending_xruns ? 1 : 0)),
        "reported", (json_int_t)(s ? s->xruns_reported : pr->stats->pending_xruns),
        "detected", (json_int_t)(s ? s->xruns_detected : 0),
        "skipped_cycles", (json_int_t)(s ? s->skipped_cycles : 0)));
    /* Each event: when it began (the measurement clock and the wall clock), how long it lasted, what it disturbed.
     * The latest and the worst are listed (stats/eventkeep.h); events_unlisted counts the rest, which
     * events_summary sums per minute and per culprit. */
    json_object_set_new(o, "events", report_events_json(s, at->wall_off_ns, at->culprits, at->phase));
    json_object_set_new(o, "events_unlisted", json_integer((json_int_t)report_events_unlisted(s)));
    json_object_set_new(o, "events_summary", s ? report_events_summary_json(s, at->wall_off_ns) : json_null());
    /* Wake-up spikes: cycles that woke later than spike_threshold_us without an xrun (stats/phase.h), listed like
     * the events, measured whether or not anything explains them; then the phase's top culprits, when sought. */
    json_object_set_new(o, "spikes", report_spikes_json(s, at->wall_off_ns, at->culprits, at->phase));
    json_object_set_new(o, "spikes_unlisted", json_integer(s ? (json_int_t)s->spikes_unlisted : 0));
    /* the most this phase could list: its share of the run's lists (stats/phase.h, struct phase_lists) */
    json_object_set_new(o, "spikes_listed_max", s ? json_integer((json_int_t)segment_spikes_max(s))
                                                  : json_null());
    json_object_set_new(o, "spike_threshold_us", s && s->spike_threshold_ns != INT64_MAX
                                                     ? json_real(us(s->spike_threshold_ns)) : json_null());
    if (at->culprits)
        json_object_set_new(o, "top_culprits", report_top_culprits(json_object_get(o, "events"),
                                                                   json_object_get(o, "spikes")));
    /* How wake-up was measured: "grid" (the frame clock's fitted grid, ns resolution, lateness beyond the
     * earliest cycles), "provider" (the provider's exact cycle start: a timer's deadline), or "mixed". */
    json_object_set_new(o, "wakeup_method", !s ? json_null() : json_string(
        s->wake_grid && s->wake_provider ? "mixed" : s->wake_grid ? "grid" : "provider"));
    /* rephases: the frame clock re-phased against real time and the grid was fitted anew; wakeup_coarse: cycles
     * meanwhile measured from the provider's whole-frame start. */
    json_object_set_new(o, "rephases", json_integer(s ? (json_int_t)s->rephases : 0));
    json_object_set_new(o, "wakeup_coarse", json_integer(s ? (json_int_t)s->wake_coarse : 0));
    /* No wake-up is reported before its cycle by more than the stated resolution: cycles that came before the
     * fitted grid lowered it (wakeup_reanchored, their wake-up 0), those it could not place are left out of the
     * wake-up figures (wakeup_left_out). */
    json_object_set_new(o, "wakeup_reanchored", json_integer(s ? (json_int_t)s->wake_reanchored : 0));
    json_object_set_new(o, "wakeup_left_out", json_integer(s ? (json_int_t)s->wake_left_out : 0));
    json_object_set_new(o, "records_lost", json_integer(s ? (json_int_t)s->records_lost : 0));
    json_object_set_new(o, "discontinuities", json_integer(s ? (json_int_t)s->discontinuities : 0));
    json_object_set_new(o, "duplicates", json_integer(s ? (json_int_t)s->duplicates : 0));
    /* the phase's records of a buffer size past its PHASE_MAX_SEGMENTS segments: counted, in no figure (on every
     * segment of it, like dropped) */
    json_object_set_new(o, "records_unmeasured", json_integer((json_int_t)pr->stats->ignored_records));
    json_t *hist = json_object();
    for (int m = 0; m < M_COUNT; m++) {
        char key[32];
        snprintf(key, sizeof(key), "%s_us", metric_names[m]);
        json_object_set_new(o, key, s ? report_metric_json(&s->m[m]) : json_null());
        if (s && m == M_JITTER)
            abs_quantiles_json(json_object_get(o, key), &s->m[m]);
        if (s && s->m[m].count)
            json_object_set_new(hist, metric_names[m], report_hist_json(&s->m[m].hist));
    }
    /* Against the cycles the frame clock says should have run: a cycle that never ran missed its deadline. */
    uint64_t with_deadline = s ? s->cycles_due : 0;
    json_object_set_new(o, "deadlines_met_pct",
                        with_deadline ? json_real(100.0 * (double)s->deadlines_met / (double)with_deadline)
                                      : json_null());
    json_object_set_new(o, "deadlines_missed", json_integer(with_deadline ? (json_int_t)(with_deadline -
                                                                          s->deadlines_met) : 0));
    json_object_set_new(o, "desired_cpu_pct", s && s->dsp_req ? json_real(100.0 * (double)s->dsp_done /
                                                                           (double)s->dsp_req)
                                                              : json_null());
    json_object_set_new(o, "dsp_cut_short", json_integer(s ? (json_int_t)s->dsp_cut_short : 0));
    double period_ns = s && s->rate_hz ? (double)s->nframes * 1e9 / s->rate_hz : 0;
    json_object_set_new(o, "dsp_load", json_pack("{s:o, s:o, s:o, s:o}",
        "callback_mean_pct", s && s->m[M_CALLBACK].count ? json_real(100.0 * s->m[M_CALLBACK].w.mean / period_ns)
                                                         : json_null(),
        "callback_max_pct", s && s->m[M_CALLBACK].count ? json_real(100.0 * (double)s->m[M_CALLBACK].max / period_ns)
                                                        : json_null(),
        "server_mean_pct", pr->cpu_load_samples ? json_real(pr->cpu_load_mean) : json_null(),
        "server_max_pct", pr->cpu_load_samples ? json_real(pr->cpu_load_max) : json_null()));
    if (pr->dsp_share)
        json_object_set(o, "dsp_share", pr->dsp_share);
    if (pr->ramp)
        json_object_set(o, "dsp_ramp", pr->ramp);
    if (pr->soak)
        json_object_set(o, "soak", pr->soak);
    if (pr->noise)
        json_object_set(o, "noise", pr->noise);
    json_object_set_new(o, "load_metrics", pr->load_metrics ? json_incref(pr->load_metrics) : json_array());
    json_object_set_new(o, "load_error", utf8_json_string(pr->load_error));
    json_object_set_new(o, "histograms", hist);
    uint64_t folded = 0;
    json_object_set_new(o, "timeline", s ? timeline_json(s, &folded) : json_array());
    /* Seconds with an event that were folded into minute entries (more than the timeline keeps alone): their
     * counts are in those entries; only their own second is not shown. */
    if (folded)
        json_object_set_new(o, "timeline_detail", json_pack("{s:I, s:i, s:s}", "eventful_seconds_folded",
            (json_int_t)folded, "seconds_kept_alone_max", (int)tl_alone_max(&s->tl), "kept", "the worst: xrun events, then "
            "missed deadlines, then the largest spike"));
    return o;
}

static json_t *iso_time(struct timespec ts)
{
    char buf[64];
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

void report_place_judgement(json_t *doc, struct report_judgement *j)
{
    json_t **part[3] = { &j->thresholds, &j->profile, &j->verdict };
    const char *key[3] = { "thresholds", "profile", "verdict" };
    for (int i = 0; i < 3; i++) {
        if (*part[i])
            json_object_set_new(doc, key[i], *part[i]);
        *part[i] = NULL;
    }
}

const char *report_phase_load(const struct run_info *ri, size_t k, int *exists)
{
    size_t n = 0;
    for (int i = 0; i < ri->nphases; i++) {
        const struct phase_result *pr = &ri->phases[i];
        if (!pr->measured)
            continue;
        size_t m = pr->stats->nseg == 0 ? 1 : (size_t)pr->stats->nseg; /* as report_build lists them */
        if (k < n + m) {
            *exists = 1;
            return pr->load;
        }
        n += m;
    }
    *exists = 0;
    return NULL;
}

/* A part into o under key, its reference taken; nothing when there is none. */
static void place(json_t *o, const char *key, json_t *part)
{
    if (part)
        json_object_set_new(o, key, part);
}

json_t *report_build(const struct run_info *ri)
{
    const struct audio_info *a = &ri->audio;
    const struct report_parts *pt = &ri->parts;
    json_t *doc = doc_begin(REPORT_SCHEMA, 1);
    if (!doc) {
        json_t *parts[] = { pt->run, pt->dsp_calibration, pt->dsp_ramp, pt->loopback, pt->privileges, pt->ladder };
        for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
            json_decref(parts[i]);
        return NULL;
    }
    /* an output the user asked for that was lost makes the run incomplete (the loopback part read it complete) */
    json_object_set_new(doc, "complete", json_boolean(ri->complete && !pt->lost_output));
    json_object_set_new(doc, "incomplete_reason", pt->lost_output ? utf8_json_string(pt->lost_output)
                                                                   : utf8_json_string(ri->incomplete_reason));
    json_object_set_new(doc, "label", utf8_json_string(ri->label));
    if (ri->session)
        json_object_set_new(doc, "session", json_string(ri->session));
    json_object_set_new(doc, "started", iso_time(ri->started));
    json_object_set_new(doc, "finished", iso_time(ri->finished));
    doc_set_origin(doc, ri->command, ri->system);
    json_t *au = json_object();
    json_object_set_new(au, "backend", utf8_json_string(a->backend));
    if (a->provider)
        json_object_update(au, a->provider);
    json_object_set_new(au, "rate", json_integer(a->rate_hz));
    json_object_set_new(au, "period_frames", json_integer(a->period_frames));
    json_object_set_new(au, "period_us", a->rate_hz ? json_real((double)a->period_frames * 1e6 / a->rate_hz)
                                                    : json_null());
    json_object_set_new(au, "realtime", json_boolean(a->realtime));
    json_object_set_new(au, "sched_policy", utf8_json_string(a->sched_policy));
    json_object_set_new(au, "priority", a->priority >= 0 ? json_integer(a->priority) : json_null());
    json_object_set_new(au, "priority_requested", json_integer(a->priority_requested));
    json_object_set_new(au, "mlocked", json_boolean(a->mlocked));
    json_object_set_new(au, "dsp_pct", json_real(a->dsp_pct));
    if (a->dsp_pct > 95) /* run/ramp_driver.h DSP_NORMAL_MAX_PCT: the burn overruns on purpose */
        json_object_set_new(au, "dsp_overrun_test", json_true());
    json_object_set_new(au, "buffer_changes", json_integer(a->buffer_changes));
    place(au, "dsp_calibration", pt->dsp_calibration);
    place(au, "dsp_ramp", pt->dsp_ramp);
    place(au, "privileges", pt->privileges);
    json_object_set_new(doc, "audio", au);

    json_t *phases = json_array();
    for (int i = 0; i < ri->nphases; i++) {
        const struct phase_result *pr = &ri->phases[i];
        if (!pr->measured)
            continue;
        struct phase_place at = { a->wall_offset_ns, pt->culprits, i };
        if (pr->stats->nseg == 0)
            json_array_append_new(phases, phase_json(pr, NULL, 0, &at));
        for (int s = 0; s < pr->stats->nseg; s++)
            json_array_append_new(phases, phase_json(pr, pr->stats->seg[s], pr->stats->nseg, &at));
    }
    json_object_set_new(doc, "phases", phases);
    json_t *warnings = ri->warnings ? json_incref(ri->warnings) : json_array();
    if (pt->lost_output)
        json_array_append_new(warnings, utf8_json_string(pt->lost_output));
    json_object_set_new(doc, "warnings", warnings);
    const struct run_stats *rs = &ri->stats;
    json_object_set_new(doc, "run_stats", json_pack("{s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I}",
        "wall_s", rs->wall_s, "collector_cpu_s", rs->collector_cpu_s,
        "collector_cpu_pct", rs->wall_s > 0 ? 100.0 * rs->collector_cpu_s / rs->wall_s : 0.0,
        "records", (json_int_t)rs->records, "dropped", (json_int_t)rs->dropped,
        "ring_capacity", (json_int_t)rs->ring_capacity, "ring_high_water", (json_int_t)rs->ring_high_water,
        "peak_rss_kib", (json_int_t)rs->peak_rss_kib,
        "private_dirty_kib", (json_int_t)rs->private_dirty_kib));
    place(doc, "run", pt->run);
    place(doc, "loopback", pt->loopback);
    place(doc, "ladder", pt->ladder); /* before the verdict, which judges this depth knowing the ones below */
    /* what explained the events and spikes, before the verdict, whose advice follows from the culprits */
    if (pt->culprits && pt->culprits->summary)
        place(doc, "culprits", pt->culprits->summary(pt->culprits->ctx));
    if (pt->judge) {
        struct report_judgement j = { NULL, NULL, NULL };
        pt->judge(pt->judge_arg, doc, &j);
        report_place_judgement(doc, &j);
    }
    return doc;
}

int report_check_schema(const json_t *doc, char *err, size_t errlen)
{
    if (!json_is_object(doc)) {
        snprintf(err, errlen, "not a report: the document is not a JSON object");
        return -1;
    }
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    if (!schema) {
        snprintf(err, errlen, "not an rtjitter report: no \"schema\" key");
        return -1;
    }
    if (strncmp(schema, "rtjitter.report/", 16) != 0) {
        snprintf(err, errlen, "not an rtjitter report: schema \"%.60s\"", schema);
        return -1;
    }
    if (strcmp(schema + 16, "1") != 0 && strncmp(schema + 16, "1.", 2) != 0) {
        snprintf(err, errlen, "report schema \"%.60s\" is newer than this rtjitter reads (%s)", schema,
                 REPORT_SCHEMA);
        return -1;
    }
    if (!json_is_array(json_object_get(doc, "phases"))) {
        snprintf(err, errlen, "malformed report: \"phases\" is missing or not an array");
        return -1;
    }
    return 0;
}
