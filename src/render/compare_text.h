/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text of `rtjitter compare`. */
#ifndef RTJ_COMPARE_TEXT_H
#define RTJ_COMPARE_TEXT_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

/* A comparison document from compare_build(): identity differences, one table per load, verdicts; laid out
 * for o (NULL: the defaults of render.h). Tables wider than o->width are cut into blocks of reports. */
void compare_print_text_opts(FILE *f, const json_t *cmp, const struct render_opts *o);
/* The same with the options render_opts_detect() finds for f. */
void compare_print_text(FILE *f, const json_t *cmp);

#endif
