/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of renderers, and rendering into a file through the one document writer. */
#include "render/render.h"
#include "report/access.h"
#include <math.h>
#include "render/compare_text.h"
#include "render/html.h"
#include "render/pkgtest.h"
#include "render/sweep_render.h"
#include "render/text.h"
#include "report/doc.h"
#include "util/wrap.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Does the locale's name say UTF-8? The first of LC_ALL, LC_CTYPE, LANG that is set decides (POSIX order). */
static int locale_utf8(void)
{
    static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        char low[128];
        size_t k = 0;
        for (; v[k] && k + 1 < sizeof(low); k++)
            low[k] = (char)tolower((unsigned char)v[k]);
        low[k] = '\0';
        return strstr(low, "utf-8") || strstr(low, "utf8");
    }
    return 0; /* the C locale: ASCII */
}

void render_opts_detect(struct render_opts *o, FILE *f)
{
    memset(o, 0, sizeof(*o));
    o->width = wrap_width(f);
    o->ascii = !locale_utf8();
}

struct render_opts render_opts_or_default(const struct render_opts *o)
{
    struct render_opts r = { .width = RENDER_DEFAULT_WIDTH };
    if (o)
        r = *o;
    if (r.width <= 0)
        r.width = RENDER_DEFAULT_WIDTH;
    if (r.width < RENDER_MIN_WIDTH)
        r.width = RENDER_MIN_WIDTH;
    if (r.width > 1000)
        r.width = 1000;
    return r;
}

static int text_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    report_print_text_opts(f, doc, o);
    return 0;
}

static int text_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n, const struct render_opts *o)
{
    (void)docs;
    (void)n;
    compare_print_text_opts(f, cmp, o);
    return 0;
}

static int html_report_page(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    html_report(f, doc);
    return 0;
}

static int html_compare_page(FILE *f, const json_t *cmp, json_t *const *docs, size_t n,
                             const struct render_opts *o)
{
    (void)o;
    html_compare(f, cmp, docs, n);
    return 0;
}

static int json_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return doc_json_body(f, (void *)doc);
}

static int json_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n, const struct render_opts *o)
{
    (void)docs;
    (void)n;
    (void)o;
    return doc_json_body(f, (void *)cmp);
}

static int junit_form(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return junit_report(f, doc);
}

static int tap_form(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return tap_report(f, doc);
}

static int lava_form(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return lava_report(f, doc);
}

static int kcidb_form(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return kcidb_report(f, doc);
}

static int text_sweep(FILE *f, const json_t *doc, const struct render_opts *o)
{
    return sweep_print_text(f, doc, o);
}

static int html_sweep(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return sweep_html_body(f, (void *)doc);
}

const struct renderer renderers[] = {
    { .name = "text", .ext = "txt", .summary = "the verdict, the system identity and an interbench-style table",
      .report = text_report, .compare = text_compare, .sweep = text_sweep },
    { .name = "html", .ext = "html", .summary = "one self-contained page with SVG plots (no script, no network)",
      .report = html_report_page, .compare = html_compare_page, .sweep = html_sweep },
    { .name = "json", .ext = "json", .summary = "the document itself (rtjitter.report/1, rtjitter.compare/1 or "
      "rtjitter.sweep/1)", .report = json_report, .compare = json_compare, .sweep = json_report },
    /* The packaging-test forms: the thresholds per phase, for test harnesses and fleets (no comparison). */
    { .name = "junit", .ext = "xml", .summary = "JUnit XML: a test case per phase and threshold",
      .report = junit_form },
    { .name = "tap", .ext = "tap", .summary = "TAP version 13: a test point per phase and threshold",
      .report = tap_form },
    { .name = "lava", .ext = "sh", .summary = "lava-test-case lines for a LAVA job, per phase and metric",
      .report = lava_form },
    { .name = "kcidb", .ext = "json", .summary = "a KernelCI KCIDB v4 document: a test per phase and threshold",
      .report = kcidb_form },
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
    return j->r->report(f, j->doc, NULL);
}

int render_report_file(const struct renderer *r, const char *path, const json_t *doc)
{
    if (!r || !r->report)
        return -ENOTSUP;
    struct report_job j = { r, doc };
    return doc_write(path, DOC_REPLACE, report_body, &j);
}

struct sweep_job {
    const struct renderer *r;
    const json_t *doc;
};

static int sweep_body(FILE *f, void *arg)
{
    const struct sweep_job *j = arg;
    return j->r->sweep(f, j->doc, NULL);
}

int render_sweep_file(const struct renderer *r, const char *path, const json_t *doc)
{
    if (!r || !r->sweep)
        return -ENOTSUP;
    struct sweep_job j = { r, doc };
    return doc_write(path, DOC_REPLACE, sweep_body, &j);
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
    return j->r->compare(f, j->cmp, j->docs, j->n, NULL);
}

int render_compare_file(const struct renderer *r, const char *path, const json_t *cmp, json_t *const *docs,
                        size_t n)
{
    if (!r || !r->compare)
        return -ENOTSUP;
    struct compare_job j = { r, cmp, docs, n };
    return doc_write(path, DOC_REPLACE, compare_body, &j);
}

char *render_setting(char *buf, size_t len, const json_t *au, int with_ms)
{
    double fr = doc_num(au, "period_frames"), rate = doc_num(au, "rate"), us = doc_num(au, "period_us");
    if (len == 0)
        return buf;
    if (isfinite(fr) && isfinite(rate)) {
        int n = snprintf(buf, len, "%.0f frames @ %.0f Hz", fr, rate);
        if (with_ms && isfinite(us) && n > 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, " = %.3f ms", us / 1000.0);
    } else if (isfinite(us)) {
        snprintf(buf, len, "%.3f ms interval", us / 1000.0);
    } else {
        snprintf(buf, len, "?");
    }
    return buf;
}

char *render_dsp_share(char *buf, size_t len, const json_t *doc)
{
    const json_t *au = json_object_get(doc, "audio");
    if (len == 0)
        return buf;
    buf[0] = '\0';
    if (!(doc_num(au, "dsp_pct") > 0))
        return buf;
    int n = snprintf(buf, len, "%.0f %% of each period burnt in the callback", doc_num(au, "dsp_pct"));
    size_t i;
    const json_t *p;
    int any = 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *sh = json_object_get(p, "dsp_share");
        if (n < 0 || (size_t)n >= len || !json_is_number(json_object_get(sh, "measured_pct")))
            continue;
        n += snprintf(buf + n, len - (size_t)n, "%s%.40s %.1f %%", any ? ", " : "; measured (the RT thread's CPU "
                      "time): ", doc_str(p, "load", "?"), doc_num(sh, "measured_pct"));
        any = 1;
    }
    return buf;
}
