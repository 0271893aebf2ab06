/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback analyzer's findings as the report's "loopback" object (its shape: loopback.h). */
#include "loopback/lb_internal.h"
#include <math.h>
#include <stdio.h>

/* json_object_set_new that remembers a failure (ENOMEM) in *bad. */
static void put(json_t *o, const char *k, json_t *v, int *bad)
{
    if (!v || json_object_set_new(o, k, v) != 0)
        *bad = 1;
}

static json_t *nullable_int(int64_t v)
{
    return v < 0 ? json_null() : json_integer(v);
}

static json_t *latency_json(const struct lb *a, int64_t frames, int *bad)
{
    json_t *o = json_object();
    if (!o) {
        *bad = 1;
        return NULL;
    }
    put(o, "frames", nullable_int(frames), bad);
    put(o, "ms", frames < 0 ? json_null() : json_real((double)frames * 1000.0 / a->c.rate_hz), bad);
    /* the whole frames by correlation; the fraction from the tone's phase through the fitted filter */
    put(o, "frames_exact", frames < 0 ? json_null() : json_real(round(((double)frames + a->frac0) * 1000) / 1000),
        bad);
    put(o, "method", json_string("correlation, tone phase for the fraction"), bad);
    put(o, "resolution_frames", json_integer(1), bad);
    /* what JACK says its ports add (playback + capture), when the caller told us; the rest is the extra
     * latency of the converters and the cable, given half to -I and half to -O (jack_iodelay's advice) */
    put(o, "reported_frames", nullable_int(a->reported_lat), bad);
    if (frames >= 0 && a->reported_lat >= 0) {
        int64_t extra = frames - a->reported_lat;
        put(o, "extra_frames", json_integer(extra), bad);
        put(o, "jackd_io_frames", extra > 0 ? json_integer(extra / 2) : json_integer(0), bad);
    } else {
        put(o, "extra_frames", json_null(), bad);
        put(o, "jackd_io_frames", json_null(), bad);
    }
    return o;
}

static json_t *excerpt_json(const struct lb_excerpt *ex, int *bad)
{
    static const char *const keys[4] = { "capture_min", "capture_max", "reference_min", "reference_max" };
    json_t *o = json_pack("{s:I, s:i, s:i, s:i, s:i}", "start_pos", (json_int_t)ex->start, "frames_per_point",
                          (int)ex->fpp, "points", (int)LB_EX_POINTS, "glitch_point", (int)ex->glitch_point,
                          "scale", LB_EX_SCALE);
    if (!o) {
        *bad = 1;
        return NULL;
    }
    for (int k = 0; k < 4; k++) {
        json_t *arr = json_array();
        for (unsigned p = 0; arr && p < LB_EX_POINTS; p++)
            if (json_array_append_new(arr, json_integer(ex->v[k][p])) != 0)
                *bad = 1;
        put(o, keys[k], arr, bad);
    }
    return o;
}

static json_t *glitch_json(const struct lb *a, const struct lb_glitch *g, uint64_t index, int *bad)
{
    json_t *o = json_object();
    if (!o) {
        *bad = 1;
        return NULL;
    }
    put(o, "index", json_integer((json_int_t)index + 1), bad);
    put(o, "pos", json_integer((json_int_t)g->pos), bad);
    put(o, "ref_pos", json_integer(g->ref_pos), bad);
    put(o, "t_ns", json_integer(g->t_ns), bad);
    put(o, "t_play_ns", g->t_play_ns < 0 ? json_null() : json_integer(g->t_play_ns), bad);
    put(o, "seq", json_integer((json_int_t)g->seq), bad);
    put(o, "phase", json_integer(g->phase), bad);
    put(o, "measuring", json_boolean(g->measuring), bad);
    put(o, "kind", json_string(g->kind), bad);
    put(o, "length_frames", json_integer((json_int_t)g->length), bad);
    put(o, "length_ms", json_real((double)g->length * 1000.0 / a->c.rate_hz), bad);
    put(o, "latency_before", json_integer(g->lat_before), bad);
    put(o, "latency_after", nullable_int(g->lat_after), bad);
    put(o, "latency_shifted", json_boolean(g->lat_after >= 0 && g->lat_after != g->lat_before), bad);
    put(o, "wav", g->wav_state == 1 ? json_string(g->wav) : json_null(), bad);
    const char *why = g->wav_state == 0 ? "no WAV folder" : g->wav_state == 2 ? g->wav_err
                    : g->wav_state == 3 ? "over the WAV cap" : NULL;
    put(o, "wav_error", why ? json_string(why) : json_null(), bad);
    put(o, "wav_cut", g->wav_state == 1 && g->wav_cut ? json_string(g->wav_cut) : json_null(), bad);
    if (g->ex)
        put(o, "excerpt", excerpt_json(g->ex, bad), bad);
    return o;
}

