/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of forms, and rendering into a file through the one document writer. The forms themselves are their
 * files' (render_form_NAME); this file includes none of them. */
#include "render/render.h"
#include "report/doc.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The forms, in the order --format lists them (--help, the man page, the bash completion): one entry NAME each,
 * for the `const struct renderer render_form_NAME` its own file defines (text.c, html_report.c, json.c, and the
 * packaging-test forms for test harnesses and fleets: junit.c, tap.c, lava.c, kcidb.c). */
#define RENDER_FORMS(X) X(text) X(html) X(json) X(junit) X(tap) X(lava) X(kcidb)

#define RENDER_DECLARE(n) extern const struct renderer render_form_##n;
RENDER_FORMS(RENDER_DECLARE)
#define RENDER_ENTRY(n) &render_form_##n,
const struct renderer *const renderers[] = { RENDER_FORMS(RENDER_ENTRY) NULL };
/* A form's name is its name in RENDER_FORMS (test_registry holds every form to its place here). */
#define RENDER_NAME(n) #n,
const char *renderer_name_list[] = { RENDER_FORMS(RENDER_NAME) NULL };

const struct renderer *renderer_find(const char *name)
{
    for (size_t i = 0; name && renderers[i]; i++)
        if (!strcmp(renderers[i]->name, name))
            return renderers[i];
    return NULL;
}

const char *const *renderer_names(void)
{
    return renderer_name_list;
}

int renderer_has(const struct renderer *r, enum render_slot slot)
{
    if (!r)
        return 0;
    switch (slot) {
    case RENDER_REPORT: return r->report != NULL;
    case RENDER_COMPARE: return r->compare != NULL;
    case RENDER_SWEEP: return r->sweep != NULL;
    case RENDER_MATRIX: return r->matrix != NULL;
    }
    return 0;
}

char *renderer_names_with(char *buf, size_t len, enum render_slot slot)
{
    size_t n = 0, k = 0, o = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; renderers[i]; i++)
        n += (size_t)renderer_has(renderers[i], slot);
    for (size_t i = 0; renderers[i] && o < len; i++) {
        if (!renderer_has(renderers[i], slot))
            continue;
        int w = snprintf(buf + o, len - o, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", renderers[i]->name);
        if (w < 0)
            break;
        o += (size_t)w;
        k++;
    }
    return buf;
}

/* One rendering, for doc_write: the slot's function of r on the documents. */
struct render_job {
    const struct renderer *r;
    enum render_slot slot;
    const json_t *doc;
    json_t *const *docs;
    size_t n;
};

static int job_body(FILE *f, void *arg)
{
    const struct render_job *j = arg;
    switch (j->slot) {
    case RENDER_REPORT: return j->r->report(f, j->doc, NULL);
    case RENDER_COMPARE: return j->r->compare(f, j->doc, j->docs, j->n, NULL);
    case RENDER_SWEEP: return j->r->sweep(f, j->doc, NULL);
    case RENDER_MATRIX: return j->r->matrix(f, j->doc, NULL);
    }
    return -EINVAL;
}

static int render_file(const struct render_job *j, const char *path)
{
    if (!renderer_has(j->r, j->slot))
        return -ENOTSUP;
    return doc_write(path, DOC_REPLACE, job_body, (void *)j);
}

int render_report_file(const struct renderer *r, const char *path, const json_t *doc)
{
    return render_file(&(struct render_job){ .r = r, .slot = RENDER_REPORT, .doc = doc }, path);
}

int render_sweep_file(const struct renderer *r, const char *path, const json_t *doc)
{
    return render_file(&(struct render_job){ .r = r, .slot = RENDER_SWEEP, .doc = doc }, path);
}

int render_compare_file(const struct renderer *r, const char *path, const json_t *cmp, json_t *const *docs,
                        size_t n)
{
    return render_file(&(struct render_job){ .r = r, .slot = RENDER_COMPARE, .doc = cmp, .docs = docs, .n = n },
                       path);
}

int render_matrix_file(const struct renderer *r, const char *path, const json_t *m)
{
    return render_file(&(struct render_job){ .r = r, .slot = RENDER_MATRIX, .doc = m }, path);
}
