/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare's reader of reports: timelines packed, or the identity alone. See report_compact.h. */
#include "report/report_compact.h"
#include "report/access.h"
#include "report/report_read.h"
#include "util/readfile.h"
#include "util/termtext.h"
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The key a packed timeline is kept under in its phase: it begins with a NUL, which no parsed document can have in
 * a key (jansson refuses it), so a report cannot bring its own. */
static const char PACKED_KEY[] = "\0timeline-packed";
#define PACKED_KEY_LEN (sizeof(PACKED_KEY) - 1)

static const char *const tl_keys[TL_NCOLS] = {
    "s", "span_s", "cycles", "wakeup_p99_us", "wakeup_max_us", "jitter_abs_p99_us", "jitter_abs_max_us",
    "xrun_events", "deadlines_missed",
};

int tl_col_of(const char *key)
{
    for (int c = 0; c < TL_NCOLS; c++)
        if (!strcmp(key, tl_keys[c]))
            return c;
    return -1;
}

const unsigned char *tl_packed(const json_t *phase, size_t *n)
{
    *n = 0;
    const json_t *v = json_object_getn(phase, PACKED_KEY, PACKED_KEY_LEN);
    if (!json_is_string(v))
        return NULL;
    *n = json_string_length(v) / (TL_NCOLS * sizeof(double));
    return (const unsigned char *)json_string_value(v);
}

double tl_value(const unsigned char *packed, size_t i, int col)
{
    double x;
    if (col < 0 || col >= TL_NCOLS)
        return NAN;
    memcpy(&x, packed + (i * TL_NCOLS + (size_t)col) * sizeof(double), sizeof(x));
    return x;
}

/* ---- the lexer: where the values are, not what they are (jansson says that) ---- */

struct lex {
    const char *b;
    size_t n, i;
};

static void ws(struct lex *l)
{
    while (l->i < l->n && (l->b[l->i] == ' ' || l->b[l->i] == '\t' || l->b[l->i] == '\n' || l->b[l->i] == '\r'))
        l->i++;
}

/* at a '"': past the closing one */
static int skip_string(struct lex *l)
{
    const char *b = l->b;
    for (size_t i = l->i + 1; i < l->n;) {
        const char *q = memchr(b + i, '"', l->n - i);
        if (!q)
            return -1;
        size_t at = (size_t)(q - b), bs = 0;
        while (at - bs > i && b[at - bs - 1] == '\\') /* escaped when an odd number of backslashes precede it */
            bs++;
        if (bs % 2 == 0) {
            l->i = at + 1;
            return 0;
        }
        i = at + 1;
    }
    return -1;
}

