/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/render/: every form a document is shown in (text, HTML with SVG plots, JSON), rendered from the JSON
 * document alone, a report or a comparison, never from a run's memory. A file here may include report/ (the
 * documents, their accessors and doc_write), util/ and jansson; never cli/, run/ or rtaudio/.
 *
 * The forms are one const table, renderers[] in render.c: `rtjitter report --format`, `--html`, `--text` and
 * `rtjitter compare --format`, `--html`, `--json` all go through it, so a new form (JUnit, TAP) is one new file
 * and one entry there. A sweep document goes through the same table (its .sweep form). */
#ifndef RTJ_RENDER_H
#define RTJ_RENDER_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* How a form is laid out for its reader. Only the text form reads it today; every renderer takes it, so that a
 * form can grow options without a change of the table. NULL means the defaults: 80 columns, UTF-8, the
 * columns a musician needs first. */
struct render_opts {
    int width;   /* columns the text must fit (40 at least); 0: RENDER_DEFAULT_WIDTH */
    int wide;    /* every column and row, whatever the width (--wide) */
    int ascii;   /* the reader cannot show UTF-8: "us" for µs, "+/-" for ±, "->" for → */
};
#define RENDER_DEFAULT_WIDTH 80
#define RENDER_MIN_WIDTH 40

/* The options for text going to f: wrap_width(f) (util/wrap.h: the width of f's terminal, else $COLUMNS, else
 * 80); ascii when the locale (LC_ALL, else LC_CTYPE, else LANG) is not UTF-8. Not wide. */
void render_opts_detect(struct render_opts *o, FILE *f);
/* o, or the defaults when o is NULL, with width clamped to RENDER_MIN_WIDTH..1000. */
struct render_opts render_opts_or_default(const struct render_opts *o);

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
};

/* The buffer setting an "audio" object (or a compare report entry) names, for every form: "64 frames @ 48000 Hz",
 * with " = 1.333 ms" when with_ms and the period is known; an import without frames (cyclictest) gives
 * "1.000 ms interval". Into buf (always terminated); returns buf. */
char *render_setting(char *buf, size_t len, const json_t *au, int with_ms);
/* A fixed --dsp PCT in words, with what each phase's RT thread really used (phases[].dsp_share.measured_pct, its CPU
 * time over the cycles x the period): "50 % of each period burnt in the callback; measured (the RT thread's CPU
 * time): none 50.4 %, burn 51.0 %". Empty when the run asked for no fixed share. */
char *render_dsp_share(char *buf, size_t len, const json_t *doc);

/* Ends with an entry whose name is NULL. */
extern const struct renderer renderers[];

/* The entry named name, or NULL. */
const struct renderer *renderer_find(const char *name);
/* The names, NULL-terminated (an option's list of choices). */
const char *const *renderer_names(void);

/* r's rendering into path, which is replaced whole or not at all (doc_write, DOC_REPLACE), with the default
 * options (a file is UTF-8 and has no terminal width). 0 or -errno; -ENOTSUP when r has no such rendering. */
int render_report_file(const struct renderer *r, const char *path, const json_t *doc);
int render_sweep_file(const struct renderer *r, const char *path, const json_t *doc);
int render_compare_file(const struct renderer *r, const char *path, const json_t *cmp, json_t *const *docs,
                        size_t n);

#endif
