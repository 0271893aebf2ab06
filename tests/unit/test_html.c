/* SPDX-License-Identifier: GPL-2.0-or-later */
/* HTML escaping: the one function every string goes through, and pages built from hostile reports that must
 * carry none of their markup. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "render/html.h"
#include "render/html_culprits.h"
#include "render/render.h"
#include "render/text.h"
#include "render/compare_text.h"
#include <unistd.h>
#include "unit/fixture_report.h"

static char *escaped(const char *in)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    html_escape(f, in);
    fclose(f);
    return out;
}

static void expect_escape(const char *in, const char *want)
{
    char *got = escaped(in);
    if (strcmp(got, want))
        fail_msg("html_escape(\"%s\") = \"%s\", expected \"%s\"", in, got, want);
    free(got);
}

static void test_escape(void **state)
{
    (void)state;
    expect_escape("plain text 123", "plain text 123");
    expect_escape("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    expect_escape("a & b \"c\"", "a &amp; b &quot;c&quot;");
    expect_escape("&amp;", "&amp;amp;");
    expect_escape("µs → ± 日本", "µs → ± 日本");               /* valid UTF-8 kept */
    expect_escape("tab\tnl\n", "tab\tnl\n");
    expect_escape("bell\x07" "esc\x1b" "del\x7f", "bell\xef\xbf\xbd" "esc\xef\xbf\xbd" "del\xef\xbf\xbd");
    expect_escape("bad\xff" "byte", "bad\xef\xbf\xbd" "byte");
    expect_escape("overlong\xc0\xaf", "overlong\xef\xbf\xbd\xef\xbf\xbd");
    expect_escape("surrogate\xed\xa0\x80", "surrogate\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    expect_escape("cut\xe2\x86", "cut\xef\xbf\xbd\xef\xbf\xbd");
    expect_escape("nul-ish\xc0\x80", "nul-ish\xef\xbf\xbd\xef\xbf\xbd");        /* overlong NUL */
    expect_escape("big\xf4\x90\x80\x80", "big\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* > U+10FFFF */
    expect_escape("nonchar\xef\xbf\xbe", "nonchar\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* U+FFFE: not XML */
    expect_escape("cr\r", "cr\xef\xbf\xbd");
    expect_escape("c1\xc2\x85 max\xf4\x8f\xbf\xbf", "c1\xc2\x85 max\xf4\x8f\xbf\xbf");   /* allowed in XML 1.0 */
    expect_escape("", "");
    char *n = escaped(NULL);
    assert_string_equal(n, "");
    free(n);
}

#define EVIL "<script>alert(1)</script><img src=x onerror=y>"

static json_t *evil_report(void)
{
    json_t *d = fx_report("6.1.0" EVIL, "250" EVIL, "full", 6000, 0, 1);
    json_object_set_new(d, "label", json_string("lab" EVIL));
    json_object_set_new(d, "command", json_string("rtjitter run --label '" EVIL "'"));
    json_object_set_new(json_object_get(d, "system"), "hostname", json_string("host" EVIL));
    json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    json_object_set_new(p, "load", json_string("none" EVIL));
    json_object_set_new(p, "load_error", json_string("err" EVIL));
    json_array_append_new(json_object_get(d, "warnings"), json_string("warn" EVIL));
    json_object_set_new(json_object_get(d, "verdict"), "summary", json_string("sum" EVIL));
    json_object_set_new(json_object_get(json_object_get(d, "system"), "cpu"), "evil" EVIL, json_string(EVIL));
    return d;
}

static void expect_clean(const char *html)
{
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<img"));
    assert_non_null(strstr(html, "&lt;script&gt;"));
    assert_non_null(strstr(html, "<svg"));
    assert_non_null(strstr(html, "</html>"));
    /* Self-contained: nothing fetched. */
    assert_null(strstr(html, "src=\""));
    assert_null(strstr(html, "href=\""));
    assert_null(strstr(html, "@import"));
}

static void test_report_page_escapes_everything(void **state)
{
    (void)state;
    json_t *d = evil_report();
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    html_report(f, d);
    fclose(f);
    expect_clean(out);
    assert_non_null(strstr(out, "class=\"verdict pass\""));
    assert_non_null(strstr(out, "cycles (log scale)"));
    free(out);
    json_decref(d);
}

static void test_compare_page_escapes_everything(void **state)
{
    (void)state;
    json_t *a = evil_report(), *b = fx_report("6.8.0", "1000", "full", 6000, 3000, 2);
    json_object_set_new(json_array_get(json_object_get(b, "phases"), 0), "load", json_string("none" EVIL));
    json_t *docs[2] = { a, b };
    const char *names[2] = { "/tmp/" EVIL ".json", "b.json" };
    json_t *cmp = compare_build(docs, names, 2);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    html_compare(f, cmp, docs, 2);
    fclose(f);
    expect_clean(out);
    assert_non_null(strstr(out, "What differs in the system"));
    /* 3 ms later, one run a side and no other run beside them: worse in this pair, in its own colour (a class the
     * page's style sheet defines), not the colour of a call; and the header warns */
    assert_non_null(strstr(out, "<li class=\"worse-pair\">worse in this pair: "));
    assert_non_null(strstr(out, ".worse-pair{color:"));
    assert_null(strstr(out, "<li class=\"worse\">"));
    assert_non_null(strstr(out, "<header class=\"verdict warn\">"));
    free(out);
    json_decref(cmp);
    json_decref(a);
    json_decref(b);
}

/* What a FILE gets from fn, as a string. */
static char *rendered(void (*fn)(FILE *, const json_t *), const json_t *doc)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fn(f, doc);
    fclose(f);
    return out;
}

/* The text form with the default options: what a file gets, whatever this test's terminal or locale. */
static void text_default(FILE *f, const json_t *doc)
{
    text_print_report_opts(f, doc, NULL);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *out = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&out, &cap, '\0', f); /* the whole file: it holds no NUL */
    fclose(f);
    assert_true(n > 0);
    return out;
}

