/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Locking onto the reference in the capture, and matching one frame at a known latency. Non-RT.
 *
 * The lock search tries every latency in a range: a short screening window with an early exit rejects a wrong
 * latency after a few frames (its error grows at once), then each survivor is verified on the whole window with
 * its least-squares gain, and the best one is refined: a short filter (LB_TAPS taps around it, least squares)
 * takes up what a real cable adds besides the delay and the gain: a fraction of a frame of delay, the
 * converters' filters, an inverted polarity. The lock holds when the filter leaves less than max_ratio of the
 * window's energy unexplained. The marker (a hash of the position) makes every latency but the true one fail;
 * the tone alone would match every LOOPSIG_TONE_PERIOD frames. Through JACK's own connections the filter is a
 * single 1 and the comparison is exact.
 *
 * The fraction of a frame: the filter's phase delay at the tone's frequency (the tone's phase, as MTDM measures
 * it; the integer latency resolves its ambiguity of one tone period). */
#include "loopback/lb_internal.h"
#include "loopsig.h"
#include <math.h>
#include <string.h>

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

/* The reference at position p - lat + LB_TAP_CENTER - k (0 before the start). */
static inline double ref_tap(uint64_t q, int64_t lat, unsigned k)
{
    int64_t p = (int64_t)q - lat + LB_TAP_CENTER - (int64_t)k;
    return p < 0 ? 0.0 : (double)loopsig_at((uint64_t)p);
}

double lb_expected(const struct lb *a, uint64_t q, int64_t lat)
{
    double x = 0;
    for (unsigned k = 0; k < LB_TAPS; k++)
        if (a->fit.h[k] != 0)
            x += a->fit.h[k] * ref_tap(q, lat, k);
    return x;
}

int lb_match_at(const struct lb *a, uint64_t q, int64_t lat)
{
    if (lat < 0 || (uint64_t)lat > q || !lb_known(a, q))
        return 0;
    return fabs((double)lb_cap(a, q) - lb_expected(a, q, lat)) <= a->thr;
}

/* Solves m x = v (n x n, Gaussian elimination with partial pivoting); 0, or -1 when singular. */
static int solve(double m[LB_TAPS][LB_TAPS], double v[LB_TAPS], double x[LB_TAPS], unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        for (unsigned r = c + 1; r < n; r++)
            if (fabs(m[r][c]) > fabs(m[p][c]))
                p = r;
        if (!(fabs(m[p][c]) > 1e-12))
            return -1;
        if (p != c) {
            for (unsigned k = 0; k < n; k++) {
                double t = m[c][k];
                m[c][k] = m[p][k];
                m[p][k] = t;
            }
            double t = v[c];
            v[c] = v[p];
            v[p] = t;
        }
        for (unsigned r = c + 1; r < n; r++) {
            double f = m[r][c] / m[c][c];
            for (unsigned k = c; k < n; k++)
                m[r][k] -= f * m[c][k];
            v[r] -= f * v[c];
        }
    }
    for (unsigned c = n; c-- > 0;) {
        double s = v[c];
        for (unsigned k = c + 1; k < n; k++)
            s -= m[c][k] * x[k];
        x[c] = s / m[c][c];
    }
    return 0;
}

/* The least-squares filter at latency lat over [ws, ws+wlen): into f (ratio: unexplained share of ec). With
 * fewer frames than a few times the taps, a single tap (a gain) is fitted instead. */
