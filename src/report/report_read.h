/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a stored report back: the only way `report` and `compare` get a document.
 * A truncated, malformed or hostile file gives -EINVAL (or -errno) and one line in err, never a crash: every key
 * the renderers use is type- and range-checked here, once, so that they may trust what they read. Unknown keys
 * are ignored; a schema of another major version is refused. */
#ifndef RTJ_REPORT_READ_H
#define RTJ_REPORT_READ_H
#include <jansson.h>
#include <stddef.h>

/* A report larger than this is refused: real ones are a few hundred KiB (histograms are sparse). */
#define REPORT_MAX_BYTES (64u << 20)
/* Largest magnitude accepted for any number the renderers use: 1e15 µs is 31 years, and every such value
 * still converts to int64 without overflow. */
#define REPORT_MAX_NUMBER 1e15

/* The typed keys of one object, for a reader of a document of rtjitter's (a report, a sweep): the accepted types of
 * each key as a bit set. A key that is absent is not checked here. */
enum {
    T_NUM = 1,   /* a number, |x| <= REPORT_MAX_NUMBER */
    T_COUNT = 2, /* a whole number, 0 <= x <= REPORT_MAX_NUMBER */
    T_STR = 4,
    T_BOOL = 8,
    T_NULL = 16,
    T_OBJ = 32,
    T_ARR = 64,
};
struct field {
    const char *key;
    unsigned types;
};
/* 0 when every key of o listed in f (ending with a NULL key) has one of its types; else -EINVAL and one line in err:
 * "malformed WHAT: PATH.KEY is an object, expected a number from -1e15 to 1e15". o must be an object. */
int doc_check_fields(const json_t *o, const struct field *f, const char *what, const char *path, char *err,
                     size_t errlen);
/* Does v have one of the types? */
int doc_type_ok(const json_t *v, unsigned types);
/* The types in words ("a whole number from 0 to 1e15"), and what v is ("a string"), for an error's line. */
const char *doc_type_words(unsigned types);
const char *doc_value_words(const json_t *v);

/* Read and check path. On success *doc is a new reference. */
int report_read_file(const char *path, json_t **doc, char *err, size_t errlen);
/* The same, from memory (the fuzz target's entry). */
int report_read_buffer(const char *buf, size_t len, json_t **doc, char *err, size_t errlen);
/* Check one phase's timeline array (phase number idx, for the message): what report_validate() checks of it. */
int report_check_timeline(const json_t *tl, size_t idx, char *err, size_t errlen);
/* Check an already parsed document: schema, then the type and range of every key a renderer reads. */
int report_validate(const json_t *doc, char *err, size_t errlen);

#endif
