/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's keys, once (issue 36): each key's path, its JSON types, its range where it has one, whether a
 * renderer reads it (the reader checks those), and for the keys rtjitter-report(5) describes, the type in words and
 * the meaning. The reader checks what it reads against it
 * (report_read.c, report_read_culprits.c), the man page prints its meanings (cli/manpage_report.c), and
 * tests/unit/test_schema.c checks that every key of every fixture report is in it with its type.
 *
 * A path is keys joined by '.', "[]" after an array's key for its entries: "audio.rate", "phases[].xruns.events",
 * "phases[].events[].culprits[].kind". An object whose keys are data (a kernel's config options, a histogram per
 * metric) is SCHEMA_OPEN: the keys below it are not listed. */
#ifndef RTJ_REPORT_SCHEMA_H
#define RTJ_REPORT_SCHEMA_H
#include "report/report_read.h"
#include <jansson.h>
#include <stddef.h>

enum {
    SCHEMA_OPEN = 1,      /* its keys are data, not listed here */
    SCHEMA_WITH_NEXT = 2, /* the man page describes it in one row with the entry after it ("a, b") */
    SCHEMA_RANGE = 4,     /* a number within [min, max] */
    SCHEMA_READ = 8,      /* a renderer reads it: the reader refuses a report where it has another type */
};

struct schema_key {
    const char *path;
    unsigned types;       /* T_* of report_read.h */
    unsigned flags;
    const char *type;     /* the type in rtjitter-report(5)'s words; NULL: the page does not list the key */
    const char *meaning;  /* in the markup of manpage_markup(); NULL for a row's first keys (SCHEMA_WITH_NEXT) */
    double min, max;      /* SCHEMA_RANGE */
};

/* The report (rtjitter.report/1): its top level and system identity, in the order rtjitter-report(5) lists them
 * (schema_report.c), and each entry of phases[] (schema_phase.c, paths from "phases[]."). End with a NULL path. */
extern const struct schema_key schema_report[], schema_phase[];
/* A comparison (rtjitter.compare/1, compare --json): its top level, for rtjitter-report(5). */
extern const struct schema_key schema_compare[];

/* The report's key at path, or NULL. */
const struct schema_key *schema_find(const char *path);
/* The key at path, or the SCHEMA_OPEN object above it (whose keys are data), or NULL: the key is not described. */
const struct schema_key *schema_covering(const char *path);
/* Does v have the key's type (and range)? */
int schema_value_ok(const struct schema_key *k, const json_t *v);
/* Each key of the object o that the schema lists under the path at ("" for the top level, "phases[]", "audio") as
 * SCHEMA_READ: of its type and range, else -EINVAL and one line in err naming it by where (the place in the file, "phases[2]"):
 * "malformed report: WHERE.KEY is a string, expected a number from -1e15 to 1e15". Keys it does not list are
 * accepted (a newer report's), and so are the other keys listed: what no renderer reads may be of any type (an
 * importer's, an older version's). */
int schema_check_object(const json_t *o, const char *at, const char *where, char *err, size_t errlen);

#endif
