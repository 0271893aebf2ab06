/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plain-text layout shared by the text renderers (text.c, text_table.c, compare_text.c): display width,
 * padding, word wrapping, and the ASCII spellings of µ, ± and → for a reader whose locale is not UTF-8. */
#ifndef RTJ_TEXTFMT_H
#define RTJ_TEXTFMT_H
#include <stddef.h>
#include <stdio.h>
#include "render/render_opts.h"

/* Display width of UTF-8 text: one column per code point (µ, ±, → are one column wide). */
int tx_width(const char *s);
/* s in a cell of width columns, right-aligned when right, else left-aligned; never cut. */
void tx_cell(FILE *f, const char *s, int width, int right);
/* text wrapped at width columns: the first line after `first`, the others indented by indent spaces. A word
 * longer than a line (a path) is printed whole on a line of its own. */
void tx_wrap(FILE *f, const char *first, int indent, int width, const char *text);
/* s as the reader of o sees it, malloc'd: with o->ascii, µ is u, ± is +/-, → is ->, ≥ is >=, and so on.
 * NULL when s is NULL or out of memory. */
char *tx_dup(const struct render_opts *o, const char *s);
/* The spellings of the units in o's text: "µs" or "us", "±" or "+/-". */
const char *tx_us(const struct render_opts *o);
const char *tx_pm(const struct render_opts *o);

#endif
