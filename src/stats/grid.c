/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stats/grid.h"
#include <string.h>

#define GRID_BLOCK_S 2 /* blocks per second */
#define GRID_BLOCK_MIN 16
#define GRID_BLOCK_MAX 4096

void grid_init(struct grid *g, uint32_t nframes, uint32_t rate_hz)
{
    memset(g, 0, sizeof(*g));
    g->ns_per_frame = rate_hz ? 1e9 / rate_hz : 0;
    uint32_t per_s = nframes ? rate_hz / nframes : 0;
    g->block_len = per_s / GRID_BLOCK_S;
    if (g->block_len < GRID_BLOCK_MIN)
        g->block_len = GRID_BLOCK_MIN;
    if (g->block_len > GRID_BLOCK_MAX)
        g->block_len = GRID_BLOCK_MAX;
}

void grid_reset(struct grid *g)
{
    double npf = g->ns_per_frame;
    uint32_t bl = g->block_len;
    memset(g, 0, sizeof(*g));
    g->ns_per_frame = npf;
    g->block_len = bl;
}

/* Frame position relative to the base, as a double (frames). */
static double rel_frames(const struct grid *g, uint64_t frame_pos)
{
    return (double)(int64_t)(frame_pos - g->f_base);
}

static double level(const struct grid *g, double f)
{
    return g->have_fit ? g->icpt + g->slope * (f - g->f_ref) : g->run_min_r;
}

int64_t grid_start(const struct grid *g, uint64_t frame_pos)
{
    if (!g->have_base)
        return INT64_MIN;
    double f = rel_frames(g, frame_pos);
    double t = f * g->ns_per_frame + level(g, f);
    return g->t_base + (int64_t)(t < 0 ? t - 0.5 : t + 0.5);
}

static int cmp_double(double a, double b)
{
    return (a > b) - (a < b);
}

/* The median of n values (n <= GRID_NSLOPES: the slopes between every pair of the window's blocks), by insertion
 * sort of a copy. */
#define GRID_NSLOPES (GRID_K * (GRID_K - 1) / 2)
static double median(const double *v, int n)
{
    double s[GRID_NSLOPES];
    if (n > GRID_NSLOPES)
        n = GRID_NSLOPES;
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && cmp_double(s[j - 1], v[i]) > 0; j--)
            s[j] = s[j - 1];
        s[j] = v[i];
    }
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void fit(struct grid *g)
{
    /* Theil-Sen: the median slope over every pair of the blocks' minima, not only neighbours. A busy machine lifts
     * each block's minimum by a few µs at random; between neighbours (half a second apart) that is a slope error
     * of several ppm, which over the window's 4.5 s moved the grid's zero by more than the spread's tolerance
     * (truth_provider drift+, once in about ten rounds beside stress-ng); pairs further apart weigh it less. */
    double slopes[GRID_NSLOPES];
    int ns = 0;
    for (int i = 0; i < g->nmin; i++)
        for (int j = i + 1; j < g->nmin; j++) {
            double df = g->mf[j] - g->mf[i];
            if (df > 0)
                slopes[ns++] = (g->mr[j] - g->mr[i]) / df;
        }
    g->slope = ns ? median(slopes, ns) : 0;
    g->f_ref = g->mf[g->nmin - 1];
    double lo = g->mr[0] - g->slope * (g->mf[0] - g->f_ref);
    for (int i = 1; i < g->nmin; i++) {
        double v = g->mr[i] - g->slope * (g->mf[i] - g->f_ref);
        if (v < lo)
            lo = v;
    }
    g->icpt = lo;
    g->have_fit = 1;
}

void grid_observe(struct grid *g, uint64_t frame_pos, int64_t t_entry_ns)
{
    if (!g->have_base) {
        g->have_base = 1;
        g->f_base = frame_pos;
        g->t_base = t_entry_ns;
    }
    double f = rel_frames(g, frame_pos);
    double r = (double)(t_entry_ns - g->t_base) - f * g->ns_per_frame;
    if (g->in_block == 0 || r < g->blk_min_r) {
        g->blk_min_r = r;
        g->blk_min_f = f;
    }
    if (!g->have_fit && (g->in_block == 0 && g->nmin == 0 ? 1 : r < g->run_min_r))
        g->run_min_r = r;
    if (++g->in_block < g->block_len)
        return;
    if (g->nmin == GRID_K) {
        memmove(g->mf, g->mf + 1, (GRID_K - 1) * sizeof(double));
        memmove(g->mr, g->mr + 1, (GRID_K - 1) * sizeof(double));
        g->nmin--;
    }
    g->mf[g->nmin] = g->blk_min_f;
    g->mr[g->nmin] = g->blk_min_r;
    g->nmin++;
    g->in_block = 0;
    fit(g);
}

void grid_lower(struct grid *g, uint64_t frame_pos, int64_t t_entry_ns)
{
    if (!g->have_base)
        return;
    double f = rel_frames(g, frame_pos);
    double r = (double)(t_entry_ns - g->t_base) - f * g->ns_per_frame;
    double below = level(g, f) - r;
    if (below <= 0)
        return;
    if (g->have_fit)
        g->icpt -= below;
    if (r < g->run_min_r)
        g->run_min_r = r;
    if (g->in_block > 0 && r < g->blk_min_r) {
        g->blk_min_r = r;
        g->blk_min_f = f;
    }
}

void step_init(struct step_detect *d, uint32_t rate_hz)
{
    memset(d, 0, sizeof(*d));
    d->ns_per_frame = rate_hz ? 1e9 / rate_hz : 0;
    int64_t three = rate_hz ? 3000000000LL / rate_hz : 0;
    d->tol_ns = three > 40000 ? three : 40000;
}

static int64_t median8(const int64_t *v)
{
    int64_t s[STEP_HALF];
    for (int i = 0; i < STEP_HALF; i++) {
        int j = i;
        for (; j > 0 && s[j - 1] > v[i]; j--)
            s[j] = s[j - 1];
        s[j] = v[i];
    }
    return (s[STEP_HALF / 2 - 1] + s[STEP_HALF / 2]) / 2;
}

int step_observe(struct step_detect *d, uint64_t frame_pos, int64_t start_ns)
{
    if (!d->have_base) {
        d->have_base = 1;
        d->f_base = frame_pos;
        d->t_base = start_ns;
        d->n = 0;
    }
    double f = (double)(int64_t)(frame_pos - d->f_base);
    int64_t r = (start_ns - d->t_base) - (int64_t)(f * d->ns_per_frame);
    if (d->n == 2 * STEP_HALF) {
        memmove(d->r, d->r + 1, (2 * STEP_HALF - 1) * sizeof(d->r[0]));
        d->n--;
    }
    d->r[d->n++] = r;
    if (d->n < 2 * STEP_HALF)
        return 0;
    int64_t old = median8(d->r), now = median8(d->r + STEP_HALF), step = now - old;
    if (step <= d->tol_ns && step >= -d->tol_ns)
        return 0;
    d->have_base = 0; /* start over: the next cycle is the new base */
    return 1;
}
