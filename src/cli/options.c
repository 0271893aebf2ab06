/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli/options.h"
#include "util/wrap.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* -h and --help are every command's; "help" takes part in prefixes and suggestions like any long name. */
#define HELP_NAME "help"

int opts_parse_duration(const char *text, double *secs, char *err, size_t errlen)
{
    static const struct { const char *name; double secs; } units[] = {
        { "", 1 }, { "ms", 0.001 }, { "s", 1 }, { "m", 60 }, { "min", 60 }, { "h", 3600 },
    };
    size_t n = strspn(text, "0123456789.");
    if (!*text) {
        snprintf(err, errlen, "the duration is empty");
        return -1;
    }
    if (text[0] == '-') {
        snprintf(err, errlen, "a duration is not negative");
        return -1;
    }
    /* Decimal only, so that strtod takes no hexadecimal, "inf", "nan" or exponent (which would make "1e3m" a unit) */
    if (n == 0 || n > 40 || strspn(text, ".") == n) {
        snprintf(err, errlen, "not a number of seconds, minutes or hours (e.g. 20, 20s, 1.5m, 1h, 500ms)");
        return -1;
    }
    char num[48], *end;
    memcpy(num, text, n);
    num[n] = '\0';
    errno = 0;
    double v = strtod(num, &end);
    if (errno || *end) {
        snprintf(err, errlen, "not a number of seconds, minutes or hours (e.g. 20, 20s, 1.5m, 1h, 500ms)");
        return -1;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(text + n, units[i].name) == 0) {
            v *= units[i].secs;
            if (!isfinite(v) || v > 1e12) {
                snprintf(err, errlen, "too long");
                return -1;
            }
            *secs = v;
            return 0;
        }
    snprintf(err, errlen, "unknown unit '%.20s' (ms, s, m, h; none: seconds)", text + n);
    return -1;
}

/* 90 -> "1.5m", 0.5 -> "500ms": a bound in the units a user would type. */
static void duration_bound(char *buf, size_t len, double s)
{
    if (s >= 3600 && fmod(s, 3600) == 0)
        snprintf(buf, len, "%gh", s / 3600);
    else if (s >= 60 && fmod(s, 60) == 0)
        snprintf(buf, len, "%gm", s / 60);
    else if (s > 0 && s < 1)
        snprintf(buf, len, "%gms", s * 1000);
    else
        snprintf(buf, len, "%gs", s);
}

static int set_value(const char *cmd, const struct opt_def *d, void *opts, const char *val)
{
    char *end;
    char *field = (char *)opts + d->offset;
    switch (d->type) {
    case OPT_INT: {
        errno = 0;
        long v = strtol(val, &end, 10);
        if (errno || end == val || *end || v < d->min || v > d->max) {
            fprintf(stderr, "rtjitter %s: --%s: '%s' is not a whole number from %.0f to %.0f\n", cmd, d->name,
                    val, d->min, d->max);
            return -1;
        }
        *(int *)field = (int)v;
        return 0;
    }
    case OPT_DOUBLE: {
        errno = 0;
        /* Decimal only: strtod also takes hexadecimal ("0x10" is 16), "inf" and "nan". */
        int decimal = val[strspn(val, "0123456789.eE+-")] == '\0';
        double v = decimal ? strtod(val, &end) : 0;
        if (!decimal || errno || end == val || *end || !isfinite(v) || v < d->min || v > d->max) {
            fprintf(stderr, "rtjitter %s: --%s: '%s' is not a number from %g to %g\n", cmd, d->name, val, d->min,
                    d->max);
            return -1;
        }
        *(double *)field = v;
        return 0;
    }
    case OPT_DURATION: {
        char err[160], lo[32], hi[32];
        double v;
        duration_bound(lo, sizeof(lo), d->min);
        duration_bound(hi, sizeof(hi), d->max);
        if (opts_parse_duration(val, &v, err, sizeof(err)) < 0) {
            fprintf(stderr, "rtjitter %s: --%s: '%.40s': %s\n", cmd, d->name, val, err);
            return -1;
        }
        if (v < d->min || v > d->max) {
            fprintf(stderr, "rtjitter %s: --%s: '%.40s' is not from %s to %s\n", cmd, d->name, val, lo, hi);
            return -1;
        }
        *(double *)field = v;
        return 0;
    }
    case OPT_STR:
        if (d->choices) {
            int ok = 0;
            for (const char *const *c = d->choices; *c; c++)
                ok |= strcmp(*c, val) == 0;
            if (!ok) {
                fprintf(stderr, "rtjitter %s: --%s: '%s' is not one of:", cmd, d->name, val);
                for (const char *const *c = d->choices; *c; c++)
                    fprintf(stderr, " %s", *c);
                fputc('\n', stderr);
                return -1;
            }
        }
        if (!*val && !d->choices) {
            fprintf(stderr, "rtjitter %s: --%s: the value is empty\n", cmd, d->name);
            return -1;
        }
        *(const char **)field = val;
        return 0;
    case OPT_FLAG:
        *(int *)field = 1;
        return 0;
    }
    return -1;
}

