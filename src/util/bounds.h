/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bounds two sides of the program must agree on: what one side makes, the other must read back. Each is
 * stated once, here, and both sides include it (src/util/ is the one folder every folder may include). */
#ifndef RTJ_BOUNDS_H
#define RTJ_BOUNDS_H

/* Phases in one run: `--loads` refuses a longer list before anything is measured, and the report reader refuses a
 * report with more (a run's report must always read back). */
#define RTJ_MAX_PHASES 4096

#endif
