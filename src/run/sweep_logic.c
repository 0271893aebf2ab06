/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's pure logic (sweep.h): what a cell proves, whether it is safe, what it lets the sweep skip, and the
 * smallest safe size. No I/O; unit-tested in tests/unit/test_sweep.c. */
#include "run/sweep.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int sweep_parse_list(const char *text, int min, int max, int *out, int max_n, int sort, int *n, char *err,
                     size_t errlen)
{
    *n = 0;
    if (!text || !*text) {
        snprintf(err, errlen, "the list is empty");
        return -EINVAL;
    }
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[32];
        if (len == 0) {
            snprintf(err, errlen, "an empty entry in '%s'", text);
            return -EINVAL;
        }
        if (len >= sizeof(item)) {
            snprintf(err, errlen, "'%.*s...' is not a number", 20, p);
            return -EINVAL;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char *e;
        errno = 0;
        long v = strtol(item, &e, 10);
        if (e == item || *e || errno || item[0] == '+' || item[0] == '-' || item[0] == ' ') {
            snprintf(err, errlen, "'%s' is not a whole number", item);
            return -EINVAL;
        }
        if (v < min || v > max) {
            snprintf(err, errlen, "%ld is out of range (%d to %d)", v, min, max);
            return -EINVAL;
        }
        for (int i = 0; i < *n; i++)
            if (out[i] == (int)v) {
                snprintf(err, errlen, "%ld is listed twice", v);
                return -EINVAL;
            }
        if (*n == max_n) {
            snprintf(err, errlen, "more than %d entries", max_n);
            return -EINVAL;
        }
        out[(*n)++] = (int)v;
        if (!end)
            break;
        p = end + 1;
    }
    if (sort)
        qsort(out, (size_t)*n, sizeof(*out), cmp_int);
    return 0;
}

double sweep_zero_bound(double n, double conf)
{
    if (!(n >= 1) || !(conf > 0 && conf < 1))
        return NAN;
    /* (1 - p)^n = 1 - conf, solved for p without losing digits when p is tiny. */
    return -expm1(log1p(-conf) / n);
}

double sweep_hist_low_quantile(const json_t *bins, double q)
{
    double total = 0;
    size_t i;
    const json_t *b;
    json_array_foreach(bins, i, b) {
        double c = json_number_value(json_array_get(b, 2));
        if (c > 0)
            total += c;
    }
    if (total <= 0)
        return NAN;
    double allowed = floor(q * total), cum = 0;
    json_array_foreach(bins, i, b) {
        double c = json_number_value(json_array_get(b, 2));
        if (!(c > 0))
            continue;
        if (cum + c > allowed)
            return json_number_value(json_array_get(b, 0));
        cum += c;
    }
    return NAN;
}

int sweep_judge(const struct sweep_figs *f, const struct sweep_rules *r, int *clear)
{
    *clear = 0;
    if (!(f->cycles >= 1))
        return 0;
    double events = isnan(f->events) ? 0 : f->events, missed = isnan(f->missed) ? 0 : f->missed;
    double need = r->warn_margin_pct / 100.0 * f->period_us;
    int safe = events <= r->max_xruns && missed <= r->max_missed && !isnan(f->margin_p999_us) &&
               f->margin_p999_us >= need;
    if (safe)
        *clear = f->margin_p999_us >= r->pass_margin_pct / 100.0 * f->period_us;
    else
        *clear = r->stop_after_fail > 0 && events + missed >= r->stop_after_fail;
    return safe;
}

void sweep_infer(enum sweep_state *state, size_t n, size_t i, int clear, int measure_all)
{
    if (!clear || measure_all || i >= n)
        return;
    if (state[i] == CELL_SAFE) {
        for (size_t j = i + 1; j < n; j++)
            if (state[j] == CELL_OPEN)
                state[j] = CELL_INF_SAFE;
    } else if (state[i] == CELL_UNSAFE) {
        for (size_t j = 0; j < i; j++)
            if (state[j] == CELL_OPEN)
                state[j] = CELL_INF_UNSAFE;
    }
}

int sweep_next_probe(const enum sweep_state *state, size_t n)
{
    int open[SWEEP_MAX_SIZES];
    int k = 0;
    for (size_t i = 0; i < n && k < SWEEP_MAX_SIZES; i++)
        if (state[i] == CELL_OPEN)
            open[k++] = (int)i;
    return k ? open[(k - 1) / 2] : -1;
}

static int is_safe(enum sweep_state s)
{
    return s == CELL_SAFE || s == CELL_INF_SAFE;
}

static int is_unsafe(enum sweep_state s)
{
    return s == CELL_UNSAFE || s == CELL_INF_UNSAFE;
}

int sweep_smallest_safe(const enum sweep_state *state, size_t n)
{
    int best = -1;
    for (size_t i = n; i-- > 0;) {
        if (is_unsafe(state[i]))
            break;
        if (is_safe(state[i]))
            best = (int)i;
    }
    return best;
}

int sweep_smallest_overall(const enum sweep_state *states, size_t nrows, size_t n)
{
    int worst = -1;
    if (nrows == 0)
        return -1;
    for (size_t r = 0; r < nrows; r++) {
        int s = sweep_smallest_safe(states + r * n, n);
        if (s < 0)
            return -1;
        if (s > worst)
            worst = s;
    }
    return worst;
}

const char *sweep_state_name(enum sweep_state s)
{
    switch (s) {
    case CELL_OPEN: return "open";
    case CELL_SAFE: return "safe";
    case CELL_UNSAFE: return "unsafe";
    case CELL_INF_SAFE: return "inferred_safe";
    case CELL_INF_UNSAFE: return "inferred_unsafe";
    case CELL_NOT_MEASURED: return "not_measured";
    }
    return "?";
}
