/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTJ_CMD_SWEEP_H
#define RTJ_CMD_SWEEP_H
#include "cli/command.h"

int cmd_sweep(int argc, char **argv, const char *command_line);

#endif
