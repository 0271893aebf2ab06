/* Where a finished run's report goes: the store, --json FILE and --html FILE. The store never replaces a
 * report (store_save); --json and --html are the user's own names, replaced whole or not at all (doc_write):
 * the old file is never removed before the new one is safely written. */
#include "run/run_output.h"
#include "render/render.h"
#include "report/doc.h"
#include "report/store.h"
#include "sysinfo/sysinfo.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

int run_write_outputs(const json_t *doc, const struct run_outputs *o)
{
    int first = 0, e;
    char rel[256], path[4608];
    sysinfo_release("", rel, sizeof(rel));
    e = store_save(doc, o->store, rel, o->label, o->started, path, sizeof(path));
    if (e < 0) {
        fprintf(stderr, "rtjitter run: cannot save the report in the store: %s\n", strerror(-e));
        first = e;
    } else {
        printf("report: %s\n", path);
    }
    const struct { const char *form, *path; } files[] = { { "json", o->json }, { "html", o->html } };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        if (!files[i].path)
            continue;
        e = render_report_file(renderer_find(files[i].form), files[i].path, doc);
        if (e < 0) {
            fprintf(stderr, "rtjitter run: cannot write %s: %s\n", files[i].path, doc_strerror(e));
            if (!first)
                first = e;
        }
    }
    return first;
}
