/* `rtjitter report FILE [--html OUT] [--text]` and `rtjitter compare [FILE ...] [--html OUT] [--json OUT]`.
 * Both read reports through report_read.c, so a bad file ends with one line on stderr and exit status 2. */
#include "cli/cmd_report.h"
#include "report/compare.h"
#include "render/html.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report_read.h"
#include "report/store.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report_opts {
    const char *html;
    int text;
};

#define O(f) offsetof(struct report_opts, f)
static const struct opt_def report_defs[] = {
    { "html", OPT_STR, O(html), 0, 0, "FILE", "write the report as one self-contained HTML page", NULL },
    { "text", OPT_FLAG, O(text), 0, 0, "", "print the text table and verdict (the default without --html)", NULL },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL },
};
#undef O

int cmd_report(int argc, char **argv, const char *command_line)
{
    (void)command_line;
    struct report_opts o = { 0 };
    const char *pos[1];
    int npos = 0;
    int r = opts_parse("report", report_defs, &o, argc, argv, pos, 1, &npos);
    if (r == 1) {
        opts_help(stdout, "report", "REPORT.json [--html FILE] [--text]", report_defs);
        return 0;
    }
    if (r < 0)
        return 2;
    if (npos != 1) {
        fprintf(stderr, "rtjitter report: which report? (rtjitter report REPORT.json [--html FILE] [--text])\n");
        return 2;
    }
    char err[512];
    json_t *doc;
    if (report_read_file(pos[0], &doc, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter report: %s: %s\n", pos[0], err);
        return 2;
    }
    int rc = 0;
    if (o.text || !o.html)
        report_print_text(stdout, doc);
    if (o.html) {
        int e = html_report_file(o.html, doc);
        if (e < 0) {
            fprintf(stderr, "rtjitter report: cannot write %s: %s\n", o.html, strerror(-e));
            rc = 2;
        }
    }
    json_decref(doc);
    return rc;
}

struct compare_opts {
    const char *html, *json, *store;
    int quiet;
};

#define O(f) offsetof(struct compare_opts, f)
static const struct opt_def compare_defs[] = {
    { "html", OPT_STR, O(html), 0, 0, "FILE", "write the comparison as one self-contained HTML page", NULL },
    { "json", OPT_STR, O(json), 0, 0, "FILE", "write the comparison document (rtjitter.compare/1) as JSON", NULL },
    { "store", OPT_STR, O(store), 0, 0, "DIR", "with no files: the store to read (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL },
    { "quiet", OPT_FLAG, O(quiet), 0, 0, "", "no text on stdout (with --html or --json)", NULL },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL },
};
#undef O

#define COMPARE_MAX 16

static int write_json_file(const json_t *doc, const char *path)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp-%d", path, (int)getpid()) >= (int)sizeof(tmp))
        return -ENAMETOOLONG;
    if (json_dump_file(doc, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(8)) < 0) {
        unlink(tmp);
        return -EIO;
    }
    if (rename(tmp, path) < 0) {
        int e = errno;
        unlink(tmp);
        return -e;
    }
    return 0;
}

int cmd_compare(int argc, char **argv, const char *command_line)
{
    (void)command_line;
    struct compare_opts o = { 0 };
    const char *pos[COMPARE_MAX + 1];
    int npos = 0;
    int r = opts_parse("compare", compare_defs, &o, argc, argv, pos, COMPARE_MAX + 1, &npos);
    if (r == 1) {
        opts_help(stdout, "compare", "[REPORT.json ...] [--html FILE] [--json FILE]\n\n"
                  "With no files: the latest report of each kernel in the store, the oldest first (the baseline);\n"
                  "an earlier run of a kernel in the store, when there is one, measures run-to-run noise.",
                  compare_defs);
        return 0;
    }
    if (r < 0)
        return 2;
    if (npos > COMPARE_MAX) {
        fprintf(stderr, "rtjitter compare: at most %d reports side by side\n", COMPARE_MAX);
        return 2;
    }
    char **found = NULL;
    size_t nfound = 0, n = 0;
    const char *names[COMPARE_MAX];
    json_t *docs[COMPARE_MAX];
    int rc = 0;
    if (npos == 0) {
        char store[4096];
        if (store_dir(o.store, store, sizeof(store)) < 0) {
            fprintf(stderr, "rtjitter compare: no report store: set XDG_DATA_HOME or HOME, or name the files\n");
            return 2;
        }
        int e = compare_latest_in_store(store, &found, &nfound);
        if (e < 0 || nfound == 0) {
            fprintf(stderr, "rtjitter compare: no reports in %s%s%s (run rtjitter run first, or name the files)\n",
                    store, e < 0 ? ": " : "", e < 0 ? strerror(-e) : "");
            rc = 2;
            goto out;
        }
        if (nfound > COMPARE_MAX) { /* the newest kernels are the interesting ones */
            for (size_t i = 0; i < nfound - COMPARE_MAX; i++)
                free(found[i]);
            memmove(found, found + (nfound - COMPARE_MAX), COMPARE_MAX * sizeof(char *));
            fprintf(stderr, "rtjitter compare: %zu kernels in the store; comparing the latest %d\n", nfound,
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
        if (report_read_file(names[i], &docs[n], err, sizeof(err)) < 0) {
            fprintf(stderr, "rtjitter compare: %s: %s\n", names[i], err);
            rc = 2;
            goto out;
        }
        n++;
    }
    /* From the store, an earlier run of each kernel (when there is one) measures run-to-run noise. */
    json_t *repeats[COMPARE_MAX] = { NULL };
    char *repeat_names[COMPARE_MAX] = { NULL };
    for (size_t i = 0; found && i < n; i++) {
        char prev[4096], err[512];
        if (compare_previous_in_store(names[i], prev, sizeof(prev)) < 0)
            continue;
        if (report_read_file(prev, &repeats[i], err, sizeof(err)) < 0) {
            fprintf(stderr, "rtjitter compare: %s: %s (not used for run-to-run noise)\n", prev, err);
            continue;
        }
        repeat_names[i] = strdup(prev);
    }
    json_t *cmp = compare_build_repeats(docs, names, repeats, (const char *const *)repeat_names, n);
    for (size_t i = 0; i < n; i++) {
        json_decref(repeats[i]);
        free(repeat_names[i]);
    }
    if (!cmp) {
        fprintf(stderr, "rtjitter compare: out of memory\n");
        rc = 2;
        goto out;
    }
    if (!o.quiet)
        compare_print_text(stdout, cmp);
    if (o.json) {
        int e = write_json_file(cmp, o.json);
        if (e < 0) {
            fprintf(stderr, "rtjitter compare: cannot write %s: %s\n", o.json, strerror(-e));
            rc = 2;
        }
    }
    if (o.html) {
        int e = html_compare_file(o.html, cmp, docs, n);
        if (e < 0) {
            fprintf(stderr, "rtjitter compare: cannot write %s: %s\n", o.html, strerror(-e));
            rc = 2;
        }
    }
    json_decref(cmp);
out:
    for (size_t i = 0; i < n; i++)
        json_decref(docs[i]);
    for (size_t i = 0; i < nfound; i++)
        free(found[i]);
    free(found);
    return rc;
}
