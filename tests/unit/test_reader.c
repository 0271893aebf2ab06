/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report reader against malformed, truncated and hostile input: each gives an error and one line, none
 * crashes; what passes can be rendered (text, HTML, compare). Also replays every input in
 * tests/fuzz-regressions/ (crash cases `make fuzz` ever found). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "render/render.h"
#include "compare/compare.h"
#include "report/report_read.h"
#include "unit/fixture_report.h"

/* Render a document every way there is (every entry of the renderers' table), to /dev/null: must not crash
 * (ASan/UBSan in `make sanitize`). */
static void render_all(json_t *doc)
{
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    json_t *docs[2] = { doc, doc };
    const char *names[2] = { "a", "b" };
    json_t *cmp = compare_build(docs, names, 2);
    assert_non_null(cmp);
    for (const struct renderer *const *rp = renderers, *r = *rp; r; r = *++rp) {
        if (r->report)
            assert_int_equal(r->report(f, doc, NULL), 0);
        if (r->compare)
            assert_int_equal(r->compare(f, cmp, docs, 2, NULL), 0);
    }
    json_decref(cmp);
    fclose(f);
}

static int read_str(const char *s, json_t **doc, char *err, size_t errlen)
{
    err[0] = '\0';
    return report_read_buffer(s, strlen(s), doc, err, errlen);
}

static void expect_refused(const char *input, const char *words)
{
    char err[512];
    json_t *doc = (json_t *)1;
    int rc = read_str(input, &doc, err, sizeof(err));
    if (rc >= 0)
        fail_msg("accepted: %.200s", input);
    assert_null(doc);
    assert_true(strlen(err) > 0);
    assert_null(strchr(err, '\n')); /* one line */
    if (words && !strstr(err, words))
        fail_msg("error for %.100s is \"%s\", expected it to mention \"%s\"", input, err, words);
}

#define OK_HEAD "{\"schema\":\"rtjitter.report/1\","

