/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder's one rule (rtjitter run --backend timer,alsa,jack), in one place for the ladder's conclusion
 * (run/ladder.c) and for each depth's verdict (verdict.c): the trouble starts at the shallowest depth whose verdict
 * is "fail"; the depths below it kept up on the same kernel under the same loads, so the verdict of a depth that
 * only clean depths sit below does not blame the kernel or the machine: it names what the depth adds. Main thread. */
#ifndef RTJ_LADDER_RULE_H
#define RTJ_LADDER_RULE_H
#include <jansson.h>
#include <stddef.h>

/* The index of the depth where the trouble starts, levels[] being the depths' verdict levels shallowest first;
 * n when no depth shows trouble. */
size_t ladder_trouble_start(const char *const *levels, size_t n);

/* For a report measured as one depth of a ladder (doc's "ladder" {depth, below [{depth, level}]}, set by the run
 * before the verdict): 1 when depths were measured below it and none shows trouble (the rule above), with their
 * names ("timer", "timer and alsa") in names; else 0. */
int ladder_kernel_cleared(const json_t *doc, char *names, size_t len);

/* Depth zero, the noise probe (--backend noise): its longest gap below the kernel (phases[].noise, class
 * below_kernel, over every phase and CPU) in a report, with the count of such gaps in *gaps; NAN when the report holds
 * no probe. */
double ladder_below_kernel_us(const json_t *doc, double *gaps);
/* The lowest depth whose tail explains the top depth's misses is where to act: for a report, the longest gap below
 * the kernel that the probe saw (the report's own, or a noise depth's below it: "ladder".below[] {depth "noise",
 * below_kernel_max_us, virtual}) when it is at least period_us (one such gap alone misses a deadline there); else
 * NAN. *vm: 1 when that probe ran in a virtual machine (its CPU's hypervisor flag), 0 when not, -1 unknown. */
double ladder_host_first(const json_t *doc, double period_us, int *vm);

#endif