size_t opts_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return la > lb ? la : lb;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The long name closest to the one typed, when it is close enough to be a typo; else NULL. */
static const char *suggest(const struct opt_def *defs, const char *typed)
{
    size_t len = strlen(typed), limit = len <= 4 ? 1 : 2, best = limit + 1;
    const char *name = NULL;
    if (opts_distance(typed, HELP_NAME) < best) {
        best = opts_distance(typed, HELP_NAME);
        name = HELP_NAME;
    }
    for (const struct opt_def *d = defs; d->name; d++)
        if (opts_distance(typed, d->name) < best) {
            best = opts_distance(typed, d->name);
            name = d->name;
        }
    return name;
}

static void unknown(const char *cmd, const struct opt_def *defs, const char *shown, const char *name)
{
    const char *s = name ? suggest(defs, name) : NULL;
    if (s)
        fprintf(stderr, "rtjitter %s: unknown option '%s' (did you mean --%s?)\n", cmd, shown, s);
    else
        fprintf(stderr, "rtjitter %s: unknown option '%s' (see rtjitter %s --help)\n", cmd, shown, cmd);
}

/* The option called name (len bytes), exactly or by an unambiguous prefix. Returns 0 with *out set (NULL for
 * help), or -1 with one line printed. */
static int find_long(const char *cmd, const struct opt_def *defs, const char *name, size_t len,
                     const struct opt_def **out)
{
    *out = NULL;
    if (len == strlen(HELP_NAME) && strncmp(name, HELP_NAME, len) == 0)
        return 0;
    for (const struct opt_def *d = defs; d->name; d++)
        if (strlen(d->name) == len && strncmp(d->name, name, len) == 0) {
            *out = d;
            return 0;
        }
    size_t matches = strncmp(HELP_NAME, name, len) == 0 && len > 0;
    const struct opt_def *match = NULL;
    for (const struct opt_def *d = defs; d->name; d++)
        if (len > 0 && strncmp(d->name, name, len) == 0) {
            matches++;
            match = d;
        }
    if (matches == 1) {
        *out = match; /* NULL when the one match is help */
        return 0;
    }
    char typed[128];
    snprintf(typed, sizeof(typed), "%.*s", (int)(len < 100 ? len : 100), name);
    if (matches > 1) {
        fprintf(stderr, "rtjitter %s: option '--%s' is ambiguous:", cmd, typed);
        if (strncmp(HELP_NAME, name, len) == 0)
            fprintf(stderr, " --%s", HELP_NAME);
        for (const struct opt_def *d = defs; d->name; d++)
            if (strncmp(d->name, name, len) == 0)
                fprintf(stderr, " --%s", d->name);
        fputc('\n', stderr);
        return -1;
    }
    char shown[140];
    snprintf(shown, sizeof(shown), "--%s", typed);
    unknown(cmd, defs, shown, typed);
    return -1;
}

static const struct opt_def *find_short(const struct opt_def *defs, char c)
{
    for (const struct opt_def *d = defs; d->name; d++)
        if (d->short_name && d->short_name == c)
            return d;
    return NULL;
}

/* A word that is an option, not a value: "-x", "--name"; not "-" (standard input), nor "--" alone. */
static int looks_like_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0' && strcmp(a, "--") != 0;
}

/* The value of option d given as `shown`: the rest of its word (inline, may be NULL) or the next word, never an
 * option. Returns the value or NULL with one line printed; *i moves past a value taken from the next word. */
static const char *take_value(const char *cmd, const struct opt_def *d, const char *shown, const char *inline_val,
                              int *i, int argc, char **argv)
{
    if (inline_val)
        return inline_val;
    if (*i + 1 >= argc) {
        fprintf(stderr, "rtjitter %s: %s needs a value (%s)\n", cmd, shown, d->metavar);
        return NULL;
    }
    if (looks_like_option(argv[*i + 1])) {
        /* `--server --quiet`: the next word is an option, not this one's value (--server=--x says so). */
        fprintf(stderr, "rtjitter %s: %s needs a value (%s), not the option '%s'\n", cmd, shown, d->metavar,
                argv[*i + 1]);
        return NULL;
    }
    return argv[++*i];
}

