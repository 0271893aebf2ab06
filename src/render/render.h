/* src/render/: every form a document is shown in (text, HTML with SVG plots, JSON), rendered from the JSON
 * document alone, a report or a comparison, never from a run's memory. A file here may include report/ (the
 * documents, their accessors and doc_write), util/ and jansson; never cli/, run/ or rtaudio/.
 *
 * The forms are one const table, renderers[] in render.c: `rtjitter report --format`, `--html`, `--text` and
 * `rtjitter compare --format`, `--html`, `--json` all go through it, so a new form (JUnit, TAP) is one new file
 * and one entry there. */
#ifndef RTJ_RENDER_H
#define RTJ_RENDER_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

struct renderer {
    const char *name;      /* for --format: "text", "html", "json" */
    const char *ext;       /* the usual file name extension, without the dot */
    const char *summary;   /* one line for --help */
    /* A report document (validated, or freshly built) into f. 0 or -errno (f's own errors are the caller's
     * to see). NULL when this form has no report. */
    int (*report)(FILE *f, const json_t *doc);
    /* A comparison document from compare_build(), with the n reports it was built from. 0 or -errno. NULL when
     * this form has no comparison. */
    int (*compare)(FILE *f, const json_t *cmp, json_t *const *docs, size_t n);
};

/* Ends with an entry whose name is NULL. */
extern const struct renderer renderers[];

/* The entry named name, or NULL. */
const struct renderer *renderer_find(const char *name);
/* The names, NULL-terminated (an option's list of choices). */
const char *const *renderer_names(void);

/* r's rendering into path, which is replaced whole or not at all (doc_write, DOC_REPLACE). 0 or -errno;
 * -ENOTSUP when r has no such rendering. */
int render_report_file(const struct renderer *r, const char *path, const json_t *doc);
int render_compare_file(const struct renderer *r, const char *path, const json_t *cmp, json_t *const *docs,
                        size_t n);

#endif
