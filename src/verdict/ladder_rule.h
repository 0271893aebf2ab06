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

#endif
