/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Locking onto the reference in the capture, and matching one frame at a known latency. Non-RT.
 *
 * The lock search tries every latency in a range: a short screening window with an early exit rejects a wrong
 * latency after a few frames (its error grows at once), then each survivor is verified on the whole window with
 * its least-squares gain; the best residual wins if it is below LB_MATCH_RATIO of the window's energy. The
 * marker (a hash of the position) makes every latency but the true one fail, the tone alone would match every
 * LOOPSIG_TONE_PERIOD frames. Gain and polarity are free: a cable's level and an inverting input lock too. */
#include "loopback/lb_internal.h"
#include "loopsig.h"
#include <math.h>

double lb_sig_power(void)
{
    /* tone: A^2/2; marker uniform in +-B: B^2/3 */
    return (double)LOOPSIG_TONE_AMP * LOOPSIG_TONE_AMP / 2.0 + (double)LOOPSIG_MARK_AMP * LOOPSIG_MARK_AMP / 3.0;
}

double lb_threshold(double gain, double resid_rms)
{
    /* 8 sigma of the residual noise (a cable), and never under 2 % of the signal's rms at this gain (bit-exact
     * loops have no residual; a float rounding must not be a glitch): relative to the signal's level. */
    double t = 8.0 * resid_rms, rel = 0.02 * fabs(gain) * sqrt(lb_sig_power());
    if (t < rel)
        t = rel;
    return t < 1e-6 ? 1e-6 : t;
}

int lb_match_at(const struct lb *a, uint64_t q, int64_t lat)
{
    if (lat < 0 || (uint64_t)lat > q || !lb_known(a, q))
        return 0;
    double e = (double)lb_cap(a, q) - a->gain * (double)loopsig_at(q - (uint64_t)lat);
    return fabs(e) <= a->thr;
}

int lb_lock(struct lb *a, uint64_t ws, unsigned wlen, int64_t lo, int64_t hi, int64_t *lat, double *gain,
            double *resid_rms)
{
    if (wlen < 16 || lo < 0)
        return -1;
    if (hi > (int64_t)ws)
        hi = (int64_t)ws;
    if (hi > (int64_t)a->c.max_latency_frames)
        hi = a->c.max_latency_frames;
    if (hi < lo)
        return -2;
    double ec = 0, ecs = 0;
    unsigned sw = wlen < LB_SCREEN ? wlen : LB_SCREEN;
    for (unsigned i = 0; i < wlen; i++) {
        if (!lb_known(a, ws + i))
            return -1;
        double c = lb_cap(a, ws + i);
        ec += c * c;
        if (i < sw)
            ecs += c * c;
    }
    if (!(ec >= LB_FLOOR_RMS * LB_FLOOR_RMS * wlen) || !(ecs > 0))
        return -1;
    /* refbuf[k] = reference at ws - hi + k; latency l's window starts at k = hi - l */
    uint64_t span = (uint64_t)(hi - lo) + wlen;
    loopsig_fill(a->refbuf, ws - (uint64_t)hi, (unsigned)span);
    double g0 = sqrt(ecs / ((double)sw * lb_sig_power())), lim = 0.5 * ecs;
    const float *cap = a->hist;
    double best = INFINITY, bestg = 0;
    int64_t bestl = -1;
    for (int64_t l = lo; l <= hi; l++) {
        const float *r = a->refbuf + (hi - l);
        double sp = 0, sn = 0;
        unsigned i;
        for (i = 0; i < sw; i++) {
            double c = cap[(ws + i) & a->hmask], x = g0 * r[i];
            sp += (c - x) * (c - x);
            sn += (c + x) * (c + x);
            if (sp > lim && sn > lim)
                break;
        }
        if (i < sw)
            continue;
        double cr = 0, rr = 0;
        for (i = 0; i < wlen; i++) {
            double c = cap[(ws + i) & a->hmask];
            cr += c * r[i];
            rr += (double)r[i] * r[i];
        }
        if (!(rr > 0))
            continue;
        double res = (ec - cr * cr / rr) / ec;
        if (res < best) {
            best = res;
            bestg = cr / rr;
            bestl = l;
        }
    }
    if (bestl < 0 || !(best < LB_MATCH_RATIO))
        return -2;
    *lat = bestl;
    *gain = bestg;
    *resid_rms = sqrt((best > 0 ? best : 0) * ec / wlen);
    return 0;
}
