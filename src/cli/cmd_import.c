/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter import cyclictest|oslat FILE.json`, `rtjitter import jitterdebugger DIR` [--load NAME] [--label TEXT]
 * [--output DIR] [--json FILE] [--quiet]: another latency tool's results made into a report
 * (src/report/import_cyclictest.c, import_oslat.c, import_jitterdebugger.c) and saved in the store like a run, so
 * that `rtjitter compare` puts it beside runs. The file is read through util/readfile.h (a FIFO, a device or a huge
 * file is refused); a file that is not the tool's ends with one line naming it and exit status 2. */
#include "cli/cmd_import.h"
#include "cli/command.h"
#include "cli/options.h"
#include "report/access.h"
#include "report/doc.h"
#include "util/termtext.h"
#include "report/import_cyclictest.h"
#include "report/import_tools.h"
#include "report/store.h"
#include "util/readfile.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number for the summary, or "-" when unknown (two buffers: one line uses two). */
static const char *fmt(double v)
{
    static char b[32];
    snprintf(b, sizeof(b), isnan(v) ? "-" : "%.1f", v);
    return b;
}

static const char *fmt2(double v)
{
    static char b[32];
    snprintf(b, sizeof(b), isnan(v) ? "-" : "%.1f", v);
    return b;
}

struct import_opts {
    const char *load, *label, *output, *json;
    int quiet;
};

#define O(f) offsetof(struct import_opts, f)
static const struct opt_def import_defs[] = {
    { "load", OPT_STR, O(load), 0, 0, "NAME", "what ran beside the tool, as a load name for compare (default "
      "none)", NULL, 0 },
    { "label", OPT_STR, O(label), 0, 0, "TEXT", "a name for this report, kept in it and in its file name (default "
      "the tool's name)", NULL, 0 },
    { "output", OPT_STR, O(output), 0, 0, "DIR", "report store directory (default $XDG_DATA_HOME/rtjitter/reports)",
      NULL, 0 },
    { "json", OPT_STR, O(json), 0, 0, "FILE", "also write the report to FILE", NULL, 0 },
    { "quiet", OPT_FLAG, O(quiet), 0, 0, "", "print nothing but errors and the report's path", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* What was imported, in one line, and the warnings (the table of `rtjitter report` is made for runs). */
static void summary(FILE *f, const char *file, const json_t *doc)
{
    const json_t *p = json_array_get(json_object_get(doc, "phases"), 0), *w = json_object_get(p, "wakeup_us");
    const json_t *im = json_object_get(doc, "imported");
    const char *ver = doc_str(im, "tool_version", NULL);
    fprintf(f, "imported %s%s%s from %s: %zu thread%s, %.0f samples; latency (us) mean %.1f, p50 %s, p99 %s, "
            "max %.1f\n", doc_str(im, "from", "?"), ver ? " " : "", ver ? ver : "", file,
            json_array_size(json_object_get(json_object_get(doc, "audio"), "threads")),
            json_array_size(json_object_get(json_object_get(doc, "audio"), "threads")) == 1 ? "" : "s",
            doc_num(p, "cycles"), doc_num(w, "mean"), fmt(doc_num(w, "p50")), fmt2(doc_num(w, "p99")),
            doc_num(w, "max"));
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(doc, "warnings"), i, s)
        fprintf(f, "warning: %s\n", json_string_value(s));
}

#define SYNOPSIS "cyclictest|oslat FILE.json | jitterdebugger DIR [--load NAME] [--label TEXT] [--output DIR] " \
                 "[--json FILE] [--quiet]"

const struct cli_command cmd_import_info = {
    .name = "import",
    .fn = cmd_import,
    .summary = "a report from results people already have (cyclictest, oslat, jitterdebugger), for compare",
    .synopsis = SYNOPSIS,
    .description = "Makes an rtjitter report of cyclictest's or oslat's --json output (rt-tests 2.x; cyclictest with\n"
                   "-h for its histogram) or of jitterdebugger's results (its -o DIR: DIR/results.json) and saves it\n"
                   "in the store, so that compare puts it beside runs like any other report.",
    .positional = "FILE.json|DIR",
    .defs = import_defs,
};

int cmd_import(int argc, char **argv, const char *command_line)
{
    struct import_opts o = { 0 };
    const char *pos[2];
    int npos = 0;
    int status;
    if (cli_parse(&cmd_import_info, NULL, &o, argc, argv, pos, 2, &npos, &status))
        return status;
    if (npos != 2) {
        fprintf(stderr, "rtjitter import: what, from which file? (rtjitter import " SYNOPSIS ")\n");
        return 2;
    }
    const char *tool = pos[0];
    if (strcmp(tool, "cyclictest") && strcmp(tool, "oslat") && strcmp(tool, "jitterdebugger")) {
        fprintf(stderr, "rtjitter import: '%s' is not a format rtjitter imports (cyclictest, oslat, jitterdebugger)\n",
                tool);
        return 2;
    }
    /* jitterdebugger: its -o DIR, whose results.json holds the figures and cmdline the kernel's command line */
    char file[4200], cmdline_file[4200];
    int jd = !strcmp(tool, "jitterdebugger");
    snprintf(file, sizeof(file), "%s%s", pos[1], jd ? "/results.json" : "");
    snprintf(cmdline_file, sizeof(cmdline_file), "%s/cmdline", pos[1]);
    char err[512], *buf = NULL, *kcmd = NULL;
    size_t len = 0, klen = 0;
    int e = read_regular_file(file, IMPORT_MAX_BYTES, &buf, &len, err, sizeof(err));
    if (e < 0) {
        fprintf(stderr, "rtjitter import: %s: %s%s\n", file, err,
                jd && e == -ENOTDIR ? " (jitterdebugger: give the DIR of its -o)" : "");
        return 2;
    }
    if (jd && read_regular_file(cmdline_file, 64 * 1024, &kcmd, &klen, err, sizeof(err)) < 0)
        kcmd = NULL; /* optional: the kernel's command line stays unknown */
    struct import_info info = { .source = file, .load = o.load, .label = o.label ? o.label : tool,
                                .command = command_line };
    char release[256];
    struct timespec when;
    json_t *doc = !strcmp(tool, "cyclictest") ? import_cyclictest(buf, len, &info, release, sizeof(release), &when, err,
                                                                  sizeof(err))
                  : !jd ? import_oslat(buf, len, &info, release, sizeof(release), &when, err, sizeof(err))
                        : import_jitterdebugger(buf, len, kcmd, &info, release, sizeof(release), &when, err,
                                                sizeof(err));
    free(buf);
    free(kcmd);
    if (!doc) {
        fprintf(stderr, "rtjitter import: %s: %s\n", file, err);
        return 2;
    }
    int rc = 0;
    char dir[4608], path[4608];
    if ((e = store_check(o.output, release, dir, sizeof(dir))) < 0) {
        fprintf(stderr, "rtjitter import: %s: the report store cannot be written: %s\n",
                o.output ? o.output : "the report store", doc_strerror(e));
        rc = 2;
    } else if (o.json && (e = doc_check(o.json, DOC_REPLACE)) < 0) {
        fprintf(stderr, "rtjitter import: --json %s: cannot be written: %s\n", o.json, doc_strerror(e));
        rc = 2;
    } else {
        json_t *shown = o.quiet ? NULL : term_safe_json(doc); /* the file's strings, visibly (util/termtext.h) */
        if (shown)
            summary(stdout, file, shown);
        json_decref(shown);
        if ((e = store_save(doc, o.output, release, info.label, when, path, sizeof(path))) < 0) {
            fprintf(stderr, "rtjitter import: cannot save the report in the store: %s\n", strerror(-e));
            rc = 3;
        } else {
            printf("report: %s\n", path);
        }
        if (o.json && (e = doc_write_json(o.json, DOC_REPLACE, doc)) < 0) {
            fprintf(stderr, "rtjitter import: cannot write %s: %s\n", o.json, doc_strerror(e));
            rc = 3;
        }
    }
    json_decref(doc);
    return rc;
}
