/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target (`make fuzz`, the second): the importers (report/import_cyclictest.c, import_oslat.c,
 * import_jitterdebugger.c, which share cyclictest's core) on arbitrary bytes, each in turn, as `rtjitter import
 * cyclictest|oslat FILE` and `import jitterdebugger DIR` read a file; what one accepts is checked again by the
 * report reader (it must read back what it made) and rendered by every form of the table, to /dev/null. The
 * importers count the file's name-value pairs before they parse (IMPORT_MAX_PAIRS), so no input may take more than
 * the limit's memory: -rss_limit_mb in the Makefile holds it to that.
 * A crash, a sanitizer report, a leak or an input over the memory limit is a bug; libFuzzer saves it in
 * tests/fuzz-regressions/ as import-*, where `make check` replays it from then on (tests/unit/test_import.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/render.h"
#include "report/import_cyclictest.h"
#include "report/import_tools.h"
#include "report/report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What an importer made is a report: the reader takes it back (a refusal is a bug of the importer); every form
 * renders it. */
static void check_doc(json_t *doc, size_t size, FILE *sink)
{
    char err[512];
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
}

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
    for (int tool = 0; tool < 3; tool++) {
        json_t *doc = tool == 0   ? import_cyclictest(text, size, &info, release, sizeof(release), &when, err,
                                                      sizeof(err))
                      : tool == 1 ? import_oslat(text, size, &info, release, sizeof(release), &when, err, sizeof(err))
                                  : import_jitterdebugger(text, size, (size & 4) ? "BOOT_IMAGE=/vmlinuz quiet\n" : NULL,
                                                          &info, release, sizeof(release), &when, err, sizeof(err));
        if (!doc)
            continue;
        check_doc(doc, size, sink);
        json_decref(doc);
    }
    free(text);
    return 0;
}
