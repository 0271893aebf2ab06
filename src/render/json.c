/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON form: the document itself, through the one JSON writer (report/doc.h), whatever the document. */
#include "render/render.h"
#include "report/doc.h"

static int json_doc(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return doc_json_body(f, (void *)doc);
}

static int json_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n, const struct render_opts *o)
{
    (void)docs;
    (void)n;
    return json_doc(f, cmp, o);
}

/* Its entry in the table of forms (render.c). */
const struct renderer render_form_json = {
    .name = "json", .ext = "json", .summary = "the document itself (rtjitter.report/1, rtjitter.compare/1 or "
    "rtjitter.sweep/1)", .report = json_doc, .compare = json_compare, .sweep = json_doc, .matrix = json_doc,
};
