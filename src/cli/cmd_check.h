/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter check`: the studio set-up checklist (src/checks). */
#ifndef RTJ_CMD_CHECK_H
#define RTJ_CMD_CHECK_H
#include "cli/command.h"
/* Returns the process exit status: 0 no check failed, 1 one did, 2 bad usage or the document could not be
 * written. */
int cmd_check(int argc, char **argv, const char *command_line);
#endif