static void test_malformed_inputs(void **state)
{
    (void)state;
    expect_refused("", "JSON");
    expect_refused("{", "JSON");
    expect_refused("[]", "not a JSON object");
    expect_refused("null", NULL);
    expect_refused("42", NULL);
    expect_refused("{\"phases\":[]}", "schema");
    expect_refused("{\"schema\":\"other/1\",\"phases\":[]}", "not an rtjitter report");
    expect_refused("{\"schema\":\"rtjitter.report/2\",\"phases\":[]}", "newer");
    expect_refused("{\"schema\":7,\"phases\":[]}", "schema");
    expect_refused(OK_HEAD "\"phases\":{}}", "phases");
    expect_refused(OK_HEAD "\"phases\":[\"x\"]}", "phases[0]");
    expect_refused(OK_HEAD "\"phases\":[{\"load\":5}]}", "phases[0].load");
    expect_refused(OK_HEAD "\"phases\":[{\"jitter_us\":{\"p99\":\"fast\"}}]}", "phases[0].jitter_us.p99");
    expect_refused(OK_HEAD "\"phases\":[{\"cycles\":-1}]}", "cycles");
    expect_refused(OK_HEAD "\"phases\":[{\"cycles\":1e300}]}", "cycles");
    expect_refused(OK_HEAD "\"phases\":[{\"cycles\":1.5}]}", "cycles");
    expect_refused(OK_HEAD "\"phases\":[{\"wakeup_us\":{\"max\":-1e200}}]}", "max");
    expect_refused(OK_HEAD "\"phases\":[{\"cycles\":1e400}]}", "JSON");           /* jansson: overflow */
    expect_refused(OK_HEAD "\"phases\":[{\"cycles\":123456789012345678901234}]}", "JSON");
    expect_refused(OK_HEAD "\"phases\":[{\"xruns\":{\"reported\":true}}]}", "xruns.reported");
    expect_refused(OK_HEAD "\"phases\":[{\"histograms\":{\"jitter\":{}}}]}", "histograms.jitter");
    expect_refused(OK_HEAD "\"phases\":[{\"histograms\":{\"jitter\":[[1,2]]}}]}", "bucket");
    expect_refused(OK_HEAD "\"phases\":[{\"histograms\":{\"jitter\":[[3,2,1]]}}]}", "low edge");
    expect_refused(OK_HEAD "\"phases\":[{\"histograms\":{\"jitter\":[[1,2,-4]]}}]}", "bucket");
    expect_refused(OK_HEAD "\"phases\":[{\"histograms\":{\"jitter\":[[1,\"2\",4]]}}]}", "bucket");
    expect_refused(OK_HEAD "\"phases\":[{\"timeline\":[1]}]}", "timeline[0]");
    expect_refused(OK_HEAD "\"phases\":[{\"timeline\":[{\"wakeup_max_us\":[]}]}]}", "wakeup_max_us");
    expect_refused(OK_HEAD "\"phases\":[{\"load_metrics\":[{\"name\":1}]}]}", "load_metrics[0].name");
    expect_refused(OK_HEAD "\"phases\":[{\"dsp_load\":{\"x\":\"y\"}}]}", "dsp_load");
    expect_refused(OK_HEAD "\"phases\":[],\"warnings\":[1]}", "warnings[0]");
    /* issue 34: the events summed, and a watch report's session */
    expect_refused(OK_HEAD "\"phases\":[{\"events_summary\":\"x\"}]}", "events_summary");
    expect_refused(OK_HEAD "\"phases\":[{\"events_summary\":{\"total\":-3}}]}", "events_summary.total");
    expect_refused(OK_HEAD "\"phases\":[{\"events_summary\":{\"per_minute\":[{\"events\":-1}]}}]}",
                   "events_summary.per_minute[0].events");
    expect_refused(OK_HEAD "\"phases\":[{\"events_summary\":{\"per_culprit\":[{\"name\":5}]}}]}",
                   "events_summary.per_culprit[0].name");
    expect_refused(OK_HEAD "\"phases\":[],\"session\":5}", "session");
    expect_refused(OK_HEAD "\"phases\":[],\"verdict\":{\"advice\":[null]}}", "advice");
    expect_refused(OK_HEAD "\"phases\":[],\"system\":{\"kernel\":{\"release\":[]}}}", "system.kernel.release");
    expect_refused(OK_HEAD "\"phases\":[],\"audio\":{\"rate\":\"48k\"}}", "audio.rate");
    expect_refused(OK_HEAD "\"phases\":[],\"complete\":\"yes\"}", "complete");
    expect_refused(OK_HEAD "\"schema\":\"rtjitter.report/1\",\"phases\":[]}", "JSON"); /* duplicate key */
    expect_refused(OK_HEAD "\"label\":\"a\\u0000b\",\"phases\":[]}", "JSON");           /* NUL in a string */
    expect_refused(OK_HEAD "\"label\":\"\xff\xfe\",\"phases\":[]}", "JSON");            /* invalid UTF-8 */
}

/* A report with its events summed (issue 34) reads and renders every way; one without (older) does too. */
static void test_events_summary_read(void **state)
{
    (void)state;
    char err[512];
    json_t *doc = NULL;
    const char *r = OK_HEAD "\"session\":\"watch\",\"phases\":[{\"load\":\"none\",\"events\":[{\"t_s\":1.5,"
                    "\"length_ms\":3.2}],\"events_unlisted\":7,\"events_summary\":{\"total\":8,\"listed\":1,"
                    "\"summarised\":7,\"lost\":0,\"kept_latest\":384,\"kept_worst\":128,\"bucket_s\":60,"
                    "\"per_minute\":[{\"t_s\":0,\"wall\":\"2026-12-04T00:00:00.000Z\",\"span_s\":60,\"events\":7,"
                    "\"length_ms_sum\":20.5,\"length_ms_max\":5.1,\"skipped\":3,\"notifications\":2}],"
                    "\"per_culprit\":[{\"kind\":\"client\",\"name\":\"stall\",\"events\":6,\"length_ms_sum\":19,"
                    "\"length_ms_max\":5.1,\"skipped\":3,\"notifications\":2},{\"kind\":null,\"name\":null,"
                    "\"events\":1,\"length_ms_sum\":1.5,\"length_ms_max\":1.5,\"skipped\":0,\"notifications\":0}],"
                    "\"per_culprit_others\":{\"events\":0}}}]}";
    assert_int_equal(read_str(r, &doc, err, sizeof(err)), 0);
    render_all(doc);
    json_decref(doc);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* 100,000 nested arrays under an unknown key: jansson stops at its depth limit, no stack overflow. */
    size_t depth = 100000, len = strlen(OK_HEAD "\"phases\":[],\"x\":") + 2 * depth + 2;
    char *s = malloc(len + 1);
    size_t o = (size_t)sprintf(s, OK_HEAD "\"phases\":[],\"x\":");
    memset(s + o, '[', depth);
    memset(s + o + depth, ']', depth);
    strcpy(s + o + 2 * depth, "}");
    char err[512];
    json_t *doc;
    assert_true(report_read_buffer(s, strlen(s), &doc, err, sizeof(err)) < 0);
    free(s);
}

