/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's one table of keys (src/report/schema.h) against what report_build writes: every key of every
 * fixture report (tests/fixtures/reports/, its store, tests/fixtures/culprits/, and the golden JSON of
 * tests/fixtures/golden/: reports rtjitter wrote and read back) and of a report built here is in the table, with
 * its type and range; a key below an object whose keys are data (SCHEMA_OPEN) is covered by that object. The same
 * walk with one entry taken out of the table must fail, naming it. A comparison's top level against its table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report/report.h"
#include "report/schema.h"

struct walk {
    const char *removed; /* a path taken out of the table, or NULL */
    size_t keys, missing, wrong;
    char first[600];     /* the first key missing or of the wrong type, and where */
};

static void note(struct walk *w, const char *what, const char *path, const char *file)
{
    if (!w->first[0])
        snprintf(w->first, sizeof(w->first), "%s %s (%s)", what, path, file);
    if (!w->removed && w->missing + w->wrong <= 10)
        printf("# %s %s (%s)\n", what, path, file);
}

static void walk_value(struct walk *w, const json_t *v, const char *path, const char *file);

static void walk_object(struct walk *w, const json_t *o, const char *at, const char *file)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        char path[512];
        snprintf(path, sizeof(path), "%s%s%s", at, *at ? "." : "", key);
        w->keys++;
        const struct schema_key *k = schema_covering(path);
        if (k && w->removed && !strcmp(k->path, w->removed))
            k = NULL;
        if (!k) {
            w->missing++;
            note(w, "not in the table:", path, file);
            continue;
        }
        if (strcmp(k->path, path))
            continue; /* below an object whose keys are data */
        if (!schema_value_ok(k, v)) {
            w->wrong++;
            note(w, "not of its type:", path, file);
        }
        if (!(k->flags & SCHEMA_OPEN))
            walk_value(w, v, path, file);
    }
}

static void walk_value(struct walk *w, const json_t *v, const char *path, const char *file)
{
    if (json_is_object(v)) {
        walk_object(w, v, path, file);
    } else if (json_is_array(v)) {
        char each[520];
        snprintf(each, sizeof(each), "%s[]", path);
        size_t i;
        const json_t *e;
        json_array_foreach(v, i, e)
            if (json_is_object(e))
                walk_object(w, e, each, file);
    }
}

/* Every report under dir (and its subdirectories) walked; how many. */
static size_t walk_dir(struct walk *w, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) < 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            n += walk_dir(w, p);
            continue;
        }
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        json_t *doc = json_load_file(p, 0, NULL);
        const char *schema = json_string_value(json_object_get(doc, "schema"));
        if (schema && !strncmp(schema, "rtjitter.report/", 16)) {
            walk_object(w, doc, "", p);
            n++;
        }
        json_decref(doc);
    }
    closedir(d);
    return n;
}

static size_t walk_fixtures(struct walk *w)
{
    const char *top = getenv("RTJ_TOP");
    static const char *const dirs[] = { "tests/fixtures/reports", "tests/fixtures/culprits", "tests/fixtures/golden" };
    size_t n = 0;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        char p[512];
        snprintf(p, sizeof(p), "%s/%s", top ? top : ".", dirs[i]);
        n += walk_dir(w, p);
    }
    return n;
}

static void test_fixture_keys_in_table(void **state)
{
    (void)state;
    struct walk w = { 0 };
    size_t n = walk_fixtures(&w);
    printf("# %zu fixture reports, %zu keys: %zu not in the table, %zu not of their type%s%s\n", n, w.keys,
           w.missing, w.wrong, w.first[0] ? "; first: " : "", w.first);
    assert_true(n >= 12); /* the inputs (the goldens' identity copies went: issue 36 item 4) */
    assert_true(w.keys > 10000);
    assert_int_equal(w.missing, 0);
    assert_int_equal(w.wrong, 0);
}

/* One key out of the table, at each depth: the walk finds it missing. */
static void test_removed_key_fails(void **state)
{
    (void)state;
    static const char *const removed[] = { "audio.rate", "system.kernel.release", "phases[].wakeup_us.p99",
                                           "phases[].events[].culprits[].kind", "phases[].timeline[].wakeup_max_us",
                                           "run_stats" };
    for (size_t i = 0; i < sizeof(removed) / sizeof(removed[0]); i++) {
        assert_non_null(schema_find(removed[i]));
        struct walk w = { .removed = removed[i] };
        walk_fixtures(&w);
        printf("# without %s: %zu keys not in the table (first: %s)\n", removed[i], w.missing, w.first);
        assert_true(w.missing > 0);
        assert_non_null(strstr(w.first, removed[i]));
    }
}

