/* Where a finished run's report goes: the store, --json FILE and --html FILE. */
#include "run/run_output.h"
#include "render/html.h"
#include "report/store.h"
#include "sysinfo/sysinfo.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
    if (o->json) {
        unlink(o->json); /* --json FILE is the user's own name: replace it */
        e = store_write_json(doc, o->json);
        if (e < 0) {
            fprintf(stderr, "rtjitter run: cannot write %s: %s\n", o->json, strerror(-e));
            if (!first)
                first = e;
        }
    }
    if (o->html && (e = html_report_file(o->html, doc)) < 0) {
        fprintf(stderr, "rtjitter run: cannot write %s: %s\n", o->html, strerror(-e));
        if (!first)
            first = e;
    }
    return first;
}
