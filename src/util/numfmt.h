/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers for people, the same in every form (text, HTML, the comparison document): no exponent ever
 * ("1710 MB/s", not "1.71e+03"), k / M / G from ten thousand on ("700 k msg/s"), and one way of writing the share
 * of deadlines met. A file of src/util/: libc only. */
#ifndef RTJ_NUMFMT_H
#define RTJ_NUMFMT_H
#include <stddef.h>

/* v as people write it: below 10,000 a whole number from 100 on (1323), else 3 significant figures (96.1,
 * 4.25, 0.384, no trailing zeros); from 10,000 on 3 significant figures with k, M or G (12.3 k, 961 k, 1.2 M).
 * "-" for NAN or infinity. Returns buf. */
char *num_human(char *buf, size_t len, double v);

/* The same followed by a space and unit (when unit is not empty): "961 k msg/s", "1323 MB/s", "98 %". */
char *num_human_unit(char *buf, size_t len, double v, const char *unit);

/* Deadlines met, in percent, with 2 decimals rounded down: 99.996 is "99.99", so that a run that missed one
 * deadline never reads "100.00". "-" for NAN. Every form shows deadlines met through this. Returns buf. */
char *pct_met(char *buf, size_t len, double pct);

/* A latency for an axis or a sentence: µs below 1000 µs, ms from there, s from 1,000,000 µs, with up to 3
 * significant figures and no trailing zeros (0.05 µs, 20 µs, 1.33 ms, 12 ms, 1.5 s). us_unit is the spelling of
 * the micro-second unit ("µs", or "us" where UTF-8 cannot be shown). Returns buf. */
char *dur_human(char *buf, size_t len, double us, const char *us_unit);

#endif
