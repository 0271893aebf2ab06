/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The schema's look-ups (schema.h): an index of the report's keys sorted by path, made once, so that the reader
 * checks each key of an object by a binary search (a day's timeline is 86,400 objects); and a comparison's keys,
 * for rtjitter-report(5). */
#include "report/schema.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct schema_key schema_compare[] = {
    { .path = "schema", .types = T_STR, .type = "string",
      .meaning = "`\"rtjitter.compare/1\"`" },
    { .path = "reports", .types = T_ARR, .type = "array",
      .meaning = "the reports compared; each lists the other runs of its set-up found beside it, `replicates[]`" },
    { .path = "warnings", .types = T_ARR, .type = "array of strings",
      .meaning = "runs with a different rate, period, backend or JACK provider; incomplete runs" },
    { .path = "system_diff", .types = T_ARR, .type = "array",
      .meaning = "`[{key, values[]}]`: what differs in the system, key by key" },
    { .path = "loads", .types = T_ARR, .type = "array",
      .meaning = "`[{load, columns[], rows [{label, cells[]}], verdicts [{report, metric, a, b, outcome "
                 "(better/worse/same/worse_in_pair/better_in_pair/n/a), text, runs {a, b, noise, df, ratio, p} (the "
                 "runs behind the t-test: on each side, in the noise group; null when a run lacks the value)}], "
                 "culprits}]`; `culprits`, only where a run names any: per report against the baseline `[{report, "
                 "sought [baseline, it] (whether each run looked: its phase has `top_culprits`), came [{kind, name, "
                 "events, spikes}] (in it, not in the baseline), went [...] (in the baseline, not in it), stayed "
                 "[{kind, name, events [before, after], spikes [before, after]}], seen (when one run did not look: "
                 "what the other named)}]`, matched by kind and name" },
    { .path = "answers", .types = T_ARR, .type = "array",
      .meaning = "`[{report, outcome, text}]`: per report against the baseline, the answer a musician acts on (the "
                 "text's first paragraph): `outcome` better, worse, better_in_pair, worse_in_pair, mixed, same or "
                 "not_compared" },
    { .path = "summary", .types = T_ARR, .type = "array",
      .meaning = "the closing sentence per report" },
    { .path = "method", .types = T_STR, .type = "string",
      .meaning = "the method in words: the units, the tests and the rules the verdicts use" },
    { .path = "ladder", .types = T_OBJ, .type = "object",
      .meaning = "`--backend timer,alsa,jack`: each depth's verdict, wake-up p99, xrun events and what it adds (the "
                 "noise depth: `below_kernel_max_us`, `below_kernel_gaps`), `trouble_starts_at`, `host_first` (the "
                 "noise probe's gaps below the kernel are as long as a period of the top depth, which had xruns), "
                 "the conclusion" },
    { .path = NULL },
};

#define SCHEMA_MAX_KEYS 1024

static const struct schema_key *sorted[SCHEMA_MAX_KEYS];
static size_t nsorted;
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static int by_path(const void *a, const void *b)
{
    return strcmp((*(const struct schema_key *const *)a)->path, (*(const struct schema_key *const *)b)->path);
}

static void sort_keys(void)
{
    const struct schema_key *const tables[] = { schema_report, schema_phase };
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
        for (const struct schema_key *k = tables[t]; k->path && nsorted < SCHEMA_MAX_KEYS; k++)
            sorted[nsorted++] = k;
    qsort(sorted, nsorted, sizeof(sorted[0]), by_path);
}

const struct schema_key *schema_find(const char *path)
{
    pthread_once(&sorted_once, sort_keys);
    struct schema_key want = { .path = path };
    const struct schema_key *w = &want;
    const struct schema_key *const *k = bsearch(&w, sorted, nsorted, sizeof(sorted[0]), by_path);
    return k ? *k : NULL;
}

const struct schema_key *schema_covering(const char *path)
{
    const struct schema_key *k = schema_find(path);
    if (k)
        return k;
    char up[512];
    snprintf(up, sizeof(up), "%s", path);
    for (char *end; (end = strrchr(up, '.'));) {
        *end = '\0';
        size_t n = strlen(up);
        if (n >= 2 && !strcmp(up + n - 2, "[]"))
            up[n - 2] = '\0';
        if ((k = schema_find(up)))
            return (k->flags & SCHEMA_OPEN) ? k : NULL;
    }
    return NULL;
}

int schema_value_ok(const struct schema_key *k, const json_t *v)
{
    if (!doc_type_ok(v, k->types))
        return 0;
    if ((k->flags & SCHEMA_RANGE) && json_is_number(v))
        return json_number_value(v) >= k->min && json_number_value(v) <= k->max;
    return 1;
}

int schema_check_object(const json_t *o, const char *at, const char *where, char *err, size_t errlen)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        char path[512];
        if ((size_t)snprintf(path, sizeof(path), "%s%s%s", at, *at ? "." : "", key) >= sizeof(path))
            continue; /* longer than any key listed */
        const struct schema_key *k = schema_find(path);
        if (!k || !(k->flags & SCHEMA_READ) || schema_value_ok(k, v))
            continue;
        char expected[80];
        if ((k->flags & SCHEMA_RANGE) && doc_type_ok(v, k->types))
            snprintf(expected, sizeof(expected), "a number from %g to %g", k->min, k->max);
        else
            snprintf(expected, sizeof(expected), "%s", doc_type_words(k->types));
        snprintf(err, errlen, "malformed report: %s%s%s is %s, expected %s", where, *where ? "." : "", key,
                 doc_value_words(v), expected);
        return -EINVAL;
    }
    return 0;
}