static void test_renderer_table(void **state)
{
    (void)state;
    /* The forms rtjitter-report(5) promises, each with a report and a comparison, and their names for --format. */
    const char *const want[] = { "text", "html", "json" };
    const char *const *names = renderer_names();
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(names[i], want[i]);
        const struct renderer *r = renderer_find(want[i]);
        assert_non_null(r);
        assert_non_null(r->report);
        assert_non_null(r->compare);
        assert_true(r->ext && *r->ext && r->summary && *r->summary);
    }
    /* Then the packaging-test forms, of a report only (test_pkgforms). */
    for (size_t i = 3; names[i]; i++)
        assert_null(renderer_find(names[i])->compare);
    assert_null(renderer_find("pdf"));
    assert_null(renderer_find(NULL));
    /* Into a file through the writer: the same bytes as rendering directly. */
    json_t *d = fx_report("6.1.0", "250", "full", 2000, 0, 1);
    char dir[] = "/tmp/rtjt-render-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/r.html", dir);
    assert_int_equal(render_report_file(renderer_find("html"), path, d), 0);
    char *direct = rendered(html_report, d), *file = slurp(path);
    assert_string_equal(file, direct);
    free(direct);
    free(file);
    snprintf(path, sizeof(path), "%s/r.txt", dir);
    assert_int_equal(render_report_file(renderer_find("text"), path, d), 0);
    direct = rendered(text_default, d);
    file = slurp(path);
    assert_string_equal(file, direct);
    free(direct);
    free(file);
    snprintf(path, sizeof(path), "%s/r.json", dir);
    assert_int_equal(render_report_file(renderer_find("json"), path, d), 0);
    /* The on-disk form of every JSON document (doc.h): the same document read back, reals to 12 digits, a final
     * newline; objects a member a line, each array without objects on one line (shorter than indented through). */
    char *dump = json_dumps(d, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
    file = slurp(path);
    json_error_t jerr;
    json_t *ondisk = json_loads(file, 0, &jerr), *indented = json_loads(dump, 0, &jerr);
    assert_non_null(ondisk);
    assert_non_null(indented);
    assert_true(json_equal(ondisk, indented));
    json_decref(ondisk);
    json_decref(indented);
    size_t flen = strlen(file);
    assert_true(flen > 2 && file[flen - 1] == '\n' && file[flen - 2] == '}');
    assert_true(flen < strlen(dump));
    assert_memory_equal(file, "{\n \"schema\": ", 13); /* a member a line, indented by one */
    for (const char *l = file; *l; l = strchr(l, '\n') + 1) { /* an array's "[" ends its line only if it holds objects */
        const char *nl = strchr(l, '\n');
        if (nl > l && nl[-1] == '[') {
            const char *next = nl + 1;
            while (*next == ' ')
                next++;
            assert_true(*next == '{' || *next == '[');
        }
    }
    free(file);
    free(dump);
    json_t *docs[2] = { d, d };
    const char *fn[2] = { "a", "b" };
    json_t *cmp = compare_build(docs, fn, 2);
    snprintf(path, sizeof(path), "%s/c.json", dir);
    assert_int_equal(render_compare_file(renderer_find("json"), path, cmp, docs, 2), 0);
    json_t *back = json_load_file(path, 0, NULL);
    assert_non_null(back);
    assert_string_equal(json_string_value(json_object_get(back, "schema")), "rtjitter.compare/1");
    assert_int_equal(json_array_size(json_object_get(back, "reports")), 2);
    json_decref(back);
    snprintf(path, sizeof(path), "%s/c.txt", dir);
    assert_int_equal(render_compare_file(renderer_find("text"), path, cmp, docs, 2), 0);
    file = slurp(path);
    assert_non_null(strstr(file, "[2] against [1]: ")); /* the answer first (issue 35) */
    free(file);
    struct renderer none = { .name = "none" };
    assert_int_equal(render_report_file(&none, path, d), -ENOTSUP);
    assert_int_equal(render_compare_file(&none, path, cmp, docs, 2), -ENOTSUP);
    json_decref(cmp);
    json_decref(d);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Every plot of a report page carries the period, its axes in data-* attributes, and text in a musician's
 * words under it; the load's figures read as people write numbers. (What these are drawn at is checked against
 * the report in tests/integration/html_browser.sh.) */
