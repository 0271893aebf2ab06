/* The table of renderers, and rendering into a file through the one document writer. */
#include "render/render.h"
#include "render/compare_text.h"
#include "render/html.h"
#include "render/text.h"
#include "report/doc.h"
#include <errno.h>
#include <string.h>

static int text_report(FILE *f, const json_t *doc)
{
    report_print_text(f, doc);
    return 0;
}

static int text_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n)
{
    (void)docs;
    (void)n;
    compare_print_text(f, cmp);
    return 0;
}

static int html_report_page(FILE *f, const json_t *doc)
{
    html_report(f, doc);
    return 0;
}

static int html_compare_page(FILE *f, const json_t *cmp, json_t *const *docs, size_t n)
{
    html_compare(f, cmp, docs, n);
    return 0;
}

static int json_report(FILE *f, const json_t *doc)
{
    return doc_json_body(f, (void *)doc);
}

static int json_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n)
{
    (void)docs;
    (void)n;
    return doc_json_body(f, (void *)cmp);
}

const struct renderer renderers[] = {
    { .name = "text", .ext = "txt", .summary = "the verdict, the system identity and an interbench-style table",
      .report = text_report, .compare = text_compare },
    { .name = "html", .ext = "html", .summary = "one self-contained page with SVG plots (no script, no network)",
      .report = html_report_page, .compare = html_compare_page },
    { .name = "json", .ext = "json", .summary = "the document itself (rtjitter.report/1 or rtjitter.compare/1)",
      .report = json_report, .compare = json_compare },
    { .name = NULL },
};

const struct renderer *renderer_find(const char *name)
{
    for (const struct renderer *r = renderers; name && r->name; r++)
        if (!strcmp(r->name, name))
            return r;
    return NULL;
}

const char *const *renderer_names(void)
{
    /* Filled from the table on first use; main thread only. */
    static const char *names[sizeof(renderers) / sizeof(renderers[0])];
    if (!names[0])
        for (size_t i = 0; renderers[i].name; i++)
            names[i] = renderers[i].name;
    return names;
}

struct report_job {
    const struct renderer *r;
    const json_t *doc;
};

static int report_body(FILE *f, void *arg)
{
    const struct report_job *j = arg;
    return j->r->report(f, j->doc);
}

int render_report_file(const struct renderer *r, const char *path, const json_t *doc)
{
    if (!r || !r->report)
        return -ENOTSUP;
    struct report_job j = { r, doc };
    return doc_write(path, DOC_REPLACE, report_body, &j);
}

struct compare_job {
    const struct renderer *r;
    const json_t *cmp;
    json_t *const *docs;
    size_t n;
};

static int compare_body(FILE *f, void *arg)
{
    const struct compare_job *j = arg;
    return j->r->compare(f, j->cmp, j->docs, j->n);
}

int render_compare_file(const struct renderer *r, const char *path, const json_t *cmp, json_t *const *docs,
                        size_t n)
{
    if (!r || !r->compare)
        return -ENOTSUP;
    struct compare_job j = { r, cmp, docs, n };
    return doc_write(path, DOC_REPLACE, compare_body, &j);
}
