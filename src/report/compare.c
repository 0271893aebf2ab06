/* Comparison of reports: statistics on stored histograms, and the comparison document that the text and
 * HTML renderers print. See compare.h for why each test is the one used. */
#include "report/compare.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- UTF-8: jansson refuses invalid strings, and snprintf's "%.80s" may cut a character in two ---- */

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_seq(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 1 && s[0] == 0)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Make s valid UTF-8 in place: a byte that starts no valid sequence becomes '?'. */
static void utf8_fix(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        size_t n = utf8_seq(p);
        if (n == 0) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}

/* ---- histograms read back from reports ---- */

struct bucket {
    double lo, hi, count;
};

static int bucket_cmp(const void *a, const void *b)
{
    const struct bucket *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return 0;
}

void rhist_free(struct rhist *h)
{
    free(h->lo);
    free(h->hi);
    free(h->count);
    free(h->cum);
    memset(h, 0, sizeof(*h));
}

int rhist_from_json(const json_t *arr, int fold_abs, struct rhist *h)
{
    memset(h, 0, sizeof(*h));
    size_t n = json_array_size(arr), m = 0;
    if (n == 0)
        return 0;
    struct bucket *b = calloc(n, sizeof(*b));
    if (!b)
        return -ENOMEM;
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e) {
        /* Validated reports only reach here, but skipping what is not a bucket costs nothing. */
        double lo = json_number_value(json_array_get(e, 0)), hi = json_number_value(json_array_get(e, 1));
        double c = json_number_value(json_array_get(e, 2));
        if (json_array_size(e) != 3 || !isfinite(lo) || !isfinite(hi) || !(c > 0) || !isfinite(c) || lo > hi)
            continue;
        if (fold_abs && hi <= 0) {
            double t = lo;
            lo = -hi;
            hi = -t;
        } else if (fold_abs && lo < 0) { /* straddles zero: its magnitudes run from 0 to the larger edge */
            hi = fmax(-lo, hi);
            lo = 0;
        }
        b[m++] = (struct bucket){ lo, hi, c };
    }
    qsort(b, m, sizeof(*b), bucket_cmp);
    /* Merge equal buckets (a folded negative bucket and its positive twin). */
    size_t k = 0;
    for (i = 0; i < m; i++) {
        if (k && b[k - 1].lo == b[i].lo && b[k - 1].hi == b[i].hi)
            b[k - 1].count += b[i].count;
        else
            b[k++] = b[i];
    }
    int rc = 0;
    if (k) {
        h->lo = malloc(k * sizeof(double));
        h->hi = malloc(k * sizeof(double));
        h->count = malloc(k * sizeof(double));
        h->cum = malloc(k * sizeof(double));
        if (!h->lo || !h->hi || !h->count || !h->cum) {
            rhist_free(h);
            rc = -ENOMEM;
            goto out;
        }
        double c = 0;
        for (i = 0; i < k; i++) {
            h->lo[i] = b[i].lo;
            h->hi[i] = b[i].hi;
            h->count[i] = b[i].count;
            c += b[i].count;
            h->cum[i] = c;
        }
        h->n = k;
        h->total = c;
    }
out:
    free(b);
    return rc;
}

