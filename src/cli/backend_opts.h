/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The backends' options as a command takes them (`run`, `sweep`): the command's own table followed by every
 * registered backend's params table, offsets moved to where the command keeps its struct backend_config; an
 * option two backends share is listed once. Help sections and the check that no option is given to a backend
 * that does not take it come from the same tables. */
#ifndef RTJ_BACKEND_OPTS_H
#define RTJ_BACKEND_OPTS_H
#include "backend.h"
#include "cli/command.h"
#include <stdio.h>

/* own, then every backend's params at be_offset. A malloc'd table, NULL-terminated; NULL when out of memory. */
struct opt_def *backend_opts_table(const struct opt_def *own, size_t be_offset);
/* Help sections: own (untitled), then each backend's params under "--backend NAME: summary". */
size_t backend_opts_sections(struct opt_section *out, size_t max, const struct opt_def *own);
/* A backend option that was given (its field differs from dflt) although none of the n chosen backends takes
 * it: its name, or NULL. */
const char *backend_opts_foreign(const struct backend_config *cfg, const struct backend_config *dflt,
                                 const struct backend_ops *const *be, size_t n);
/* --backend auto (backend_auto in rtaudio/backend.h): the chosen backend, which and why said on stderr in one line
 * ("WHO: --backend auto chose ...") and kept in *why_out (static storage) for the report. NULL when it cannot
 * choose: the line said, *rc the exit code (2); a hung jackd leaves with _exit(3). */
const struct backend_ops *backend_opts_auto(const char *who, const char *server, const char **why_out, int *rc);
/* `--backend list`: each backend, its summary, and why it cannot run here, wrapped to f's width (util/wrap.h). */
void backend_opts_list(FILE *f);

#endif
