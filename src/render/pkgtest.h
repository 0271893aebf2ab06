/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the packaging-test forms (JUnit, TAP, LAVA, KCIDB: junit.c, tap.c, lava.c, kcidb.c) share: the
 * headline figures of a phase, the identity of a run as name/value pairs, and the test cases of a report
 * (one per phase and threshold, from the report's "thresholds".checks, see report/thresholds.h). Each form is
 * its file's entry of the table of forms (render_form_junit, ... in render.c). */
#ifndef RTJ_PKGTEST_H
#define RTJ_PKGTEST_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include "report/thresholds.h"

/* A phase's headline figures; NAN when absent. */
struct phase_figs {
    double measured_s, cycles, xrun_events, xruns_reported, skipped_cycles, met_pct, missed;
    double wakeup_p99_us, wakeup_max_us, jitter_abs_max_us, margin_min_us;
};
void pkg_phase_figs(const json_t *phase, struct phase_figs *f);
/* The figures as "name: value" lines, each preceded by indent (for a YAML block or a failure's text). */
void pkg_phase_figs_lines(FILE *f, const struct phase_figs *pf, const char *indent);

/* The run's identity, for JUnit properties, KCIDB misc: calls fn(name, value) for hostname, kernel.release,
 * kernel.version, kernel.preempt, kernel.hz, cpu.model, backend, provider, server, rate, period_frames,
 * period_us, nperiods, realtime, dsp_pct, profile, label, tool.version, started, complete, verdict (the absent
 * ones skipped). */
void pkg_identity(const json_t *doc, void (*fn)(const char *name, const char *value, void *arg), void *arg);

/* One (phase, threshold) pair: calls fn for each, phases outer, thresholds inner, in the report's order. The
 * phase is doc.phases[pi] (NULL when the thresholds name more phases than the report has). Returns the count. */
typedef void (*pkg_case_fn)(const json_t *phase, size_t pi, const json_t *check, const json_t *entry, void *arg);
size_t pkg_cases(const json_t *doc, pkg_case_fn fn, void *arg);

/* s with every character outside [A-Za-z0-9_.-] made '_' (at most len - 1 bytes): LAVA's test case names,
 * KCIDB path parts. */
void pkg_ident(const char *s, char *buf, size_t len);

/* KCIDB (kcidb.c): an origin is [a-z0-9_]+ (the schema's pattern); a git commit hash, 40 lower-case hex digits.
 * 1 when s is one. */
int kcidb_origin_valid(const char *s);
int kcidb_commit_valid(const char *s);

#endif
