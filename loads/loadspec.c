/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --loads parsing: see loadspec.h for the syntax. Pure: no processes, no files. */
#include "loadspec.h"
#include "util/bounds.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct load_info *load_find(const char *name, size_t len)
{
    for (const struct load_info *const *l = load_registry; *l; l++)
        if (strlen((*l)->name) == len && strncmp((*l)->name, name, len) == 0)
            return *l;
    return NULL;
}

int load_param_index(const struct load_info *li, const char *name, size_t len)
{
    for (int i = 0; i < LOAD_MAX_PARAMS && li->params[i].name; i++)
        if (strlen(li->params[i].name) == len && strncmp(li->params[i].name, name, len) == 0)
            return i;
    return -1;
}

static void known_loads(char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (const struct load_info *const *l = load_registry; *l && o < len; l++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", (*l)->name);
}

/* One "name=value" of load li, value in [v, vend). */
static int parse_param(const struct load_info *li, const char *p, const char *end, double *params, char *err,
                       size_t errlen)
{
    const char *eq = memchr(p, '=', (size_t)(end - p));
    if (!eq || eq == p) {
        snprintf(err, errlen, "%s: '%.*s' is not name=value", li->name, (int)(end - p), p);
        return -EINVAL;
    }
    int k = load_param_index(li, p, (size_t)(eq - p));
    if (k < 0) {
        char names[200];
        size_t o = 0;
        names[0] = '\0';
        for (int i = 0; i < LOAD_MAX_PARAMS && li->params[i].name && o < sizeof(names); i++)
            o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? ", " : "", li->params[i].name);
        snprintf(err, errlen, "%s: unknown parameter '%.*s' (%s%s)", li->name, (int)(eq - p), p,
                 o ? "known: " : "it takes none", names);
        return -EINVAL;
    }
    const struct load_param *d = &li->params[k];
    char val[64];
    size_t vlen = (size_t)(end - eq - 1);
    if (vlen == 0 || vlen >= sizeof(val)) {
        snprintf(err, errlen, "%s: %s: missing or overlong value", li->name, d->name);
        return -EINVAL;
    }
    memcpy(val, eq + 1, vlen);
    val[vlen] = '\0';
    char *stop;
    errno = 0;
    double v;
    if (d->type == LP_INT) {
        long l = strtol(val, &stop, 10);
        v = (double)l;
        if (errno || *stop || v < d->min || v > d->max) {
            snprintf(err, errlen, "%s: %s='%s' is not a whole number from %.15g to %.15g", li->name, d->name, val,
                     d->min, d->max);
            return -EINVAL;
        }
    } else {
        v = strtod(val, &stop);
        if (errno || *stop || !isfinite(v) || v < d->min || v > d->max) {
            snprintf(err, errlen, "%s: %s='%s' is not a number from %.15g to %.15g", li->name, d->name, val, d->min,
                     d->max);
            return -EINVAL;
        }
    }
    params[k] = v;
    return 0;
}

