/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's section of the HTML report: its verdict line, the linear histogram's figures (count, overflow, max)
 * and a small SVG of the maximum wake-up per window (OSADL's maxima per 5 minutes), with the verdict's threshold
 * as a dashed line. Its plot area carries data-* attributes like svg.c's, and each bar its window's maximum in
 * data-max-us, so that a test reads what is drawn against the report. Nothing when the report has no soak. */
#ifndef RTJ_SVG_SOAK_H
#define RTJ_SVG_SOAK_H
#include <jansson.h>
#include <stdio.h>

void html_soak(FILE *f, const json_t *doc);

#endif