double rhist_inverse(const struct rhist *h, double u)
{
    if (h->n == 0 || !(h->total > 0))
        return NAN;
    double target = fmin(fmax(u, 0.0), 1.0) * h->total;
    size_t lo = 0, hi = h->n - 1;
    while (lo < hi) { /* first bucket whose cumulative count reaches target */
        size_t mid = lo + (hi - lo) / 2;
        if (h->cum[mid] >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    double before = h->cum[lo] - h->count[lo];
    double frac = (target - before) / h->count[lo];
    frac = fmin(fmax(frac, 0.0), 1.0);
    return h->lo[lo] + frac * (h->hi[lo] - h->lo[lo]);
}

static double rank_of(const struct rhist *h, double q)
{
    double k = ceil(q * h->total);
    return fmin(fmax(k, 1.0), h->total);
}

double rhist_quantile(const struct rhist *h, double q)
{
    if (h->n == 0 || !(h->total > 0))
        return NAN;
    return rhist_inverse(h, (rank_of(h, q) - 0.5) / h->total);
}

/* ---- random numbers for the bootstrap: splitmix64, seeded, so that results are reproducible ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rng_uniform(uint64_t *s) /* in (0, 1) */
{
    return ((double)(rng_next(s) >> 11) + 0.5) * 0x1.0p-53;
}

static double rng_normal(uint64_t *s)
{
    double u1 = rng_uniform(s), u2 = rng_uniform(s);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Marsaglia and Tsang's method; shape >= 1 here (ranks are whole numbers >= 1). */
static double rng_gamma(uint64_t *s, double shape)
{
    double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = rng_normal(s);
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        double u = rng_uniform(s);
        if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return d * v;
    }
}

static double rng_beta(uint64_t *s, double a, double b)
{
    double x = rng_gamma(s, a), y = rng_gamma(s, b);
    return x / (x + y);
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int quantile_diff_ci(const struct rhist *a, const struct rhist *b, double q, int resamples, uint64_t seed,
                     struct quantile_diff *out)
{
    out->a = rhist_quantile(a, q);
    out->b = rhist_quantile(b, q);
    out->lo = out->hi = NAN;
    out->tail_a = a->total - rank_of(a, q);
    out->tail_b = b->total - rank_of(b, q);
    if (isnan(out->a) || isnan(out->b) || resamples < 40)
        return -EINVAL;
    double *d = malloc((size_t)resamples * sizeof(double));
    if (!d)
        return -ENOMEM;
    double ka = rank_of(a, q), kb = rank_of(b, q);
    for (int r = 0; r < resamples; r++) {
        double ua = rng_beta(&seed, ka, a->total + 1 - ka), ub = rng_beta(&seed, kb, b->total + 1 - kb);
        d[r] = rhist_inverse(b, ub) - rhist_inverse(a, ua);
    }
    qsort(d, (size_t)resamples, sizeof(double), dcmp);
    out->lo = d[(int)floor(0.025 * (resamples - 1))];
    out->hi = d[(int)ceil(0.975 * (resamples - 1))];
    free(d);
    return 0;
}

/* ---- Mann-Whitney from two histograms ---- */

struct tagged {
    double mid, ca, cb;
};

static int tagged_cmp(const void *x, const void *y)
{
    const struct tagged *a = x, *b = y;
    return a->mid < b->mid ? -1 : a->mid > b->mid;
}

int rank_test(const struct rhist *a, const struct rhist *b, struct rank_test *out)
{
    out->p_value = NAN;
    out->prob_b_greater = NAN;
    out->z = NAN;
    if (!(a->total > 0) || !(b->total > 0))
        return -EINVAL;
    size_t n = a->n + b->n;
    struct tagged *t = malloc(n * sizeof(*t));
    if (!t)
        return -ENOMEM;
    for (size_t i = 0; i < a->n; i++)
        t[i] = (struct tagged){ (a->lo[i] + a->hi[i]) / 2, a->count[i], 0 };
    for (size_t i = 0; i < b->n; i++)
        t[a->n + i] = (struct tagged){ (b->lo[i] + b->hi[i]) / 2, 0, b->count[i] };
    qsort(t, n, sizeof(*t), tagged_cmp);
    /* Every value in one bucket is a tie: ranks are mid-ranks of the group, and the variance is corrected. */
    double na = a->total, nb = b->total, N = na + nb, below = 0, rank_sum_b = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        double ca = 0, cb = 0;
        size_t j = i;
        for (; j < n && t[j].mid == t[i].mid; j++) {
            ca += t[j].ca;
            cb += t[j].cb;
        }
        double g = ca + cb;
        rank_sum_b += cb * (below + (g + 1) / 2);
        ties += g * g * g - g;
        below += g;
        i = j;
    }
    free(t);
    double u_b = rank_sum_b - nb * (nb + 1) / 2; /* pairs (a, b) with b > a, ties counted half */
    double mean = na * nb / 2;
    double var = na * nb / 12 * ((N + 1) - ties / (N * (N - 1)));
    out->prob_b_greater = u_b / (na * nb);
    if (!(var > 0)) { /* every value in one bucket: nothing to rank */
        out->z = 0;
        out->p_value = 1;
        return 0;
    }
    double diff = fabs(u_b - mean) - 0.5; /* continuity correction */
    out->z = (diff > 0 ? diff : 0) / sqrt(var) * (u_b >= mean ? 1 : -1);
    out->p_value = erfc(fabs(out->z) / M_SQRT2);
    return 0;
}

double rate_test_p(double ka, double na, double kb, double nb)
{
    if (!(na > 0) || !(nb > 0) || ka < 0 || kb < 0)
        return NAN;
    double k = ka + kb;
    if (k == 0)
        return 1;
    double p0 = nb / (na + nb);
    if (k > 100000) { /* the binomial sum would be long; the normal approximation is exact enough there */
        double z = (kb - k * p0) / sqrt(k * p0 * (1 - p0));
        return erfc(fabs(z) / M_SQRT2);
    }
    double lp = log(p0), lq = log1p(-p0), base = lgamma(k + 1);
    double ref = base - lgamma(kb + 1) - lgamma(k - kb + 1) + kb * lp + (k - kb) * lq;
    double p = 0;
    for (double i = 0; i <= k; i++) {
        double l = base - lgamma(i + 1) - lgamma(k - i + 1) + i * lp + (k - i) * lq;
        if (l <= ref + 1e-9)
            p += exp(l);
    }
    return fmin(p, 1.0);
}

const char *cmp_outcome_name(enum cmp_outcome o)
{
    static const char *const names[] = { "same", "better", "worse", "weak", "n/a" };
    return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "n/a";
}

/* A difference has to clear both: 10 % of the baseline (bucket width is 1.6 %, and a quiet machine moves
 * by more between two runs) and 2 µs (below that, timer and clock noise). */
static double practical_floor(double baseline)
{
    return fmax(2.0, 0.10 * fabs(baseline));
}

/* Fewer cycles than this beyond a percentile make it a statement about a handful of events. */
#define MIN_TAIL 10

enum cmp_outcome decide_quantile(const struct quantile_diff *d)
{
    return decide_quantile_noise(d, 0);
}

enum cmp_outcome decide_quantile_noise(const struct quantile_diff *d, double noise_us)
{
    if (isnan(d->a) || isnan(d->b) || isnan(d->lo) || isnan(d->hi))
        return CMP_NA;
    double diff = d->b - d->a, floor_us = practical_floor(d->a);
    /* Beyond run-to-run noise means farther apart than two runs of one kernel were: strictly. */
    int beyond = fabs(diff) >= floor_us && !(fabs(diff) <= noise_us);
    enum cmp_outcome o = CMP_SAME;
    if (d->lo > 0 && beyond)
        o = CMP_WORSE;
    else if (d->hi < 0 && beyond)
        o = CMP_BETTER;
    if (o != CMP_SAME && (d->tail_a < MIN_TAIL || d->tail_b < MIN_TAIL))
        o = CMP_WEAK;
    return o;
}

enum cmp_outcome decide_rank(const struct rank_test *t)
{
    return decide_rank_noise(t, 0);
}

enum cmp_outcome decide_rank_noise(const struct rank_test *t, double noise_effect)
{
    if (isnan(t->p_value))
        return CMP_NA;
    /* p < 0.001 rather than 0.05: cycles are not independent, so the p-value is optimistic. */
    double effect = fabs(t->prob_b_greater - 0.5);
    if (t->p_value < 0.001 && effect >= 0.06 && !(effect <= noise_effect))
        return t->prob_b_greater > 0.5 ? CMP_WORSE : CMP_BETTER;
    return CMP_SAME;
}

/* ---- reading reports ---- */

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* For printing: never NULL. */
static const char *sstr(const json_t *o, const char *k)
{
    const char *s = str(o, k);
    return s ? s : "";
}

void compare_phase_key(const json_t *phase, char *buf, size_t len)
{
    const char *load = str(phase, "load");
    double segs = num(phase, "segments_in_phase"), frames = num(phase, "period_frames");
    if (segs > 1 && !isnan(frames))
        snprintf(buf, len, "%.100s@%.0f", load ? load : "?", frames);
    else
        snprintf(buf, len, "%.100s", load ? load : "?");
    utf8_fix(buf);
}

const json_t *compare_find_phase(const json_t *doc, const char *key)
{
    size_t i;
    const json_t *p;
    char k[128];
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        compare_phase_key(p, k, sizeof(k));
        if (!strcmp(k, key))
            return p;
    }
    return NULL;
}

/* ---- flattening the system identity ---- */

#define FLAT_MAX_DEPTH 4
#define FLAT_VALUE_MAX 512

static void scalar_text(const json_t *v, char *buf, size_t len)
{
    switch (json_typeof(v)) {
    case JSON_STRING: snprintf(buf, len, "%s", json_string_value(v)); break;
    case JSON_INTEGER: snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
    case JSON_REAL: snprintf(buf, len, "%.6g", json_real_value(v)); break;
    case JSON_TRUE: snprintf(buf, len, "yes"); break;
    case JSON_FALSE: snprintf(buf, len, "no"); break;
    case JSON_NULL: snprintf(buf, len, "-"); break;
    default: snprintf(buf, len, "…"); break;
    }
    utf8_fix(buf);
}

static int is_scalar(const json_t *v)
{
    return !json_is_object(v) && !json_is_array(v);
}

void flatten_json(const json_t *o, const char *prefix, int depth,
                  void (*fn)(const char *key, const char *value, void *arg), void *arg)
{
    char key[256], val[FLAT_VALUE_MAX];
    if (is_scalar(o)) {
        scalar_text(o, val, sizeof(val));
        fn(prefix, val, arg);
        return;
    }
    if (depth >= FLAT_MAX_DEPTH) {
        fn(prefix, "…", arg);
        return;
    }
    if (json_is_array(o)) {
        /* An array of scalars reads best on one line; an array of objects (sound cards) one line each. */
        int scalars = 1;
        size_t i;
        const json_t *e;
        json_array_foreach(o, i, e)
            scalars &= is_scalar(e);
        if (scalars) {
            size_t off = 0;
            val[0] = '\0';
            json_array_foreach(o, i, e) {
                char one[128];
                scalar_text(e, one, sizeof(one));
                int w = snprintf(val + off, sizeof(val) - off, "%s%s", i ? ", " : "", one);
                if (w < 0 || (size_t)w >= sizeof(val) - off)
                    break;
                off += (size_t)w;
            }
            fn(prefix, val, arg);
            return;
        }
        json_array_foreach(o, i, e) {
            if (i >= 64)
                break;
            snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
            flatten_json(e, key, depth + 1, fn, arg);
        }
        return;
    }
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        snprintf(key, sizeof(key), "%s%s%.80s", prefix, *prefix ? "." : "", k);
        utf8_fix(key);
        flatten_json(v, key, depth + 1, fn, arg);
    }
}

