/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The period of the happenings ("every 60.0 s"), for the culprit engine's summary (never the RT thread).
 *
 * Happenings come in bursts (one stall makes an event and several spikes), so times closer than 100 ms are one
 * moment, at the burst's first time. A period is a candidate when a pair of moments at most 4 apart is 1, 2 or 3
 * periods apart (missing ones are allowed); a candidate is scored by the moments that fall within 3 % of it (at
 * least 20 ms) from the pair's first, counted once per slot. A slot with a moment within a quarter period is
 * occupied (late, not missing: beside another real-time task a burst came 40 ms late, and 0.6 s had won over the
 * true 0.3 s); three occupied slots must be consecutive, and beyond three one may be empty for two more occupied
 * (noise fits some period by chance: times 1, 4 and 16 s fit 3 s with three of six slots empty, 8, 16 and 32 s fit
 * 8 s with one). The most fitting moments win, then the most occupied slots, then the longer period (its halves
 * fit the same moments with half the slots occupied). The period given is the least-squares slope of the
 * fitting moments over their slots, the spread their residuals' RMS. */
#include "culprit/engine_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MOMENTS_MAX 256
#define GAP_NS 100000000
#define MIN_PERIOD_NS 200000000

struct fit_score {
    int count;                   /* moments within the tolerance of their slot, one per slot */
    int occupied;                /* slots with a moment within a quarter period (a late one is not a missing one) */
    long first_slot, last_slot;  /* of the fitting moments */
};

static double slot_of(int64_t m, int64_t anchor, double p, double tol, bool *fits)
{
    double r = (double)(m - anchor) / p;
    double slot = floor(r + 0.5);
    *fits = fabs(r - slot) * p <= tol;
    return slot;
}

static double tolerance(double p)
{
    return fmax(0.03 * p, 20e6);
}

static struct fit_score score(const int64_t *m, int n, int64_t anchor, double p)
{
    struct fit_score s = {0, 0, 0, 0};
    double tol = tolerance(p), prev = NAN;
    for (int i = 0; i < n; i++) { /* the fitting moments, and the span of slots they cover */
        bool fits;
        double slot = slot_of(m[i], anchor, p, tol, &fits);
        if (!fits || slot == prev)
            continue;
        if (s.count == 0)
            s.first_slot = (long)slot;
        s.last_slot = (long)slot;
        s.count++;
        prev = slot;
    }
    prev = NAN;
    for (int i = 0; i < n && s.count; i++) { /* the occupied slots within that span (a stray moment far off that
                                              * happens to be near a slot does not stretch it) */
        bool near;
        double slot = slot_of(m[i], anchor, p, p / 4, &near);
        if (near && slot != prev && slot >= s.first_slot && slot <= s.last_slot) {
            s.occupied++;
            prev = slot;
        }
    }
    return s;
}

/* Three fitting moments at least; three occupied slots in a row, and beyond three, one slot may be empty for two
 * more occupied. Then the most fitting moments, the most occupied slots, the longer period. */
static bool better(struct fit_score s, double p, struct fit_score best, double best_p)
{
    long missing = s.last_slot - s.first_slot + 1 - s.occupied;
    if (s.count < 3 || missing > (s.occupied - 3) / 2)
        return false;
    if (s.count != best.count)
        return s.count > best.count;
    if (s.occupied != best.occupied)
        return s.occupied > best.occupied;
    return p > best_p;
}

/* The least-squares period and the residuals' RMS of the moments that fit p from anchor. */
static void refine(const int64_t *m, int n, int64_t anchor, double p, struct ce_period *out)
{
    double tol = tolerance(p), sx = 0, sy = 0, sxx = 0, sxy = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool fits;
        double x = slot_of(m[i], anchor, p, tol, &fits), y = (double)(m[i] - anchor);
        if (!fits)
            continue;
        sx += x, sy += y, sxx += x * x, sxy += x * y, k++;
    }
    double den = k * sxx - sx * sx, slope = den > 0 ? (k * sxy - sx * sy) / den : p;
    double icpt = (sy - slope * sx) / (k ? k : 1), ss = 0;
    for (int i = 0; i < n; i++) {
        bool fits;
        double x = slot_of(m[i], anchor, p, tol, &fits);
        if (fits) {
            double r = (double)(m[i] - anchor) - (icpt + slope * x);
            ss += r * r;
        }
    }
    out->period_s = slope / 1e9;
    out->spread_s = k ? sqrt(ss / k) / 1e9 : 0;
}

/* Moments: the first time of each burst; which moment each time belongs to. */
static int moments(const int64_t *t, int n, int64_t *m, int *of)
{
    int nm = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || t[i] - t[i - 1] > GAP_NS) {
            if (nm == MOMENTS_MAX) { /* the first ones are analysed, the rest left out */
                for (; i < n; i++)
                    of[i] = -1;
                break;
            }
            m[nm++] = t[i];
        }
        of[i] = nm - 1;
    }
    return nm;
}

int ce_period_find(const int64_t *t, int n, struct ce_period *out, unsigned char *fit)
{
    int64_t m[MOMENTS_MAX];
    int *of = calloc((size_t)(n > 0 ? n : 1), sizeof *of);
    if (!of)
        return 0;
    memset(fit, 0, (size_t)n);
    int nm = moments(t, n, m, of);
    struct fit_score best = {0, 0, 0, 0};
    double best_p = 0;
    int64_t best_anchor = 0;
    for (int i = 0; i < nm; i++)
        for (int j = i + 1; j < nm && j <= i + 4; j++)
            for (int k = 1; k <= 3; k++) {
                double p = (double)(m[j] - m[i]) / k;
                if (p < MIN_PERIOD_NS)
                    continue;
                struct fit_score s = score(m, nm, m[i], p);
                if (better(s, p, best, best_p))
                    best = s, best_p = p, best_anchor = m[i];
            }
    if (best.count >= 3) {
        refine(m, nm, best_anchor, best_p, out);
        out->count = best.count;
        double tol = tolerance(best_p);
        for (int i = 0; i < n; i++) {
            bool fits = false;
            if (of[i] >= 0)
                slot_of(m[of[i]], best_anchor, best_p, tol, &fits);
            fit[i] = fits;
        }
    }
    free(of);
    return best.count >= 3;
}