json_t *lb_report_json(struct lb *a)
{
    int bad = 0;
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(o, "rate", json_integer(a->c.rate_hz), &bad);
    put(o, "period_frames", json_integer(a->c.period_frames), &bad);
    put(o, "max_latency_frames", json_integer(a->c.max_latency_frames), &bad);
    put(o, "locked", json_boolean(a->ever_locked), &bad);
    put(o, "lock_error", a->ever_locked ? json_null()
        : json_string(a->fed ? "the reference signal was not found in the capture (no loop, or too quiet)"
                             : "no capture arrived"), &bad);
    put(o, "latency", latency_json(a, a->ever_locked ? a->lat0 : -1, &bad), &bad);
    if (a->ever_locked) {
        /* how the loop looks: its gain, and what the fitted filter leaves (a cable's noise; none inside JACK) */
        put(o, "match", json_pack("{s:o, s:o}", "gain_db", json_real(round(200 * log10(a->fit.gain)) / 10),
                                  "residual_db", a->fit.ratio > 0 ? json_real(round(100 * log10(a->fit.ratio)) / 10)
                                                                  : json_null()), &bad);
    } else {
        put(o, "match", json_null(), &bad);
    }
    put(o, "latency_now_frames", nullable_int(a->ever_locked && a->state != LB_SEARCH ? a->lat : -1), &bad);
    put(o, "latency_shifted", json_boolean(a->shifted_ever), &bad);
    put(o, "latency_shift_note", a->shifted_ever
        ? json_string("the round-trip latency changed after a glitch: after an xrun recovery this is a known "
                      "class of driver bug (the streams restarted out of step)")
        : json_null(), &bad);
    json_t *checks = json_array();
    for (size_t i = 0; checks && i < a->nchk; i++) {
        const struct lb_check *k = &a->chkl[i];
        json_t *c = json_pack("{s:I, s:I, s:o, s:b}", "after_glitch", (json_int_t)k->glitch + 1, "before",
                              (json_int_t)k->before, "frames", nullable_int(k->frames), "shifted", k->shifted);
        if (!c || json_array_append_new(checks, c) != 0)
            bad = 1;
    }
    put(o, "latency_checks", checks, &bad);
    put(o, "frames_fed", json_integer((json_int_t)a->fed), &bad);
    put(o, "frames_checked", json_integer((json_int_t)a->checked), &bad);
    put(o, "lost_frames", json_integer((json_int_t)a->lost), &bad);
    put(o, "gap_frames", json_integer((json_int_t)a->gaps), &bad);
    put(o, "nonfinite_samples", json_integer((json_int_t)a->nonfinite), &bad);
    put(o, "position_resets", json_integer((json_int_t)a->resets), &bad);
    put(o, "glitch_count", json_integer((json_int_t)a->nglitch), &bad);
    put(o, "glitches_unlisted", json_integer((json_int_t)a->unlisted), &bad);
    json_t *ph = json_array();
    for (unsigned i = 0; ph && i < a->nphase; i++) {
        json_t *p = json_pack("{s:i, s:I, s:I}", "phase", (int)i, "glitches", (json_int_t)a->ph_glitch[i],
                              "warmup_glitches", (json_int_t)a->ph_warm[i]);
        if (!p || json_array_append_new(ph, p) != 0)
            bad = 1;
    }
    put(o, "phases", ph, &bad);
    put(o, "wavs", json_pack("{s:I, s:I, s:I, s:i}", "written", (json_int_t)a->wav_written, "failed",
                             (json_int_t)a->wav_failed, "over_cap", (json_int_t)a->wav_over_cap, "cap",
                             (int)LB_WAV_CAP), &bad);
    json_t *gl = json_array();
    for (size_t i = 0; gl && i < a->ngl; i++)
        if (json_array_append_new(gl, glitch_json(a, &a->gl[i], i, &bad)) != 0)
            bad = 1;
    put(o, "glitches", gl, &bad);
    if (a->rec) {
        put(o, "record", json_pack("{s:s, s:s, s:b, s:s, s:I, s:b, s:I}", "path", lb_rec_path(a->rec),
                                   "requested_path", lb_rec_requested_path(a->rec), "partial",
                                   lb_rec_partial(a->rec), "format", lb_rec_format(a->rec), "frames",
                                   (json_int_t)lb_rec_frames(a->rec), "written", !a->rec_err[0],
                                   "unfilled_gap_frames", (json_int_t)a->rec_unfilled), &bad);
    } else {
        put(o, "record", json_null(), &bad);
    }
    put(o, "record_error", a->rec_err[0] ? json_string(a->rec_err) : json_null(), &bad);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}
