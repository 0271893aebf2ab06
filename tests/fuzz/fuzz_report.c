/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target (`make fuzz`): the report reader on arbitrary bytes, then every renderer of the table
 * (render/render.c: text, HTML, JSON, and whatever joins them) on whatever it accepts: the report, and the
 * comparison of the document with itself and with a variant whose histograms differ, all to /dev/null; and the
 * sweep reader and every sweep form on a sweep document.
 * A crash, a sanitizer report or a leak is a bug; libFuzzer saves its input in tests/fuzz-regressions/, where
 * `make check` replays it from then on (tests/unit/test_reader.c). */
#include <stdint.h>
#include <stdio.h>
#include "render/render.h"
#include "compare/compare.h"
#include "report/report_read.h"
#include "report/sweep_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The same document with each histogram's counts in reverse bucket order: a second, different distribution on
 * the same edges, so that compare's statistics see two samples that differ. */
static json_t *reversed_counts(const json_t *doc)
{
    json_t *d = json_deep_copy(doc);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(d, "phases"), i, p) {
        const char *k;
        json_t *a;
        json_object_foreach(json_object_get(p, "histograms"), k, a) {
            size_t n = json_array_size(a);
            for (size_t j = 0; j < n / 2; j++) {
                json_t *x = json_array_get(a, j), *y = json_array_get(a, n - 1 - j);
                json_t *cx = json_incref(json_array_get(x, 2));
                json_array_set(x, 2, json_array_get(y, 2));
                json_array_set_new(y, 2, cx);
            }
        }
    }
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    char err[512];
    json_t *doc;
    /* Layouts vary with the input: narrow and wide, UTF-8 and ASCII. */
    struct render_opts ro = { .width = 40 + (int)(size % 161), .wide = (int)(size & 1), .ascii = (int)((size >> 1) & 1) };
    /* A sweep document ("rtjitter.sweep/1"), as `rtjitter report` reads one: validated, then every sweep form. */
    json_t *sw = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (sw && sweepdoc_is_sweep(sw)) {
        if (sweepdoc_validate(sw, err, sizeof(err)) == 0)
            for (const struct renderer *const *rp = renderers, *r = *rp; r; r = *++rp)
                if (r->sweep)
                    r->sweep(sink, sw, &ro);
        json_decref(sw);
        return 0;
    }
    json_decref(sw);
    if (report_read_buffer((const char *)data, size, &doc, err, sizeof(err)) < 0)
        return 0;
    for (const struct renderer *const *rp = renderers, *r = *rp; r; r = *++rp)
        if (r->report)
            r->report(sink, doc, &ro);
    json_t *other = reversed_counts(doc);
    json_t *docs[3] = { doc, other, doc };
    const char *names[3] = { "a.json", "b.json", "c.json" };
    json_t *cmp = compare_build(docs, names, other ? 3 : 1);
    if (cmp) {
        for (const struct renderer *const *rp = renderers, *r = *rp; r; r = *++rp)
            if (r->compare)
                r->compare(sink, cmp, docs, other ? 3 : 1, &ro);
        json_decref(cmp);
    }
    json_decref(other);
    json_decref(doc);
    return 0;
}
