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
/* The same in words for a page's table: "safe", "unsafe", "safe (inferred)", "unsafe (inferred)", "not measured",
 * "not reached" (never the document's own tokens). */
const char *text_sweep_cell_words(const json_t *cell);
/* The answer of one rate (an entry of "smallest_safe"), the sweep's first words: the smallest size safe under every
 * load, or with none the next size to try (twice the largest tried, up to 8192 frames) and the command; into buf. */
const char *text_sweep_answer(const json_t *doc, const json_t *ans, char *buf, size_t len);

#endif
