/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter compare`: reports side by side, and an honest verdict per metric. The document is built in compare.c;
 * which reports are of one set-up in compare_setup.h (included here); the per-load verdicts in compare_verdict.c,
 * on the seconds (compare_blocks.h), counts (compare_counts.h) and runs (compare_runs.h) of the reports, why each
 * test is the one used in those headers, and the tests themselves in src/stats/ (mann_whitney.h, perm_test.h,
 * pvalue.h); finding reports in the store in compare_store.c; the text rendering in render/compare_text.c.
 * compare/ stands above report/: a file here may include report/, stats/, util/, culprit/culprit.h and jansson;
 * never render/ (which shows a comparison from its JSON alone) or run/. */
#ifndef RTJ_COMPARE_H
#define RTJ_COMPARE_H
#include <jansson.h>
#include <stddef.h>
#include "compare/compare_setup.h"

#define COMPARE_SCHEMA "rtjitter.compare/1"

/* The comparison document ("schema": "rtjitter.compare/1") of n validated reports; the first is the baseline.
 * names[i] is where report i came from (shown, not parsed). NULL when n is 0. */
json_t *compare_build(json_t *const *docs, const char *const *names, size_t n);
/* The same, with the other runs of each report's set-up: reps[i] (or NULL) from compare_replicates_beside() for
 * report i, ids[i] (or NULL) report i's own file id (compare_file_id()), so that no run is taken twice. The
 * verdicts rest on these runs too (compare_runs.h): without any, a difference is "worse/better in this pair" at
 * most. */
json_t *compare_build_runs(json_t *const *docs, const char *const *names, const char *const *ids,
                           const json_t *const *reps, size_t n);
/* compare_build() with the reports' titles given (titles[i] NULL: the usual one), as the depth ladder names its
 * depths. */
json_t *compare_build_titled(json_t *const *docs, const char *const *names, const char *const *titles, size_t n);
/* The other runs of doc's set-up in the directory of path (compare_same_setup(), and not path itself), newest
 * first, at most max: [{"file", "id", "values": compare_run_values_json()}]. Files that are not reports are
 * passed over in silence (a directory holds other things too). NULL when the directory cannot be read. The
 * newest REPLICATE_SCAN_MAX files are looked at, each matched by its sidecar (store_sidecar.h; written when
 * missing or stale) and read whole only when it is of the set-up. */
json_t *compare_replicates_beside(const char *path, const json_t *doc, size_t max);
/* The same for n reports at once (paths[i], docs[i] as read: reps[i] gets report i's list, or NULL): a directory
 * beside several of them is listed once, each file in it read at most once (a report named among paths not at
 * all: docs[] gives it). */
void compare_replicates(const char *const *paths, json_t *const *docs, size_t n, size_t max, json_t **reps);
/* A file's identity (device and inode) as a string, into buf: 0 or -errno. */
int compare_file_id(const char *path, char *buf, size_t len);
/* The store's latest report of each kernel release: fills paths (malloc'ed, caller frees each and the array),
 * oldest kernel first by start time. 0 or -errno; *n may be 0. */
int compare_latest_in_store(const char *store, char ***paths, size_t *n);

/* Before/after on one machine: the store's reports grouped by set-up (optionally only those labelled label), on
 * the machine of the newest; the latest run of each of its `last` most recent set-ups, oldest first. With one
 * set-up only, its `last` latest runs. *paths gets malloc'd paths; what was chosen, in one line, in msg.
 * 0, -ENOENT (nothing to compare) or -errno. */
int compare_setups_in_store(const char *store, int last, const char *label, char ***paths, size_t *n, char *msg,
                            size_t msglen);

/* Every readable report of the store (only those labelled label, when given), oldest first: *paths gets
 * malloc'd paths (caller frees each and the array). 0 or -errno; *n may be 0. */
int compare_all_in_store(const char *store, const char *label, char ***paths, size_t *n);

/* Fleets: the store's reports from many machines and kernels as a kernel x machine table of the headline
 * figures (compare_matrix.c), "schema": "rtjitter.matrix/1":
 *   kernels [release...] (in the order first tested), machines [{id, hostname, cpu}],
 *   cells [{kernel, machine (index), report (path), started, runs (reports of that pair), worst_wakeup_p99_us,
 *           xrun_events, deadlines_met_pct (the worst phase's), verdict}] (the latest report of each pair).
 * A machine is the report's system identity: its hostname and CPU model. NULL when out of memory. */
#define MATRIX_SCHEMA "rtjitter.matrix/1"
json_t *compare_matrix_build(const char *const *paths, json_t *const *docs, size_t n);
/* The same table read one report at a time (each freed once its cell has its figures: memory bounded by the cells,
 * not the reports): read(path, arg) returns the report, or NULL after saying why it is left out. */
typedef json_t *(*compare_matrix_reader)(const char *path, void *arg);
json_t *compare_matrix_read(const char *const *paths, size_t n, compare_matrix_reader read, void *arg);
#endif
