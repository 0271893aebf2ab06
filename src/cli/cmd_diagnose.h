/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter diagnose`: rtla timerlat as a separate pass, where the kernel has the timerlat tracer. */
#ifndef RTJ_CMD_DIAGNOSE_H
#define RTJ_CMD_DIAGNOSE_H
#include "cli/command.h"
/* Returns the process exit status: 0 rtla ran and no latency reached the threshold, 1 it ran and one did (the
 * auto-analysis says why), 2 bad usage, 3 rtla failed, 4 not available on this machine (the one line says why). */
int cmd_diagnose(int argc, char **argv, const char *command_line);
#endif
