/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help of a subcommand, generated from its struct cli_command and option tables. */
#include "cli/command.h"

void cli_help(FILE *f, const struct cli_command *c)
{
    fprintf(f, "usage: rtjitter %s %s\n", c->name, c->synopsis);
    if (c->description)
        fprintf(f, "\n%s\n", c->description);
    struct opt_section s[CLI_MAX_SECTIONS];
    size_t n = c->sections(s, CLI_MAX_SECTIONS);
    for (size_t i = 0; i < n; i++) {
        if (s[i].title)
            fprintf(f, "\n%s\n", s[i].title);
        else
            fputc('\n', f);
        opts_help_list(f, s[i].defs);
    }
}
