/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of subcommands (command.h), made from its one list CLI_COMMANDS. main.c dispatches through it, the man
 * page and the bash completion are made from it, and tests/unit/test_registry.c holds each entry to its contract. */
#include "cli/command.h"
#include <stddef.h>

#define CLI_COMMAND_ENTRY(n) &cmd_##n##_info,
const struct cli_command *const cli_commands[] = { CLI_COMMANDS(CLI_COMMAND_ENTRY) NULL };