static void test_unknown_keys_ignored_and_minimal_rendered(void **state)
{
    (void)state;
    char err[512];
    json_t *doc;
    assert_int_equal(read_str(OK_HEAD "\"phases\":[],\"future\":{\"a\":[1,2,{\"b\":null}]},\"schema_extra\":1}",
                              &doc, err, sizeof(err)), 0);
    render_all(doc);
    json_decref(doc);
    /* A minor version of schema 1 is read. */
    assert_int_equal(read_str("{\"schema\":\"rtjitter.report/1.3\",\"phases\":[]}", &doc, err, sizeof(err)), 0);
    json_decref(doc);
    /* Everything optional missing, hostile strings, odd system identity: rendered without a crash. */
    assert_int_equal(read_str(OK_HEAD "\"label\":\"<script>x</script>\",\"system\":{\"kernel\":{\"hz\":{\"a\":"
                              "{\"b\":{\"c\":{\"d\":{\"e\":1}}}}},\"x\":[[1],[2]]},\"cpu\":{\"flags\":[1,\"a\",null,"
                              "true]}},\"phases\":[{},{\"load\":\"\\u0001<b>\",\"histograms\":{\"jitter\":[],"
                              "\"wakeup\":[[0,0,1],[-5,5,2],[1e15,1e15,1000000000000000]]},\"timeline\":[{},{\"s\":"
                              "3}],\"load_metrics\":[{\"name\":\"n\"}]}]}", &doc, err, sizeof(err)), 0);
    render_all(doc);
    json_decref(doc);
}

static void test_truncated_real_report(void **state)
{
    (void)state;
    json_t *d = fx_report("6.1.0-test", "250", "voluntary", 2000, 0, 1);
    char *s = json_dumps(d, JSON_INDENT(1));
    json_decref(d);
    size_t len = strlen(s);
    char err[512];
    json_t *doc;
    assert_int_equal(report_read_buffer(s, len, &doc, err, sizeof(err)), 0);
    render_all(doc);
    json_decref(doc);
    /* Every prefix is refused (a JSON object is only complete at its last byte). */
    for (size_t cut = 0; cut < len - 1; cut += 1 + cut / 50) {
        assert_true(report_read_buffer(s, cut, &doc, err, sizeof(err)) < 0);
        assert_null(doc);
    }
    free(s);
}

static void test_read_file_errors(void **state)
{
    (void)state;
    char err[512];
    json_t *doc;
    assert_int_equal(report_read_file("/nonexistent/r.json", &doc, err, sizeof(err)), -ENOENT);
    assert_non_null(strstr(err, "cannot open"));
    assert_true(report_read_file("/", &doc, err, sizeof(err)) < 0);
    assert_true(report_read_file("/dev/null", &doc, err, sizeof(err)) < 0);
}

/* Every crash input the fuzzer ever found: read it, and render it when it is accepted. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    const char *top = getenv("RTJ_TOP");
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/tests/fuzz-regressions", top ? top : ".");
    DIR *d = opendir(dir);
    if (!d) {
        assert_int_equal(errno, ENOENT);
        return;
    }
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
            continue;
        char path[8192], err[512];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        json_t *doc;
        if (report_read_file(path, &doc, err, sizeof(err)) == 0) {
            render_all(doc);
            json_decref(doc);
        } else {
            assert_null(strchr(err, '\n'));
        }
        n++;
    }
    closedir(d);
    print_message("replayed %d fuzz regression input(s)\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed_inputs),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_events_summary_read),
        cmocka_unit_test(test_unknown_keys_ignored_and_minimal_rendered),
        cmocka_unit_test(test_truncated_real_report),
        cmocka_unit_test(test_read_file_errors),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
