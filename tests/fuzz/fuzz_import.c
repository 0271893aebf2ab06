/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target (`make fuzz`, the second): the cyclictest importer (report/import_cyclictest.c) on arbitrary
 * bytes, as `rtjitter import cyclictest FILE` reads a file; what it accepts is checked again by the report reader
 * (it must read back what it made) and rendered by every form of the table, to /dev/null. The importer counts
 * the file's name-value pairs before it parses (IMPORT_MAX_PAIRS), so no input may take more than the limit's
 * memory: -rss_limit_mb in the Makefile holds it to that.
 * A crash, a sanitizer report, a leak or an input over the memory limit is a bug; libFuzzer saves it in
 * tests/fuzz-regressions/ as import-*, where `make check` replays it from then on (tests/unit/test_import.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/render.h"
#include "report/import_cyclictest.h"
#include "report/report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    const struct import_info info = { "fuzz.json", (size & 1) ? "burn" : NULL, (size & 2) ? "label" : NULL,
                                      "rtjitter import cyclictest fuzz.json" };
    char err[512], release[256];
    struct timespec when;
    /* The file's bytes as read_regular_file() gives them: a NUL after the end. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    json_t *doc = import_cyclictest(text, size, &info, release, sizeof(release), &when, err, sizeof(err));
    free(text);
    if (!doc)
        return 0;
    /* What the importer made is a report: the reader takes it back (a refusal is a bug of the importer). */
    char *dumped = json_dumps(doc, JSON_COMPACT);
    json_t *back = NULL;
    if (dumped && report_read_buffer(dumped, strlen(dumped), &back, err, sizeof(err)) < 0) {
        fprintf(stderr, "the importer made a report its reader refuses: %s\n", err);
        abort();
    }
    free(dumped);
    json_decref(back);
    struct render_opts ro = { .width = 40 + (int)(size % 161), .wide = (int)((size >> 2) & 1),
                              .ascii = (int)((size >> 3) & 1) };
    for (const struct renderer *const *rp = renderers, *r = *rp; r; r = *++rp)
        if (r->report)
            r->report(sink, doc, &ro);
    json_decref(doc);
    return 0;
}
