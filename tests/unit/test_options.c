/* Option parsing: values, ranges, unknown options, missing values, choices, positionals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "cli/options.h"

struct o {
    int n, flag;
    double d;
    const char *s, *c;
};
static const char *const colours[] = { "red", "green", NULL };
static const struct opt_def defs[] = {
    { "num", OPT_INT, offsetof(struct o, n), 16, 8192, "N", "a number", NULL },
    { "dbl", OPT_DOUBLE, offsetof(struct o, d), 0.5, 100, "X", "a real", NULL },
    { "str", OPT_STR, offsetof(struct o, s), 0, 0, "S", "a string", NULL },
    { "col", OPT_STR, offsetof(struct o, c), 0, 0, "C", "a colour", colours },
    { "flag", OPT_FLAG, offsetof(struct o, flag), 0, 0, "", "a flag", NULL },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL },
};

static int parse(struct o *o, int argc, char **argv)
{
    memset(o, 0, sizeof(*o));
    int np = 0;
    const char *pos[2];
    return opts_parse("test", defs, o, argc, argv, pos, 2, &np);
}

static void test_good_values(void **state)
{
    (void)state;
    struct o o;
    char *argv[] = { "--num", "64", "--dbl=2.5", "--str", "x y", "--col", "green", "--flag" };
    assert_int_equal(parse(&o, 8, argv), 0);
    assert_int_equal(o.n, 64);
    assert_true(o.d == 2.5);
    assert_string_equal(o.s, "x y");
    assert_string_equal(o.c, "green");
    assert_int_equal(o.flag, 1);
}

static void test_bad_values(void **state)
{
    (void)state;
    struct o o;
    char *a1[] = { "--num", "15" };        /* below range */
    char *a2[] = { "--num", "64x" };       /* trailing junk */
    char *a3[] = { "--num" };              /* missing value */
    char *a4[] = { "--dbl", "nan" };       /* not finite */
    char *a5[] = { "--col", "blue" };      /* not a choice */
    char *a6[] = { "--nope", "1" };        /* unknown */
    char *a7[] = { "--flag=1" };           /* flag with value */
    char *a8[] = { "-x" };                 /* short unknown */
    char *a9[] = { "--num", "99999999999999999999" };
    char *a10[] = { "--str", "" };
    char *a11[] = { "--dbl", "0x10" };     /* hexadecimal: strtod would read 16 */
    char *a12[] = { "--str", "--flag" };   /* an option is not a value */
    char *a13[] = { "--dbl", "inf" };
    assert_int_equal(parse(&o, 2, a1), -1);
    assert_int_equal(parse(&o, 2, a2), -1);
    assert_int_equal(parse(&o, 1, a3), -1);
    assert_int_equal(parse(&o, 2, a4), -1);
    assert_int_equal(parse(&o, 2, a5), -1);
    assert_int_equal(parse(&o, 2, a6), -1);
    assert_int_equal(parse(&o, 1, a7), -1);
    assert_int_equal(parse(&o, 1, a8), -1);
    assert_int_equal(parse(&o, 2, a9), -1);
    assert_int_equal(parse(&o, 2, a10), -1);
    assert_int_equal(parse(&o, 2, a11), -1);
    assert_int_equal(parse(&o, 2, a12), -1);
    assert_int_equal(o.flag, 0);
    assert_int_equal(parse(&o, 2, a13), -1);
    char *ok[] = { "--str=--flag", "--dbl", "1e1" }; /* with '=' a value may start with dashes */
    assert_int_equal(parse(&o, 3, ok), 0);
    assert_string_equal(o.s, "--flag");
    assert_true(o.d == 10);
}

static void test_help_and_positionals(void **state)
{
    (void)state;
    struct o o;
    char *h[] = { "--num", "64", "--help" };
    assert_int_equal(parse(&o, 3, h), 1);
    char *p[] = { "a.json", "--flag", "b.json" };
    int np = 0;
    const char *pos[2];
    memset(&o, 0, sizeof(o));
    assert_int_equal(opts_parse("test", defs, &o, 3, p, pos, 2, &np), 0);
    assert_int_equal(np, 2);
    assert_string_equal(pos[1], "b.json");
    char *too_many[] = { "a", "b", "c" };
    assert_int_equal(opts_parse("test", defs, &o, 3, too_many, pos, 2, &np), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_values),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_help_and_positionals),
    };
    return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
