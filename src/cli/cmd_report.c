/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter report FILE [--html OUT] [--text] [--format NAME]`: a stored report rendered again. It is read
 * through report_read.c, so a bad file ends with one line on stderr and exit status 2; every form comes from
 * the table of renderers (render/render.h). */
#include "cli/cmd_report.h"
#include "cli/command.h"
#include "render/pkgtest.h"
#include "render/render.h"
#include "report/doc.h"
#include "report/report_read.h"
#include "report/store.h"
#include "util/termtext.h"
#include "report/sweep_read.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct report_opts {
    const char *html, *format, *kcidb_origin, *kcidb_git_commit;
    int text, wide;
};

#define O(f) offsetof(struct report_opts, f)
static const struct opt_def report_defs[] = {
    { "html", OPT_STR, O(html), 0, 0, "FILE", "write the report as one self-contained HTML page", NULL, 0 },
    { "text", OPT_FLAG, O(text), 0, 0, "", "print the text table and verdict (the default without --html)", NULL,
      0 },
    { "format", OPT_STR, O(format), 0, 0, "NAME", "print the report in this form (default text)", renderer_name_list,
      0 },
    { "wide", OPT_FLAG, O(wide), 0, 0, "", "text: every column, however wide the terminal (default: the columns "
      "that fit it)", NULL, 0 },
    { "kcidb-origin", OPT_STR, O(kcidb_origin), 0, 0, "NAME", "--format kcidb: the origin of the submitting CI "
      "system, [a-z0-9_]+ (default rtjitter)", NULL, 0 },
    { "kcidb-git-commit", OPT_STR, O(kcidb_git_commit), 0, 0, "HASH", "--format kcidb: the tested kernel's full "
      "git commit hash (40 hex digits), when the lab knows it", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

const struct cli_command cmd_report_info = {
    .name = "report",
    .fn = cmd_report,
    .summary = "render a stored report or sweep again, as text, HTML or JSON",
    .synopsis = "[REPORT.json] [--html FILE] [--text] [--format NAME] [--wide] [--kcidb-origin NAME] "
                "[--kcidb-git-commit HASH]",
    .description = "REPORT.json is a report (rtjitter run) or a sweep (rtjitter sweep: its grid, answer and\n"
                   "cells; text, html and json only). Without it: the newest report in the store (its file is\n"
                   "named on stderr).",
    .positional = "REPORT.json",
    .defs = report_defs,
};

/* A sweep document ("rtjitter.sweep/1"), through the same table: its text, page or JSON; the packaging forms
 * judge a run's phases and have no sweep form. Takes doc. */
static int report_sweep(const char *path, json_t *doc, const struct renderer *out, const struct report_opts *o)
{
    int rc = 0;
    if (out && !renderer_has(out, RENDER_SWEEP)) {
        char forms[256];
        fprintf(stderr, "rtjitter report: %s is a sweep (rtjitter sweep): --format %s has no sweep form; use %s, "
                "or the per-size reports its cells name\n", path, out->name,
                renderer_names_with(forms, sizeof(forms), RENDER_SWEEP));
        json_decref(doc);
        return 2;
    }
    if (out) {
        struct render_opts ro;
        render_opts_detect(&ro, stdout);
        ro.wide = o->wide;
        out->sweep(stdout, doc, &ro);
    }
    if (o->html) {
        int e = render_sweep_file(renderer_find("html"), o->html, doc);
        if (e < 0) {
            fprintf(stderr, "rtjitter report: cannot write %s: %s\n", o->html, doc_strerror(e));
            rc = 2;
        }
    }
    json_decref(doc);
    return rc;
}

int cmd_report(int argc, char **argv, const char *command_line)
{
    (void)command_line;
    struct report_opts o = { 0 };
    const char *pos[1];
    int npos = 0;
    int status;
    if (cli_parse(&cmd_report_info, NULL, &o, argc, argv, pos, 1, &npos, &status))
        return status;
    char newest[4600];
    if (npos == 0) {
        /* the newest report of the store: the run just made, most often */
        int e = store_newest(NULL, newest, sizeof(newest));
        if (e < 0) {
            char dir[4096] = "the store";
            store_dir(NULL, dir, sizeof(dir));
            char shown[4200];
            fprintf(stderr, "rtjitter report: no report in %s (%s); run rtjitter run first, or name a file\n",
                    term_str(shown, sizeof(shown), dir), e == -ENOENT ? "none yet" : strerror(-e));
            return 2;
        }
        char shown[4800];
        fprintf(stderr, "rtjitter report: the newest report in the store: %s\n",
                term_str(shown, sizeof(shown), newest));
        pos[0] = newest;
    }
    if (o.text && o.format && strcmp(o.format, "text")) {
        fprintf(stderr, "rtjitter report: --text and --format %s both say what to print: give one\n", o.format);
        return 2;
    }
    if ((o.kcidb_origin || o.kcidb_git_commit) && (!o.format || strcmp(o.format, "kcidb"))) {
        fprintf(stderr, "rtjitter report: --kcidb-%s is for --format kcidb\n", o.kcidb_origin ? "origin" : "git-commit");
        return 2;
    }
    if (o.kcidb_origin && !kcidb_origin_valid(o.kcidb_origin)) {
        fprintf(stderr, "rtjitter report: --kcidb-origin: '%.40s' is not a KCIDB origin (lower-case letters, digits "
                "and _ only)\n", o.kcidb_origin);
        return 2;
    }
    if (o.kcidb_git_commit && !kcidb_commit_valid(o.kcidb_git_commit)) {
        fprintf(stderr, "rtjitter report: --kcidb-git-commit: '%.48s' is not a full git commit hash (40 lower-case "
                "hex digits)\n", o.kcidb_git_commit);
        return 2;
    }
    /* What goes to stdout: --format's form, text with --text, and text by default unless a file is asked for. */
    const struct renderer *out = renderer_find(o.format ? o.format : o.text || !o.html ? "text" : NULL);
    char err[512];
    json_t *doc;
    int se = sweepdoc_read_file(pos[0], &doc, err, sizeof(err));
    if (se == 0)
        return report_sweep(pos[0], doc, out, &o);
    if (se != -ENOMSG) {
        fprintf(stderr, "rtjitter report: %s: %s\n", pos[0], err);
        return 2;
    }
    if (report_read_file(pos[0], &doc, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter report: %s: %s\n", pos[0], err);
        return 2;
    }
    int rc = 0;
    if (out) {
        struct render_opts ro;
        render_opts_detect(&ro, stdout);
        ro.wide = o.wide;
        ro.kcidb_origin = o.kcidb_origin;
        ro.kcidb_git_commit = o.kcidb_git_commit;
        out->report(stdout, doc, &ro);
    }
    if (o.html) {
        int e = render_report_file(renderer_find("html"), o.html, doc);
        if (e < 0) {
            fprintf(stderr, "rtjitter report: cannot write %s: %s\n", o.html, doc_strerror(e));
            rc = 2;
        }
    }
    json_decref(doc);
    return rc;
}
