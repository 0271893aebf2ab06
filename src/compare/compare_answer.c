/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The answer of `rtjitter compare` in a musician's terms: see compare_answer.h. Why dropouts decide: a dropout is
 * what is heard; microseconds of lateness are not, as long as the cycle still ends in time, and a longer period
 * allows more of them (an answer that called 128 frames "worse" than 64 for its lateness in µs, while its xruns fell
 * from 148 to 24, punished the tool's own advice). */
#include "compare/compare_answer.h"
#include "report/access.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* At most this many loads named in an answer; the rest are counted ("and 2 more loads"). */
#define NAMED_LOADS 3

enum side { S_NONE, S_PAIR, S_CALLED };

/* What the verdicts of report ri say of the measures picked by dropouts (1: xruns and missed deadlines; 0: the
 * per-second latency measures): better and worse, each S_CALLED (across runs), S_PAIR (in this pair only) or
 * S_NONE; *compared: any such verdict was reached at all (not "not compared"); *undecided: some counts differ but
 * were not compared (too few whole seconds). */
static void direction(const json_t *loads, size_t ri, int dropouts, enum side *better, enum side *worse, int *compared,
                      int *undecided, char *moved, size_t mlen)
{
    size_t li, j, mo = 0;
    const json_t *l, *v;
    *better = *worse = S_NONE;
    *compared = *undecided = 0;
    if (moved && mlen)
        moved[0] = '\0';
    json_array_foreach(loads, li, l) {
        json_array_foreach(json_object_get(l, "verdicts"), j, v) {
            if ((size_t)json_integer_value(json_object_get(v, "report")) != ri)
                continue;
            const char *m = doc_str(v, "metric", ""), *o = doc_str(v, "outcome", "");
            int is_drop = !strcmp(m, "xruns") || !strcmp(m, "deadlines missed");
            if (is_drop != dropouts)
                continue;
            *compared |= strcmp(o, "n/a") != 0; /* cmp_outcome_name(CMP_NA) */
            /* counts that differ but could not be weighed (too few whole seconds) */
            *undecided |= !strcmp(o, "n/a") && doc_num(v, "a") != doc_num(v, "b");
            if (!strcmp(o, "better") && *better < S_CALLED)
                *better = S_CALLED;
            else if (!strcmp(o, "better_in_pair") && *better < S_PAIR)
                *better = S_PAIR;
            else if (!strcmp(o, "worse") && *worse < S_CALLED)
                *worse = S_CALLED;
            else if (!strcmp(o, "worse_in_pair") && *worse < S_PAIR)
                *worse = S_PAIR;
            /* the measures that moved, in the tables' words ("|jitter| max/s under burn") */
            if (moved && mo < mlen && strcmp(o, "same") && strcmp(o, "n/a")) {
                int jit = !strncmp(m, "jitter", 6);
                int k = snprintf(moved + mo, mlen - mo, "%s%s%s %s under %.40s", mo ? ", " : "", jit ? "|jitter|" : "",
                                 jit ? m + 6 : m, strstr(o, "better") ? "lower" : "higher", doc_str(l, "load", "?"));
                mo = k < 0 ? mlen : mo + (size_t)k;
            }
        }
    }
}

struct load_count {
    const char *load;
    double a, b;
};

/* The counts of metric ("xruns" or "deadlines missed") of report ri in each load (the verdicts' a and b: the
 * reports' own totals), into c (at most max), the loads where either run had any, most first. Returns how many. */
static size_t counts_of(const json_t *loads, size_t ri, const char *metric, struct load_count *c, size_t max)
{
    size_t n = 0, li, j;
    const json_t *l, *v;
    json_array_foreach(loads, li, l) {
        json_array_foreach(json_object_get(l, "verdicts"), j, v) {
            if ((size_t)json_integer_value(json_object_get(v, "report")) != ri || strcmp(doc_str(v, "metric", ""), metric))
                continue;
            double a = doc_num(v, "a"), b = doc_num(v, "b");
            if (isnan(a) || isnan(b) || (a == 0 && b == 0) || n >= max)
                continue;
            c[n++] = (struct load_count){ doc_str(l, "load", "?"), a, b };
        }
    }
    for (size_t i = 1; i < n; i++) /* insertion sort, by the larger count of the two */
        for (size_t k = i; k > 0 && fmax(c[k].a, c[k].b) > fmax(c[k - 1].a, c[k - 1].b); k--) {
            struct load_count t = c[k];
            c[k] = c[k - 1];
            c[k - 1] = t;
        }
    return n;
}

/* "24 xrun events instead of 148 under write, 7 instead of 19 under none, and 2 more loads" into b. */
static void counts_words(char *b, size_t len, const struct load_count *c, size_t n, const char *one, const char *many)
{
    size_t off = 0;
    b[0] = 0;
    for (size_t i = 0; i < n && i < NAMED_LOADS && off < len; i++) {
        int k = i ? snprintf(b + off, len - off, ", %.0f instead of %.0f under %.60s", c[i].b, c[i].a, c[i].load)
                  : snprintf(b + off, len - off, "%.0f %s instead of %.0f under %.60s", c[i].b,
                             c[i].b == 1 ? one : many, c[i].a, c[i].load);
        off = k < 0 ? len : off + (size_t)k;
    }
    if (n > NAMED_LOADS && off < len)
        snprintf(b + off, len - off, ", and %zu more load%s", n - NAMED_LOADS, n - NAMED_LOADS == 1 ? "" : "s");
}

/* The compared run's setting when it is not the baseline's: "at 128 frames" (and the rate where it differs), or
 * "at a 0.500 ms period"; "" when they are the same. *differ set when the periods differ. */
static void setting_change(char *b, size_t len, const json_t *ra, const json_t *rb, int *differ)
{
    double fa = doc_num(ra, "period_frames"), fb = doc_num(rb, "period_frames"), ua = doc_num(ra, "period_us"),
           ub = doc_num(rb, "period_us"), hza = doc_num(ra, "rate"), hzb = doc_num(rb, "rate");
    *differ = ua > 0 && ub > 0 && fabs(ua - ub) > 0.001 * fmax(ua, ub);
    b[0] = 0;
    int rate_differs = hza > 0 && hzb > 0 && hza != hzb;
    if (fb > 0 && (fa != fb || rate_differs)) {
        if (rate_differs)
            snprintf(b, len, "at %.0f frames / %.0f Hz", fb, hzb);
        else
            snprintf(b, len, "at %.0f frames", fb);
    } else if (*differ)
        snprintf(b, len, "at a %.3f ms period", ub / 1000);
}

static const char *outcome_of(enum side better, enum side worse)
{
    if (better && worse)
        return "mixed";
    if (better)
        return better == S_CALLED ? "better" : "better_in_pair";
    if (worse)
        return worse == S_CALLED ? "worse" : "worse_in_pair";
    return "same";
}

static json_t *answer(const json_t *reports, const json_t *loads, size_t ri)
{
    const json_t *ra = json_array_get(reports, 0), *rb = json_array_get(reports, ri);
    enum side db, dw, lb, lw;
    int dcmp, lcmp, differ, dund, lund;
    char moved[300];
    direction(loads, ri, 1, &db, &dw, &dcmp, &dund, NULL, 0);
    direction(loads, ri, 0, &lb, &lw, &lcmp, &lund, moved, sizeof(moved));
    /* dropouts decide; lateness only where no dropout moved either way */
    int by_drops = db || dw;
    const char *o = by_drops ? outcome_of(db, dw) : outcome_of(lb, lw);
    /* nothing decided, and dropout counts that differ were not weighed: not "no clear difference" */
    if ((!dcmp && !lcmp) || (!strcmp(o, "same") && dund))
        o = "not_compared";
    char set[96], what[768], text[1200];
    setting_change(set, sizeof(set), ra, rb, &differ);
    struct load_count c[64];
    size_t nx = counts_of(loads, ri, "xruns", c, 64);
    if (nx)
        counts_words(what, sizeof(what), c, nx, "xrun event", "xrun events");
    else if ((nx = counts_of(loads, ri, "deadlines missed", c, 64)))
        counts_words(what, sizeof(what), c, nx, "missed deadline", "missed deadlines");
    else
        snprintf(what, sizeof(what), "no dropout in either run");
    static const struct {
        const char *outcome, *words;
    } heads[] = {
        { "better", "Better" },
        { "worse", "Worse" },
        { "better_in_pair", "Better in this pair" },
        { "worse_in_pair", "Worse in this pair" },
        { "mixed", "Mixed: better under some loads, worse under others" },
        { "same", "No clear difference" },
        { "not_compared", "Not compared (too few whole seconds in the runs: 5 a side are needed)" },
    };
    const char *head = "?";
    for (size_t k = 0; k < sizeof(heads) / sizeof(heads[0]); k++)
        if (!strcmp(heads[k].outcome, o))
            head = heads[k].words;
    int late = !by_drops && (lb || lw);
    int n = late ? snprintf(text, sizeof(text), "%s: %s%sthe audio thread's timing%s (%s); dropouts did not move (%s)",
                            head, set, set[0] ? ": " : "", differ ? ", as a share of each run's own period" : "", moved,
                            what)
                 : snprintf(text, sizeof(text), "%s: %s%s%s", head, set, set[0] ? ": " : "", what);
    size_t off = n < 0 ? sizeof(text) : (size_t)n;
#define SAY(...)                                                                                                       \
    do {                                                                                                               \
        if (off < sizeof(text)) {                                                                                      \
            int k_ = snprintf(text + off, sizeof(text) - off, __VA_ARGS__);                                            \
            off = k_ < 0 ? sizeof(text) : off + (size_t)k_;                                                            \
        }                                                                                                              \
    } while (0)
    SAY(".");
    if (strstr(o, "_in_pair"))
        SAY(" Not yet confirmed across runs: run each set-up twice more, into one directory, and compare again.");
#undef SAY
    utf8_trim(text);
    return json_pack("{s:I, s:s, s:s}", "report", (json_int_t)ri, "outcome", o, "text", text);
}

json_t *compare_answers(const json_t *reports, const json_t *loads, size_t n)
{
    json_t *out = json_array();
    for (size_t i = 1; out && i < n; i++)
        json_array_append_new(out, answer(reports, loads, i));
    return out;
}
