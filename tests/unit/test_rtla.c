/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtla's text as `rtjitter diagnose` reads it (src/culprit/tracefs_rtla.c): the fixtures are rtla's own output as
 * its sources print it (timerlat_top.c's rows and ALL row, timerlat_aa.c's analysis, tabs and all; the example of
 * rtla-timerlat-top(1) for the older table without ALL), and each figure read back must be the one written. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "culprit/tracefs_rtla.h"

static const char top_aa[] =
    "                                     Timer Latency                                              \n"
    "  0 00:00:12   |          IRQ Timer Latency (us)        |         Thread Timer Latency (us)\n"
    "CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max\n"
    "  1 #12322     |        0         0         1        15 |       10         3         9        31\n"
    " 23 #12320     |       28         0         1        28 |       41         3        11        41\n"
    "  4 #0         |        -         -         -         - |        -         -         -         -\n"
    "rtla timerlat hit stop tracing\n"
    "## CPU 23 hit stop tracing, analyzing it ##\n"
    "  IRQ handler delay:\t\t                \t    27.49 us (65.52 %)\n"
    "  IRQ latency:\t\t\t\t\t\t    28.13 us\n"
    "  Timerlat IRQ duration:\t\t\t\t     9.59 us (22.85 %)\n"
    "  Blocking thread:\t\t\t\t\t     3.79 us (9.03 %)\n"
    "  \t\t\t         objtool:49256\t\t\t     3.79 us\n"
    "    Blocking thread stacktrace\n"
    "                -> timerlat_irq\n"
    "  Previous IRQ interference:\t\t\tup to      2.22 us\n"
    "  ------------------------------------------------------------------------\n"
    "    Thread latency:\t\t\t\t\t    41.96 us (100%)\n"
    "\n"
    "  The system has exit from idle latency!\n"
    "    Max timerlat IRQ latency from idle: 17.48 us in cpu 4\n"
    "  Saving trace to timerlat_trace.txt\n";

static const char top_all[] =
    "                                     Timer Latency                                              \n"
    "  0 00:00:30   |          IRQ Timer Latency (ns)        |         Thread Timer Latency (ns)\n"
    "CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max\n"
    "  0 #30001     |     1200       800      1100     22000 |     4100      2000      4000     45000\n"
    "---------------|----------------------------------------|---------------------------------------\n"
    "ALL #300010 e1 |                800      1100     22000 |                2000      4000     45000\n";

static long long num(const json_t *o, const char *a, const char *b)
{
    return (long long)json_integer_value(json_object_get(json_object_get(o, a), b));
}

static void test_top_with_analysis(void **state)
{
    (void)state;
    json_t *d = rtla_parse_top(top_aa);
    assert_non_null(d);
    assert_string_equal(json_string_value(json_object_get(d, "unit")), "us");
    assert_string_equal(json_string_value(json_object_get(d, "duration")), "0 00:00:12   ");
    const json_t *cpus = json_object_get(d, "cpus");
    assert_int_equal(json_array_size(cpus), 3);
    const json_t *c = json_array_get(cpus, 1);
    assert_int_equal(json_integer_value(json_object_get(c, "cpu")), 23);
    assert_int_equal(json_integer_value(json_object_get(c, "count")), 12320);
    assert_int_equal(num(c, "irq", "cur"), 28);
    assert_int_equal(num(c, "irq", "max"), 28);
    assert_int_equal(num(c, "thread", "avg"), 11);
    assert_int_equal(num(c, "thread", "max"), 41);
    assert_true(json_is_null(json_object_get(json_object_get(json_array_get(cpus, 2), "thread"), "max")));
    assert_true(json_is_null(json_object_get(d, "all")));
    assert_true(json_is_true(json_object_get(d, "stopped")));
    const json_t *aa = json_object_get(d, "auto_analysis");
    assert_int_equal(json_integer_value(json_object_get(aa, "cpu")), 23);
    const json_t *items = json_object_get(aa, "items");
    assert_int_equal(json_array_size(items), 6);
    assert_string_equal(json_string_value(json_object_get(json_array_get(items, 0), "what")), "IRQ handler delay");
    assert_true(json_real_value(json_object_get(json_array_get(items, 0), "us")) == 27.49);
    assert_true(json_real_value(json_object_get(json_array_get(items, 0), "pct")) == 65.52);
    assert_null(json_object_get(json_array_get(items, 1), "pct"));
    assert_string_equal(json_string_value(json_object_get(json_array_get(items, 4), "what")),
                        "Previous IRQ interference");
    assert_true(json_real_value(json_object_get(json_array_get(items, 4), "us")) == 2.22);
    const json_t *bt = json_object_get(aa, "blocking_thread");
    assert_string_equal(json_string_value(json_object_get(bt, "comm")), "objtool");
    assert_int_equal(json_integer_value(json_object_get(bt, "pid")), 49256);
    const json_t *idle = json_object_get(aa, "idle_max");
    assert_true(json_real_value(json_object_get(idle, "us")) == 17.48);
    assert_int_equal(json_integer_value(json_object_get(idle, "cpu")), 4);
    /* the summary's lines are kept as printed (not the trace file's name) */
    const json_t *lines = json_object_get(d, "lines");
    assert_string_equal(json_string_value(json_array_get(lines, 3)), "  1 #12322     |        0         0         1"
                        "        15 |       10         3         9        31");
    for (size_t i = 0; i < json_array_size(lines); i++)
        assert_null(strstr(json_string_value(json_array_get(lines, i)), "Saving trace"));
    json_decref(d);
}

static void test_top_all_row(void **state)
{
    (void)state;
    json_t *d = rtla_parse_top(top_all);
    assert_non_null(d);
    assert_string_equal(json_string_value(json_object_get(d, "unit")), "ns");
    const json_t *all = json_object_get(d, "all");
    assert_int_equal(json_integer_value(json_object_get(all, "count")), 3000100); /* 300010 x 10^1 */
    assert_int_equal(num(all, "irq", "min"), 800);
    assert_int_equal(num(all, "thread", "max"), 45000);
    assert_null(json_object_get(json_object_get(all, "irq"), "cur"));
    assert_false(json_is_true(json_object_get(d, "stopped")));
    assert_true(json_is_null(json_object_get(d, "auto_analysis")));
    json_decref(d);
    assert_null(rtla_parse_top("rtla: unknown command\n"));
    assert_null(rtla_parse_top(""));
}

static void test_probes(void **state)
{
    (void)state;
    char v[32];
    assert_int_equal(rtla_version("\nrtla version 6.6.0\n\n  usage: rtla COMMAND ...\n", v, sizeof(v)), 0);
    assert_string_equal(v, "6.6.0");
    assert_int_equal(rtla_version("usage: something\n", v, sizeof(v)), -1);
    assert_true(rtla_has_auto("\t  -a/--auto: set automatic trace mode, stopping the session if argument in us"));
    assert_false(rtla_has_auto("  usage: rtla timerlat [top] [-h] [-q] [-d s] [-D] [-n] [-p us]\n"));
    assert_true(rtla_tracer_listed("timerlat osnoise hwlat function nop\n", "timerlat"));
    assert_false(rtla_tracer_listed("blk function nop\n", "timerlat"));
    assert_false(rtla_tracer_listed("timerlatx nop\n", "timerlat"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_with_analysis),
        cmocka_unit_test(test_top_all_row),
        cmocka_unit_test(test_probes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
