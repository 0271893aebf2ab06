/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report as TAP version 13 (testanything.org): "run complete", then one test point per phase and threshold,
 * "ok 2 - phase burn: xrun events 0 <= 0"; a failure carries a YAML diagnostics block with the figures. A limit
 * that was only advice (a profile without --profile) and failed is "not ok ... # TODO", which TAP harnesses do
 * not count as a failure: the exit status did not either. */
#include "render/pkgtest.h"
#include "render/render.h"
#include "report/access.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include <errno.h>
#include <stdint.h>
#include <string.h>

/* A description: no newline (it would end the line), '#' escaped (it would start a directive), and nothing
 * that is not UTF-8. */
static void tap_text(FILE *f, const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_char(s + i, len - i, &cp);
        if (n == 0 || cp < 0x20 || cp == 0x7f) {
            fputc(n == 0 ? '?' : ' ', f);
            i++;
            continue;
        }
        if (cp == '#' || cp == '\\')
            fputc('\\', f);
        fwrite(s + i, 1, n, f);
        i += n;
    }
}

/* A YAML double-quoted scalar: '"' and '\' escaped, control characters as \xNN, invalid UTF-8 as U+FFFD. */
static void yaml_str(FILE *f, const char *s)
{
    size_t len = strlen(s);
    fputc('"', f);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_char(s + i, len - i, &cp);
        if (n == 0) {
            fputs("\\uFFFD", f);
            i++;
        } else if (cp < 0x20 || cp == 0x7f) {
            fprintf(f, "\\x%02x", (unsigned)cp);
            i++;
        } else {
            if (cp == '"' || cp == '\\')
                fputc('\\', f);
            fwrite(s + i, 1, n, f);
            i += n;
        }
    }
    fputc('"', f);
}

struct tctx {
    FILE *f;
    int n;
};

static void tap_case(const json_t *phase, size_t pi, const json_t *check, const json_t *e, void *arg)
{
    (void)pi;
    struct tctx *t = arg;
    FILE *f = t->f;
    enum thresh_outcome o = thresholds_outcome(check, e);
    char what[256], v[64], l[64];
    thresholds_describe(check, e, what, sizeof(what));
    fprintf(f, "%sok %d - phase ", o == THRESH_PASS ? "" : "not ", ++t->n);
    tap_text(f, doc_str(e, "phase", "?"));
    fputs(": ", f);
    tap_text(f, what);
    if (o == THRESH_ADVISORY)
        fputs(" # TODO advice only", f); /* short: a test point reads on one 80-column line */
    fputc('\n', f);
    if (o == THRESH_PASS)
        return;
    thresholds_value_text(check, json_object_get(e, "value"), v, sizeof(v));
    thresholds_value_text(check, json_object_get(check, "limit"), l, sizeof(l));
    fputs("  ---\n  message: ", f);
    char msg[PHASE_NAME_LEN + 400];
    snprintf(msg, sizeof(msg), "phase %s: %s (%s)", doc_str(e, "phase", "?"), what, doc_str(check, "source", "?"));
    yaml_str(f, msg);
    fprintf(f, "\n  severity: %s\n", o == THRESH_FAIL ? "fail" : "todo");
    if (o == THRESH_ADVISORY)
        fputs("  note: \"the profile's limit, not enforced: give --profile to enforce it\"\n", f);
    fputs("  phase: ", f);
    yaml_str(f, doc_str(e, "phase", "?"));
    fputs("\n  metric: ", f);
    yaml_str(f, doc_str(check, "metric", "?"));
    fprintf(f, "\n  found: %s\n  wanted: ", strcmp(v, "-") ? v : "null");
    char want[96];
    snprintf(want, sizeof(want), "%s %s", doc_str(check, "op", "?"), l);
    yaml_str(f, want);
    fputs("\n  unit: ", f);
    yaml_str(f, doc_str(check, "unit", ""));
    fputs("\n  source: ", f);
    yaml_str(f, doc_str(check, "source", "?"));
    fputs("\n  figures:\n", f);
    struct phase_figs pf;
    pkg_phase_figs(phase, &pf);
    pkg_phase_figs_lines(f, &pf, "    ");
    fputs("  ...\n", f);
}

static int tap_body(FILE *f, const json_t *doc)
{
    struct tctx t = { .f = f };
    size_t n = pkg_cases(doc, NULL, NULL);
    fprintf(f, "TAP version 13\n1..%zu\n", n + 1);
    int complete = json_is_true(json_object_get(doc, "complete"));
    fprintf(f, "%sok %d - run complete\n", complete ? "" : "not ", ++t.n);
    if (!complete) {
        fputs("  ---\n  message: ", f);
        yaml_str(f, doc_str(doc, "incomplete_reason", "the run did not complete"));
        fputs("\n  severity: fail\n  ...\n", f);
    }
    pkg_cases(doc, tap_case, &t);
    return 0;
}

/* TAP goes to a terminal as often as to a harness: the document's strings are shown visibly first (C1 controls
 * and bidirectional overrides are valid UTF-8 that tap_text() and yaml_str() would pass). */
static int tap_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    json_t *safe = term_safe_json(doc);
    if (!safe)
        return -ENOMEM;
    int rc = tap_body(f, safe);
    json_decref(safe);
    return rc;
}

/* Its entry in the table of forms (render.c): a report only (a packaging form judges a run's phases). */
const struct renderer render_form_tap = {
    .name = "tap", .ext = "tap", .summary = "TAP version 13: a test point per phase and threshold",
    .report = tap_report,
};