struct flat_ctx {
    json_t *map; /* key -> array of n values (null where a report lacks the key) */
    size_t idx, n;
};

/* Keys of the identity that change from run to run on one and the same system (process ids, other audio
 * processes that happened to run, free swap): listing them as "what differs" would hide what does. */
static int identity_noise(const char *key)
{
    static const char *const prefixes[] = { "audio_servers" };
    static const char *const leaves[] = { "pid", "swap_free_mib", "mem_free_mib", "mem_available_mib", "uptime_s" };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
            return 1;
    const char *leaf = strrchr(key, '.');
    leaf = leaf ? leaf + 1 : key;
    for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
        if (!strcmp(leaf, leaves[i]))
            return 1;
    return 0;
}

static void flat_collect(const char *key, const char *value, void *arg)
{
    struct flat_ctx *c = arg;
    if (identity_noise(key))
        return;
    json_t *a = json_object_get(c->map, key);
    if (!a) {
        if (json_object_size(c->map) >= 2000) /* a hostile identity does not get to grow this without bound */
            return;
        a = json_array();
        for (size_t i = 0; i < c->n; i++)
            json_array_append_new(a, json_null());
        json_object_set_new(c->map, key, a);
    }
    json_array_set_new(a, c->idx, json_string(value));
}

/* ---- building the comparison ---- */

static json_t *num_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *metric_column(const json_t *m)
{
    if (!json_is_object(m))
        return json_null();
    double mx = num(m, "abs_max");
    return json_pack("{s:o, s:o, s:o, s:o, s:o}", "mean", num_or_null(num(m, "mean")), "sd",
                     num_or_null(num(m, "sd")), "p99", num_or_null(num(m, "p99")), "p999",
                     num_or_null(num(m, "p999")), "max", num_or_null(isnan(mx) ? num(m, "max") : mx));
}

static double xruns_of(const json_t *p)
{
    const json_t *x = json_object_get(p, "xruns");
    double r = num(x, "reported"), d = num(x, "detected");
    if (isnan(r))
        return d;
    if (isnan(d))
        return r;
    return fmax(r, d); /* the two overlap: see DESIGN.md, "Xrun notifications" */
}

static json_t *column(const json_t *p)
{
    if (!p)
        return json_null();
    const json_t *x = json_object_get(p, "xruns");
    json_t *tp = json_array();
    size_t i;
    const json_t *lm;
    json_array_foreach(json_object_get(p, "load_metrics"), i, lm)
        json_array_append_new(tp, json_pack("{s:s, s:o, s:s}", "name", str(lm, "name") ? str(lm, "name") : "?",
                                            "value", num_or_null(num(lm, "value")), "unit",
                                            str(lm, "unit") ? str(lm, "unit") : ""));
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "jitter", metric_column(json_object_get(p, "jitter_us")),
                     "wakeup", metric_column(json_object_get(p, "wakeup_us")),
                     "cycles", num_or_null(num(p, "cycles")), "xruns", num_or_null(xruns_of(p)),
                     "xruns_reported", num_or_null(num(x, "reported")),
                     "xruns_detected", num_or_null(num(x, "detected")),
                     "deadlines_met_pct", num_or_null(num(p, "deadlines_met_pct")),
                     "deadlines_missed", num_or_null(num(p, "deadlines_missed")),
                     "throughput", tp, "load_error", str(p, "load_error") ? json_string(str(p, "load_error"))
                                                                          : json_null(),
                     "period_frames", num_or_null(num(p, "period_frames")));
}

static void fmt_num(char *buf, size_t len, double v, int prec)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.*f", prec, v);
}

/* The rows of a load's table, formatted once, for the text and HTML renderers alike. */
struct row_def {
    const char *label;
    const char *metric; /* "jitter" / "wakeup", or NULL for a phase-level key */
    const char *key;
};

