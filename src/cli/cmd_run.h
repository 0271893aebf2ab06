/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTJ_CMD_RUN_H
#define RTJ_CMD_RUN_H
#include "cli/command.h"
/* `rtjitter run`: returns the process exit status (0, 1 threshold exceeded, 2 bad usage, 3 incomplete). */
int cmd_run(int argc, char **argv, const char *command_line);
#endif