/* One word of short options: "-q", "-p64", "-p", "-qD5". Returns 0, 1 for help, -1 on error. */
static int parse_short(const char *cmd, const struct opt_def *defs, void *opts, int *i, int argc, char **argv)
{
    const char *a = argv[*i];
    /* "-duration 5" is a long option with one dash, not -d with the value "uration". */
    for (const struct opt_def *d = defs; d->name; d++)
        if (strlen(a + 1) > 1 && strncmp(a + 1, d->name, strcspn(a + 1, "=")) == 0 &&
            strlen(d->name) == strcspn(a + 1, "=")) {
            fprintf(stderr, "rtjitter %s: unknown option '%s' (did you mean --%s?)\n", cmd, a, d->name);
            return -1;
        }
    for (const char *p = a + 1; *p; p++) {
        if (*p == 'h')
            return 1;
        const struct opt_def *d = find_short(defs, *p);
        if (!d) {
            char shown[3] = { '-', *p, '\0' };
            unknown(cmd, defs, shown, NULL);
            return -1;
        }
        char shown[3] = { '-', *p, '\0' };
        if (d->type == OPT_FLAG) {
            set_value(cmd, d, opts, NULL);
            continue;
        }
        const char *val = take_value(cmd, d, shown, p[1] ? p + 1 : NULL, i, argc, argv);
        if (!val || set_value(cmd, d, opts, val) < 0)
            return -1;
        return 0;
    }
    return 0;
}

int opts_parse(const char *cmd, const struct opt_def *defs, void *opts, int argc, char **argv,
               const char **pos, int maxpos, int *npos)
{
    int np = 0, only_positional = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!only_positional && strcmp(a, "--") == 0) {
            only_positional = 1;
            continue;
        }
        if (only_positional || !looks_like_option(a)) {
            if (np >= maxpos) {
                fprintf(stderr, "rtjitter %s: unexpected argument '%s'\n", cmd, a);
                return -1;
            }
            pos[np++] = a;
            continue;
        }
        if (a[1] != '-') {
            int r = parse_short(cmd, defs, opts, &i, argc, argv);
            if (r != 0)
                return r;
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const struct opt_def *d;
        if (find_long(cmd, defs, name, len, &d) < 0)
            return -1;
        if (!d)
            return 1; /* --help */
        char shown[80];
        snprintf(shown, sizeof(shown), "--%s", d->name);
        if (d->type == OPT_FLAG) {
            if (eq) {
                fprintf(stderr, "rtjitter %s: --%s takes no value\n", cmd, d->name);
                return -1;
            }
            set_value(cmd, d, opts, NULL);
            continue;
        }
        const char *val = take_value(cmd, d, shown, eq ? eq + 1 : NULL, &i, argc, argv);
        if (!val || set_value(cmd, d, opts, val) < 0)
            return -1;
    }
    if (npos)
        *npos = np;
    return 0;
}

size_t opts_count(const struct opt_def *defs)
{
    size_t n = 0;
    while (defs[n].name)
        n++;
    return n;
}

void opts_help(FILE *f, const char *cmd, const char *synopsis, const struct opt_def *defs)
{
    fprintf(f, "usage: rtjitter %s %s\n\n", cmd, synopsis);
    opts_help_list(f, defs);
}

void opts_help_list(FILE *f, const struct opt_def *defs)
{
    int width = wrap_width(f);
    for (const struct opt_def *d = defs; d->name; d++) {
        char left[80], sh[8] = "    ", first[96], text[2048];
        if (d->short_name)
            snprintf(sh, sizeof(sh), "-%c, ", d->short_name);
        if (d->type == OPT_FLAG)
            snprintf(left, sizeof(left), "%s--%s", sh, d->name);
        else
            snprintf(left, sizeof(left), "%s--%s %s", sh, d->name, d->metavar);
        snprintf(first, sizeof(first), "  %-26s ", left);
        size_t o = (size_t)snprintf(text, sizeof(text), "%s", d->help);
        if (d->choices) {
            for (const char *const *c = d->choices; *c && o < sizeof(text); c++)
                o += (size_t)snprintf(text + o, sizeof(text) - o, "%s%s", c == d->choices ? " (" : ", ", *c);
            if (o < sizeof(text))
                snprintf(text + o, sizeof(text) - o, ")");
        }
        /* the description wraps under itself; an option name wider than its column has it on the next line, and
         * so has every option on a narrow terminal, its description indented by 8 */
        int col = width >= 72 ? 29 : 8;
        if (wrap_cols(first) > col) {
            fprintf(f, "  %s\n", left);
            snprintf(first, sizeof(first), "%*s", col, "");
        }
        wrap_text(f, first, col, width, text);
    }
}
