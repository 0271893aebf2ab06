/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report reader's checks of a phase's events and spikes and of the culprits (culprit/culprit.h, REPORT SCHEMA):
 * what report_validate() checks of them, so that the renderers (text, HTML, compare, the verdict) may trust every
 * key they read there. Main thread. */
#ifndef RTJ_REPORT_READ_CULPRITS_H
#define RTJ_REPORT_READ_CULPRITS_H
#include <jansson.h>
#include <stddef.h>

/* A phase's events[], spikes[] and top_culprits[] (path: "phases[3]"). 0, or -EINVAL and one line in err. */
int report_check_happenings(const json_t *phase, const char *path, char *err, size_t errlen);
/* The top-level "culprits" object. 0, or -EINVAL and one line in err. */
int report_check_culprits_summary(const json_t *c, char *err, size_t errlen);

#endif
