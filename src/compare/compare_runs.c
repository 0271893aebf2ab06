/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs as the units of a verdict on set-ups: see compare_runs.h. */
#include "compare/compare_runs.h"
#include "report/access.h"
#include "compare/compare_blocks.h"
#include "compare/compare_setup.h"
#include "report/phase_figures.h"
#include "report/report_read.h"
#include "stats/pvalue.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run's value needs as many whole seconds as a verdict on its seconds does. */
#define RUN_MIN_SECONDS 5

static double event_rate(const json_t *phase, int deadlines)
{
    double k = deadlines ? doc_num(phase, "deadlines_missed") : phasefig_xruns(phase);
    double s = blocks_measured_s(phase);
    if (isnan(k) || !(s > 0))
        return NAN;
    /* its events per second, as the verdict on the pair counts them (compare_counts.h); a run's bursts are in its
     * total, and the t-test on the runs' logarithms weighs them against the other runs' */
    return (k + 0.5) / s;
}

void compare_run_values(const json_t *phase, double v[RUN_VALUES])
{
    for (int m = 0; m < 4; m++)
        v[m] = phase ? blocks_median(phase, compare_block_measures[m].key, RUN_MIN_SECONDS) : NAN;
    v[4] = phase ? event_rate(phase, 0) : NAN;
    v[5] = phase ? event_rate(phase, 1) : NAN;
}

json_t *compare_run_values_json(const json_t *doc)
{
    json_t *out = json_object();
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        char name[PHASE_NAME_LEN];
        double v[RUN_VALUES];
        doc_phase_name(p, name, sizeof(name));
        compare_run_values(p, v);
        json_t *a = json_array();
        for (int m = 0; m < RUN_VALUES; m++)
            json_array_append_new(a, doc_number_json(v[m]));
        json_object_set_new(out, name, a);
    }
    return out;
}

struct acc {
    double sum, ss; /* sum of y, and of squared deviations (filled by finish) */
    size_t n;
};

static double y_of(double v, int m, double scale)
{
    /* per-second figures below 1 µs are clock noise: a ratio of two of them says nothing */
    return m < 4 ? log(fmax(v, 1.0) * scale) : log(v);
}

int compare_share_scales(const json_t *pa, const json_t *pb, double *sa, double *sb)
{
    double a = pa ? phasefig_period_us(NULL, pa) : NAN, b = pb ? phasefig_period_us(NULL, pb) : NAN;
    *sa = *sb = 1;
    /* the same period to within a frame in a thousand: a nominal period is the same set-up's */
    if (!(a > 0) || !(b > 0) || fabs(a - b) <= 0.001 * fmax(a, b))
        return 0;
    *sa = 100 / a;
    *sb = 100 / b;
    return 1;
}

/* Adds the runs of rows[0..n) to a group; with first, the compared run's value first. Returns the group mean.
 * scale: what the group's latency values are multiplied by (run_groups). */
static double group(struct acc *g, const double *first, const double (*rows)[RUN_VALUES], size_t n, int m,
                    double scale)
{
    double ys[1 + 64 * 4];
    size_t k = 0;
    if (first && !isnan(*first) && *first > 0)
        ys[k++] = y_of(*first, m, scale);
    for (size_t i = 0; i < n && k < sizeof(ys) / sizeof(ys[0]); i++)
        if (!isnan(rows[i][m]) && rows[i][m] > 0)
            ys[k++] = y_of(rows[i][m], m, scale);
    double s = 0;
    for (size_t i = 0; i < k; i++)
        s += ys[i];
    double mean = k ? s / (double)k : NAN;
    for (size_t i = 0; i < k; i++)
        g->ss += (ys[i] - mean) * (ys[i] - mean);
    g->n = k;
    g->sum = s;
    return mean;
}

int run_level_test(const double va[RUN_VALUES], const double vb[RUN_VALUES], const struct run_groups *g, int m,
                   struct run_level *out)
{
    out->na = out->nb = out->nnoise = 0;
    out->df = 0;
    out->ratio = out->sd = out->t = out->p = out->p_family = NAN;
    out->family = 0;
    if (m < 0 || m >= RUN_VALUES || isnan(va[m]) || isnan(vb[m]) || !(va[m] > 0) || !(vb[m] > 0))
        return -EINVAL;
    struct acc A = { 0 }, B = { 0 }, N = { 0 };
    /* the noise group's runs are of one set-up, the baseline's and the compared run's alike: one period */
    double sa = g && g->scale_a > 0 ? g->scale_a : 1, sb = g && g->scale_b > 0 ? g->scale_b : 1;
    double ma = group(&A, &va[m], g ? g->a_more : NULL, g ? g->na_more : 0, m, sa);
    double mb = group(&B, &vb[m], g ? g->b_more : NULL, g ? g->nb_more : 0, m, sb);
    group(&N, NULL, g ? g->noise : NULL, g ? g->nnoise : 0, m, sa);
    out->na = A.n;
    out->nb = B.n;
    out->nnoise = N.n;
    out->df = (int)(A.n - 1) + (int)(B.n - 1) + (N.n ? (int)N.n - 1 : 0);
    double diff = mb - ma;
    out->ratio = exp(diff);
    if (out->df < 1)
        return 0;
    out->sd = sqrt((A.ss + B.ss + N.ss) / out->df);
    double se = out->sd * sqrt(1.0 / (double)A.n + 1.0 / (double)B.n);
    if (se > 0) {
        out->t = diff / se;
        out->p = student_t_p2(out->t, out->df);
    } else { /* every run of every group alike: any difference is beyond their noise */
        out->t = diff == 0 ? 0 : diff > 0 ? INFINITY : -INFINITY;
        out->p = diff == 0 ? 1 : 0;
    }
    if (g && g->p_family && !isnan(g->p_family[m])) {
        out->p_family = g->p_family[m];
        out->family = m < 4 ? g->family : g->family_drops;
    }
    return 0;
}

