/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a stored sweep document ("rtjitter.sweep/1", written by `rtjitter sweep`) back, for `rtjitter report`:
 * parsed with jansson, then every key the sweep renderers (render/sweep_text.c, sweep_html.c) read is type- and
 * range-checked here once, so that a truncated, malformed or hostile file gives one line in err, never a crash. */
#ifndef RTJ_SWEEP_READ_H
#define RTJ_SWEEP_READ_H
#include <jansson.h>
#include <stddef.h>

#define SWEEP_SCHEMA_PREFIX "rtjitter.sweep/"

/* 1 when doc says it is a sweep (its "schema" starts with rtjitter.sweep/), whatever its version. */
int sweepdoc_is_sweep(const json_t *doc);
/* Check a parsed sweep document. 0, or -EINVAL with one line in err. */
int sweepdoc_validate(const json_t *doc, char *err, size_t errlen);
/* Read path: 0 and a new reference in *doc when it is a valid sweep; -ENOMSG when it is JSON of another schema
 * (not a sweep: nothing in err; the caller reads it as a report); another -errno with one line in err. */
int sweepdoc_read_file(const char *path, json_t **doc, char *err, size_t errlen);

#endif
