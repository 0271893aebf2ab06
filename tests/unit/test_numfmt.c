/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers for people (util/numfmt.c): no exponent, k / M from ten thousand on, deadlines met rounded down, and
 * durations in µs, ms or s. Each expected string is written out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "util/numfmt.h"

static void expect(const char *got, const char *want, double v)
{
    if (strcmp(got, want))
        fail_msg("%.17g gives \"%s\", expected \"%s\"", v, got, want);
}

static void test_num_human(void **state)
{
    (void)state;
    static const struct { double v; const char *want; } cases[] = {
        { 1710, "1710" }, { 1712.3, "1712" }, { 1.71e3, "1710" }, { 7e5, "700 k" }, { 961234, "961 k" },
        { 12345, "12.3 k" }, { 10000, "10 k" }, { 9999.4, "9999" }, { 999999, "1 M" }, { 1.23e6, "1.23 M" },
        { 4.5e9, "4.5 G" }, { 96.14, "96.1" }, { 100, "100" }, { 4.254, "4.25" }, { 4.0, "4" }, { 0.384, "0.384" },
        { 0.5, "0.5" }, { 0, "0" }, { -0.0001, "-0.0001" }, { -1500, "-1500" }, { -7e5, "-700 k" },
        { 0.00012, "0.00012" },
    };
    char buf[64];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        expect(num_human(buf, sizeof(buf), cases[i].v), cases[i].want, cases[i].v);
    expect(num_human(buf, sizeof(buf), NAN), "-", NAN);
    expect(num_human(buf, sizeof(buf), INFINITY), "-", INFINITY);
    expect(num_human_unit(buf, sizeof(buf), 702345, "msg/s"), "702 k msg/s", 702345);
    expect(num_human_unit(buf, sizeof(buf), 1323.4, "MB/s"), "1323 MB/s", 1323.4);
    expect(num_human_unit(buf, sizeof(buf), 98, ""), "98", 98);
    expect(num_human_unit(buf, sizeof(buf), NAN, "MB/s"), "-", NAN);
    /* never an exponent, whatever the size */
    for (double v = 1e-3; v < 1e15; v *= 3.7) {
        num_human(buf, sizeof(buf), v);
        if (strchr(buf, 'e'))
            fail_msg("%g gives \"%s\"", v, buf);
    }
}

static void test_pct_met(void **state)
{
    (void)state;
    char buf[32];
    expect(pct_met(buf, sizeof(buf), 100), "100.00", 100);
    expect(pct_met(buf, sizeof(buf), 99.996), "99.99", 99.996);       /* one missed deadline is never 100.00 */
    expect(pct_met(buf, sizeof(buf), 100.0 * 74999 / 75000), "99.99", 100.0 * 74999 / 75000);
    expect(pct_met(buf, sizeof(buf), 99.99), "99.99", 99.99);         /* 99.989999... in binary */
    expect(pct_met(buf, sizeof(buf), 100.0 * 7499 / 7500), "99.98", 100.0 * 7499 / 7500);
    expect(pct_met(buf, sizeof(buf), 97.5), "97.50", 97.5);
    expect(pct_met(buf, sizeof(buf), 0), "0.00", 0);
    expect(pct_met(buf, sizeof(buf), NAN), "-", NAN);
}

static void test_dur_human(void **state)
{
    (void)state;
    char buf[32];
    expect(dur_human(buf, sizeof(buf), 1333.333, "µs"), "1.33 ms", 1333.333);
    expect(dur_human(buf, sizeof(buf), 12000, "µs"), "12 ms", 12000);
    expect(dur_human(buf, sizeof(buf), 1000, "µs"), "1 ms", 1000);
    expect(dur_human(buf, sizeof(buf), 999, "µs"), "999 µs", 999);
    expect(dur_human(buf, sizeof(buf), 20, "µs"), "20 µs", 20);
    expect(dur_human(buf, sizeof(buf), 20, "us"), "20 us", 20);
    expect(dur_human(buf, sizeof(buf), 0.01, "µs"), "0.01 µs", 0.01);
    expect(dur_human(buf, sizeof(buf), 1e6, "µs"), "1 s", 1e6);
    expect(dur_human(buf, sizeof(buf), 1.5e6, "µs"), "1.5 s", 1.5e6);
    expect(dur_human(buf, sizeof(buf), 1e8, "µs"), "100 s", 1e8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num_human),
        cmocka_unit_test(test_pct_met),
        cmocka_unit_test(test_dur_human),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
