/* Placeholder plan until the load registry lands: only the `none` baseline exists. */
#include "loadplan.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct load_plan {
    int n;
};

int load_plan_parse(const char *spec, const char *tmpdir, struct load_plan **out, char *err, size_t errlen)
{
    (void)tmpdir;
    if (strcmp(spec, "none") != 0) {
        snprintf(err, errlen, "unknown load '%s' (known: none)", spec);
        return -EINVAL;
    }
    *out = calloc(1, sizeof(**out));
    if (!*out)
        return -ENOMEM;
    (*out)->n = 1;
    return 0;
}

int load_plan_count(const struct load_plan *p) { return p->n; }
const char *load_plan_name(const struct load_plan *p, int phase) { (void)p; (void)phase; return "none"; }
int load_phase_start(struct load_plan *p, int phase) { (void)p; (void)phase; return 0; }
void load_phase_stop(struct load_plan *p, int phase, json_t *metrics, const char **error)
{
    (void)p; (void)phase; (void)metrics;
    *error = NULL;
}
void load_plan_free(struct load_plan *p) { free(p); }
