/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a glitch is. The capture stopped matching the reference at the current latency at a->g_pos; with the
 * capture that followed (lb_need frames), find where it is in sync again and at which latency, then name it:
 *   dropped   the alignment jumped ahead: `length` frames of the signal never came back (latency shrank)
 *   repeated  the alignment jumped back (latency grew), or the stretch replays older signal (a stale buffer)
 *   skipped   the stretch holds signal from later than expected, then the old alignment again
 *   silence   the stretch is (near) zeros
 *   click     an isolated mismatch of at most LB_CLICK_MAX frames, back in sync at the same latency at once
 *   garbled   a stretch that matches no part of the signal
 *   lost_sync no alignment found again in the frames that followed (searched again later; the glitch's length
 *             and the new latency are filled in at the re-lock)
 *   unresolved the capture ended before enough of it followed the glitch to say more
 * A hole in the capture (positions never captured: the frame clock jumped over skipped cycles, or frames were lost
 * on the way) ends a glitch that is not over before it: what follows a hole is compared afresh and, when it is
 * wrong, is a glitch of its own. Each frame-clock jump is a disruption of its own (an xrun), so two of them a
 * cycle apart are two glitches, each at its own cycle, not one stretch that begins at the first.
 * A new latency after a glitch is reported (latency_shifted): after an xrun recovery it is a known class of
 * driver bug. Then the WAV (capture and the reference at the latency before) and the waveform excerpt. */
#include "loopback/lb_internal.h"
#include "loopsig.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t lb_need(const struct lb *a)
{
    return (uint64_t)a->post + 2 * LB_WIN;
}

/* First q in [from, to) that starts LB_RESYNC consecutive matching frames at lat; to when none. */
static uint64_t sync_from(const struct lb *a, uint64_t from, uint64_t to, int64_t lat)
{
    unsigned run = 0;
    for (uint64_t q = from; q < to; q++) {
        run = lb_match_at(a, q, lat) ? run + 1 : 0;
        if (run == LB_RESYNC)
            return q + 1 - LB_RESYNC;
    }
    return to;
}

static int mostly_zeros(const struct lb *a, uint64_t from, uint64_t to, double thr)
{
    uint64_t z = 0, k = 0;
    for (uint64_t q = from; q < to; q++)
        if (lb_known(a, q)) {
            k++;
            z += fabs(lb_cap(a, q)) <= thr;
        }
    return k > 0 && z * 10 >= k * 9;
}

static short ex_val(double v)
{
    v = round(v * LB_EX_SCALE);
    return (short)(v > 2 * LB_EX_SCALE ? 2 * LB_EX_SCALE : v < -2 * LB_EX_SCALE ? -2 * LB_EX_SCALE : v);
}

/* The WAV frames (interleaved capture, reference at lat) of [start, start+n) into a->wavbuf, and the excerpt. */
static void context(struct lb *a, uint64_t start, unsigned n, int64_t lat, struct lb_excerpt *ex)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t q = start + i;
        a->wavbuf[2 * i] = lb_known(a, q) ? lb_cap(a, q) : 0.0f;
        a->wavbuf[2 * i + 1] = lat >= 0 && (uint64_t)lat <= q ? loopsig_at(q - (uint64_t)lat) : 0.0f;
    }
    if (!ex)
        return;
    ex->start = start;
    ex->fpp = (n + LB_EX_POINTS - 1) / LB_EX_POINTS;
    if (!ex->fpp)
        ex->fpp = 1;
    ex->glitch_point = (unsigned)((a->g_pos - start) / ex->fpp);
    for (unsigned p = 0; p < LB_EX_POINTS; p++) {
        float mn[2] = { 0, 0 }, mx[2] = { 0, 0 };
        for (unsigned i = p * ex->fpp; i < (p + 1) * ex->fpp && i < n; i++)
            for (int ch = 0; ch < 2; ch++) {
                float v = a->wavbuf[2 * i + ch];
                if (i == p * ex->fpp || v < mn[ch])
                    mn[ch] = v;
                if (i == p * ex->fpp || v > mx[ch])
                    mx[ch] = v;
            }
        ex->v[0][p] = ex_val(mn[0]);
        ex->v[1][p] = ex_val(mx[0]);
        ex->v[2][p] = ex_val(mn[1]);
        ex->v[3][p] = ex_val(mx[1]);
    }
}

