/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's cases in the packaging-test forms (lava.c, junit.c), as Linaro's rt-tests test definitions give
 * cyclictest's: one case per RT thread and statistic, "t0-min-latency", "t0-avg-latency", "t0-max-latency" (µs),
 * only the maximum gating (against "verdict".soak.threshold_us: pass, or fail when enforced by --profile, else
 * skip, as the forms treat a limit that was only advice); the others record a measurement with "pass". Nothing
 * when the report has no soak. */
#ifndef RTJ_SOAK_PKG_H
#define RTJ_SOAK_PKG_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* lava-test-case lines. */
void soak_lava(FILE *f, const json_t *doc);
/* JUnit <testcase> elements (f NULL: only counted); returns the cases, adds to *failures (a
 * maximum over the threshold, enforced or advice). */
size_t soak_junit(FILE *f, const json_t *doc, size_t *failures);

#endif
