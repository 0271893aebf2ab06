/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep document ("rtjitter.sweep/1", src/run/sweep.h) as text (sweep_text.c) and as a self-contained HTML
 * page (sweep_html.c), rendered from the document alone. */
#ifndef RTJ_SWEEP_RENDER_H
#define RTJ_SWEEP_RENDER_H
#include "render/render_opts.h"
#include <jansson.h>
#include <stdio.h>

/* The grid (buffer size x load) per rate, the smallest safe size per load and under every load, and what each
 * measured cell proves. 0 or -errno. */
int text_sweep_print(FILE *f, const json_t *doc, const struct render_opts *o);
/* A doc_write() body: arg is the sweep document (json_t *). */
int html_sweep_body(FILE *f, void *arg);

/* Shared by both forms: the cell of doc at (rate, frames, load), or NULL. */
const json_t *text_sweep_doc_cell(const json_t *doc, double rate, double frames, const char *load);
/* A cell's short word for the grid: "SAFE", "unsafe", "(safe)", "(unsafe)", "-", "?" */
const char *text_sweep_cell_word(const json_t *cell);

#endif
