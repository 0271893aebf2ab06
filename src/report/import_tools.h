/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter import oslat FILE` and `rtjitter import jitterdebugger DIR`: the results of the other latency tools
 * people run, made into reports like cyclictest's (import_cyclictest.h: the same struct import_info, the same
 * limits, the same checks and report shape), so that a fleet's old results join the comparison. */
#ifndef RTJ_IMPORT_TOOLS_H
#define RTJ_IMPORT_TOOLS_H
#include "report/import_cyclictest.h"

/* oslat --json=FILE (rt-tests 2.x): each thread a CPU's busy loop, its histogram of how long one loop took.
 * Arguments and result as import_cyclictest()'s. */
json_t *import_oslat(const char *text, size_t len, const struct import_info *info, char *release,
                     size_t release_len, struct timespec *when, char *err, size_t errlen);

/* jitterdebugger's results.json (the file in its -o DIR): each CPU's timer wake-up latency and histogram.
 * kernel_cmdline: the DIR's "cmdline" file (the kernel's command line it copied), or NULL. Arguments and result
 * as import_cyclictest()'s. */
json_t *import_jitterdebugger(const char *text, size_t len, const char *kernel_cmdline,
                              const struct import_info *info, char *release, size_t release_len,
                              struct timespec *when, char *err, size_t errlen);

#endif
