/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man page (rtjitter.1) and the bash completion, generated from main.c's table of subcommands and their
 * option tables, so that neither can drift from what the parser accepts. `rtjitter --man` and `rtjitter
 * --bash-completion` print them (not listed in --help: the Makefile builds data/rtjitter.1 and
 * data/rtjitter.bash-completion from them). */
#ifndef RTJ_MANPAGE_H
#define RTJ_MANPAGE_H
#include "cli/command.h"
#include <stdio.h>

/* cmds is NULL-terminated. 0, or -EIO when f could not be written. */
int manpage_write(FILE *f, const struct cli_command *const *cmds);
int completion_write(FILE *f, const struct cli_command *const *cmds);

#endif
