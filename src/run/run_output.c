/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a finished run's report goes: the store, --json FILE and --html FILE. The store never replaces a
 * report (store_save); --json and --html are the user's own names, replaced whole or not at all (doc_write):
 * the old file is never removed before the new one is safely written. */
#include "run/run_output.h"
#include "run/run.h"
#include "render/render.h"
#include "report/doc.h"
#include "report/store.h"
#include "sysinfo/sysinfo.h"
#include "util/replace.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

int run_check_outputs(const struct run_outputs *o)
{
    char rel[256], dir[4608];
    sysinfo_release("", rel, sizeof(rel));
    int e = store_check(o->store, rel, dir, sizeof(dir));
    if (e < 0) {
        if (e == -ENOENT && !o->store)
            run_err("no report store: neither XDG_DATA_HOME nor HOME is set (give --output "
                            "DIR)\n");
        else
            run_err("%s: the report store cannot be written: %s\n",
                    o->store ? o->store : "the report store", doc_strerror(e));
        return e;
    }
    const struct { const char *opt, *path; } files[] = { { "--json", o->json }, { "--html", o->html },
                                                         { "--junit", o->junit } };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        if (files[i].path && (e = doc_check(files[i].path, DOC_REPLACE)) < 0) {
            char why[240];
            if (e == -EPERM && replace_allowed_path(files[i].path, why, sizeof(why)) == -EPERM) {
                run_err("%s %s: cannot be replaced: %s\n", files[i].opt, files[i].path, why);
                return e;
            }
            run_err("%s %s: cannot be written: %s\n", files[i].opt, files[i].path,
                    doc_strerror(e));
            return e;
        }
    }
    char why[240];
    if (o->record && replace_allowed_path(o->record, why, sizeof(why)) == -EPERM) {
        run_err("--record %s: cannot be replaced: %s\n", o->record, why);
        return -EPERM;
    }
    return 0;
}

int run_write_outputs(const json_t *doc, const struct run_outputs *o)
{
    int first = 0, e;
    char rel[256], path[4608];
    sysinfo_release("", rel, sizeof(rel));
    e = store_save(doc, o->store, rel, o->label, o->started, path, sizeof(path));
    if (o->saved_path && o->saved_path_len > 0)
        snprintf(o->saved_path, o->saved_path_len, "%s", e < 0 ? "" : path);
    if (o->stored_path && o->stored_path_len > 0)
        snprintf(o->stored_path, o->stored_path_len, "%s", e < 0 ? "" : path);
    if (e < 0) {
        run_err("cannot save the report in the store: %s\n", strerror(-e));
        first = e;
    } else if (!o->saved_path) {
        printf("%sreport: %s\n", o->tap ? "# " : "", path);
    }
    const struct { const char *form, *path; } files[] = { { "json", o->json }, { "html", o->html },
                                                          { "junit", o->junit } };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        if (!files[i].path)
            continue;
        e = render_report_file(renderer_find(files[i].form), files[i].path, doc);
        if (e < 0) {
            run_err("cannot write %s: %s\n", files[i].path, doc_strerror(e));
            if (!first)
                first = e;
        }
    }
    if (first) {
        /* The measurement must not be lost: the whole report goes to stderr, for the user to keep. */
        run_err("the report follows, since it could not be saved:\n");
        doc_json_body(stderr, (void *)doc);
    }
    return first;
}
