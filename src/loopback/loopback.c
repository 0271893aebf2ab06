/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback analyzer: feeding, the capture history and the state machine (search -> locked -> glitch ->
 * locked ...). Non-RT: called from the thread that drains the capture ring. Memory is bounded: the history is a
 * fixed ring (pre-glitch context, the lock window, the post-glitch context), the glitch list and the latency
 * re-measurements are capped (counted past the cap). */
#include "loopback/lb_internal.h"
#include "loopsig.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lb *lb_new(const struct lb_config *c, char *err, size_t len)
{
    if (!c || c->rate_hz < 1000 || c->rate_hz > 768000) {
        snprintf(err, len, "loopback: the rate must be 1000 to 768000 Hz");
        return NULL;
    }
    if (c->period_frames < 1 || c->period_frames > 65536) {
        snprintf(err, len, "loopback: the period must be 1 to 65536 frames");
        return NULL;
    }
    if (c->max_latency_frames < 1 || c->max_latency_frames > 10u * c->rate_hz) {
        snprintf(err, len, "loopback: the latency search range must be 1 frame to 10 s");
        return NULL;
    }
    struct lb *a = calloc(1, sizeof(*a));
    if (!a)
        goto nomem;
    a->c = *c;
    a->c.record_path = NULL;
    a->reported_lat = -1;
    a->pre = a->post = c->rate_hz / 20;            /* 50 ms each side: ~100 ms WAVs */
    a->chunk = 4096;
    uint64_t need = a->pre + lb_need(a) + 2 * a->chunk + 4 * LB_WIN;
    a->hsize = 1;
    while (a->hsize < need)
        a->hsize <<= 1;
    a->hmask = a->hsize - 1;
    a->hist = calloc(a->hsize, sizeof(*a->hist));
    a->known = calloc(a->hsize, 1);
    a->refbuf = malloc(((size_t)c->max_latency_frames + LB_WIN + 1) * sizeof(float));
    a->wavbuf = malloc((size_t)(a->pre + a->post) * 2 * sizeof(float));
    if (!a->hist || !a->known || !a->refbuf || !a->wavbuf)
        goto nomem;
    if (c->record_path) {
        a->rec = lb_rec_open(c->record_path, c->rate_hz, c->note, c->note_arg, err, len);
        if (!a->rec) {
            lb_free(a);
            return NULL;
        }
    }
    return a;
nomem:
    lb_free(a);
    snprintf(err, len, "loopback: out of memory");
    return NULL;
}

void lb_free(struct lb *a)
{
    if (!a)
        return;
    lb_rec_free(a->rec);
    for (size_t i = 0; i < a->ngl; i++)
        free(a->gl[i].ex);
    free(a->gl);
    free(a->chkl);
    free(a->hist);
    free(a->known);
    free(a->refbuf);
    free(a->wavbuf);
    free(a);
}

void lb_set_partial(struct lb *a)
{
    a->rec_partial = 1;
}

void lb_set_reported_latency(struct lb *a, unsigned frames)
{
    a->reported_lat = frames;
}

const struct lb_blk *lb_blk_of(const struct lb *a, uint64_t q)
{
    if (!a->nblk)
        return NULL;
    uint64_t k = a->nblk, stop = a->nblk > LB_BLK_RING ? a->nblk - LB_BLK_RING : 0;
    const struct lb_blk *b = NULL;
    while (k > stop) {
        b = &a->blk[--k % LB_BLK_RING];
        if (b->pos <= q)
            return b;      /* the newest piece starting at or before q (a gap after it: still its cycle's) */
    }
    return b;              /* older than everything remembered: the oldest */
}

/* Marks [from, to) unknown in the history (at most its size). */
static void forget(struct lb *a, uint64_t from, uint64_t to)
{
    if (to - from > a->hsize)
        from = to - a->hsize;
    for (uint64_t q = from; q < to; q++)
        a->known[q & a->hmask] = 0;
}

/* Tries to lock on the newest window; a success measures the latency (the first, or again after a loss). */
static void try_lock(struct lb *a)
{
    /* a search costs ~16 operations per latency tried: over a 1 s range, every 1/8 of the range at most, so
     * that an input with no loop on it (hum, noise) costs a few million operations a second, not a core */
    uint64_t every = a->c.max_latency_frames / 8 > LB_WIN / 4 ? a->c.max_latency_frames / 8 : LB_WIN / 4;
    if (a->end < LB_WIN || a->end < a->next_try)
        return;
    a->next_try = a->end + every;
    struct lb_fit f;
    uint64_t ws = a->end - LB_WIN;
    if (lb_lock(a, ws, LB_WIN, 0, a->c.max_latency_frames, LB_MATCH_RATIO, &f) != 0)
        return;
    /* a window the signal arrived in the middle of locks too, with a residual that would make the tolerance
     * blind: a residual over 0.2 % is first checked again on the next half window (a noisy cable keeps it) */
    if (f.ratio > 0.002 && a->dirty_tries < 3) {
        a->dirty_tries++;
        a->next_try = a->end + LB_WIN / 2;
        return;
    }
    a->dirty_tries = 0;
    int64_t l = f.lat;
    a->fit = f;
    a->lat = l;
    a->thr = lb_threshold(f.gain, f.resid_rms);
    a->state = LB_LOCKED;
    a->chk = ws;
    if (!a->ever_locked) {
        a->ever_locked = 1;
        a->lat0 = l;
        a->frac0 = f.frac;
    }
    if (a->pending_relock && a->nchk) {
        struct lb_check *k = &a->chkl[a->nchk - 1];
        if (k->frames < 0) {      /* the loss's entry: it is measured now */
            k->frames = l;
            k->shifted = l != k->before;
            a->shifted_ever |= k->shifted;
        }
        if (a->lost_glitch < a->ngl) {
            /* the stretch that matched nothing ends where the capture is in sync again */
            struct lb_glitch *gl = &a->gl[a->lost_glitch];
            uint64_t q = ws;
            while (q > gl->pos + 1 && lb_match_at(a, q - 1, l))
                q--;
            gl->length = q - gl->pos;
            gl->lat_after = l;
        }
    }
    a->pending_relock = 0;
}

