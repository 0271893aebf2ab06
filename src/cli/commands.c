/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of subcommands (command.h): the one place that includes every cmd_*.h. main.c dispatches through it,
 * the man page and the bash completion are made from it, and tests/unit/test_registry.c holds each entry to its
 * contract. */
#include "cli/cmd_check.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_diagnose.h"
#include "cli/cmd_import.h"
#include "cli/cmd_loads.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"
#include "cli/cmd_sweep.h"
#include "cli/cmd_watch.h"

const struct cli_command *const cli_commands[] = {
    &cmd_run_info,
    &cmd_sweep_info,
    &cmd_loads_info,
    &cmd_report_info,
    &cmd_compare_info,
    &cmd_watch_info,
    &cmd_check_info,
    &cmd_diagnose_info,
    &cmd_import_info,
    NULL,
};
