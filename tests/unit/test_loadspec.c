/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --loads parsing and the load registry: known inputs, exact results. Pure: no process is started. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loadspec.h"

static int parse(const char *text, struct load_spec *s, char *err)
{
    return load_spec_parse(text, s, err, 512);
}

static void test_single_and_defaults(void **state)
{
    (void)state;
    struct load_spec s;
    char err[512];
    assert_int_equal(parse("write", &s, err), 0);
    assert_int_equal(s.nphases, 1);
    assert_string_equal(s.phase[0].name, "write");
    assert_int_equal(s.phase[0].nuses, 1);
    assert_string_equal(s.phase[0].use[0].info->name, "write");
    int mb = load_param_index(s.phase[0].use[0].info, "mb", 2);
    assert_true(mb >= 0);
    assert_true(s.phase[0].use[0].param[mb] == 256); /* the declared default */
    load_spec_free(&s);
}

static void test_params_and_combo(void **state)
{
    (void)state;
    struct load_spec s;
    char err[512];
    assert_int_equal(parse("none,compile:jobs=3+write:mb=64:sync=4,memload:pct=12.5", &s, err), 0);
    assert_int_equal(s.nphases, 3);
    assert_int_equal(s.phase[0].nuses, 1);
    assert_null(s.phase[0].use[0].info->run); /* none starts nothing */
    assert_string_equal(s.phase[1].name, "compile:jobs=3+write:mb=64:sync=4");
    assert_int_equal(s.phase[1].nuses, 2);
    const struct load_use *c = &s.phase[1].use[0], *w = &s.phase[1].use[1];
    assert_string_equal(c->info->name, "compile");
    assert_true(c->param[load_param_index(c->info, "jobs", 4)] == 3);
    assert_true(c->param[load_param_index(c->info, "units", 5)] == 24);
    assert_true(w->param[load_param_index(w->info, "mb", 2)] == 64);
    assert_true(w->param[load_param_index(w->info, "sync", 4)] == 4);
    const struct load_use *m = &s.phase[2].use[0];
    assert_true(m->param[load_param_index(m->info, "pct", 3)] == 12.5);
    load_spec_free(&s);
}

static void test_exec_takes_the_rest(void **state)
{
    (void)state;
    struct load_spec s;
    char err[512];
    assert_int_equal(parse("burn+exec:stress-ng --cpu 2 --vm-bytes=1g+x,none", &s, err), 0);
    assert_int_equal(s.nphases, 2);
    assert_int_equal(s.phase[0].nuses, 2);
    assert_string_equal(s.phase[0].use[1].info->name, "exec");
    assert_string_equal(s.phase[0].use[1].arg, "stress-ng --cpu 2 --vm-bytes=1g+x");
    assert_string_equal(s.phase[1].name, "none");
    load_spec_free(&s);
}

/* Every load at once is one phase. */
static void test_everything_together(void **state)
{
    (void)state;
    struct load_spec s;
    char err[512];
    assert_int_equal(parse("burn+write+read+compile+memload+video+x+hackbench+net+exec:true", &s, err), 0);
    assert_int_equal(s.nphases, 1);
    assert_int_equal(s.phase[0].nuses, 10);
    load_spec_free(&s);
}

static void test_all(void **state)
{
    (void)state;
    struct load_spec s;
    char err[512];
    assert_int_equal(parse("all", &s, err), 0);
    int n = 0;
    for (const struct load_info *const *l = load_registry; *l; l++)
        n += !(*l)->not_in_all;
    assert_int_equal(s.nphases, n);
    assert_string_equal(s.phase[0].name, "none");
    for (int i = 0; i < s.nphases; i++)
        assert_string_not_equal(s.phase[i].name, "exec");
    load_spec_free(&s);
    assert_int_equal(parse("all,exec:true", &s, err), 0);
    assert_int_equal(s.nphases, n + 1);
    load_spec_free(&s);
}