static const struct row_def row_defs[] = {
    { "jitter mean ± SD (µs)", "jitter", "mean" }, { "jitter p99 (µs)", "jitter", "p99" },
    { "jitter p99.9 (µs)", "jitter", "p999" }, { "jitter max (µs)", "jitter", "max" },
    { "wakeup mean ± SD (µs)", "wakeup", "mean" }, { "wakeup p99 (µs)", "wakeup", "p99" },
    { "wakeup p99.9 (µs)", "wakeup", "p999" }, { "wakeup max (µs)", "wakeup", "max" },
    { "xruns (reported/detected)", NULL, "xruns" }, { "deadlines met (%)", NULL, "deadlines_met_pct" },
    { "cycles", NULL, "cycles" },
};

static void cell_text(const json_t *col, const struct row_def *r, char *buf, size_t len)
{
    if (json_is_null(col) || !col) {
        snprintf(buf, len, "(not run)");
        return;
    }
    if (r->metric) {
        const json_t *m = json_object_get(col, r->metric);
        if (!strcmp(r->key, "mean")) {
            char a[32], b[32];
            fmt_num(a, sizeof(a), num(m, "mean"), 1);
            fmt_num(b, sizeof(b), num(m, "sd"), 1);
            snprintf(buf, len, "%s ± %s", a, b);
        } else {
            fmt_num(buf, len, num(m, r->key), 1);
        }
        return;
    }
    if (!strcmp(r->key, "xruns")) {
        char a[32], b[32];
        fmt_num(a, sizeof(a), num(col, "xruns_reported"), 0);
        fmt_num(b, sizeof(b), num(col, "xruns_detected"), 0);
        snprintf(buf, len, "%s/%s", a, b);
    } else if (!strcmp(r->key, "deadlines_met_pct")) {
        fmt_num(buf, len, num(col, r->key), 3);
    } else {
        fmt_num(buf, len, num(col, r->key), 0);
    }
}

static json_t *build_rows(const json_t *columns)
{
    json_t *rows = json_array();
    char buf[128];
    for (size_t r = 0; r < sizeof(row_defs) / sizeof(row_defs[0]); r++) {
        json_t *cells = json_array();
        size_t i;
        const json_t *c;
        json_array_foreach(columns, i, c) {
            cell_text(c, &row_defs[r], buf, sizeof(buf));
            json_array_append_new(cells, json_string(buf));
        }
        json_array_append_new(rows, json_pack("{s:s, s:o}", "label", row_defs[r].label, "cells", cells));
    }
    /* Throughput: one row per load metric name met in any column, in order of appearance. */
    json_t *names = json_object();
    size_t i;
    const json_t *c;
    json_array_foreach(columns, i, c) {
        size_t j;
        const json_t *t;
        json_array_foreach(json_object_get(c, "throughput"), j, t) {
            char label[160];
            snprintf(label, sizeof(label), "%.80s (%.40s)", str(t, "name"), str(t, "unit"));
            utf8_fix(label);
            if (json_object_size(names) < 64 && !json_object_get(names, label))
                json_object_set_new(names, label, json_string(str(t, "name")));
        }
    }
    const char *label;
    const json_t *name;
    json_object_foreach(names, label, name) {
        json_t *cells = json_array();
        json_array_foreach(columns, i, c) {
            const char *s = "-";
            if (json_is_null(c))
                s = "(not run)";
            size_t j;
            const json_t *t;
            json_array_foreach(json_object_get(c, "throughput"), j, t)
                if (!strcmp(str(t, "name"), json_string_value(name))) {
                    fmt_num(buf, sizeof(buf), num(t, "value"), 3);
                    /* %.3f of 1e15 is long but bounded: buf is 128 bytes */
                    s = buf;
                    break;
                }
            json_array_append_new(cells, json_string(s));
        }
        json_array_append_new(rows, json_pack("{s:s, s:o}", "label", label, "cells", cells));
    }
    json_decref(names);
    return rows;
}

struct tally {
    int better, worse, same, weak;
};

static void count(struct tally *t, enum cmp_outcome o)
{
    if (o == CMP_BETTER)
        t->better++;
    else if (o == CMP_WORSE)
        t->worse++;
    else if (o == CMP_SAME)
        t->same++;
    else if (o == CMP_WEAK)
        t->weak++;
}

static const char *outcome_words(enum cmp_outcome o)
{
    switch (o) {
    case CMP_BETTER: return "better, beyond sampling noise";
    case CMP_WORSE: return "worse, beyond sampling noise";
    case CMP_SAME: return "no clear difference";
    case CMP_WEAK: return "weak evidence";
    default: return "not comparable";
    }
}

static void add_verdict(json_t *list, size_t report, const char *metric, double a, double b,
                        enum cmp_outcome o, const char *text, struct tally *t)
{
    json_array_append_new(list, json_pack("{s:I, s:s, s:o, s:o, s:s, s:s}", "report", (json_int_t)report,
                                          "metric", metric, "a", num_or_null(a), "b", num_or_null(b), "outcome",
                                          cmp_outcome_name(o), "text", text));
    count(t, o);
}

#define BOOTSTRAP_RESAMPLES 2000

/* Verdicts of report b against the baseline a for one load, appended to list. */
/* How far two runs of one and the same kernel lie apart: the q-quantile difference in µs (q > 0), or the rank
 * test's |P(B > A) - 0.5| (q == 0). 0 without a repeated run. */
static double repeat_noise(const json_t *p, const json_t *rep, const char *hist, int fold, double q)
{
    if (!p || !rep)
        return 0;
    struct rhist h, r;
    double noise = 0;
    if (rhist_from_json(json_object_get(json_object_get(p, "histograms"), hist), fold, &h) < 0)
        return 0;
    if (rhist_from_json(json_object_get(json_object_get(rep, "histograms"), hist), fold, &r) == 0) {
        if (q > 0) {
            noise = fabs(rhist_quantile(&h, q) - rhist_quantile(&r, q));
        } else {
            struct rank_test t;
            if (rank_test(&r, &h, &t) == 0)
                noise = fabs(t.prob_b_greater - 0.5);
        }
        rhist_free(&r);
    }
    rhist_free(&h);
    return isnan(noise) ? 0 : noise;
}

