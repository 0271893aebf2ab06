/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-second blocks of a phase's timeline, the units compare's verdicts rest on (the rank test and shift on them:
 * stats/mann_whitney.c). See compare_blocks.h for why seconds and not cycles. */
#include "compare/compare_blocks.h"
#include "report/access.h"
#include "report/report_compact.h"
#include "stats/mann_whitney.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A phase's timeline as compare reads it: its packed columns (report_compact.h) when it was read so, else its
 * "timeline" array. */
struct tl_view {
    const json_t *arr;
    const unsigned char *packed;
    size_t n;
};

static void tl_view_of(const json_t *phase, struct tl_view *v)
{
    v->packed = tl_packed(phase, &v->n);
    v->arr = NULL;
    if (!v->packed) {
        v->arr = json_object_get(phase, "timeline");
        v->n = json_array_size(v->arr);
    }
}

/* Entry i's number of key (col its packed column, -1 when not packed: NAN then). */
static double tl_num(const struct tl_view *v, size_t i, const char *key, int col)
{
    if (v->packed)
        return tl_value(v->packed, i, col);
    return doc_num(json_array_get(v->arr, i), key);
}

const struct block_measure compare_block_measures[4] = {
    { "wakeup p99/s", "wakeup_p99_us", "wakeup p99" },
    { "wakeup max/s", "wakeup_max_us", "wakeup max" },
    { "jitter p99/s", "jitter_abs_p99_us", "|jitter| p99" },
    { "jitter max/s", "jitter_abs_max_us", "|jitter| max" },
};

int blocks_of(const json_t *phase, const char *key, double **out)
{
    *out = NULL;
    struct tl_view tv;
    tl_view_of(phase, &tv);
    size_t n = tv.n, i, k = 0;
    if (n == 0)
        return 0;
    int ck = tl_col_of(key);
    /* The usual cycles per second: the median of the whole seconds' counts. */
    double *cyc = malloc(n * sizeof(double));
    double *v = malloc(n * sizeof(double));
    if (!cyc || !v) {
        free(cyc);
        free(v);
        return -ENOMEM;
    }
    for (i = 0; i < n; i++) {
        double span = tl_num(&tv, i, "span_s", TL_SPAN), c = tl_num(&tv, i, "cycles", TL_CYCLES);
        if ((isnan(span) || span == 1) && c > 0)
            cyc[k++] = c;
    }
    double usual = median_select(cyc, k);
    free(cyc);
    /* The phase's length in seconds, from the entries' own second numbers and spans. */
    double end = 0;
    for (i = 0; i < n; i++) {
        double s0 = tl_num(&tv, i, "s", TL_S), span = tl_num(&tv, i, "span_s", TL_SPAN);
        if (!isnan(s0))
            end = fmax(end, s0 + (span > 0 ? span : 1));
    }
    k = 0;
    for (i = 0; i < n; i++) {
        double span = tl_num(&tv, i, "span_s", TL_SPAN), c = tl_num(&tv, i, "cycles", TL_CYCLES),
               x = tl_num(&tv, i, key, ck), s0 = tl_num(&tv, i, "s", TL_S);
        /* Inside a long run, report.c keeps whole seconds only around events: taking them would pick the
         * eventful seconds. The first and last BLOCKS_EDGE_S seconds are kept whatever happened: those. */
        if (!isnan(s0) && s0 >= BLOCKS_EDGE_S && s0 < end - BLOCKS_EDGE_S)
            continue;
        /* Only the phase's last second may be a cut one; a second short of cycles elsewhere is a stalled one, and
         * among the seconds that matter most. */
        int cut = i + 1 == n && !(c >= usual / 2);
        if (!(isnan(span) || span == 1) || !(c > 0) || cut || !isfinite(x))
            continue;
        v[k++] = x;
    }
    if (k == 0) {
        free(v);
        return 0;
    }
    *out = v;
    return (int)k;
}

double blocks_median(const json_t *phase, const char *key, int min)
{
    double *v;
    int n = blocks_of(phase, key, &v);
    double m = NAN;
    if (n > 0 && n >= min)
        m = median_select(v, (size_t)n);
    free(v);
    return m;
}

double blocks_measured_s(const json_t *phase)
{
    double s = doc_num(phase, "measured_s");
    if (s > 0)
        return s;
    s = doc_num(phase, "duration_s");
    if (s > 0)
        return s;
    double t = 0;
    struct tl_view tv;
    tl_view_of(phase, &tv);
    for (size_t i = 0; i < tv.n; i++) {
        double span = tl_num(&tv, i, "span_s", TL_SPAN);
        t += span > 0 ? span : 1;
    }
    return t > 0 ? t : NAN;
}

int blocks_half_shifts(const json_t *pa, const json_t *pb, const char *key, double *lo, double *hi)
{
    return blocks_half_shifts_scaled(pa, pb, key, 1, 1, lo, hi);
}

int blocks_half_shifts_scaled(const json_t *pa, const json_t *pb, const char *key, double sa, double sb, double *lo,
                              double *hi)
{
    double *a, *b;
    int na = blocks_of(pa, key, &a), nb = blocks_of(pb, key, &b), rc = -EINVAL;
    *lo = *hi = NAN;
    if (na >= 2 * BLOCKS_HALF_MIN && nb >= 2 * BLOCKS_HALF_MIN) {
        for (int i = 0; i < na; i++)
            a[i] *= sa;
        for (int i = 0; i < nb; i++)
            b[i] *= sb;
        /* time order: the first half of the whole seconds, and the second (an odd middle one left out) */
        size_t ha = (size_t)na / 2, hb = (size_t)nb / 2;
        const double *ah[2] = { a, a + (size_t)na - ha }, *bh[2] = { b, b + (size_t)nb - hb };
        rc = 0;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                double d = hodges_lehmann_shift(ah[i], ha, bh[j], hb);
                if (isnan(d))
                    rc = -ENOMEM;
                *lo = i + j ? fmin(*lo, d) : d;
                *hi = i + j ? fmax(*hi, d) : d;
            }
    }
    free(a);
    free(b);
    return rc;
}