static void fit_filter(const struct lb *a, uint64_t ws, unsigned wlen, int64_t lat, double ec, struct lb_fit *f)
{
    unsigned n = wlen >= 8 * LB_TAPS ? LB_TAPS : 1;
    double m[LB_TAPS][LB_TAPS] = { { 0 } }, v[LB_TAPS] = { 0 }, h[LB_TAPS] = { 0 }, r[LB_TAPS];
    double w = 2 * M_PI / LOOPSIG_TONE_PERIOD, zc_re = 0, zc_im = 0, zr_re = 0, zr_im = 0;
    for (unsigned i = 0; i < wlen; i++) {
        double c = lb_cap(a, ws + i), r0 = ref_tap(ws + i, lat, LB_TAP_CENTER);
        double ph = w * (double)((ws + i) % LOOPSIG_TONE_PERIOD), cs = cos(ph), sn = sin(ph);
        zc_re += c * cs;
        zc_im -= c * sn;
        zr_re += r0 * cs;
        zr_im -= r0 * sn;
        for (unsigned k = 0; k < n; k++)
            r[k] = ref_tap(ws + i, lat, n == 1 ? LB_TAP_CENTER : k);
        for (unsigned j = 0; j < n; j++) {
            v[j] += c * r[j];
            for (unsigned k = j; k < n; k++)
                m[j][k] += r[j] * r[k];
        }
    }
    for (unsigned j = 0; j < n; j++)
        for (unsigned k = 0; k < j; k++)
            m[j][k] = m[k][j];
    double vv[LB_TAPS];
    memcpy(vv, v, sizeof(vv));
    memset(f->h, 0, sizeof(f->h));
    if (solve(m, vv, h, n) != 0)
        n = 0;
    double explained = 0, hmax = 0;
    for (unsigned k = 0; k < n; k++) {
        f->h[n == 1 ? LB_TAP_CENTER : k] = h[k];
        explained += h[k] * v[k];
        hmax = fmax(hmax, fabs(h[k]));
    }
    /* taps that are rounding noise (a bit-exact loop gives one tap of 1): dropped, so that matching costs one
     * reference value per frame there */
    for (unsigned k = 0; k < LB_TAPS; k++)
        if (fabs(f->h[k]) < 1e-7 * hmax)
            f->h[k] = 0;
    double res = (ec - explained) / ec;
    f->ratio = n && res > 0 ? res : n ? 0 : 1;
    f->lat = lat;
    double g2 = 0;
    for (unsigned k = 0; k < LB_TAPS; k++)
        g2 += f->h[k] * f->h[k];
    f->gain = sqrt(g2);
    f->resid_rms = sqrt(f->ratio * ec / wlen);
    /* the fraction of a frame: the phase of the capture's component at the tone's frequency against the
     * reference's at this latency (both projected on the same frames, so the marker's share cancels), as MTDM
     * measures a tone's phase; the filter's own phase there is less exact (least squares spends its error on the
     * marker's high frequencies, a cable's filters cut them) */
    double re = zc_re * zr_re + zc_im * zr_im, im = zc_im * zr_re - zc_re * zr_im;   /* zc / zr, unscaled */
    double ph = atan2(im, re);     /* a delay d gives -w d; an inverted polarity adds pi */
    if (f->h[LB_TAP_CENTER] < 0)
        ph = ph > 0 ? ph - M_PI : ph + M_PI;
    f->frac = -ph / w;
}

int lb_lock(struct lb *a, uint64_t ws, unsigned wlen, int64_t lo, int64_t hi, double max_ratio,
            struct lb_fit *out)
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
    double best = INFINITY;
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
            bestl = l;
        }
    }
    /* a candidate: what one gain leaves is at most LB_CAND_RATIO (a fraction of a frame of delay leaves more
     * than the lock allows); the filter decides */
    if (bestl < 0 || !(best < LB_CAND_RATIO))
        return -2;
    struct lb_fit f;
    fit_filter(a, ws, wlen, bestl, ec, &f);
    /* the filter spans a few latencies: its largest tap is the latency (a neighbour of the true latency fits as
     * well as the true one, through a tap off the centre); centre it there and fit again */
    for (int again = 0;; again++) {
        unsigned pk = LB_TAP_CENTER;
        for (unsigned k = 0; k < LB_TAPS; k++)
            if (fabs(f.h[k]) > fabs(f.h[pk]) * 1.000001)
                pk = k;
        if (pk == LB_TAP_CENTER)
            break;
        int64_t l = f.lat - LB_TAP_CENTER + (int64_t)pk;
        if (again == 2 || l < lo || l > hi)
            return -2;     /* the latency is outside the range searched (or the filter is no delay at all) */
        fit_filter(a, ws, wlen, l, ec, &f);
    }
    if (!(f.ratio < max_ratio))
        return -2;
    *out = f;
    return 0;
}