/* ra, rb: the same load in an earlier run of the baseline's and of this report's kernel, or NULL. */
static void metric_verdicts(const json_t *pa, const json_t *pb, const json_t *ra, const json_t *rb, size_t bi,
                            json_t *list, struct tally *t)
{
    static const struct { const char *name, *hist; int fold; } metrics[] = {
        { "jitter", "jitter", 1 }, { "wakeup", "wakeup", 0 },
    };
    char text[512];
    for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
        struct rhist ha, hb;
        if (rhist_from_json(json_object_get(json_object_get(pa, "histograms"), metrics[m].hist), metrics[m].fold,
                            &ha) < 0)
            continue;
        if (rhist_from_json(json_object_get(json_object_get(pb, "histograms"), metrics[m].hist), metrics[m].fold,
                            &hb) < 0) {
            rhist_free(&ha);
            continue;
        }
        const char *what = metrics[m].fold ? "|jitter|" : "wakeup";
        if (ha.total > 0 && hb.total > 0) {
            struct rank_test rt;
            rank_test(&ha, &hb, &rt);
            double noise = fmax(repeat_noise(pa, ra, metrics[m].hist, metrics[m].fold, 0),
                                repeat_noise(pb, rb, metrics[m].hist, metrics[m].fold, 0));
            enum cmp_outcome o = decide_rank_noise(&rt, noise), o0 = decide_rank(&rt);
            char pv[32];
            if (rt.p_value < 1e-6)
                snprintf(pv, sizeof(pv), "p < 1e-6");
            else
                snprintf(pv, sizeof(pv), "p = %.2g", rt.p_value);
            int n = snprintf(text, sizeof(text), "%s distribution: %s (Mann-Whitney %s, P(this > baseline) = %.2f)",
                             what, o != o0 ? "no clear difference: within the run-to-run noise" : outcome_words(o),
                             pv, rt.prob_b_greater);
            if ((ra || rb) && n > 0 && (size_t)n < sizeof(text))
                snprintf(text + n, sizeof(text) - (size_t)n, "; two runs of one kernel already differ by %.2f "
                         "in P", noise);
            char mname[64];
            snprintf(mname, sizeof(mname), "%s distribution", metrics[m].name);
            add_verdict(list, bi, mname, rhist_quantile(&ha, 0.5), rhist_quantile(&hb, 0.5), o, text, t);
            static const struct { double q; const char *label; } qs[] = { { 0.99, "p99" }, { 0.999, "p99.9" } };
            for (size_t k = 0; k < 2; k++) {
                struct quantile_diff d;
                quantile_diff_ci(&ha, &hb, qs[k].q, BOOTSTRAP_RESAMPLES, 0x5eed0000u + k + 2 * m, &d);
                noise = fmax(repeat_noise(pa, ra, metrics[m].hist, metrics[m].fold, qs[k].q),
                             repeat_noise(pb, rb, metrics[m].hist, metrics[m].fold, qs[k].q));
                o = decide_quantile_noise(&d, noise);
                o0 = decide_quantile(&d);
                n = snprintf(text, sizeof(text), "%s %s %.1f → %.1f µs: %s (95 %% bootstrap interval of the "
                             "difference %+.1f..%+.1f µs)", what, qs[k].label, d.a, d.b,
                             o != o0 && o == CMP_SAME ? "no clear difference: within the run-to-run noise"
                                                      : outcome_words(o), d.lo, d.hi);
                if (o == CMP_WEAK && n > 0 && (size_t)n < sizeof(text))
                    n += snprintf(text + n, sizeof(text) - (size_t)n, "; only %.0f and %.0f cycles lie above it",
                                  d.tail_a, d.tail_b);
                if ((ra || rb) && n > 0 && (size_t)n < sizeof(text))
                    snprintf(text + n, sizeof(text) - (size_t)n, "; two runs of one kernel differ by %.1f µs",
                             noise);
                snprintf(mname, sizeof(mname), "%s %s", metrics[m].name, qs[k].label);
                add_verdict(list, bi, mname, d.a, d.b, o, text, t);
            }
        }
        rhist_free(&ha);
        rhist_free(&hb);
        /* The maximum is one event of one run: shown, never decided. */
        const char *mk = metrics[m].fold ? "jitter_us" : "wakeup_us";
        const char *mf = metrics[m].fold ? "abs_max" : "max";
        double ma = num(json_object_get(pa, mk), mf), mb = num(json_object_get(pb, mk), mf);
        if (!isnan(ma) && !isnan(mb)) {
            snprintf(text, sizeof(text), "%s max %.1f → %.1f µs: a single run's maximum is weak evidence", what, ma,
                     mb);
            char mname[64];
            snprintf(mname, sizeof(mname), "%s max", metrics[m].name);
            add_verdict(list, bi, mname, ma, mb, CMP_WEAK, text, t);
        }
    }
    /* Counts of rare events: are the rates per cycle different? */
    static const struct { const char *name; } events[] = { { "xruns" }, { "deadlines missed" } };
    for (size_t e = 0; e < 2; e++) {
        double ka = e ? num(pa, "deadlines_missed") : xruns_of(pa);
        double kb = e ? num(pb, "deadlines_missed") : xruns_of(pb);
        double na = num(pa, "cycles"), nb = num(pb, "cycles");
        if (isnan(ka) || isnan(kb) || !(na > 0) || !(nb > 0))
            continue;
        double p = rate_test_p(ka, na, kb, nb);
        enum cmp_outcome o = CMP_SAME;
        double ra = ka / na, rb = kb / nb;
        if (!isnan(p) && p < 0.01)
            o = rb > ra ? CMP_WORSE : CMP_BETTER;
        if (ka + kb == 0)
            snprintf(text, sizeof(text), "%s: none in either run", events[e].name);
        else
            snprintf(text, sizeof(text), "%s %.0f in %.0f cycles → %.0f in %.0f cycles: %s (exact rate test, "
                     "p = %.2g)", events[e].name, ka, na, kb, nb, o == CMP_SAME ? "no clear difference"
                     : outcome_words(o), p);
        add_verdict(list, bi, events[e].name, ka, kb, o, text, t);
    }
}

static void title_of(const json_t *doc, size_t i, char *buf, size_t len)
{
    const char *rel = str(json_object_get(json_object_get(doc, "system"), "kernel"), "release");
    const char *label = str(doc, "label");
    snprintf(buf, len, "%.100s%s%.60s%s", rel ? rel : "unknown kernel", label ? " (" : "", label ? label : "",
             label ? ")" : "");
    utf8_fix(buf);
    (void)i;
}