/* See compare_runs.h. rows must hold 2 * 64 rows. */
void compare_gather_runs(json_t *const *docs, const char *const *ids, const json_t *const *reps, size_t i,
                         const char *load, double (*rows)[RUN_VALUES], struct run_groups *g)
{
    memset(g, 0, sizeof(*g));
    compare_share_scales(phasefig_find(docs[0], load), phasefig_find(docs[i], load), &g->scale_a,
                         &g->scale_b);
    int same = compare_same_setup(docs[0], docs[i]);
    size_t k = 0;
    const json_t *seen[128];
    size_t nseen = 0;
    for (int side = 0; side < 2; side++) {
        const json_t *list = reps ? reps[side ? i : 0] : NULL;
        size_t start = k, j;
        const json_t *r;
        json_array_foreach(list, j, r) {
            const char *id = doc_str(r, "id", "");
            int dup = ids && ((ids[0] && !strcmp(id, ids[0])) || (ids[i] && !strcmp(id, ids[i])));
            for (size_t s = 0; s < nseen && !dup; s++)
                dup = !strcmp(id, doc_str(seen[s], "id", ""));
            const json_t *vals = json_object_get(json_object_get(r, "values"), load);
            if (dup || !json_is_array(vals) || k >= 128 || j >= 64)
                continue;
            for (int m = 0; m < RUN_VALUES; m++)
                {
                const json_t *x = json_array_get(vals, (size_t)m);
                rows[k][m] = json_is_number(x) ? json_number_value(x) : NAN;
            }
            seen[nseen++] = r;
            k++;
        }
        if (!same && side == 0) {
            g->a_more = (const double (*)[RUN_VALUES])rows + start;
            g->na_more = k - start;
        } else if (!same) {
            g->b_more = (const double (*)[RUN_VALUES])rows + start;
            g->nb_more = k - start;
        }
    }
    if (same) {
        g->noise = (const double (*)[RUN_VALUES])rows;
        g->nnoise = k;
    }
}

double *compare_family_p(json_t *const *docs, const char *const *ids, const json_t *const *reps, size_t n,
                         const json_t *keys, int *fam)
{
    size_t nkeys = json_array_size(keys);
    double *pfam = calloc(n * (nkeys ? nkeys : 1) * RUN_VALUES, sizeof(double));
    double rows[128][RUN_VALUES];
    for (size_t i = 1; pfam && i < n; i++) {
        double *pi = pfam + i * nkeys * RUN_VALUES;
        size_t li;
        const json_t *kv;
        json_array_foreach(keys, li, kv) {
            const char *k = json_string_value(kv);
            const json_t *pa = phasefig_find(docs[0], k), *pb = phasefig_find(docs[i], k);
            double va[RUN_VALUES], vb[RUN_VALUES];
            struct run_groups g;
            compare_gather_runs(docs, ids, reps, i, k, rows, &g);
            compare_run_values(pa, va);
            compare_run_values(pb, vb);
            for (int m = 0; m < RUN_VALUES; m++) {
                struct run_level rl;
                pi[li * RUN_VALUES + (size_t)m] =
                    pa && pb && run_level_test(va, vb, &g, m, &rl) == 0 && rl.df >= 1 ? rl.p : NAN;
            }
        }
        /* each family apart: its members gathered, adjusted, put back */
        size_t nall = nkeys * RUN_VALUES;
        double *part = malloc((nall ? nall : 1) * sizeof(double));
        for (int drops = 0; part && drops < 2; drops++) {
            size_t k = 0;
            for (size_t x = 0; x < nall; x++)
                if ((x % RUN_VALUES >= 4) == drops)
                    part[k++] = pi[x];
            fam[2 * i + (size_t)drops] = holm_adjust(part, k);
            k = 0;
            for (size_t x = 0; x < nall; x++)
                if ((x % RUN_VALUES >= 4) == drops)
                    pi[x] = part[k++];
        }
        if (!part) { /* no adjustment at all rather than a wrong one */
            free(pfam);
            return NULL;
        }
        free(part);
    }
    return pfam;
}
