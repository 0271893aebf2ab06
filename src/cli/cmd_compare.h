/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter compare`: reports side by side, with a verdict per metric. */
#ifndef RTJ_CMD_COMPARE_H
#define RTJ_CMD_COMPARE_H
#include "cli/command.h"
/* Returns the process exit status: 0 ok, 2 bad usage or a file that is not a readable report. */
int cmd_compare(int argc, char **argv, const char *command_line);
#endif