static void flat_one(const char *key, const char *value, void *arg)
{
    if (!identity_noise(key) && json_object_size(arg) < 2000)
        json_object_set_new(arg, key, json_string(value));
}

/* Is rep an earlier run of the same set-up as doc: the same system identity (less its run-to-run noise), the
 * same audio setting? Only then does the distance between the two say what run-to-run noise is. */
static int same_setup(const json_t *doc, const json_t *rep)
{
    json_t *a = json_object(), *b = json_object();
    flatten_json(json_object_get(doc, "system"), "", 0, flat_one, a);
    flatten_json(json_object_get(rep, "system"), "", 0, flat_one, b);
    int same = json_equal(a, b);
    json_decref(a);
    json_decref(b);
    static const char *const keys[] = { "backend", "provider", "rate", "period_frames" };
    const json_t *x = json_object_get(doc, "audio"), *y = json_object_get(rep, "audio");
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const json_t *u = json_object_get(x, keys[i]), *v = json_object_get(y, keys[i]);
        same &= (!u && !v) || (u && v && json_equal(u, v));
    }
    return same;
}

json_t *compare_build(json_t *const *docs, const char *const *names, size_t n)
{
    return compare_build_repeats(docs, names, NULL, NULL, n);
}

json_t *compare_build_repeats(json_t *const *docs, const char *const *names, json_t *const *repeats_in,
                              const char *const *repeat_names, size_t n)
{
    if (n == 0)
        return NULL; /* the baseline is docs[0]: there must be one */
    json_t *cmp = json_object();
    json_t *reports = json_array(), *warnings = json_array();
    json_object_set_new(cmp, "schema", json_string("rtjitter.compare/1"));
    char titles[64][200];
    if (n > 64)
        n = 64; /* more columns than this cannot be read side by side anyway */
    const json_t *repeats[64] = { NULL };
    for (size_t i = 0; repeats_in && i < n; i++)
        if (repeats_in[i] && same_setup(docs[i], repeats_in[i]))
            repeats[i] = repeats_in[i];
    for (size_t i = 0; i < n; i++) {
        title_of(docs[i], i, titles[i], sizeof(titles[i]));
        for (size_t j = 0; j < i; j++)
            if (!strcmp(titles[i], titles[j])) { /* the same kernel twice: tell them apart by start time */
                size_t l = strlen(titles[i]);
                const char *st = str(docs[i], "started");
                snprintf(titles[i] + l, sizeof(titles[i]) - l, " %.30s", st ? st : "");
                utf8_fix(titles[i]);
                break;
            }
        const json_t *au = json_object_get(docs[i], "audio");
        const char *be = str(au, "backend"), *pv = str(au, "provider");
        char file[1024];
        snprintf(file, sizeof(file), "%s", names && names[i] ? names[i] : "");
        utf8_fix(file); /* a file name is bytes, not necessarily UTF-8 */
        json_array_append_new(reports, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
            "file", file, "title", titles[i],
            "release", json_incref(json_object_get(json_object_get(json_object_get(docs[i], "system"), "kernel"),
                                                   "release") ?: json_null()),
            "label", json_incref(json_object_get(docs[i], "label") ?: json_null()),
            "started", json_incref(json_object_get(docs[i], "started") ?: json_null()),
            "backend", be ? json_string(be) : json_null(), "provider", pv ? json_string(pv) : json_null(),
            "rate", num_or_null(num(au, "rate")), "period_frames", num_or_null(num(au, "period_frames")),
            "period_us", num_or_null(num(au, "period_us")),
            "complete", json_is_true(json_object_get(docs[i], "complete"))));
        char rfile[1024];
        snprintf(rfile, sizeof(rfile), "%s", repeats[i] && repeat_names && repeat_names[i] ? repeat_names[i] : "");
        utf8_fix(rfile);
        json_object_set_new(json_array_get(reports, i), "noise_from", repeats[i] ? json_string(rfile)
                                                                               : json_null());
    }
    json_object_set_new(cmp, "reports", reports);
    if (n < 2)
        json_array_append_new(warnings, json_string("only one report: nothing to compare it with"));
    /* Settings that make two runs measure different things. */
    const json_t *a0 = json_object_get(docs[0], "audio");
    char w[1024];
    for (size_t i = 0; i < n; i++) {
        const json_t *au = json_object_get(docs[i], "audio");
        if (i > 0) {
            double r0 = num(a0, "rate"), r = num(au, "rate"), p0 = num(a0, "period_frames"),
                   p = num(au, "period_frames");
            const char *b0 = str(a0, "backend"), *b = str(au, "backend");
            const char *v0 = str(a0, "provider"), *v = str(au, "provider");
            int differ = (!isnan(r0) && !isnan(r) && r0 != r) || (!isnan(p0) && !isnan(p) && p0 != p) ||
                         (b0 && b && strcmp(b0, b)) || (v0 && v && strcmp(v0, v));
            if (differ) {
                snprintf(w, sizeof(w), "%.200s ran at %.0f frames / %.0f Hz on %.40s %.40s, the baseline %.200s at %.0f frames / "
                         "%.0f Hz on %.40s %.40s: the figures are not measured under the same setting", titles[i], p, r,
                         b ? b : "?", v ? v : "", titles[0], p0, r0, b0 ? b0 : "?", v0 ? v0 : "");
                utf8_fix(w);
                json_array_append_new(warnings, json_string(w));
            }
        }
        if (!json_is_true(json_object_get(docs[i], "complete"))) {
            const char *why = str(docs[i], "incomplete_reason");
            snprintf(w, sizeof(w), "%.200s is an incomplete run (%.200s): its figures cover only the part that ran",
                     titles[i], why ? why : "interrupted");
            utf8_fix(w);
            json_array_append_new(warnings, json_string(w));
        }
    }
    /* What differs in the system identity, key by key, whatever keys exist. */
    struct flat_ctx fc = { json_object(), 0, n };
    for (size_t i = 0; i < n; i++) {
        fc.idx = i;
        const json_t *sys = json_object_get(docs[i], "system");
        if (json_is_object(sys))
            flatten_json(sys, "", 0, flat_collect, &fc);
    }
    json_t *diff = json_array();
    const char *key;
    json_t *vals;
    json_object_foreach(fc.map, key, vals) {
        int same = 1;
        for (size_t i = 1; i < n; i++)
            same &= json_equal(json_array_get(vals, 0), json_array_get(vals, i));
        if (!same)
            json_array_append_new(diff, json_pack("{s:s, s:O}", "key", key, "values", vals));
    }
    json_decref(fc.map);
    json_object_set_new(cmp, "system_diff", diff);

    /* Loads: every phase key met in any report, in order of first appearance. */
    json_t *keys = json_array();
    for (size_t i = 0; i < n; i++) {
        size_t j;
        const json_t *p;
        json_array_foreach(json_object_get(docs[i], "phases"), j, p) {
            char k[128];
            compare_phase_key(p, k, sizeof(k));
            int seen = 0;
            size_t x;
            const json_t *e;
            json_array_foreach(keys, x, e)
                seen |= !strcmp(json_string_value(e), k);
            if (!seen && json_array_size(keys) < 256)
                json_array_append_new(keys, json_string(k));
        }
    }
    json_t *loads = json_array();
    struct tally *tallies = calloc(n, sizeof(*tallies));
    size_t li;
    const json_t *kv;
    json_array_foreach(keys, li, kv) {
        const char *k = json_string_value(kv);
        json_t *columns = json_array(), *verdicts = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(columns, column(compare_find_phase(docs[i], k)));
        const json_t *pa = compare_find_phase(docs[0], k);
        for (size_t i = 1; i < n && pa && tallies; i++) {
            const json_t *pb = compare_find_phase(docs[i], k);
            if (pb)
                metric_verdicts(pa, pb, repeats[0] ? compare_find_phase(repeats[0], k) : NULL,
                                repeats[i] ? compare_find_phase(repeats[i], k) : NULL, i, verdicts, &tallies[i]);
        }
        json_array_append_new(loads, json_pack("{s:s, s:o, s:o, s:o}", "load", k, "columns", columns, "rows",
                                               build_rows(columns), "verdicts", verdicts));
    }
    json_decref(keys);
    json_object_set_new(cmp, "loads", loads);

    /* Plain words first: one sentence per report against the baseline. */
    json_t *summary = json_array();
    for (size_t i = 1; i < n && tallies; i++) {
        json_t *better = json_array(), *worse = json_array();
        json_array_foreach(loads, li, kv) {
            size_t j;
            const json_t *v;
            json_array_foreach(json_object_get(kv, "verdicts"), j, v) {
                if ((size_t)json_integer_value(json_object_get(v, "report")) != i)
                    continue;
                const char *o = str(v, "outcome");
                char s[200];
                snprintf(s, sizeof(s), "%s under %s", str(v, "metric"), str(kv, "load"));
                utf8_fix(s);
                if (!strcmp(o, "better") && json_array_size(better) < 6)
                    json_array_append_new(better, json_string(s));
                if (!strcmp(o, "worse") && json_array_size(worse) < 6)
                    json_array_append_new(worse, json_string(s));
            }
        }
        char line[2048];
        int off = snprintf(line, sizeof(line), "%s against %s: better in %d measure%s, worse in %d, no clear "
                           "difference in %d, weak evidence in %d.", titles[i], titles[0], tallies[i].better,
                           tallies[i].better == 1 ? "" : "s", tallies[i].worse, tallies[i].same, tallies[i].weak);
        const json_t *lists[2] = { worse, better };
        const char *heads[2] = { " Worse: ", " Better: " };
        for (int L = 0; L < 2; L++) {
            size_t j;
            const json_t *s;
            json_array_foreach(lists[L], j, s) {
                if (off < 0 || (size_t)off >= sizeof(line))
                    break;
                off += snprintf(line + off, sizeof(line) - (size_t)off, "%s%s", j ? ", " : heads[L],
                                json_string_value(s));
            }
            if (json_array_size(lists[L]) && off >= 0 && (size_t)off < sizeof(line))
                off += snprintf(line + off, sizeof(line) - (size_t)off, ".");
        }
        if (tallies[i].better == 0 && tallies[i].worse == 0 && off >= 0 && (size_t)off < sizeof(line))
            snprintf(line + off, sizeof(line) - (size_t)off, " Nothing here is beyond run-to-run noise.");
        utf8_fix(line);
        json_array_append_new(summary, json_string(line));
        json_decref(better);
        json_decref(worse);
    }
    free(tallies);
    json_object_set_new(cmp, "summary", summary);
    json_object_set_new(cmp, "warnings", warnings);
    json_object_set_new(cmp, "method", json_string(
        "Percentiles: 95 % percentile-bootstrap interval of the difference (2000 resamples drawn from the "
        "histograms). Distributions: Mann-Whitney rank test on the histograms (values in one bucket are ties), "
        "called a difference at p < 0.001 with P(B > A) at least 0.06 away from 0.5. A difference must also "
        "exceed 10 % and 2 µs, and, where the store holds an earlier run of the same kernel and set-up, the "
        "distance between those two runs (run-to-run noise). Xruns and missed deadlines: exact conditional test of two rates, p < 0.01. These "
        "tests treat cycles as independent; without an earlier run of a kernel they cannot see run-to-run noise. "
        "A single run's maximum is weak evidence."));
    return cmp;
}