/* One phase entry [p, end): "compile+write:mb=64". */
static int parse_entry(const char *p, const char *end, struct load_phase_spec *ph, char *err, size_t errlen)
{
    if (p == end) {
        snprintf(err, errlen, "an empty phase (two commas in a row, or a comma at an end)");
        return -EINVAL;
    }
    ph->name = strndup(p, (size_t)(end - p));
    if (!ph->name)
        return -ENOMEM;
    while (p < end) {
        const char *q = p;
        while (q < end && *q != ':' && *q != '+')
            q++;
        const struct load_info *li = load_find(p, (size_t)(q - p));
        if (!li) {
            char known[400];
            known_loads(known, sizeof(known));
            snprintf(err, errlen, "unknown load '%.*s' (known: %s, all)", (int)(q - p), p, known);
            return -EINVAL;
        }
        if (ph->nuses == LOAD_MAX_COMBO) {
            snprintf(err, errlen, "'%s': more than %d loads in one phase", ph->name, LOAD_MAX_COMBO);
            return -EINVAL;
        }
        for (int i = 0; i < ph->nuses; i++)
            if (ph->use[i].info == li) {
                snprintf(err, errlen, "'%s': %s appears twice in one phase", ph->name, li->name);
                return -EINVAL;
            }
        struct load_use *u = &ph->use[ph->nuses++];
        u->info = li;
        for (int i = 0; i < LOAD_MAX_PARAMS && li->params[i].name; i++)
            u->param[i] = li->params[i].def;
        if (li->takes_arg) {
            /* exec:CMD: the command may hold ':' '+' '=' and spaces; it runs to the end of the entry. */
            if (q == end || *q != ':' || q + 1 == end) {
                snprintf(err, errlen, "%s needs a command: %s:COMMAND", li->name, li->name);
                return -EINVAL;
            }
            u->arg = strndup(q + 1, (size_t)(end - q - 1));
            if (!u->arg)
                return -ENOMEM;
            p = end;
            break;
        }
        while (q < end && *q == ':') {
            const char *v = ++q;
            while (q < end && *q != ':' && *q != '+')
                q++;
            int e = parse_param(li, v, q, u->param, err, errlen);
            if (e < 0)
                return e;
        }
        if (q < end) { /* '+' */
            if (q + 1 == end) {
                snprintf(err, errlen, "'%s': nothing after '+'", ph->name);
                return -EINVAL;
            }
            q++;
        }
        p = q;
    }
    for (int i = 0; i < ph->nuses; i++)
        if (ph->nuses > 1 && ph->use[i].info->run == NULL) {
            snprintf(err, errlen, "'%s': %s cannot be combined with other loads", ph->name, ph->use[i].info->name);
            return -EINVAL;
        }
    return 0;
}

static int add_phase(struct load_spec *s, struct load_phase_spec **ph)
{
    if (s->nphases >= RTJ_MAX_PHASES)
        return -E2BIG;
    if (s->nphases == s->cap) {
        /* doubled, not grown by one: 5,000 phases cost 4,096 copies of a growing array (13 s under ASan) */
        int cap = s->cap ? 2 * s->cap : 8;
        if (cap > RTJ_MAX_PHASES)
            cap = RTJ_MAX_PHASES;
        struct load_phase_spec *n = realloc(s->phase, (size_t)cap * sizeof(*n));
        if (!n)
            return -ENOMEM;
        s->phase = n;
        s->cap = cap;
    }
    *ph = &s->phase[s->nphases++];
    memset(*ph, 0, sizeof(**ph));
    return 0;
}

int load_spec_parse(const char *text, struct load_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    int e = 0;
    const char *p = text;
    if (!*text) {
        snprintf(err, errlen, "the list is empty");
        return -EINVAL;
    }
    for (;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        struct load_phase_spec *ph;
        if ((size_t)(end - p) == 3 && strncmp(p, "all", 3) == 0) {
            for (const struct load_info *const *l = load_registry; *l && e == 0; l++) {
                if ((*l)->not_in_all)
                    continue;
                if ((e = add_phase(out, &ph)) == 0)
                    e = parse_entry((*l)->name, (*l)->name + strlen((*l)->name), ph, err, errlen);
            }
        } else if ((e = add_phase(out, &ph)) == 0) {
            e = parse_entry(p, end, ph, err, errlen);
        }
        if (e < 0 || !*end)
            break;
        p = end + 1;
    }
    if (e == -ENOMEM)
        snprintf(err, errlen, "out of memory");
    if (e == -E2BIG) { /* a report holds no more: its reader would refuse the run's own report */
        snprintf(err, errlen, "more than %d phases: a run has at most %d", RTJ_MAX_PHASES, RTJ_MAX_PHASES);
        e = -EINVAL;
    }
    if (e < 0)
        load_spec_free(out);
    return e;
}

void load_spec_free(struct load_spec *s)
{
    for (int i = 0; i < s->nphases; i++) {
        free(s->phase[i].name);
        for (int j = 0; j < s->phase[i].nuses; j++)
            free(s->phase[i].use[j].arg);
    }
    free(s->phase);
    memset(s, 0, sizeof(*s));
}
