/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text of a report: the verdict in plain words, the system identity, the interbench-style table. */
#ifndef RTJ_TEXT_H
#define RTJ_TEXT_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

/* A report document (validated, or freshly built), laid out for o (NULL: the defaults, render.h). */
void text_print_report_opts(FILE *f, const json_t *doc, const struct render_opts *o);
/* The same with the options render_opts_detect() finds for f (its terminal's width, the locale). */
void text_print_report(FILE *f, const json_t *doc);

#endif
