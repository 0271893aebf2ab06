/* libFuzzer target (`make fuzz`): the report reader on arbitrary bytes, then every renderer on whatever it
 * accepts (text, HTML, compare of the document with itself, text and HTML of that), all to /dev/null.
 * A crash, a sanitizer report or a leak is a bug; libFuzzer saves its input in tests/fuzz-regressions/, where
 * `make check` replays it from then on (tests/unit/test_reader.c). */
#include <stdint.h>
#include <stdio.h>
#include "compare.h"
#include "html.h"
#include "report.h"
#include "report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    char err[512];
    json_t *doc;
    if (report_read_buffer((const char *)data, size, &doc, err, sizeof(err)) < 0)
        return 0;
    report_print_text(sink, doc);
    html_report(sink, doc);
    json_t *docs[2] = { doc, doc };
    const char *names[2] = { "a.json", "b.json" };
    json_t *cmp = compare_build(docs, names, 2);
    if (cmp) {
        compare_print_text(sink, cmp);
        html_compare(sink, cmp, docs, 2);
        json_decref(cmp);
    }
    json_decref(doc);
    return 0;
}