/* the bytes that matter inside a container: quotes and brackets */
static const unsigned char structural[256] = { ['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1 };

/* past one value, nesting followed without recursion */
static int skip_value(struct lex *l)
{
    ws(l);
    if (l->i >= l->n)
        return -1;
    char c = l->b[l->i];
    if (c == '"')
        return skip_string(l);
    if (c == '{' || c == '[') {
        size_t depth = 0;
        const unsigned char *b = (const unsigned char *)l->b;
        while (l->i < l->n) {
            while (l->i < l->n && !structural[b[l->i]])
                l->i++;
            if (l->i >= l->n)
                break;
            c = (char)b[l->i];
            if (c == '"') {
                if (skip_string(l) < 0)
                    return -1;
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if (--depth == 0) {
                l->i++;
                return 0;
            }
            l->i++;
        }
        return -1;
    }
    size_t s = l->i;
    while (l->i < l->n && l->b[l->i] && strchr("0123456789+-.eEtruefalsn", l->b[l->i]))
        l->i++;
    return l->i > s ? 0 : -1;
}

/* Is the string at [s, e) (quotes included) the key want? An escaped one is decoded by jansson. */
static int key_is(const struct lex *l, size_t s, size_t e, const char *want)
{
    size_t len = e - s - 2, wl = strlen(want);
    const char *k = l->b + s + 1;
    if (!memchr(k, '\\', len))
        return len == wl && !memcmp(k, want, len);
    json_t *j = json_loadb(l->b + s, e - s, JSON_DECODE_ANY, NULL);
    int r = json_is_string(j) && json_string_length(j) == wl && !memcmp(json_string_value(j), want, wl);
    json_decref(j);
    return r;
}

struct span {
    size_t phase, start, end;
    unsigned char *packed;
    size_t bytes;
};

struct spans {
    struct span *v;
    size_t n, cap;
};

static int add_span(struct spans *s, size_t phase, size_t start, size_t end)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        struct span *t = realloc(s->v, nc * sizeof(*t));
        if (!t)
            return -ENOMEM;
        s->v = t;
        s->cap = nc;
    }
    s->v[s->n++] = (struct span){ phase, start, end, NULL, 0 };
    return 0;
}

/* One object's members: for each key, on_key decides (returns 1 when it took the value itself). */
typedef int (*member_fn)(struct lex *l, size_t ks, size_t ke, void *arg);

static int walk_object(struct lex *l, member_fn fn, void *arg)
{
    ws(l);
    if (l->i >= l->n || l->b[l->i] != '{')
        return -1;
    l->i++;
    ws(l);
    if (l->i < l->n && l->b[l->i] == '}') {
        l->i++;
        return 0;
    }
    for (;;) {
        ws(l);
        if (l->i >= l->n || l->b[l->i] != '"')
            return -1;
        size_t ks = l->i;
        if (skip_string(l) < 0)
            return -1;
        size_t ke = l->i;
        ws(l);
        if (l->i >= l->n || l->b[l->i] != ':')
            return -1;
        l->i++;
        ws(l);
        int took = fn(l, ks, ke, arg);
        if (took < 0 || (!took && skip_value(l) < 0))
            return -1;
        ws(l);
        if (l->i < l->n && l->b[l->i] == ',') {
            l->i++;
            continue;
        }
        if (l->i < l->n && l->b[l->i] == '}') {
            l->i++;
            return 0;
        }
        return -1;
    }
}

struct walk {
    enum report_compact_mode mode;
    struct spans *spans;
    size_t phase;
};

static int phase_member(struct lex *l, size_t ks, size_t ke, void *arg)
{
    struct walk *w = arg;
    if (l->i >= l->n || l->b[l->i] != '[' || !key_is(l, ks, ke, "timeline"))
        return 0;
    size_t s = l->i;
    if (skip_value(l) < 0)
        return -1;
    return add_span(w->spans, w->phase, s, l->i) < 0 ? -1 : 1;
}

static int top_member(struct lex *l, size_t ks, size_t ke, void *arg)
{
    struct walk *w = arg;
    if (l->i >= l->n || l->b[l->i] != '[' || !key_is(l, ks, ke, "phases"))
        return 0;
    size_t s = l->i;
    if (w->mode == REPORT_IDENTITY) {
        if (skip_value(l) < 0)
            return -1;
        return add_span(w->spans, 0, s, l->i) < 0 ? -1 : 1;
    }
    l->i++; /* the '[' */
    ws(l);
    if (l->i < l->n && l->b[l->i] == ']') {
        l->i++;
        return 1;
    }
    for (w->phase = 0;; w->phase++) {
        ws(l);
        if (l->i < l->n && l->b[l->i] == '{') {
            if (walk_object(l, phase_member, w) < 0)
                return -1;
        } else if (skip_value(l) < 0) {
            return -1;
        }
        ws(l);
        if (l->i < l->n && l->b[l->i] == ',') {
            l->i++;
            continue;
        }
        if (l->i < l->n && l->b[l->i] == ']') {
            l->i++;
            return 1;
        }
        return -1;
    }
}

/* A timeline's entries as TL_NCOLS doubles each: doc_num() of each key, as compare reads them. */
static int pack(const json_t *tl, struct span *sp)
{
    size_t n = json_array_size(tl);
    sp->bytes = n * TL_NCOLS * sizeof(double);
    sp->packed = malloc(sp->bytes ? sp->bytes : 1);
    if (!sp->packed)
        return -ENOMEM;
    size_t i;
    const json_t *e;
    json_array_foreach(tl, i, e)
        for (int c = 0; c < TL_NCOLS; c++) {
            double x = doc_num(e, tl_keys[c]);
            memcpy(sp->packed + (i * TL_NCOLS + (size_t)c) * sizeof(double), &x, sizeof(x));
        }
    return 0;
}

/* ---- the fast path: a timeline of plain entries read without jansson ----
 * Most timelines are arrays of flat objects of numbers: those are read here straight into the packed columns, with
 * the same checks report_check_timeline() makes and the same doubles jansson gives (an integer through strtoll, a
 * real through strtod, as jansson converts them). Anything else (a string, a nested value, an escaped or repeated
 * key, a number JSON does not allow or jansson would refuse, a value of the wrong type or range) makes the fast
 * path give up, and jansson reads that timeline: its verdict and its message are the ones a reader gets. */

enum { FT_ANY, FT_NUM, FT_COUNT };

/* The type report_read.c checks for a timeline key (timeline_fields), FT_ANY for a key it does not check. */
static int key_type(const char *k, size_t len)
{
    static const struct { const char *k; int t; } typed[] = {
        { "s", FT_COUNT }, { "cycles", FT_COUNT }, { "xruns_reported", FT_COUNT }, { "xruns_detected", FT_COUNT },
        { "deadlines_missed", FT_COUNT }, { "jitter_abs_max_us", FT_NUM }, { "jitter_abs_p99_us", FT_NUM },
        { "wakeup_max_us", FT_NUM }, { "wakeup_p99_us", FT_NUM }, { "callback_max_us", FT_NUM },
        { "margin_min_us", FT_NUM },
    };
    for (size_t i = 0; i < sizeof(typed) / sizeof(typed[0]); i++)
        if (strlen(typed[i].k) == len && !memcmp(typed[i].k, k, len))
            return typed[i].t;
    return FT_ANY;
}

static int col_of_n(const char *k, size_t len)
{
    for (int c = 0; c < TL_NCOLS; c++)
        if (strlen(tl_keys[c]) == len && !memcmp(tl_keys[c], k, len))
            return c;
    return -1;
}

/* A JSON number at l->i, strictly by the grammar: its value as jansson gives it. -1 to give up. */
static int fast_number(struct lex *l, double *out)
{
    const char *b = l->b;
    size_t i = l->i, s = i;
    int real = 0;
    if (i < l->n && b[i] == '-')
        i++;
    if (i >= l->n || b[i] < '0' || b[i] > '9')
        return -1;
    if (b[i] == '0')
        i++;
    else
        while (i < l->n && b[i] >= '0' && b[i] <= '9')
            i++;
    if (i < l->n && b[i] == '.') {
        real = 1;
        if (++i >= l->n || b[i] < '0' || b[i] > '9')
            return -1;
        while (i < l->n && b[i] >= '0' && b[i] <= '9')
            i++;
    }
    if (i < l->n && (b[i] == 'e' || b[i] == 'E')) {
        real = 1;
        i++;
        if (i < l->n && (b[i] == '+' || b[i] == '-'))
            i++;
        if (i >= l->n || b[i] < '0' || b[i] > '9')
            return -1;
        while (i < l->n && b[i] >= '0' && b[i] <= '9')
            i++;
    }
    char tmp[64];
    if (i - s >= sizeof(tmp) || (!real && i - s > 16)) /* long: jansson's own overflow rules decide */
        return -1;
    memcpy(tmp, b + s, i - s);
    tmp[i - s] = '\0';
    /* a '.' whatever the process's locale, as jansson reads it */
    static locale_t c_locale;
    if (real && !c_locale && !(c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0)))
        return -1;
    *out = real ? strtod_l(tmp, NULL, c_locale) : (double)strtoll(tmp, NULL, 10);
    if (!isfinite(*out))
        return -1;
    l->i = i;
    return 0;
}