static void record_glitch(struct lb *a, const char *kind, uint64_t length, int64_t lat_after)
{
    uint64_t index = a->nglitch++;
    const struct lb_blk *b = lb_blk_of(a, a->g_pos);
    struct lb_glitch g = {
        .pos = a->g_pos, .ref_pos = (int64_t)a->g_pos - a->lat, .kind = kind, .length = length,
        .lat_before = a->lat, .lat_after = lat_after,
    };
    g.t_play_ns = -1;
    if (b) {
        g.seq = b->seq;
        g.phase = b->phase;
        g.measuring = b->measuring;
        g.t_ns = b->t_ns + (int64_t)((double)(a->g_pos - b->cycle_pos) * 1e9 / a->c.rate_hz);
    }
    /* the cycle that played the reference frame expected here, when it is still remembered and ran */
    const struct lb_blk *pb = g.ref_pos >= 0 ? lb_blk_of(a, (uint64_t)g.ref_pos) : NULL;
    if (pb && pb->pos <= (uint64_t)g.ref_pos && (uint64_t)g.ref_pos < pb->pos + pb->n)
        g.t_play_ns = pb->t_ns + (int64_t)((double)((uint64_t)g.ref_pos - pb->cycle_pos) * 1e9 /
                                           a->c.rate_hz);
    unsigned ph = g.phase < LB_PHASE_CAP ? g.phase : LB_PHASE_CAP - 1;
    if (ph + 1 > a->nphase)
        a->nphase = ph + 1;
    if (g.measuring)
        a->ph_glitch[ph]++;
    else
        a->ph_warm[ph]++;
    /* the context: up to pre frames before, post after, within what the history still holds */
    uint64_t start = a->g_pos > a->pre ? a->g_pos - a->pre : 0, stop = a->g_pos + a->post;
    if (start + a->hsize < a->end)
        start = a->end - a->hsize;
    /* After the capture's end only at the run's end; a glitch named because a hole of at least hsize/4 frames
     * follows it (lb_feed) keeps its whole context after it: those frames lie inside the hole, never captured,
     * zeros in the WAV as every hole is (a WAV cut short there looked like a run's end: 2656 frames, once). */
    if (stop > a->end && !a->hole_after) {
        stop = a->end;
        g.wav_cut = a->cut_why ? a->cut_why : "the capture ended";
    }
    unsigned n = (unsigned)(stop > start ? stop - start : 0);
    if (index < LB_WAV_CAP) {
        g.ex = calloc(1, sizeof(*g.ex));
        context(a, start, n, a->lat, g.ex);
        if (a->c.wav_dirfd < 0) {
            g.wav_state = 0;
        } else {
            snprintf(g.wav, sizeof(g.wav), "glitch-%04llu.wav", (unsigned long long)index + 1);
            if (n && lb_wav_write(a->c.wav_dirfd, g.wav, a->c.rate_hz, a->wavbuf, n, g.wav_err,
                                  sizeof(g.wav_err)) == 0) {
                g.wav_state = 1;
                a->wav_written++;
            } else {
                if (!n)
                    snprintf(g.wav_err, sizeof(g.wav_err), "no capture around it");
                g.wav_state = 2;
                g.wav[0] = 0;
                a->wav_failed++;
            }
        }
    } else {
        g.wav_state = 3;
        if (a->c.wav_dirfd >= 0)
            a->wav_over_cap++;
    }
    if (a->ngl < LB_LIST_CAP) {
        if (a->ngl % 64 == 0) {
            struct lb_glitch *p = realloc(a->gl, (a->ngl + 64) * sizeof(*p));
            if (!p) {
                free(g.ex);
                a->unlisted++;
                goto check;
            }
            a->gl = p;
        }
        a->gl[a->ngl++] = g;
    } else {
        free(g.ex);
        a->unlisted++;
    }
check:
    if (a->nchk < LB_CHECK_CAP) {
        if (a->nchk % 64 == 0) {
            struct lb_check *p = realloc(a->chkl, (a->nchk + 64) * sizeof(*p));
            if (!p)
                return;
            a->chkl = p;
        }
        a->chkl[a->nchk++] = (struct lb_check){ index, a->lat, lat_after, lat_after >= 0 && lat_after != a->lat };
    }
    if (lat_after >= 0 && lat_after != a->lat)
        a->shifted_ever = 1;
}

/* What the stretch [g0, g0+s) that matched nothing at the latency before is: silence, a stale buffer played
 * again (pieces of it are the signal from earlier: repeated; from later: skipped; a repeated period wraps every
 * period, so short pieces at a few offsets are tried, strictly, as a piece is short), else NULL. */
