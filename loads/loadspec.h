/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --loads parsing, pure (no processes): "none,burn,write:mb=64,compile+write,exec:stress-ng --cpu 2".
 *   ','  separates phases; '+' joins loads into one phase; ':name=value' sets a parameter of the load before it;
 *   'exec:' takes the rest of its phase entry as a shell command (so exec comes last in a '+' list);
 *   'all' stands for every load not marked not_in_all. */
#ifndef RTJ_LOADSPEC_H
#define RTJ_LOADSPEC_H
#include "load.h"

#define LOAD_MAX_COMBO 12 /* more than the registry holds: every load at once is allowed */

struct load_use {
    const struct load_info *info;
    double param[LOAD_MAX_PARAMS];
    char *arg;                         /* exec's command, owned */
};

struct load_phase_spec {
    char *name;                        /* the phase's entry as written, e.g. "compile+write:mb=64" */
    int nuses;                         /* 0 for none */
    struct load_use use[LOAD_MAX_COMBO];
};

struct load_spec {
    int nphases;
    int cap;                           /* phases allocated: doubled as they come, not one more each time */
    struct load_phase_spec *phase;
};

/* 0, or -EINVAL with one line in err naming the bad part, or -ENOMEM. */
int load_spec_parse(const char *text, struct load_spec *out, char *err, size_t errlen);
void load_spec_free(struct load_spec *s);

#endif