static void test_every_plot_has_the_period(void **state)
{
    (void)state;
    json_t *d = fx_report("6.1.0", "250", "full", 2000, 0, 1);
    json_array_append_new(json_object_get(d, "phases"), fx_phase("write", 2000, 500, 2, 1));
    json_object_set_new(json_array_get(json_object_get(d, "phases"), 1), "load_metrics",
                        json_pack("[{s:s, s:f, s:s}]", "name", "write.throughput", "value", 1712.3, "unit", "MB/s"));
    char *out = rendered(html_report, d);
    int svgs = 0, periods = 0, plots = 0, howto = 0;
    for (const char *p = out; (p = strstr(p, "<svg ")); p++)
        svgs++;
    for (const char *p = out; (p = strstr(p, "<line class=\"period\" data-us=\"1333.33\"")); p++)
        periods++;
    for (const char *p = out; (p = strstr(p, "<rect class=\"plot\"")); p++)
        plots++;
    for (const char *p = out; (p = strstr(p, "<b>How to read this:</b>")); p++)
        howto++;
    assert_int_equal(svgs, 4);
    assert_int_equal(periods, 4);
    assert_int_equal(plots, 4);
    assert_int_equal(howto, 4);
    assert_non_null(strstr(out, "write.throughput <span class=\"nw\"><b>1712</b> MB/s"));
    assert_null(strstr(out, "e+0"));
    /* the xruns of the write phase are marked as failing the default limit (any xrun) */
    assert_non_null(strstr(out, "<td class=\"bad\">1 <small>1 / 0</small></td>"));
    free(out);
    json_decref(d);
}

/* A culprit whose basis is "none" (a traced run's "not known" with no wait of the audio threads in its trace,
 * issue 32) is drawn as nothing seen, never as observed or correlated: in the events table's badge and in the
 * timeline's tooltip. */
static void test_culprit_basis_none(void **state)
{
    (void)state;
    json_t *c = json_pack("{s:s, s:s, s:s, s:s}", "kind", "none", "basis", "none", "name", "not known", "evidence",
                          "the trace holds no wait of the audio threads in it");
    json_t *p = json_pack("{s:s, s:[{s:f, s:i, s:b, s:[O]}]}", "load", "none", "events", "length_ms", 12.0,
                          "cycles", 3, "explained", 1, "culprits", c);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    html_culprits_phase(f, p);
    fclose(f);
    assert_non_null(strstr(out, "<span class=\"basis none\">nothing seen</span>")); /* its meaning: the small print */
    assert_non_null(strstr(out, ">nothing seen</span>"));
    assert_null(strstr(out, "basis observed"));
    assert_null(strstr(out, "basis correlated"));
    char lab[300];
    html_culprit_label(lab, sizeof(lab), c);
    assert_string_equal(lab, "not known (not known, nothing seen)");
    free(out);
    json_decref(p);
    json_decref(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_report_page_escapes_everything),
        cmocka_unit_test(test_compare_page_escapes_everything),
        cmocka_unit_test(test_renderer_table),
        cmocka_unit_test(test_every_plot_has_the_period),
        cmocka_unit_test(test_culprit_basis_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