/* One timeline array at [start, end) into sp's packed columns; -1 when it is not plain (jansson reads it then). */
static int fast_timeline(const char *buf, struct span *sp)
{
    struct lex l = { buf, sp->end, sp->start + 1 };
    size_t cap = 256, n = 0;
    double *v = malloc(cap * TL_NCOLS * sizeof(double));
    if (!v)
        return -1;
    ws(&l);
    if (l.i < l.n && l.b[l.i] == ']')
        goto done;
    for (;;) {
        if (n == cap) {
            if (cap >= 1000000) /* MAX_TIMELINE: jansson's path says so */
                goto fail;
            double *t = realloc(v, 2 * cap * TL_NCOLS * sizeof(double));
            if (!t)
                goto fail;
            v = t;
            cap *= 2;
        }
        double *row = v + n * TL_NCOLS;
        for (int c = 0; c < TL_NCOLS; c++)
            row[c] = NAN;
        char keys[32][24];
        size_t nkeys = 0;
        ws(&l);
        if (l.i >= l.n || l.b[l.i] != '{')
            goto fail;
        l.i++;
        ws(&l);
        if (l.i < l.n && l.b[l.i] == '}') {
            l.i++;
        } else {
            for (;;) {
                ws(&l);
                if (l.i >= l.n || l.b[l.i] != '"')
                    goto fail;
                size_t ks = l.i + 1, ke = ks;
                while (ke < l.n && l.b[ke] != '"' && l.b[ke] != '\\' && (unsigned char)l.b[ke] >= 0x20 &&
                       (unsigned char)l.b[ke] < 0x80)
                    ke++;
                if (ke >= l.n || l.b[ke] != '"' || ke - ks >= sizeof(keys[0]) || nkeys >= 32)
                    goto fail;
                for (size_t q = 0; q < nkeys; q++)
                    if (strlen(keys[q]) == ke - ks && !memcmp(keys[q], l.b + ks, ke - ks))
                        goto fail; /* a repeated key */
                memcpy(keys[nkeys], l.b + ks, ke - ks);
                keys[nkeys++][ke - ks] = '\0';
                l.i = ke + 1;
                ws(&l);
                if (l.i >= l.n || l.b[l.i] != ':')
                    goto fail;
                l.i++;
                ws(&l);
                int t = key_type(l.b + ks, ke - ks), c = col_of_n(l.b + ks, ke - ks);
                double x = NAN;
                if (l.i + 4 <= l.n && !memcmp(l.b + l.i, "null", 4)) {
                    l.i += 4;
                } else if (t == FT_ANY && l.i + 4 <= l.n && !memcmp(l.b + l.i, "true", 4)) {
                    l.i += 4;
                } else if (t == FT_ANY && l.i + 5 <= l.n && !memcmp(l.b + l.i, "false", 5)) {
                    l.i += 5;
                } else {
                    if (fast_number(&l, &x) < 0)
                        goto fail;
                    if (t == FT_NUM && !(fabs(x) <= REPORT_MAX_NUMBER))
                        goto fail;
                    if (t == FT_COUNT && !(x >= 0 && x <= REPORT_MAX_NUMBER && x == floor(x)))
                        goto fail;
                }
                if (c >= 0)
                    row[c] = x;
                ws(&l);
                if (l.i < l.n && l.b[l.i] == ',') {
                    l.i++;
                    continue;
                }
                if (l.i < l.n && l.b[l.i] == '}') {
                    l.i++;
                    break;
                }
                goto fail;
            }
        }
        n++;
        ws(&l);
        if (l.i < l.n && l.b[l.i] == ',') {
            l.i++;
            continue;
        }
        if (l.i < l.n && l.b[l.i] == ']')
            break;
        goto fail;
    }
done:
    if (l.i + 1 != sp->end)
        goto fail;
    sp->packed = (unsigned char *)v;
    sp->bytes = n * TL_NCOLS * sizeof(double);
    return 0;
fail:
    free(v);
    return -1;
}

