/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The backends' options for a command (backend_opts.h). */
#include "cli/backend_opts.h"
#include "util/wrap.h"
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

struct opt_def *backend_opts_table(const struct opt_def *own, size_t be_offset)
{
    size_t n = opts_count(own);
    for (size_t b = 0; rtj_backends[b]; b++)
        n += opts_count(rtj_backends[b]->params);
    struct opt_def *defs = calloc(n + 1, sizeof(*defs));
    if (!defs)
        return NULL;
    size_t k = 0;
    for (const struct opt_def *d = own; d->name; d++)
        defs[k++] = *d;
    for (size_t b = 0; rtj_backends[b]; b++)
        for (const struct opt_def *d = rtj_backends[b]->params; d->name; d++) {
            int dup = 0;
            for (size_t i = 0; i < k; i++)
                dup |= strcmp(defs[i].name, d->name) == 0;
            if (dup)
                continue;
            defs[k] = *d;
            defs[k++].offset += be_offset;
        }
    return defs;
}

size_t backend_opts_sections(struct opt_section *out, size_t max, const struct opt_def *own)
{
    static char titles[CLI_MAX_SECTIONS][160];
    size_t n = 0;
    if (n < max)
        out[n++] = (struct opt_section){ NULL, own };
    for (size_t b = 0; rtj_backends[b] && n < max && n < CLI_MAX_SECTIONS; b++) {
        snprintf(titles[n], sizeof(titles[n]), "--backend %s: %s", rtj_backends[b]->name, rtj_backends[b]->summary);
        out[n] = (struct opt_section){ titles[n], rtj_backends[b]->params };
        n++;
    }
    return n;
}

/* Does the chosen backends' params table list an option called name? */
static int listed(const struct backend_ops *const *be, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        for (const struct opt_def *d = be[i]->params; d->name; d++)
            if (!strcmp(d->name, name))
                return 1;
    return 0;
}

const char *backend_opts_foreign(const struct backend_config *cfg, const struct backend_config *dflt,
                                 const struct backend_ops *const *be, size_t n)
{
    for (size_t b = 0; rtj_backends[b]; b++)
        for (const struct opt_def *d = rtj_backends[b]->params; d->name; d++) {
            const char *f = (const char *)cfg + d->offset, *g = (const char *)dflt + d->offset;
            int given = d->type == OPT_STR      ? *(const char *const *)f != *(const char *const *)g
                        : d->type == OPT_DOUBLE || d->type == OPT_DURATION ? *(const double *)f != *(const double *)g
                                                : *(const int *)f != *(const int *)g;
            if (given && !listed(be, n, d->name))
                return d->name;
        }
    return NULL;
}

void backend_opts_list(FILE *f)
{
    int width = wrap_width(f);
    for (size_t b = 0; rtj_backends[b]; b++) {
        char why[256] = "", first[32], text[640];
        int bad = rtj_backends[b]->unavailable(why, sizeof(why)) < 0;
        snprintf(first, sizeof(first), "%-8s ", rtj_backends[b]->name);
        snprintf(text, sizeof(text), "%s%s%s%s", rtj_backends[b]->summary, bad ? " (cannot run here: " : "",
                 bad ? why : "", bad ? ")" : "");
        wrap_text(f, first, 9, width, text); /* the summary wraps under itself */
    }
    /* not a backend of its own: a choice between two of them, made when the run starts (backend_opts_auto) */
    wrap_text(f, "auto     ", 9, width, "pipewire when a PipeWire server answers, jack when a jackd answers (one "
              "line on stderr says which and why); both or neither: one line, exit 2");
}

const struct backend_ops *backend_opts_auto(const char *who, const char *server, const char **why_out, int *rc)
{
    static char why[384];
    const struct backend_ops *be = backend_auto(server, why, sizeof(why), rc);
    fprintf(stderr, "%s: %s\n", who, why);
    if (!be && *rc == 3) { /* a call into libjack is left behind: its exit handlers may wait on it */
        fflush(NULL);
        _exit(3);
    }
    if (be && why_out)
        *why_out = why;
    return be;
}
