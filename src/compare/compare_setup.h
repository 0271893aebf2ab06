/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside compare, and for the store's sidecars: which reports are of one set-up, and what differs in their system
 * identity. Only the runs of one set-up tell its run-to-run noise (compare_runs.h). compare.h includes this. */
#ifndef RTJ_COMPARE_SETUP_H
#define RTJ_COMPARE_SETUP_H
#include <jansson.h>
#include <stddef.h>

/* Are two reports of one set-up: the same system identity (less what changes from run to run on one system), the
 * same audio settings the user chose (backend, provider, rate, period, device, CPUs, priority, DSP...) and the same
 * label? Only the runs of one set-up tell its run-to-run noise. */
int compare_same_setup(const json_t *a, const json_t *b);
/* What set-up matching needs of a report, kept in the store's sidecars (store_sidecar.h):
 * {"setup": {system (flattened), audio (the settings the user chose), threads, label}, "key": compare_setup_key(),
 *  "host": hostname, "label": label or null}. Two reports are of one set-up when their "setup"s are equal
 * (compare_identity_same_setup(), the same as compare_same_setup() of the reports). NULL when out of memory.
 * COMPARE_IDENTITY_VERSION: a sidecar of another version is rebuilt; raise it when the identity or the run values a
 * sidecar keeps (compare_run_values(), compare_runs.h) change. */
#define COMPARE_IDENTITY_VERSION 1
json_t *compare_identity(const json_t *doc);
int compare_identity_same_setup(const json_t *a, const json_t *b);
/* The set-up of a report: its machine, kernel release and the identity that matters to audio (command line,
 * preempt mode, governor, threaded IRQs), the audio settings the user chose (backend, provider, rate, period,
 * periods, device, CPUs, priority, DSP load, threads) and the label. Two runs of one set-up differ only by chance.
 * key gets a printable key; 0 or -ENOSPC. */
int compare_setup_key(const json_t *doc, char *key, size_t len);
/* What differs in the system identity of docs[0..n), key by key, whatever keys exist, less what changes from run
 * to run on one system: [{"key", "values": [one per report, null where it lacks the key]}]. */
json_t *compare_system_diff(json_t *const *docs, size_t n);

#endif
