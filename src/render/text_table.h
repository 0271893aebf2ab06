/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text table of a report's phases (text_table.c), for text.c. */
#ifndef RTJ_TEXT_TABLE_H
#define RTJ_TEXT_TABLE_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

/* One row per phase, fitted to o->width: the columns a musician reads first (|jitter| p99 and max in µs and in
 * % of the period, deadlines met, xruns, wakeup), then as many more as fit; every column with o->wide. The
 * load's own figures go under its row, one per line. o is not NULL. */
void text_phase_table(FILE *f, const json_t *doc, const struct render_opts *o);

#endif