static const char *stretch_kind(struct lb *a, uint64_t g0, uint64_t s, double zero_thr)
{
    if (mostly_zeros(a, g0, g0 + s, zero_thr))
        return "silence";
    for (uint64_t off = 0; off + LB_RESYNC <= s && off <= 8 * (LB_RESYNC / 2); off += LB_RESYNC / 2) {
        struct lb_fit f2;
        if (lb_lock(a, g0 + off, LB_RESYNC, 0, a->c.max_latency_frames, 0.01, &f2) == 0 && f2.lat != a->lat)
            return f2.lat > a->lat ? "repeated" : "skipped";
    }
    return NULL;
}

/* The first position in (g0, to) never captured (a hole that later capture follows); to when none. */
static uint64_t hole_after(const struct lb *a, uint64_t g0, uint64_t to)
{
    for (uint64_t q = g0 + 1; q < to; q++)
        if (!lb_known(a, q))
            return q;
    return to;
}

int lb_resolve(struct lb *a, int final)
{
    uint64_t g0 = a->g_pos;
    if (!final && a->end < g0 + lb_need(a))
        return 0;
    /* the first hole after the glitch (see the top of this file): the capture is looked at up to it only */
    uint64_t hend = a->end < g0 + lb_need(a) ? a->end : g0 + lb_need(a);
    uint64_t h = hole_after(a, g0, hend);
    uint64_t upto = h < hend ? h : a->end;
    int64_t lat = -1;
    struct lb_fit f;
    /* in sync again only on a window as clean as the loop was when it locked: a window that still holds a few
     * wrong frames would lock too, with a residual that makes the threshold blind */
    double clean = 4 * a->fit.ratio + 0.002 < LB_MATCH_RATIO ? 4 * a->fit.ratio + 0.002 : LB_MATCH_RATIO;
    uint64_t ws;
    for (ws = g0 + 1; ws + LB_WIN <= upto; ws += LB_WIN / 4) {
        int r = lb_lock(a, ws, LB_WIN, a->lat, a->lat, clean, &f);
        if (r == -1)
            continue;           /* quiet or not all known */
        if (r != 0)
            r = lb_lock(a, ws, LB_WIN, 0, a->c.max_latency_frames, clean, &f);
        if (r == 0) {
            lat = f.lat;
            break;
        }
    }
    if (lat < 0 && h < hend) {
        /* a hole came before a whole window was in sync again: the glitch ends where the capture is in sync at
         * the latency it had (LB_RESYNC frames in a row), else at the hole; the latency stays (what follows the
         * hole is compared at it, and a new one there is a glitch of its own) */
        uint64_t q1 = sync_from(a, g0, h, a->lat), s = q1 - g0;
        const char *k = s <= LB_CLICK_MAX && q1 < h && !mostly_zeros(a, g0, q1, a->thr) ? "click"
                                                                                         : stretch_kind(a, g0, s, a->thr);
        record_glitch(a, k ? k : "garbled", s, a->lat);
        a->state = LB_LOCKED;
        a->chk = q1;
        return 1;
    }
    if (lat < 0) {
        /* nothing in sync again: name what follows (at the end of the capture, maybe only too little of it
         * came), search again from scratch */
        const char *k = stretch_kind(a, g0, a->end - g0, a->thr);
        if (!k)
            k = final && a->end < g0 + lb_need(a) ? "unresolved" : "lost_sync";
        a->lost_glitch = a->ngl;
        record_glitch(a, k, a->end - g0, -1);
        if (a->nchk && a->chkl[a->nchk - 1].glitch == a->nglitch - 1)
            a->chkl[a->nchk - 1].frames = -1;
        a->state = LB_SEARCH;
        a->pending_relock = 1;
        a->next_try = 0;
        return 1;
    }
    double old_thr = a->thr, old_exact = (double)a->lat + a->fit.frac;
    a->fit = f;
    a->thr = lb_threshold(f.gain, f.resid_rms);
    uint64_t q1 = sync_from(a, g0, ws + LB_WIN, lat), s = q1 - g0;
    const char *kind;
    uint64_t len = s;
    if (lat != a->lat && s <= LB_JUMP_MAX) {
        kind = lat < a->lat ? "dropped" : "repeated";
        /* through the exact latencies: at half a frame the whole frames of either side may round either way */
        len = (uint64_t)llround(fabs((double)lat + f.frac - old_exact));
    } else if (s <= LB_CLICK_MAX && lat == a->lat && !mostly_zeros(a, g0, q1, old_thr)) {
        kind = "click";
    } else {
        kind = stretch_kind(a, g0, s, old_thr);
        if (!kind)
            kind = "garbled";
    }
    record_glitch(a, kind, len, lat);
    a->lat = lat;
    a->state = LB_LOCKED;
    a->chk = q1;
    return 1;
}
