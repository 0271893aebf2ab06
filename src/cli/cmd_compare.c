/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter compare [FILE ...] [--html OUT] [--json OUT] [--format NAME]`: reports side by side. Reports are
 * read through report_read.c, so a bad file ends with one line on stderr and exit status 2; every form comes
 * from the table of renderers (render/render.h). */
#include "cli/cmd_compare.h"
#include "cli/command.h"
#include "render/render.h"
#include "compare/compare.h"
#include "report/doc.h"
#include "util/termtext.h"
#include "report/report_read.h"
#include "report/report_compact.h"
#include "report/store.h"
#include "util/utf8.h"
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct compare_opts {
    const char *html, *json, *store, *format, *label;
    int quiet, wide, last, kernels, matrix, alone;
};

#define O(f) offsetof(struct compare_opts, f)
static const struct opt_def compare_defs[] = {
    { "html", OPT_STR, O(html), 0, 0, "FILE", "write the comparison as one self-contained HTML page", NULL, 0 },
    { "json", OPT_STR, O(json), 0, 0, "FILE", "write the comparison document (rtjitter.compare/1) as JSON", NULL, 0 },
    { "store", OPT_STR, O(store), 0, 0, "DIR", "with no files: the store to read (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL, 0 },
    { "format", OPT_STR, O(format), 0, 0, "NAME", "print the comparison in this form (default text)",
      renderer_name_list, 0 },
    { "last", OPT_INT, O(last), 2, 16, "N", "with no files: the last N set-ups of this machine (default 2: before and "
      "after)", NULL, 0 },
    { "label", OPT_STR, O(label), 0, 0, "L", "with no files: only the runs labelled L (rtjitter run --label L)",
      NULL, 0 },
    { "kernels", OPT_FLAG, O(kernels), 0, 0, "", "with no files: the latest report of each kernel release instead",
      NULL, 0 },
    { "matrix", OPT_FLAG, O(matrix), 0, 0, "", "with no files: every report of the store (a fleet's, from many "
      "machines and kernels) as a kernel x machine table of the headline figures (--format text, json or html)",
      NULL, 0 },
    { "alone", OPT_FLAG, O(alone), 0, 0, "", "judge the reports alone: no other runs of their set-ups from beside "
      "them (a difference is then \"worse/better in this pair\" at most: run-to-run noise unknown)", NULL, 0 },
    { "quiet", OPT_FLAG, O(quiet), 0, 0, "", "no text on stdout (with --html or --json)", NULL, 'q' },
    { "wide", OPT_FLAG, O(wide), 0, 0, "", "text: every row and every report side by side, however wide the "
      "terminal", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

#define COMPARE_MAX 16
/* other runs of a set-up taken as its replicates: the newest this many */
#define COMPARE_REPLICATES_MAX 32

/* A file named on the command line whose name is not UTF-8 cannot be named in the comparison document as it
 * is: refused, so that nothing is compared under a name other than its own. */
static int names_ok(const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!utf8_valid(names[i])) {
            char *shown = utf8_sanitize(names[i]);
            fprintf(stderr, "rtjitter compare: %s: the file name is not valid UTF-8 (rename the file)\n",
                    shown ? shown : "?");
            free(shown);
            return 0;
        }
    return 1;
}

/* One file in the form of the renderer named form, when path is given; 0, or 2 when it could not be written. */
static int output_file(const char *form, const char *path, const json_t *cmp, json_t *const *docs, size_t n)
{
    int e = path ? render_compare_file(renderer_find(form), path, cmp, docs, n) : 0;
    if (e < 0) {
        fprintf(stderr, "rtjitter compare: cannot write %s: %s\n", path, doc_strerror(e));
        return 2;
    }
    return 0;
}

/* One report of the matrix (compare_matrix_read frees it once its cell has the figures), or NULL: left out. */
static json_t *matrix_reader(const char *path, void *arg)
{
    (void)arg;
    char err[512], shown[1024];
    json_t *doc = NULL;
    if (report_read_file(path, &doc, err, sizeof(err)) == 0)
        return doc;
    fprintf(stderr, "rtjitter compare: %s: %s (left out)\n", term_str(shown, sizeof(shown), path), err);
    return NULL;
}

/* --matrix: every report of the store, the latest of each kernel on each machine. */
static int matrix_mode(const struct compare_opts *o)
{
    char store[4096];
    if (store_dir(o->store, store, sizeof(store)) < 0) {
        fprintf(stderr, "rtjitter compare: no report store: set XDG_DATA_HOME or HOME, or give --store DIR\n");
        return 2;
    }
    const struct renderer *out = renderer_find(o->format ? o->format : "text");
    if (!renderer_has(out, RENDER_MATRIX)) {
        char forms[256];
        fprintf(stderr, "rtjitter compare: --matrix is shown as %s, not %s\n",
                renderer_names_with(forms, sizeof(forms), RENDER_MATRIX), o->format);
        return 2;
    }
    char **paths = NULL;
    size_t n = 0;
    int e = compare_all_in_store(store, o->label, &paths, &n), rc = 0;
    if (e < 0 || n == 0) {
        fprintf(stderr, "rtjitter compare: no reports in %s%s%s\n", store, e < 0 ? ": " : "", e < 0 ? strerror(-e) : "");
        rc = 2;
    }
    json_t *m = rc == 0 ? compare_matrix_read((const char *const *)paths, n, matrix_reader, NULL) : NULL;
    if (rc == 0 && !m) {
        fprintf(stderr, "rtjitter compare: out of memory\n");
        rc = 2;
    }
    if (m && !o->quiet) {
        struct render_opts ro;
        render_opts_detect(&ro, stdout);
        ro.wide = o->wide;
        out->matrix(stdout, m, &ro);
    }
    const struct { const char *path, *form; } files[] = { { o->json, "json" }, { o->html, "html" } };
    for (size_t i = 0; m && i < 2; i++)
        if (files[i].path && (e = render_matrix_file(renderer_find(files[i].form), files[i].path, m)) < 0) {
            fprintf(stderr, "rtjitter compare: cannot write %s: %s\n", files[i].path, doc_strerror(e));
            rc = 2;
        }
    json_decref(m);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    return rc;
}

const struct cli_command cmd_compare_info = {
    .name = "compare",
    .fn = cmd_compare,
    .summary = "reports side by side; with no files, before and after on this machine (the store by set-up)",
    .synopsis = "[REPORT.json ...] [--html FILE] [--json FILE] [--format NAME] [--wide]",
    .description = "With no files: before and after on this machine. The store's runs are grouped by set-up (kernel\n"
                   "release, boot command line, preempt mode, governor, threaded IRQs, audio settings); the latest run\n"
                   "of the set-up before is compared with the latest of the set-up now (--last N: the last N set-ups;\n"
                   "one set-up only: its latest runs). --kernels: the latest report of each kernel instead.\n"
                   "A verdict rests on the seconds of the two runs and on the runs of each set-up: the other runs of\n"
                   "a report's set-up (same identity, audio settings and label) found beside it give the run-to-run\n"
                   "noise; without any, a difference of the two runs is \"worse in this pair\" (or better): said first\n"
                   "and counted apart, not yet a call on the set-ups. Xrun events and missed deadlines are tested on\n"
                   "their counts per second. Run each set-up three times.",
    .positional = "REPORT.json",
    .defs = compare_defs,
};

int cmd_compare(int argc, char **argv, const char *command_line)
{
    (void)command_line;
    struct compare_opts o = { 0 };
    const char *pos[COMPARE_MAX + 1];
    int npos = 0;
    int status;
    if (cli_parse(&cmd_compare_info, NULL, &o, argc, argv, pos, COMPARE_MAX + 1, &npos, &status))
        return status;
    if (npos > COMPARE_MAX) {
        fprintf(stderr, "rtjitter compare: at most %d reports side by side\n", COMPARE_MAX);
        return 2;
    }
    if (!names_ok(pos, npos))
        return 2;
    if (o.matrix) {
        if (npos > 0 || o.kernels) {
            fprintf(stderr, "rtjitter compare: --matrix reads the store (--store DIR): no files, no --kernels\n");
            return 2;
        }
        return matrix_mode(&o);
    }
    if (o.format && !renderer_find(o.format)->compare) {
        fprintf(stderr, "rtjitter compare: --format %s is a form of one report (rtjitter report FILE --format %s)\n",
                o.format, o.format);
        return 2;
    }
    char **found = NULL;
    size_t nfound = 0, n = 0;
    const char *names[COMPARE_MAX] = { NULL };
    json_t *docs[COMPARE_MAX];
    int rc = 0;
    if (npos == 0) {
        char store[4096];
        if (store_dir(o.store, store, sizeof(store)) < 0) {
            fprintf(stderr, "rtjitter compare: no report store: set XDG_DATA_HOME or HOME, or name the files\n");
            return 2;
        }
        char why[512] = "";
        int e = o.kernels ? compare_latest_in_store(store, &found, &nfound)
                          : compare_setups_in_store(store, o.last ? o.last : 2, o.label, &found, &nfound, why,
                                                    sizeof(why));
        if (e == -ENOENT && why[0]) {
            fprintf(stderr, "rtjitter compare: %s in %s (run rtjitter run again, or name the files)\n", why, store);
            rc = 2;
            goto out;
        }
        if (e < 0 || nfound == 0) {
            fprintf(stderr, "rtjitter compare: no reports in %s%s%s (run rtjitter run first, or name the files)\n",
                    store, e < 0 ? ": " : "", e < 0 ? strerror(-e) : "");
            rc = 2;
            goto out;
        }
        if (why[0] && !o.quiet)
            fprintf(stderr, "rtjitter compare: %s\n", why);
        if (nfound > COMPARE_MAX) { /* the newest kernels are the interesting ones */
            for (size_t i = 0; i < nfound - COMPARE_MAX; i++)
                free(found[i]);
            memmove(found, found + (nfound - COMPARE_MAX), COMPARE_MAX * sizeof(char *));
            fprintf(stderr, "rtjitter compare: %zu kernel%s in the store; comparing the latest %d\n", nfound,
                    nfound == 1 ? "" : "s",
                    COMPARE_MAX);
            nfound = COMPARE_MAX;
        }
        for (size_t i = 0; i < nfound; i++)
            names[i] = found[i];
        npos = (int)nfound;
    } else {
        for (int i = 0; i < npos; i++)
            names[i] = pos[i];
    }
    for (int i = 0; i < npos; i++) {
        char err[512];
        /* timelines packed: a report of 64 MB is about 60 MB as compare holds it, not 500 (report_compact.h) */
        if (report_read_compact(names[i], REPORT_PACKED, &docs[n], err, sizeof(err)) < 0) {
            char shown[1024]; /* a name from the store's listing is anybody's */
            fprintf(stderr, "rtjitter compare: %s: %s\n", term_str(shown, sizeof(shown), names[i]), err);
            rc = 2;
            goto out;
        }
        n++;
    }
    /* The other runs of each report's set-up beside it (in the store: of its kernel release) tell run-to-run
     * noise: the verdicts rest on them too (compare/compare_runs.h). */
    json_t *reps[COMPARE_MAX] = { NULL };
    char ids[COMPARE_MAX][64];
    const char *idp[COMPARE_MAX];
    for (size_t i = 0; i < n; i++)
        idp[i] = compare_file_id(names[i], ids[i], sizeof(ids[i])) == 0 ? ids[i] : NULL;
    /* one listing of a directory beside several reports, each file in it read at most once */
    if (!o.alone)
        compare_replicates(names, docs, n, COMPARE_REPLICATES_MAX, reps);
    json_t *cmp = compare_build_runs(docs, names, idp, (const json_t *const *)reps, n);
    for (size_t i = 0; i < n; i++)
        json_decref(reps[i]);
    if (!cmp) {
        fprintf(stderr, "rtjitter compare: out of memory\n");
        rc = 2;
        goto out;
    }
    if (!o.quiet) {
        struct render_opts ro;
        render_opts_detect(&ro, stdout);
        ro.wide = o.wide;
        renderer_find(o.format ? o.format : "text")->compare(stdout, cmp, docs, n, &ro);
    }
    rc = output_file("json", o.json, cmp, docs, n) | output_file("html", o.html, cmp, docs, n);
    json_decref(cmp);
out:
    for (size_t i = 0; i < n; i++)
        json_decref(docs[i]);
    for (size_t i = 0; i < nfound; i++)
        free(found[i]);
    free(found);
    return rc;
}
