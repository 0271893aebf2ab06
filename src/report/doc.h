/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every document rtjitter writes (a report, a comparison, a rendered page) goes through doc_write(): the one
 * place that knows how a user's file is replaced. And doc_begin()/doc_set_origin(): the one place that knows the
 * frame every JSON document opens with (rt-tests' rt_write_json() shape: the frame here, the body from the
 * caller).
 *
 * doc_write() writes the body into a temporary file in the target's own directory, created with O_EXCL and
 * O_NOFOLLOW under a random hidden name (.NAME.tmp-XXXXXXXXXXXX), flushes and fsyncs it, then gives it the
 * target's name: DOC_REPLACE renames it over the target (readers see the old file or the new one, never half
 * of one), DOC_EXCLUSIVE links it and fails with -EEXIST when the name is taken (a report never replaces
 * another). Then the directory is fsynced. On any failure the temporary file is removed and the target is left
 * as it was. A symlink at the target is replaced as a link (DOC_REPLACE) or refused (DOC_EXCLUSIVE), never
 * written through; a target that is a directory (-EISDIR), FIFO, device or socket (-EINVAL) is refused, and so
 * is one the rename could not replace (-EPERM: another user's file in a sticky directory, util/replace.h).
 * New files get mode 0666 (DOC_REPLACE, like any file a user names) or 0644 (DOC_EXCLUSIVE, the store's
 * reports), less the umask. Main thread only; not async-signal-safe. */
#ifndef RTJ_DOC_H
#define RTJ_DOC_H
#include <jansson.h>
#include <stdio.h>

enum doc_mode { DOC_REPLACE, DOC_EXCLUSIVE };

/* body writes the document into f and returns 0 or -errno; its failure (or f's) fails the write. */
int doc_write(const char *path, int mode, int (*body)(FILE *f, void *arg), void *arg);
/* Before a run: could doc_write(path, mode, ...) create its file now? Opens the directory, checks the target as
 * doc_write() would, and creates and removes a temporary file there. 0 or -errno (as doc_write()). */
int doc_check(const char *path, int mode);
/* A body for a JSON document (arg is a json_t *): the form every rtjitter JSON file has on disk, reals to 12
 * significant digits, a newline at the end. Objects are indented by one a level, a member a line; an array
 * without objects in it (a histogram's buckets, a list of numbers or names) is one line, and so is each object in
 * an array that fits DOC_LINE_MAX bytes (an event, a spike, a timeline entry): a report lays out as it reads, at
 * about 40 % of the size of one indented throughout (issue 32, Cost: an hour of eight phases wrote 5.4 MB). */
#define DOC_LINE_MAX 1000
int doc_json_body(FILE *f, void *doc);
int doc_json_body(FILE *f, void *doc);
/* doc_write(path, mode, doc_json_body, doc). */
int doc_write_json(const char *path, int mode, const json_t *doc);
/* The words for an error of doc_write(), for "cannot write FILE: ..." (-EINVAL there is a target that is not
 * a regular file). */
const char *doc_strerror(int e);

/* A new document that opens with its frame: "schema", then (with_tool) "tool" {name, version}. NULL when
 * memory ran out. */
json_t *doc_begin(const char *schema, int with_tool);
/* The rest of the frame, where a report has it (after its run's times): "command" (the command line, invalid
 * UTF-8 replaced, or null) and "system" (borrowed: a new reference is taken; an empty object when NULL).
 * 0 or -ENOMEM. */
int doc_set_origin(json_t *doc, const char *command, json_t *system);

#endif
