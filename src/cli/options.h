/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/cli/: the command line. main.c (dispatch through the table of subcommands in commands.c), one cmd_NAME.c per
 * subcommand turning argv into a call of the module that does the work, and this option table. It may include every
 * other folder; nothing but commands.c includes a cmd_*.h. The table's types are util/optdef.h (the backends declare
 * their params with them).
 *
 * Command-line options, declared once: the table drives parsing, range checks, the help text, the man page and
 * the shell completion (command.h, manpage.c). Parsing behaves as getopt_long does for the people who type it:
 * short options as jackd and cyclictest users expect (-p 64, -p64, -qD5), unambiguous prefixes of long options
 * (--dur 5), "did you mean --duration?" for a typo, and an option that takes a value never takes the next
 * option as its value (--server --quiet is refused; --server=--quiet is a value). "--" ends the options. */
#ifndef RTJ_OPTIONS_H
#define RTJ_OPTIONS_H
#include <stddef.h>
#include <stdio.h>
#include "util/optdef.h" /* struct opt_def, enum opt_type */

/* Parse argv (after the sub-command) into opts. Positional arguments are collected into pos (up to maxpos).
 * On error prints one line "rtjitter CMD: ..." to stderr and returns -1 (the caller exits 2).
 * Returns 1 when -h or --help was given (help printed by the caller), 0 otherwise. */
int opts_parse(const char *cmd, const struct opt_def *defs, void *opts, int argc, char **argv,
               const char **pos, int maxpos, int *npos);
void opts_help(FILE *f, const char *cmd, const char *synopsis, const struct opt_def *defs);
/* Only the option lines of defs (for a help made of several sections). */
void opts_help_list(FILE *f, const struct opt_def *defs);
/* A duration as people write it: a decimal number with an optional unit, ms, s, m (or min) or h ("500ms", "2s",
 * "1.5m", "30m", "1h"); a plain number is seconds. Every duration option is read through this one function.
 * Returns 0 with *secs set, or -1 with why in err (empty, not a number, an unknown unit, negative, too large). */
int opts_parse_duration(const char *text, double *secs, char *err, size_t errlen);
/* The number of entries of defs, without the terminating one. */
size_t opts_count(const struct opt_def *defs);
/* The edit distance between a and b (optimal string alignment: insertions, deletions, substitutions and
 * swaps of two neighbours count one each), for "did you mean". */
size_t opts_distance(const char *a, const char *b);

#endif
