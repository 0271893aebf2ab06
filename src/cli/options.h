/* src/cli/: the command line. main.c (the table of subcommands), one cmd_NAME.c per subcommand turning argv into a
 * call of the module that does the work, and this option table. It may include every other folder; nothing but
 * main.c includes a cmd_*.h, and only backends include options.h from outside cli/.
 *
 * Command-line options, declared once: the table drives parsing, range checks and the help text. */
#ifndef RTJ_OPTIONS_H
#define RTJ_OPTIONS_H
#include <stddef.h>
#include <stdio.h>

enum opt_type { OPT_FLAG, OPT_INT, OPT_DOUBLE, OPT_STR };

struct opt_def {
    const char *name;      /* long name without "--" */
    enum opt_type type;
    size_t offset;         /* into the command's option struct */
    double min, max;       /* for OPT_INT / OPT_DOUBLE */
    const char *metavar;   /* "FRAMES", "SECS", ... */
    const char *help;      /* one line; the default is said here */
    const char *const *choices; /* for OPT_STR: NULL-terminated list of allowed values, or NULL */
};

/* Parse argv (after the sub-command) into opts. Positional arguments are collected into pos (up to maxpos).
 * On error prints one line "rtjitter CMD: ..." to stderr and returns -1 (the caller exits 2).
 * Returns 1 when --help was given (help printed), 0 otherwise. */
int opts_parse(const char *cmd, const struct opt_def *defs, void *opts, int argc, char **argv,
               const char **pos, int maxpos, int *npos);
void opts_help(FILE *f, const char *cmd, const char *synopsis, const struct opt_def *defs);
/* Only the option lines of defs (for a help made of several sections). */
void opts_help_list(FILE *f, const struct opt_def *defs);
/* The number of entries of defs, without the terminating one. */
size_t opts_count(const struct opt_def *defs);

#endif
