/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/render/: every form a document is shown in (text, HTML with SVG plots, JSON), rendered from the JSON
 * document alone, a report or a comparison, never from a run's memory. A file here may include report/ (the
 * documents, their accessors, a report's figures and doc_write), util/, jansson, culprit/culprit.h (the one table of
 * culprit kinds: the words of the JSON's kind tokens) and verdict/verdict_order.h (how many advice lines a verdict
 * shows, a number the verdict keeps); never compare/ (a comparison is a document: its
 * JSON is read like a report's), cli/, run/ or rtaudio/.
 *
 * The forms are one const table, renderers[] in render.c: `rtjitter report --format`, `--html`, `--text`,
 * `rtjitter compare --format`, `--html`, `--json` and `compare --matrix` all go through it, and so do a sweep
 * document (the .sweep slot) and the choices of --format (--help, the man page, the bash completion). A new form
 * is one new file and one entry there: the file defines `const struct renderer render_form_NAME` (below), and
 * RENDER_FORMS in render.c names NAME once. Nothing else names the forms: what a command accepts and its messages
 * about it come from the slots a form fills (renderer_names_with()).
 *
 * The layout options every form takes are render_opts.h's; what every form says the same way (the buffer setting)
 * is setting.h's: both sit below the table and the forms, so that render.c includes no form and no form needs
 * render.c but for this struct. */
#ifndef RTJ_RENDER_H
#define RTJ_RENDER_H
#include "render/render_opts.h"
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

struct renderer {
    const char *name;      /* for --format: "text", "html", "json" */
    const char *ext;       /* the usual file name extension, without the dot */
    const char *summary;   /* one line for --help */
    /* A report document (validated, or freshly built) into f. 0 or -errno (f's own errors are the caller's
     * to see). NULL when this form has no report. */
    int (*report)(FILE *f, const json_t *doc, const struct render_opts *o);
    /* A comparison document from compare_build(), with the n reports it was built from. 0 or -errno. NULL when
     * this form has no comparison. */
    int (*compare)(FILE *f, const json_t *cmp, json_t *const *docs, size_t n, const struct render_opts *o);
    /* A sweep document ("rtjitter.sweep/1", validated by sweep_read.c, or freshly built by `rtjitter sweep`).
     * 0 or -errno. NULL when this form has no sweep (the packaging forms judge a run's phases). */
    int (*sweep)(FILE *f, const json_t *doc, const struct render_opts *o);
    /* A fleet's matrix ("rtjitter.matrix/1", compare_matrix_build(), `rtjitter compare --matrix`). 0 or -errno.
     * NULL when this form has no matrix. */
    int (*matrix)(FILE *f, const json_t *m, const struct render_opts *o);
};

/* What a form may render, for renderer_has() and renderer_names_with(). */
enum render_slot { RENDER_REPORT, RENDER_COMPARE, RENDER_SWEEP, RENDER_MATRIX };
/* Whether r renders that kind of document. */
int renderer_has(const struct renderer *r, enum render_slot slot);
/* The names of the forms that render slot, in the table's order, as words: "text, html or json". Into buf
 * (always terminated); returns buf. */
char *renderer_names_with(char *buf, size_t len, enum render_slot slot);

/* Every form, in the order --format lists them; ends with NULL. */
extern const struct renderer *const renderers[];

/* The entry named name, or NULL. */
const struct renderer *renderer_find(const char *name);
/* The names, NULL-terminated (an option's list of choices): renderer_name_list, made from RENDER_FORMS with the
 * table, in its order. An option table points its choices at renderer_name_list. */
const char *const *renderer_names(void);
extern const char *renderer_name_list[];

/* r's rendering into path, which is replaced whole or not at all (doc_write, DOC_REPLACE), with the default
 * options (a file is UTF-8 and has no terminal width). 0 or -errno; -ENOTSUP when r has no such rendering. */
int render_report_file(const struct renderer *r, const char *path, const json_t *doc);
int render_sweep_file(const struct renderer *r, const char *path, const json_t *doc);
int render_compare_file(const struct renderer *r, const char *path, const json_t *cmp, json_t *const *docs,
                        size_t n);
int render_matrix_file(const struct renderer *r, const char *path, const json_t *m);

#endif