/* ---- text ---- */

/* Display width of UTF-8 text: one column per code point (µ, ±, → are one column wide). */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

static void pad(FILE *f, const char *s, int width)
{
    fputs(s, f);
    for (int w = text_width(s); w < width; w++)
        fputc(' ', f);
}

void compare_print_text(FILE *f, const json_t *cmp)
{
    const json_t *reports = json_object_get(cmp, "reports");
    size_t i;
    const json_t *r;
    fprintf(f, "Comparing %zu report%s (the first is the baseline):\n", json_array_size(reports),
            json_array_size(reports) == 1 ? "" : "s");
    json_array_foreach(reports, i, r) {
        fprintf(f, "  [%zu] %s  %s, %.0f frames @ %.0f Hz  %s\n", i + 1, sstr(r, "title"),
                str(r, "started") ? str(r, "started") : "?", num(r, "period_frames"), num(r, "rate"), sstr(r, "file"));
        if (str(r, "noise_from"))
            fprintf(f, "      run-to-run noise measured against an earlier run: %s\n", sstr(r, "noise_from"));
    }
    const json_t *s;
    json_array_foreach(json_object_get(cmp, "warnings"), i, s)
        fprintf(f, "warning: %s\n", json_string_value(s) ? json_string_value(s) : "");
    const json_t *diff = json_object_get(cmp, "system_diff");
    if (json_array_size(diff)) {
        fprintf(f, "\nWhat differs in the system:\n");
        json_array_foreach(diff, i, s) {
            if (i >= 60) {
                fprintf(f, "  ... and %zu more\n", json_array_size(diff) - i);
                break;
            }
            fprintf(f, "  %-28s ", sstr(s, "key"));
            size_t j;
            const json_t *v;
            json_array_foreach(json_object_get(s, "values"), j, v) {
                const char *t = json_string_value(v);
                fprintf(f, "%s%.120s", j ? " → " : "", t ? t : "(absent)");
            }
            fputc('\n', f);
        }
    } else if (json_array_size(reports) > 1) {
        fprintf(f, "\nThe system identity is the same in every report.\n");
    }
    /* Column widths: the title or the widest cell, up to 30. */
    size_t nr = json_array_size(reports);
    int widths[64];
    for (i = 0; i < nr && i < 64; i++) {
        int w = text_width(sstr(json_array_get(reports, i), "title"));
        widths[i] = w < 12 ? 12 : w > 30 ? 30 : w;
    }
    const json_t *load;
    json_array_foreach(json_object_get(cmp, "loads"), i, load) {
        fprintf(f, "\nLoad: %s\n", sstr(load, "load"));
        pad(f, "", 28);
        for (size_t c = 0; c < nr && c < 64; c++) {
            fputs("  ", f);
            pad(f, sstr(json_array_get(reports, c), "title"), widths[c]);
        }
        fputc('\n', f);
        size_t j;
        const json_t *row;
        json_array_foreach(json_object_get(load, "rows"), j, row) {
            pad(f, sstr(row, "label"), 28);
            size_t c;
            const json_t *cell;
            json_array_foreach(json_object_get(row, "cells"), c, cell) {
                if (c >= 64)
                    break;
                fputs("  ", f);
                pad(f, json_string_value(cell) ? json_string_value(cell) : "", widths[c]);
            }
            fputc('\n', f);
        }
        const json_t *v;
        size_t last = 0;
        json_array_foreach(json_object_get(load, "verdicts"), j, v) {
            size_t ri = (size_t)json_integer_value(json_object_get(v, "report"));
            if (ri != last)
                fprintf(f, "  %s against the baseline:\n", sstr(json_array_get(reports, ri), "title"));
            last = ri;
            fprintf(f, "    %s\n", sstr(v, "text"));
        }
    }
    if (json_array_size(json_object_get(cmp, "summary")))
        fprintf(f, "\nVerdict:\n");
    json_array_foreach(json_object_get(cmp, "summary"), i, s)
        fprintf(f, "  %s\n", json_string_value(s) ? json_string_value(s) : "");
    fprintf(f, "\nMethod: %s\n", sstr(cmp, "method"));
}

