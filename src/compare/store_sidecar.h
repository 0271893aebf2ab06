/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The store's sidecars (issue 21): what compare needs of a report to match set-ups, kept beside it, so that a crowded
 * store is not parsed report by report (jansson reads nothing of a file without parsing all of it: 100 reports of
 * 22 MB took 152 s). A report NAME.json gets ".NAME.json.setup", a small JSON document:
 *   {"schema": "rtjitter.sidecar/1", "version": COMPARE_IDENTITY_VERSION,
 *    "report": {"size", "mtime_s", "mtime_ns", "ino", "dev"} (as strings: the report's stat when it was read),
 *    "identity": compare_identity() of the report,
 *    "values": compare_run_values_json() of the report, once it was read whole (a run of a compared set-up)}
 * A sidecar is used only while its "report" equals the report's stat now (not following a symlink at the sidecar's
 * name) and its version is this build's; anything else (missing, stale, corrupt, another version, not a regular
 * file) is never trusted: the report's identity is read again (its identity only: report_compact.h) and a new
 * sidecar written through a temporary file created O_EXCL|O_NOFOLLOW in the same directory and renamed over the
 * old name. A sidecar that cannot be written (a read-only directory) costs only speed. A store made before
 * sidecars works as it is: each report gets its sidecar the first time compare looks at it. */
#ifndef RTJ_STORE_SIDECAR_H
#define RTJ_STORE_SIDECAR_H
#include <jansson.h>
#include <stddef.h>
#include <sys/stat.h>

#define SIDECAR_SCHEMA "rtjitter.sidecar/1"
#define SIDECAR_SUFFIX ".setup"
#define SIDECAR_MAX_BYTES (4u << 20)

/* The identity of the report name in the directory dfd, whose path is dir (for reading the report): from its
 * sidecar when that is fresh for st (the report's stat now), else from the report, writing a new sidecar. *ident
 * gets a new reference; *values (values may be NULL) the sidecar's run values, or NULL when it has none; *text
 * (text may be NULL) the report's whole text when it had to be read (malloc'd, *textlen bytes, NUL after them;
 * NULL when the sidecar served), so that a caller that wants the report whole reads the file only once.
 * 0 or -errno (err says why). */
int sidecar_identity(int dfd, const char *dir, const char *name, const struct stat *st, json_t **ident,
                     json_t **values, char **text, size_t *textlen, char *err, size_t errlen);
/* The report (stat st when it was read whole) was read and gave values: its sidecar keeps them too. */
void sidecar_add_values(int dfd, const char *name, const struct stat *st, const json_t *ident, const json_t *values);
/* The sidecar's file name of report name, into buf: 0 or -ENAMETOOLONG. */
int sidecar_name(const char *name, char *buf, size_t len);

#endif
