/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter report`: a stored report rendered again. */
#ifndef RTJ_CMD_REPORT_H
#define RTJ_CMD_REPORT_H
#include "cli/command.h"
#include <stddef.h>
/* Returns the process exit status: 0 ok, 2 bad usage or a file that is not a readable report. */
int cmd_report(int argc, char **argv, const char *command_line);
#endif
