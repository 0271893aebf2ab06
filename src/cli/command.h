/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A subcommand as the table of subcommands (cli_commands[], commands.c) lists it, and as its --help, the man page
 * and the bash completion describe it (manpage.c): everything about a command is said once, here and in its option
 * tables. */
#ifndef RTJ_COMMAND_H
#define RTJ_COMMAND_H
#include "cli/options.h"
#include <stddef.h>
#include <stdio.h>

/* One table of options under a title; the command's own table has title NULL. */
struct opt_section {
    const char *title;
    const struct opt_def *defs;
};

struct cli_command {
    const char *name;
    /* Returns the process exit status. */
    int (*fn)(int argc, char **argv, const char *command_line);
    const char *summary;      /* one line, for `rtjitter --help` and the man page's list */
    const char *synopsis;     /* what follows "rtjitter NAME" in the usage line */
    const char *description;  /* a paragraph (lines joined by the reader), or NULL */
    const char *positional;   /* what the arguments are ("REPORT.json"), NULL when it takes none; completed as
                               * file names */
    /* Its own options: the table the command parses (cli_parse) and, without sections, its one untitled section
     * of help. */
    const struct opt_def *defs;
    /* Fills out[] with the option sections, the command's own first; returns how many (at most max). NULL: one
     * untitled section, defs. Read them through cli_sections(). */
    size_t (*sections)(struct opt_section *out, size_t max);
};

#define CLI_MAX_SECTIONS 8

/* The one list of subcommands, in the order `rtjitter --help` and the man page list them: each X(NAME) is the
 * `const struct cli_command cmd_NAME_info` of src/cli/cmd_NAME.c (and cmd_NAME() in cmd_NAME.h). The declarations
 * here and the table in commands.c are made from it. */
#define CLI_COMMANDS(X) X(run) X(sweep) X(loads) X(report) X(compare) X(watch) X(check) X(diagnose) X(import)
#define CLI_COMMAND_DECLARE(n) extern const struct cli_command cmd_##n##_info;
CLI_COMMANDS(CLI_COMMAND_DECLARE)

/* The subcommands, NULL-terminated, in CLI_COMMANDS' order (commands.c).
 * Each entry: a unique lowercase name, fn, a one-line summary and a synopsis, and sections() giving its own
 * option table first (untitled); tests/unit/test_registry.c holds every entry to that. */
extern const struct cli_command *const cli_commands[];

/* The option sections of c, its own first: its sections(), or one untitled section of its defs. How many (<= max). */
size_t cli_sections(const struct cli_command *c, struct opt_section *out, size_t max);
/* Parses argv (after NAME) with defs (NULL: c's own) into opts, as opts_parse() does. 1 when the command is done
 * then, its exit status in *status: --help printed its help (0), or a bad option was said in one line (2); 0 to go
 * on. Every command's -h/--help is this one place. */
int cli_parse(const struct cli_command *c, const struct opt_def *defs, void *opts, int argc, char **argv,
              const char **pos, int maxpos, int *npos, int *status);

/* The usage line, the description and every option section, as `rtjitter NAME --help` prints them. */
void cli_help(FILE *f, const struct cli_command *c);

#endif
