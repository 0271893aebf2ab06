/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every registered load, through the real supervisor, without JACK: it starts, reports its metric above zero,
 * stops within a second, and leaves no process and no file behind. A new load is tested by being registered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "loadplan.h"
#include "unit/load_marks.h"
#include "loadspec.h"

static char g_tmp[256];

static int dir_entries(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_tmp, sizeof(g_tmp), "%s/rtjt-loadplan.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(g_tmp))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rmdir(g_tmp);
    return 0;
}

static void test_every_load(void **state)
{
    (void)state;
    for (const struct load_info *const *l = load_registry; *l; l++) {
        const struct load_info *li = *l;
        struct load_plan *p = NULL;
        char err[512];
        assert_int_equal(load_plan_parse(li->example, g_tmp, &p, err, sizeof(err)), 0);
        assert_int_equal(load_plan_count(p), 1);
        assert_int_equal(load_phase_start(p, 0), 0);
        mono_nap_ms(500);
        if (li->run && marked_processes() < 2) { /* the supervisor and the load */
            load_plan_free(p);
            fail_msg("%s: no load process seen", li->name);
        }
        assert_int_equal(load_phase_measure(p, 0), 0);
        mono_nap_ms(1500);
        json_t *m = json_array();
        const char *error = NULL;
        double t0 = mono_s();
        load_phase_stop(p, 0, m, &error);
        double stop_s = mono_s() - t0;
        char why[600] = "";
        if (error)
            snprintf(why, sizeof(why), "%s: %s", li->name, error);
        json_t *first = json_array_get(m, 0);
        /* A throughput must be above zero; a share of frames or work done on time (%) may honestly be zero on
         * a machine busy enough (seen with a sanitizer build and a second test suite running), and so may whole
         * compile units finished in 1.5 s (0 beside five tests and stress-ng once: tests/integration/load_checks.sh
         * counts them against the compiler wrapper's own log). */
        double v = first ? json_number_value(json_object_get(first, "value")) : -1;
        int share = li->unit && li->unit[0] == '%'; /* "%", "% of frames" */
        int whole = li->unit && strcmp(li->unit, "units/min") == 0;
        if (li->run && !why[0] &&
            (!first || strcmp(json_string_value(json_object_get(first, "name")), li->metric) != 0 ||
             !(share ? v >= 0 && v <= 100 : whole ? v >= 0 : v > 0)))
            snprintf(why, sizeof(why), "%s: no %s %s", li->name, li->metric,
                     share ? "from 0 to 100 %" : whole ? "of zero or more" : "above zero");
        if (li->run && first)
            printf("  %-10s %s = %.4g %s, stopped in %.3f s\n", li->name, li->metric,
                   json_number_value(json_object_get(first, "value")), li->unit, stop_s);
        if (why[0]) { /* free first: a failed load must not leave processes to the tests after it */
            json_decref(m);
            load_plan_free(p);
            fail_msg("%s", why);
        }
        assert_true(stop_s < 1.0);
        /* Stopped: no load process left, even before the plan is freed (only the supervisor remains). */
        assert_true(marked_processes() <= 1);
        json_decref(m);
        load_plan_free(p);
        assert_int_equal(marked_processes(), 0);
        assert_int_equal(dir_entries(g_tmp), 0);
    }
}

/* A load that cannot run is skipped with its reason, and the plan goes on. */
static void test_unwritable_tmpdir(void **state)
{
    (void)state;
    struct load_plan *p = NULL;
    char err[512];
    assert_int_equal(load_plan_parse("write:mb=2,burn:threads=1", "/nonexistent/rtjitter", &p, err, sizeof(err)),
                     0);
    assert_int_equal(load_phase_start(p, 0), 0);
    json_t *m = json_array();
    const char *error = NULL;
    load_phase_stop(p, 0, m, &error);
    assert_non_null(error);
    assert_non_null(strstr(error, "write: skipped: cannot create a directory in /nonexistent/rtjitter"));
    assert_int_equal(json_array_size(m), 0);
    assert_int_equal(load_phase_start(p, 1), 0);
    mono_nap_ms(300);
    load_phase_stop(p, 1, m, &error);
    assert_null(error);
    assert_int_equal(json_array_size(m), 2);
    json_decref(m);
    load_plan_free(p);
    assert_int_equal(marked_processes(), 0);
}

/* The user's command: its failure and exit status are reported. */
static void test_exec_status(void **state)
{
    (void)state;
    struct load_plan *p = NULL;
    char err[512];
    assert_int_equal(load_plan_parse("exec:echo boom >&2; exit 3", g_tmp, &p, err, sizeof(err)), 0);
    assert_int_equal(load_phase_start(p, 0), 0);
    mono_nap_ms(300);
    json_t *m = json_array();
    const char *error = NULL;
    load_phase_stop(p, 0, m, &error);
    assert_non_null(error);
    assert_non_null(strstr(error, "exec: the command exited with status 3: boom"));
    int found = 0;
    size_t i;
    json_t *o;
    json_array_foreach(m, i, o)
        found |= strcmp(json_string_value(json_object_get(o, "name")), "exec.exit_status") == 0 &&
                 json_number_value(json_object_get(o, "value")) == 3;
    assert_true(found);
    json_decref(m);
    load_plan_free(p);
    assert_int_equal(dir_entries(g_tmp), 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (load_marks_init(argv, "loadplan"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_load),
        cmocka_unit_test(test_unwritable_tmpdir),
        cmocka_unit_test(test_exec_status),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
