/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTJ_CMD_LOADS_H
#define RTJ_CMD_LOADS_H
#include "cli/command.h"
/* `rtjitter loads [--json]`: the load registry, for people and for scripts. Returns the exit status. */
int cmd_loads(int argc, char **argv, const char *command_line);
#endif