/* ---- the store ---- */

struct found {
    char *path;
    char base[256];
};

static int found_cmp(const void *a, const void *b)
{
    return strcmp(((const struct found *)a)->base, ((const struct found *)b)->base);
}

static int is_report_name(const char *name)
{
    size_t l = strlen(name);
    return name[0] != '.' && l > 5 && !strcmp(name + l - 5, ".json") && !strstr(name, ".tmp-");
}

int compare_previous_in_store(const char *path, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return -ENOENT;
    char dir[4096];
    if ((size_t)(slash - path) >= sizeof(dir))
        return -ENAMETOOLONG;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    const char *base = slash + 1;
    DIR *d = opendir(dir[0] ? dir : "/");
    if (!d)
        return -errno;
    char best[256] = "";
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_report_name(e->d_name) && strlen(e->d_name) < sizeof(best) && strcmp(e->d_name, base) < 0 &&
            strcmp(e->d_name, best) > 0)
            snprintf(best, sizeof(best), "%s", e->d_name);
    closedir(d);
    if (!best[0])
        return -ENOENT;
    if (snprintf(out, len, "%s/%s", dir, best) >= (int)len)
        return -ENAMETOOLONG;
    return 0;
}

int compare_latest_in_store(const char *store, char ***paths, size_t *n)
{
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(store);
    if (!d)
        return -errno;
    struct found *fs = NULL;
    size_t nf = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char sub[4096];
        if (snprintf(sub, sizeof(sub), "%s/%s", store, de->d_name) >= (int)sizeof(sub))
            continue;
        DIR *k = opendir(sub);
        if (!k)
            continue; /* not a directory, or unreadable: not a kernel's reports */
        char best[256] = "";
        struct dirent *fe;
        while ((fe = readdir(k)))
            /* File names start with the UTC start time, so the greatest name is the latest run. */
            if (is_report_name(fe->d_name) && strlen(fe->d_name) < sizeof(best) && strcmp(fe->d_name, best) > 0)
                snprintf(best, sizeof(best), "%s", fe->d_name);
        closedir(k);
        if (!best[0])
            continue;
        if (nf == cap) {
            size_t nc = cap ? cap * 2 : 8;
            struct found *t = realloc(fs, nc * sizeof(*fs));
            if (!t) {
                rc = -ENOMEM;
                goto out;
            }
            fs = t;
            cap = nc;
        }
        size_t pl = strlen(sub) + strlen(best) + 2;
        fs[nf].path = malloc(pl);
        if (!fs[nf].path) {
            rc = -ENOMEM;
            goto out;
        }
        snprintf(fs[nf].path, pl, "%s/%s", sub, best);
        snprintf(fs[nf].base, sizeof(fs[nf].base), "%s", best);
        nf++;
    }
    /* Oldest first: the kernel tested first is the baseline. */
    qsort(fs, nf, sizeof(*fs), found_cmp);
    if (nf) {
        *paths = calloc(nf, sizeof(char *));
        if (!*paths) {
            rc = -ENOMEM;
            goto out;
        }
        for (size_t i = 0; i < nf; i++) {
            (*paths)[i] = fs[i].path;
            fs[i].path = NULL;
        }
        *n = nf;
    }
out:
    for (size_t i = 0; i < nf; i++)
        free(fs[i].path);
    free(fs);
    closedir(d);
    return rc;
}