/* Every bad input: -EINVAL and a one-line message naming the culprit. */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
    } bad[] = {
        { "", "empty" },
        { "bogus", "unknown load 'bogus'" },
        { "none,,burn", "empty phase" },
        { "none,", "empty phase" },
        { "write:mb=abc", "mb='abc'" },
        { "write:mb=0", "from 1 to" },
        { "write:mb=2.5", "whole number" },
        { "memload:pct=96", "pct='96'" },
        { "memload:pct=nan", "pct='nan'" },
        { "write:size=3", "unknown parameter 'size'" },
        { "none:x=1", "it takes none" },
        { "write:mb", "not name=value" },
        { "write:mb=", "missing" },
        { "burn+burn", "appears twice" },
        { "none+burn", "cannot be combined" },
        { "exec", "needs a command" },
        { "exec:", "needs a command" },
        { "burn+", "nothing after" },
        { "burn+wrte", "unknown load 'wrte'" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct load_spec s;
        char err[512] = "";
        int e = parse(bad[i].text, &s, err);
        if (e != -EINVAL || !strstr(err, bad[i].says) || strchr(err, '\n'))
            fail_msg("'%s': got %d '%s', wanted -EINVAL and '%s'", bad[i].text, e, err, bad[i].says);
    }
}

/* A run has at most 4096 phases, the most a report may hold (report_read.c refuses more): 4096 entries parse,
 * 4097 are refused with one line naming the limit, and "all" cannot carry a list over it either. */
static void test_phase_limit(void **state)
{
    (void)state;
    char *text = malloc(4100 * 5 + 16), err[512] = "";
    assert_non_null(text);
    size_t o = 0;
    for (int i = 0; i < 4096; i++)
        o += (size_t)sprintf(text + o, "%snone", i ? "," : "");
    struct load_spec s;
    assert_int_equal(parse(text, &s, err), 0);
    assert_int_equal(s.nphases, 4096);
    load_spec_free(&s);
    strcat(text, ",burn");
    int e = parse(text, &s, err);
    if (e != -EINVAL || !strstr(err, "more than 4096 phases") || strchr(err, '\n'))
        fail_msg("4097 phases: got %d '%s'", e, err);
    text[strlen(text) - strlen(",burn")] = '\0';
    text[strlen(text) - strlen(",none")] = '\0'; /* 4095 phases and all: over the limit */
    strcat(text, ",all");
    e = parse(text, &s, err);
    if (e != -EINVAL || !strstr(err, "more than 4096 phases"))
        fail_msg("4095 phases and all: got %d '%s'", e, err);
    free(text);
}

/* The registry's own promises, checked for every load so that a new one is held to them without anyone
 * remembering. */
static void test_registry(void **state)
{
    (void)state;
    int n = 0;
    for (const struct load_info *const *l = load_registry; *l; l++, n++) {
        const struct load_info *li = *l;
        assert_non_null(li->name);
        assert_non_null(li->summary);
        assert_non_null(li->example);
        for (const struct load_info *const *k = load_registry; k != l; k++)
            assert_string_not_equal((*k)->name, li->name);
        assert_ptr_equal(load_find(li->name, strlen(li->name)), li);
        if (li->run) { /* a real load reports its throughput */
            assert_non_null(li->metric);
            assert_non_null(li->unit);
            assert_non_null(li->report);
            assert_true(strncmp(li->metric, li->name, strlen(li->name)) == 0);
        }
        for (int i = 0; i < LOAD_MAX_PARAMS && li->params[i].name; i++) {
            const struct load_param *p = &li->params[i];
            assert_true(p->min <= p->def && p->def <= p->max);
            assert_non_null(p->help);
            assert_non_null(p->unit);
        }
        struct load_spec s;
        char err[512];
        if (parse(li->example, &s, err) != 0)
            fail_msg("example of %s does not parse: %s", li->name, err);
        assert_ptr_equal(s.phase[0].use[0].info, li);
        load_spec_free(&s);
    }
    assert_true(n >= 11);
    assert_string_equal(load_registry[0]->name, "none"); /* --loads all begins with the baseline */
    /* The safety bounds rtjitter(1) promises (LOADS, SAFETY). */
    const struct load_info *m = load_find("memload", 7);
    int pct = load_param_index(m, "pct", 3);
    assert_true(m->params[pct].def == 80 && m->params[pct].max == 95);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_and_defaults), cmocka_unit_test(test_params_and_combo),
        cmocka_unit_test(test_exec_takes_the_rest), cmocka_unit_test(test_everything_together),
        cmocka_unit_test(test_all),
        cmocka_unit_test(test_errors),           cmocka_unit_test(test_registry),
        cmocka_unit_test(test_phase_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
