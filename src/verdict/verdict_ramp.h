/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict of a DSP headroom ramp (`--dsp ramp`): a measurement, not a test of the kernel. The ramp makes its
 * own cut-short cycles and missed deadlines on purpose, so they are never held against the kernel (no "xruns",
 * no system advice); the headline is the headroom: the DSP load at the first cycle whose work did not fit, and
 * at which 1 % of cycles failed, per load. */
#ifndef RTJ_VERDICT_RAMP_H
#define RTJ_VERDICT_RAMP_H
#include <jansson.h>

struct report_judgement;

/* 1 when doc is the report of a ramp. */
int verdict_is_ramp(const json_t *doc);
/* The "thresholds", "profile" and "verdict" of a ramp's doc (read only) into j (report/report.h). Returns 0 (a ramp
 * exceeds no threshold), -1 when out of memory. */
int verdict_ramp(const json_t *doc, const json_t *profile, struct report_judgement *j);

#endif