/* Runs the state machine over what the history holds. */
static void advance(struct lb *a, int final)
{
    for (;;) {
        if (a->state == LB_SEARCH) {
            if (final)
                return;
            try_lock(a);
            if (a->state == LB_SEARCH)
                return;
        } else if (a->state == LB_LOCKED) {
            while (a->chk < a->end) {
                uint64_t q = a->chk;
                if (!lb_known(a, q)) {
                    a->chk++;
                    continue;
                }
                if (!lb_match_at(a, q, a->lat)) {
                    a->state = LB_GLITCH;
                    a->g_pos = q;
                    break;
                }
                a->checked++;
                a->chk++;
            }
            if (a->state == LB_LOCKED)
                return;
        } else {
            if (!lb_resolve(a, final))
                return;
        }
    }
}

static void feed_piece(struct lb *a, uint64_t cycle_pos, uint64_t pos, const float *in, unsigned n, uint64_t seq,
                       int64_t t, unsigned phase, int measuring)
{
    struct lb_blk *b = &a->blk[a->nblk++ % LB_BLK_RING];
    *b = (struct lb_blk){ cycle_pos, pos, n, seq, t, phase, measuring };
    for (unsigned i = 0; i < n; i++) {
        float v = in[i];
        if (!isfinite(v)) {
            v = 0;
            a->nonfinite++;
        }
        a->hist[(pos + i) & a->hmask] = v;
        a->known[(pos + i) & a->hmask] = 1;
    }
    a->end = pos + n;
    a->fed += n;
    advance(a, 0);
}

void lb_feed(struct lb *a, uint64_t pos, const float *in, unsigned n, uint64_t seq, int64_t t_entry_ns,
             unsigned phase, int measuring)
{
    if (!a || !in || !n || pos > UINT64_MAX / 2)
        return;
    if (!a->started) {
        a->started = 1;
        a->end = a->chk = pos;
        a->next_try = 0;
    } else if (pos < a->end) {
        /* the position went back (a restarted stream): what came before cannot be compared with what follows */
        a->resets++;
        if (a->state == LB_GLITCH) {
            /* named with the capture that came before the step back: what follows replaces those positions */
            a->cut_why = "the frame clock went back";
            advance(a, 1);
            a->cut_why = NULL;
        }
        if (a->state == LB_LOCKED && a->end - pos <= a->hsize / 4) {
            /* a short step back (jack2's frame clock, read while the server recovers, can go back a period):
             * the output took the same positions, so the signal replays what it played; the capture there is
             * compared again at the same latency (what is wrong in it is a glitch like any other) */
            forget(a, pos, a->end);
            a->end = a->chk = pos;
            goto fed;
        }
        forget(a, a->end > a->hsize ? a->end - a->hsize : 0, a->end);
        a->end = a->chk = pos;
        a->next_try = 0;
        if (a->state != LB_SEARCH) {
            a->state = LB_SEARCH;
            a->pending_relock = 0;
        }
    } else if (pos > a->end) {
        uint64_t gap = pos - a->end;
        /* a glitch waiting for what follows it: a long hole would take its context, so it is named now */
        if (a->state == LB_GLITCH && gap >= a->hsize / 4) {
            a->hole_after = 1; /* its WAV keeps its 50 ms after: the hole's frames, never captured, as zeros */
            advance(a, 1);
            a->hole_after = 0;
        }
        a->gaps += gap;
        /* the recording keeps the timeline: a hole is silence there, up to 10 s (a longer one is not filled,
         * so that a position jump cannot fill the disk with zeros) */
        if (a->rec)
            lb_rec_write(a->rec, NULL, gap <= 10ull * a->c.rate_hz ? gap : 0);
        if (gap > 10ull * a->c.rate_hz)
            a->rec_unfilled += gap;
        forget(a, a->end, pos);
        a->end = pos;
    }
fed:
    if (a->rec)
        lb_rec_write(a->rec, in, n);
    for (unsigned off = 0; off < n; off += a->chunk) {
        unsigned k = n - off < a->chunk ? n - off : a->chunk;
        feed_piece(a, pos, pos + off, in + off, k, seq, t_entry_ns, phase, measuring);
    }
}

void lb_lost(struct lb *a, uint64_t pos, unsigned n)
{
    if (!a)
        return;
    a->lost += n;
    (void)pos;     /* the next feed's position shows the hole; counted there as a gap too, not as a glitch */
}

json_t *lb_report(struct lb *a)
{
    if (a->state == LB_GLITCH) {
        a->cut_why = "the run ended";
        advance(a, 1);
        a->cut_why = NULL;
    }
    if (a->rec && lb_rec_finish(a->rec, a->rec_partial) != 0)
        snprintf(a->rec_err, sizeof(a->rec_err), "%s", lb_rec_error(a->rec));
    return lb_report_json(a);
}
