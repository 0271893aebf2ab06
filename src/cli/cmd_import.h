/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter import`: results of another tool made into a report in the store. */
#ifndef RTJ_CMD_IMPORT_H
#define RTJ_CMD_IMPORT_H
/* Returns the process exit status: 0 saved, 2 bad usage or a file that cannot be imported, 3 it could not be
 * saved. */
#include "cli/command.h"
int cmd_import(int argc, char **argv, const char *command_line);
#endif
