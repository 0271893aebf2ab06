/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder: one plan run on several backends one after another (the kernel's timers, the raw ALSA driver,
 * the JACK graph), the same loads each time, and the reports side by side with a verdict that names the depth
 * where the trouble starts. */
#ifndef RTJ_LADDER_H
#define RTJ_LADDER_H
#include "run/run.h"

/* Runs plan once per backend of backends (n of them, shallowest first), each a complete run with its own report in
 * the store; then prints the ladder (and writes the comparison to json/html when given). Returns the worst exit
 * status of the runs (3 > 1 > 0), or 2 for bad input. */
int run_ladder(const struct run_plan *plan, const struct backend_ops *const *backends, size_t n, const char *json,
               const char *html);

#endif