/* What report_build writes now, not only what it wrote when the fixtures were made. */
static void test_built_report_keys_in_table(void **state)
{
    (void)state;
    struct phase_stats ps;
    phase_init(&ps);
    struct phase_result pr = { .load = "none", .duration_s = 1, .measured_s = 1, .measured = 1, .finished = 1,
                               .stats = &ps };
    struct run_info ri = { .command = "rtjitter run", .label = "lab", .complete = 1, .phases = &pr, .nphases = 1,
                           .max_xruns = -1, .max_jitter_us = -1 };
    ri.audio.backend = "jack";
    json_t *d = report_build(&ri);
    assert_non_null(d);
    struct walk w = { 0 };
    walk_object(&w, d, "", "report_build");
    printf("# report_build: %zu keys, %zu not in the table, %zu not of their type%s%s\n", w.keys, w.missing, w.wrong,
           w.first[0] ? "; first: " : "", w.first);
    assert_true(w.keys > 50);
    assert_int_equal(w.missing, 0);
    assert_int_equal(w.wrong, 0);
    json_decref(d);
    phase_free(&ps);
}

/* The golden comparisons' top level against the comparison's table (rtjitter-report(5), "A comparison"). */
static void test_compare_keys_in_table(void **state)
{
    (void)state;
    static const char *const files[] = { "compare-before-after.json", "compare-three.json", "compare-import.json",
                                         "compare-stalls-alone.json" };
    const char *top = getenv("RTJ_TOP");
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char p[512];
        snprintf(p, sizeof(p), "%s/tests/fixtures/golden/%s", top ? top : ".", files[i]);
        json_t *doc = json_load_file(p, 0, NULL);
        assert_non_null(doc);
        const char *key;
        json_t *v;
        json_object_foreach(doc, key, v) {
            const struct schema_key *k = schema_compare;
            while (k->path && strcmp(k->path, key))
                k++;
            if (!k->path || !schema_value_ok(k, v))
                fail_msg("%s: %s is %s", files[i], key, k->path ? "not of its type" : "not in the table");
        }
        json_decref(doc);
    }
}

/* The type rtjitter-report(5) says of each key it lists is one the table accepts (audio.cpus, a string, was listed
 * as an array). */
static void test_page_types_agree(void **state)
{
    (void)state;
    static const struct {
        const char *words;
        unsigned types;
    } words[] = {
        { "string", T_STR }, { "object", T_OBJ }, { "array", T_ARR }, { "array of strings", T_ARR },
        { "boolean", T_BOOL }, { "integer", T_NUM | T_COUNT }, { "number", T_NUM | T_COUNT },
        { "string or null", T_STR }, { "boolean or null", T_BOOL }, { "number or null", T_NUM | T_COUNT },
    };
    const struct schema_key *const tables[] = { schema_report, schema_phase, schema_compare };
    size_t listed = 0;
    for (size_t t = 0; t < 3; t++)
        for (const struct schema_key *k = tables[t]; k->path; k++) {
            if (!k->type)
                continue;
            size_t i = 0;
            while (i < sizeof(words) / sizeof(words[0]) && strcmp(words[i].words, k->type))
                i++;
            if (i == sizeof(words) / sizeof(words[0]))
                fail_msg("%s: the page's type '%s' is none the test knows", k->path, k->type);
            if (!(k->types & words[i].types))
                fail_msg("%s: the page says %s, the table accepts none of it", k->path, k->type);
            if (strstr(k->type, "or null") && !(k->types & T_NULL))
                fail_msg("%s: the page says %s, the table refuses null", k->path, k->type);
            listed++;
        }
    assert_true(listed > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_keys_in_table),
        cmocka_unit_test(test_removed_key_fails),
        cmocka_unit_test(test_built_report_keys_in_table),
        cmocka_unit_test(test_compare_keys_in_table),
        cmocka_unit_test(test_page_types_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
