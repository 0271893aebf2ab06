/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter sweep`: which buffer size is safe on this kernel, under each load. For each rate, buffer sizes are
 * measured one run (run_execute()) at a time; a run's phases are the loads whose answer is still open at that
 * size, one phase per cell of the grid (buffer size x load). What each cell proves, whether it is safe by the
 * profile, and which sizes a measured cell lets the sweep skip are the pure functions at the end of this header
 * (sweep_logic.c, unit-tested); the document is "rtjitter.sweep/1" (sweep_doc.c), rendered by
 * render/sweep_text.c and render/sweep_html.c.
 *
 * Search per load (a row): sizes are probed from the middle of the ones still open (a bisection), because both
 * directions tell something: a size that passes with margin makes every larger size safe (skipped, marked
 * inferred), a size that fails clearly makes every smaller size unsafe (skipped, marked inferred). A plain pass
 * or a marginal fail decides its own cell only. --measure-all turns both inferences off. */
#ifndef RTJ_SWEEP_H
#define RTJ_SWEEP_H
#include "run/run.h"
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define SWEEP_SCHEMA "rtjitter.sweep/1"
#define SWEEP_DEFAULT_PERIODS "16,32,64,128,256,512"
#define SWEEP_DEFAULT_LOADS "none,burn,write"
#define SWEEP_MAX_SIZES 16
#define SWEEP_MAX_RATES 8
#define SWEEP_MAX_LOADS 16
#define SWEEP_CONFIDENCE 0.95

struct sweep_plan {
    struct run_plan run;           /* backend, its settings, loads, duration, warm-up, store, profile, quiet */
    int periods[SWEEP_MAX_SIZES];  /* ascending, distinct */
    int nperiods;
    int rates[SWEEP_MAX_RATES];    /* in the order given */
    int nrates;
    int stop_after_fail;           /* a size with at least this many xrun events + missed deadlines fails
                                    * clearly: smaller sizes are skipped; 0: never */
    double pass_margin_pct;        /* a safe size whose margin kept by 99.9 % of cycles is at least this share of
                                    * the period passes with margin: larger sizes are skipped; < 0: the profile's
                                    * warn_margin_pct times two */
    int measure_all;               /* measure every cell (no inference) */
    const char *json, *html;       /* the sweep document and its page, or NULL */
};

/* Runs the sweep. Returns the exit status: 0 done, 1 done but no size is safe under every load, 2 bad input,
 * 3 could not complete (interrupted, server lost: a partial document marked incomplete is still written). */
int sweep_execute(const struct sweep_plan *sp);

/* Parses a comma-separated list of integers in [min, max] into out (at most max_n), sorted ascending without
 * duplicates when sort; the order given otherwise. 0, or -EINVAL with one line in err. */
int sweep_parse_list(const char *text, int min, int max, int *out, int max_n, int sort, int *n, char *err,
                     size_t errlen);

/* ---- the pure logic (sweep_logic.c) ---- */

enum sweep_state {
    CELL_OPEN = 0,       /* not decided yet */
    CELL_SAFE,           /* measured, safe by the profile */
    CELL_UNSAFE,         /* measured, not safe */
    CELL_INF_SAFE,       /* skipped: a smaller size of this row passed with margin */
    CELL_INF_UNSAFE,     /* skipped: a larger size of this row failed clearly */
    CELL_NOT_MEASURED,   /* tried but not measured at this size (size not in force, run failed); or interrupted */
};

/* A cell's figures, from its phase of the run's report. NAN where unknown. */
struct sweep_figs {
    double cycles, measured_s, period_us;
    double events, missed, met_pct;
    double wakeup_p999_us, wakeup_max_us;
    double margin_p999_us;         /* the margin 99.9 % of the cycles kept at least (the low tail) */
    double margin_min_us;
};

struct sweep_rules {
    double max_xruns, max_missed;  /* the profile's */
    double warn_margin_pct;        /* the profile's: the margin the safe size must keep (p99.9) */
    double pass_margin_pct;        /* passes with margin */
    int stop_after_fail;           /* fails clearly */
    int measure_all;
};

/* The upper bound of a per-cycle event rate, at confidence conf, when 0 events were seen in n cycles (exact
 * binomial, Clopper-Pearson: 1 - (1 - conf)^(1/n), about 3/n for 95 %: "the rule of three"). NAN when n < 1. */
double sweep_zero_bound(double n, double conf);
/* The value that all but a share q of the entries of a report histogram ([[lo, hi, count], ...]) are at least:
 * the lower edge of the bin where the count from below first exceeds floor(q * total). NAN when empty. */
double sweep_hist_low_quantile(const json_t *bins, double q);
/* Safe by the rules (1) or not (0); *clear gets 1 when it passed with margin or failed clearly. */
int sweep_judge(const struct sweep_figs *f, const struct sweep_rules *r, int *clear);
/* After cell i of a row of n was measured (state[i] is CELL_SAFE or CELL_UNSAFE): the cells it lets the sweep
 * skip. Only CELL_OPEN cells change. */
void sweep_infer(enum sweep_state *state, size_t n, size_t i, int clear, int measure_all);
/* The next size of a row to measure: the lower middle of its open cells; -1 when none is open. */
int sweep_next_probe(const enum sweep_state *state, size_t n);
/* The smallest safe size of a row: the smallest i safe (measured or inferred) with no larger size unsafe
 * (measured or inferred); -1 when none. */
int sweep_smallest_safe(const enum sweep_state *state, size_t n);
/* The smallest size safe under every row (rows of n cells each, row r at states + r * n); -1 when none. */
int sweep_smallest_overall(const enum sweep_state *states, size_t nrows, size_t n);
const char *sweep_state_name(enum sweep_state s);

#endif
