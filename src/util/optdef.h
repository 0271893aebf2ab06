/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An option as declared once, in a table: its name, type, bounds, metavar and help. Types only, no functions: the
 * table's users (cli/options.h parses, checks and prints it; each backend in rtaudio/ declares its params table
 * with it) include this without the command line's code. */
#ifndef RTJ_OPTDEF_H
#define RTJ_OPTDEF_H
#include <stddef.h>

/* OPT_DURATION: a double of seconds, written with a unit or without (opts_parse_duration). */
enum opt_type { OPT_FLAG, OPT_INT, OPT_DOUBLE, OPT_STR, OPT_DURATION };

struct opt_def {
    const char *name;      /* long name without "--" */
    enum opt_type type;
    size_t offset;         /* into the command's option struct */
    double min, max;       /* for OPT_INT / OPT_DOUBLE */
    const char *metavar;   /* "FRAMES", "SECS", ... */
    const char *help;      /* one line; the default is said here */
    const char *const *choices; /* for OPT_STR: NULL-terminated list of allowed values, or NULL */
    char short_name;       /* 'p' for -p; 0 for none. -h is always help, -V the version (at the top level) */
};

#endif
