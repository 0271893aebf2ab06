#include "cli/options.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_def *find(const struct opt_def *defs, const char *name, size_t len)
{
    for (const struct opt_def *d = defs; d->name; d++)
        if (strlen(d->name) == len && strncmp(d->name, name, len) == 0)
            return d;
    return NULL;
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

int opts_parse(const char *cmd, const struct opt_def *defs, void *opts, int argc, char **argv,
               const char **pos, int maxpos, int *npos)
{
    int np = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (a[0] == '-' && a[1] != '\0' && strcmp(a, "--") != 0) {
                fprintf(stderr, "rtjitter %s: unknown option '%s' (see rtjitter %s --help)\n", cmd, a, cmd);
                return -1;
            }
            if (strcmp(a, "--") == 0)
                continue;
            if (np >= maxpos) {
                fprintf(stderr, "rtjitter %s: unexpected argument '%s'\n", cmd, a);
                return -1;
            }
            pos[np++] = a;
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const struct opt_def *d = find(defs, name, len);
        if (!d) {
            fprintf(stderr, "rtjitter %s: unknown option '--%.*s' (see rtjitter %s --help)\n", cmd, (int)len, name,
                    cmd);
            return -1;
        }
        const char *val = NULL;
        if (d->type == OPT_FLAG) {
            if (eq) {
                fprintf(stderr, "rtjitter %s: --%s takes no value\n", cmd, d->name);
                return -1;
            }
        } else if (eq) {
            val = eq + 1;
        } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) == 0 && argv[i + 1][2] != '\0') {
            /* `--server --quiet`: the next word is an option, not this one's value (--server=--x says so). */
            fprintf(stderr, "rtjitter %s: --%s needs a value (%s), not the option '%s'\n", cmd, d->name,
                    d->metavar, argv[i + 1]);
            return -1;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            fprintf(stderr, "rtjitter %s: --%s needs a value (%s)\n", cmd, d->name, d->metavar);
            return -1;
        }
        if (set_value(cmd, d, opts, val) < 0)
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
    for (const struct opt_def *d = defs; d->name; d++) {
        char left[64];
        if (d->type == OPT_FLAG)
            snprintf(left, sizeof(left), "--%s", d->name);
        else
            snprintf(left, sizeof(left), "--%s %s", d->name, d->metavar);
        fprintf(f, "  %-24s %s", left, d->help);
        if (d->choices) {
            fputs(" (", f);
            for (const char *const *c = d->choices; *c; c++)
                fprintf(f, "%s%s", c == d->choices ? "" : ", ", *c);
            fputc(')', f);
        }
        fputc('\n', f);
    }
}