/* Each span's text becomes "[]": the rest of the document moves up over it, so that jansson is not given megabytes
 * of blanks to read either. Returns the new length. (jansson's line and column numbers in a message are then those
 * of the document without the spans.) */
static size_t cut_spans(char *buf, size_t len, const struct spans *s)
{
    size_t w = 0, r = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct span *sp = &s->v[i];
        memmove(buf + w, buf + r, sp->start - r);
        w += sp->start - r;
        buf[w++] = '[';
        buf[w++] = ']';
        r = sp->end;
    }
    memmove(buf + w, buf + r, len - r);
    return w + len - r;
}

int report_read_compact_buffer(char *buf, size_t len, enum report_compact_mode mode, json_t **doc, char *err,
                               size_t errlen)
{
    *doc = NULL;
    if (len > REPORT_MAX_BYTES) {
        snprintf(err, errlen, "not a report: larger than %u MiB", REPORT_MAX_BYTES >> 20);
        return -EFBIG;
    }
    struct spans spans = { 0 };
    struct walk w = { mode, &spans, 0 };
    struct lex l = { buf, len, 0 };
    int rc = 0;
    /* A document the lexer cannot follow is left as it is: jansson says what is wrong with it. */
    if (walk_object(&l, top_member, &w) < 0) {
        for (size_t i = 0; i < spans.n; i++)
            free(spans.v[i].packed);
        spans.n = 0;
    }
    for (size_t i = 0; i < spans.n && mode == REPORT_PACKED; i++) {
        struct span *sp = &spans.v[i];
        if (fast_timeline(buf, sp) == 0)
            continue;
        json_error_t je;
        json_t *tl = json_loadb(buf + sp->start, sp->end - sp->start, JSON_REJECT_DUPLICATES, &je);
        if (!tl) {
            snprintf(err, errlen, "not valid JSON in phases[%zu].timeline (its line %d, column %d): %.120s", sp->phase,
                     je.line, je.column, je.text);
            rc = -EINVAL;
            goto out;
        }
        rc = report_check_timeline(tl, sp->phase, err, errlen);
        if (rc == 0)
            rc = pack(tl, sp);
        json_decref(tl);
        if (rc < 0) {
            if (rc == -ENOMEM)
                snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    len = cut_spans(buf, len, &spans);
    json_error_t je;
    json_t *d = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!d) {
        snprintf(err, errlen, "not valid JSON (line %d, column %d): %.120s", je.line, je.column, je.text);
        rc = -EINVAL;
        goto out;
    }
    if ((rc = report_validate(d, err, errlen)) < 0) {
        json_decref(d);
        goto out;
    }
    const json_t *phases = json_object_get(d, "phases");
    for (size_t i = 0; i < spans.n && mode == REPORT_PACKED; i++) {
        json_t *p = json_array_get(phases, spans.v[i].phase);
        json_t *s = json_stringn_nocheck((const char *)spans.v[i].packed, spans.v[i].bytes);
        if (!p || !s || json_object_setn_new_nocheck(p, PACKED_KEY, PACKED_KEY_LEN, s) < 0) {
            json_decref(d);
            snprintf(err, errlen, "out of memory");
            rc = -ENOMEM;
            goto out;
        }
    }
    *doc = d;
out:
    for (size_t i = 0; i < spans.n; i++)
        free(spans.v[i].packed);
    free(spans.v);
    if (rc < 0)
        term_fix(err, errlen);
    return rc;
}

int report_read_compact(const char *path, enum report_compact_mode mode, json_t **doc, char *err, size_t errlen)
{
    *doc = NULL;
    char *buf;
    size_t len;
    int rc = read_regular_file(path, REPORT_MAX_BYTES, &buf, &len, err, errlen);
    if (rc == -EFBIG)
        snprintf(err, errlen, "not a report: larger than %u MiB", REPORT_MAX_BYTES >> 20);
    if (rc < 0)
        return rc;
    rc = report_read_compact_buffer(buf, len, mode, doc, err, errlen);
    free(buf);
    return rc;
}
