/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a form is laid out for its reader: the options every renderer takes (render.h's table) and the text forms
 * read. Its own file, below both the table (render.c) and the renderers, so that neither includes the other. */
#ifndef RTJ_RENDER_OPTS_H
#define RTJ_RENDER_OPTS_H
#include <stdio.h>

/* The text forms read the layout, KCIDB its identity; every renderer takes it, so that a form can grow options
 * without a change of the table. NULL means the defaults: 80 columns, UTF-8, the columns a musician needs first,
 * origin "rtjitter", no commit. */
struct render_opts {
    int width;   /* columns the text must fit (40 at least); 0: RENDER_DEFAULT_WIDTH */
    int wide;    /* every column and row, whatever the width (--wide) */
    int ascii;   /* the reader cannot show UTF-8: "us" for µs, "+/-" for ±, "->" for → */
    const char *kcidb_origin;     /* KCIDB: the submitting CI system's origin (NULL: "rtjitter") */
    const char *kcidb_git_commit; /* KCIDB: the tested kernel's full git commit hash, when the lab knows it */
};
#define RENDER_DEFAULT_WIDTH 80
#define RENDER_MIN_WIDTH 40

/* The options for text going to f: wrap_width(f) (util/wrap.h: the width of f's terminal, else $COLUMNS, else
 * 80); ascii when the locale (LC_ALL, else LC_CTYPE, else LANG) is not UTF-8. Not wide. */
void render_opts_detect(struct render_opts *o, FILE *f);
/* o, or the defaults when o is NULL, with width clamped to RENDER_MIN_WIDTH..1000. */
struct render_opts render_opts_or_default(const struct render_opts *o);

#endif
