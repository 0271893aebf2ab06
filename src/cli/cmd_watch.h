/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`: every xrun of a real session, its time and culprit (issue 25). */
#ifndef RTJ_CMD_WATCH_H
#define RTJ_CMD_WATCH_H
#include "cli/command.h"
/* Returns the process exit status: 0 the session was watched to its end (Ctrl-C, SIGTERM or --duration), 2 bad
 * usage or no server to watch, 3 the server was lost or the report could not be saved (an incomplete report is
 * still written). */
int cmd_watch(int argc, char **argv, const char *command_line);
#endif
