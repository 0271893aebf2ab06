/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fleet's kernel x machine table (rtjitter.matrix/1, compare/compare.h) as text and as an HTML page; its JSON
 * is the document itself (doc_json_body). */
#ifndef RTJ_MATRIX_H
#define RTJ_MATRIX_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

/* Rows are kernels, columns machines; the machines that do not fit o->width (80 on a terminal) go to further
 * blocks of the same rows. Names too long for their column end in an ellipsis ("..." when o->ascii). */
int matrix_text(FILE *f, const json_t *m, const struct render_opts *o);
int matrix_html(FILE *f, const json_t *m);

#endif
