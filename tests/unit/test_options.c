/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option parsing: values, ranges, unknown options, missing values, choices, positionals; short options, prefixes,
 * "did you mean", and the real tables of every subcommand (no name or letter twice, help and man page for each). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/options.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_loads.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"
#include "cli/cmd_check.h"
#include "cli/manpage.h"

struct o {
    int n, flag, flog;
    double d;
    const char *s, *c;
};
static const char *const colours[] = { "red", "green", NULL };
static const struct opt_def defs[] = {
    { "num", OPT_INT, offsetof(struct o, n), 16, 8192, "N", "a number", NULL, 'n' },
    { "dbl", OPT_DOUBLE, offsetof(struct o, d), 0.5, 100, "X", "a real", NULL, 'D' },
    { "str", OPT_STR, offsetof(struct o, s), 0, 0, "S", "a string", NULL, 's' },
    { "col", OPT_STR, offsetof(struct o, c), 0, 0, "C", "a colour", colours, 0 },
    { "flag", OPT_FLAG, offsetof(struct o, flag), 0, 0, "", "a flag", NULL, 'q' },
    { "flog", OPT_FLAG, offsetof(struct o, flog), 0, 0, "", "another flag", NULL, 'x' },
    { "duration", OPT_DOUBLE, offsetof(struct o, d), 0.5, 100, "SECS", "a duration", NULL, 0 },
    { "time", OPT_DURATION, offsetof(struct o, d), 0.5, 86400, "TIME", "a duration with units", NULL, 'T' },
    { "dsp", OPT_DOUBLE, offsetof(struct o, d), 0, 100, "PCT", "a share", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
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
    char *a8[] = { "-y" };                 /* short unknown */
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

/* What opts_parse printed on stderr for argv (one line, or nothing). */
static int parse_err(struct o *o, int argc, char **argv, char *err, size_t len)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    dup2(fileno(tmp), 2);
    int r = parse(o, argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(err, 1, len - 1, tmp);
    err[n] = '\0';
    fclose(tmp);
    return r;
}

#define CONTAINS(hay, needle) do { \
        if (!strstr((hay), (needle))) fail_msg("\"%s\" not in \"%s\"", (needle), (hay)); \
    } while (0)

static void test_short_options(void **state)
{
    (void)state;
    struct o o;
    char err[512];
    char *a1[] = { "-n", "64", "-D2.5", "-s", "x", "-q" };
    assert_int_equal(parse(&o, 6, a1), 0);
    assert_int_equal(o.n, 64);
    assert_true(o.d == 2.5);
    assert_string_equal(o.s, "x");
    assert_int_equal(o.flag, 1);
    /* A cluster: flags, then one that takes the rest of the word or the next word. */
    char *a2[] = { "-qxn128" };
    assert_int_equal(parse(&o, 1, a2), 0);
    assert_true(o.flag && o.flog && o.n == 128);
    char *a3[] = { "-xqD", "7" };
    assert_int_equal(parse(&o, 2, a3), 0);
    assert_true(o.flog && o.flag && o.d == 7);
    /* -h anywhere in a cluster is help. */
    char *a4[] = { "-qh" };
    assert_int_equal(parse(&o, 1, a4), 1);
    /* A short option that takes a value never takes the next option. */
    char *a5[] = { "-s", "-q" };
    assert_int_equal(parse_err(&o, 2, a5, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: -s needs a value (S), not the option '-q'\n");
    assert_null(o.s);
    char *a6[] = { "-n" };
    assert_int_equal(parse_err(&o, 1, a6, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: -n needs a value (N)\n");
    /* Range checks name the long option. */
    char *a7[] = { "-n8" };
    assert_int_equal(parse_err(&o, 1, a7, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: --num: '8' is not a whole number from 16 to 8192\n");
    /* A long name after one dash is not -d with a value "uration". */
    char *a8[] = { "-duration", "5" };
    assert_int_equal(parse_err(&o, 2, a8, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: unknown option '-duration' (did you mean --duration?)\n");
    char *a9[] = { "-y" };
    assert_int_equal(parse_err(&o, 1, a9, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: unknown option '-y' (see rtjitter test --help)\n");
    /* A value may start with a dash when it is attached: -s-x, --str=-x. */
    char *a10[] = { "-s-x" };
    assert_int_equal(parse(&o, 1, a10), 0);
    assert_string_equal(o.s, "-x");
}

static void test_prefixes_and_typos(void **state)
{
    (void)state;
    struct o o;
    char err[512];
    char *a1[] = { "--dur", "3", "--fla", "--co=red" };
    assert_int_equal(parse(&o, 4, a1), 0);
    assert_true(o.d == 3 && o.flag == 1);
    assert_string_equal(o.c, "red");
    /* An exact name wins over the longer names it starts. */
    struct o o2;
    char *a2[] = { "--dsp", "4" };
    assert_int_equal(parse(&o2, 2, a2), 0);
    assert_true(o2.d == 4);
    char *a3[] = { "--d", "3" };
    assert_int_equal(parse_err(&o, 2, a3, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: option '--d' is ambiguous: --dbl --duration --dsp\n");
    char *a4[] = { "--fl" };
    assert_int_equal(parse_err(&o, 1, a4, err, sizeof(err)), -1);
    CONTAINS(err, "ambiguous: --flag --flog");
    char *a5[] = { "--he" };
    assert_int_equal(parse(&o, 1, a5), 1);
    char *a6[] = { "--duraton", "3" };
    assert_int_equal(parse_err(&o, 2, a6, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: unknown option '--duraton' (did you mean --duration?)\n");
    char *a7[] = { "--nmu=3" };
    assert_int_equal(parse_err(&o, 1, a7, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: unknown option '--nmu' (did you mean --num?)\n");
    char *a8[] = { "--zzzzzz" };
    assert_int_equal(parse_err(&o, 1, a8, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: unknown option '--zzzzzz' (see rtjitter test --help)\n");
    char *a9[] = { "--hlep" };
    assert_int_equal(parse_err(&o, 1, a9, err, sizeof(err)), -1);
    CONTAINS(err, "did you mean --help?");
    /* The long form's value is never the next option either. */
    char *a10[] = { "--str", "-q" };
    assert_int_equal(parse_err(&o, 2, a10, err, sizeof(err)), -1);
    assert_string_equal(err, "rtjitter test: --str needs a value (S), not the option '-q'\n");
    assert_int_equal(opts_distance("duraton", "duration"), 1);
    assert_int_equal(opts_distance("lable", "label"), 1);
    assert_int_equal(opts_distance("", "abc"), 3);
}

static void test_double_dash_and_stdin(void **state)
{
    (void)state;
    struct o o;
    const char *pos[2];
    int np = 0;
    char *a[] = { "-q", "--", "-n", "--flag" };
    memset(&o, 0, sizeof(o));
    assert_int_equal(opts_parse("test", defs, &o, 4, a, pos, 2, &np), 0);
    assert_int_equal(np, 2);
    assert_string_equal(pos[0], "-n");
    assert_string_equal(pos[1], "--flag");
    assert_int_equal(o.n, 0);
    char *b[] = { "-" };
    assert_int_equal(opts_parse("test", defs, &o, 1, b, pos, 2, &np), 0);
    assert_int_equal(np, 1);
    assert_string_equal(pos[0], "-");
}

/* Every subcommand: the table main.c dispatches through (commands.c). */
static const struct cli_command *const *const commands = cli_commands;

/* Every subcommand's options, as the parser sees them: no long name or short letter twice in one command, none
 * that takes -h (help) or -V (the version), and a help line, a metavar for a value, each. */
static void test_real_tables(void **state)
{
    (void)state;
    for (size_t c = 0; commands[c]; c++) {
        struct opt_section s[CLI_MAX_SECTIONS];
        size_t n = cli_sections(commands[c], s, CLI_MAX_SECTIONS);
        assert_true(n >= 1);
        assert_null(s[0].title);
        const char *names[128];
        char letters[128];
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            for (const struct opt_def *d = s[i].defs; d->name; d++) {
                assert_true(k < 128);
                assert_true(d->help && d->help[0] && d->metavar);
                if (d->type != OPT_FLAG && !d->metavar[0])
                    fail_msg("rtjitter %s --%s: a value without a metavar", commands[c]->name, d->name);
                if (d->short_name == 'h' || d->short_name == 'V')
                    fail_msg("rtjitter %s --%s takes -%c", commands[c]->name, d->name, d->short_name);
                int dup_name = 0;
                for (size_t j = 0; j < k; j++) {
                    dup_name |= strcmp(names[j], d->name) == 0;
                    if (d->short_name && letters[j] == d->short_name && strcmp(names[j], d->name) != 0)
                        fail_msg("rtjitter %s: -%c is both --%s and --%s", commands[c]->name, d->short_name,
                                 names[j], d->name);
                }
                /* A backend's option that another backend has too is one option (cmd_run merges them). */
                if (dup_name && i == 0)
                    fail_msg("rtjitter %s: --%s twice", commands[c]->name, d->name);
                names[k] = d->name;
                letters[k++] = d->short_name;
            }
    }
    /* The short options the issue promised, where a jackd or cyclictest user expects them. */
    struct opt_section s[CLI_MAX_SECTIONS];
    size_t n = cli_sections(&cmd_run_info, s, CLI_MAX_SECTIONS);
    const char *want[][2] = { { "device", "d" }, { "rate", "r" }, { "period", "p" }, { "nperiods", "n" },
                              { "duration", "D" }, { "quiet", "q" } };
    for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
        int found = 0;
        for (size_t i = 0; i < n; i++)
            for (const struct opt_def *d = s[i].defs; d->name; d++)
                if (strcmp(d->name, want[w][0]) == 0)
                    found = d->short_name == want[w][1][0];
        if (!found)
            fail_msg("rtjitter run --%s is not -%s", want[w][0], want[w][1]);
    }
}

/* The man page and the completion name every option of every command (they are made from the same tables). */
/* Durations: the parser alone against figures worked out by hand, then through the table (-T, --time). */
static void test_durations(void **state)
{
    (void)state;
    static const struct { const char *in; double secs; } good[] = {
        { "2", 2 }, { "2s", 2 }, { "1.5m", 90 }, { "30m", 1800 }, { "1h", 3600 }, { "500ms", 0.5 },
        { "0.25", 0.25 }, { ".5s", 0.5 }, { "10min", 600 }, { "0", 0 }, { "1.5h", 5400 },
    };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        double v = -1;
        char err[160] = "";
        assert_int_equal(opts_parse_duration(good[i].in, &v, err, sizeof(err)), 0);
        if (v != good[i].secs)
            fail_msg("%s: %g s, not %g", good[i].in, v, good[i].secs);
    }
    static const char *const bad[] = { "", "2x", "-1s", "-1", "s", "ms", "1e3", "0x10", "inf", "nan", "1.2.3", ".",
                                       "2 s", " 2s", "2S", "1e400", "99999999999999999999999999999h", "2sm",
                                       "123456789012345678901234567890123456789012345678901234567890" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        double v = -7;
        char err[160] = "";
        if (opts_parse_duration(bad[i], &v, err, sizeof(err)) != -1)
            fail_msg("'%s' was taken as %g s", bad[i], v);
        assert_true(v == -7);
        assert_true(err[0] != '\0' && !strchr(err, '\n'));
    }
    struct o o;
    char *a1[] = { "-T", "2s" }, *a2[] = { "--time=1.5m" }, *a3[] = { "-T500ms" }, *a4[] = { "--time", "3" };
    assert_int_equal(parse(&o, 2, a1), 0);
    assert_true(o.d == 2);
    assert_int_equal(parse(&o, 1, a2), 0);
    assert_true(o.d == 90);
    assert_int_equal(parse(&o, 1, a3), 0);
    assert_true(o.d == 0.5);
    assert_int_equal(parse(&o, 2, a4), 0);
    assert_true(o.d == 3);
    /* the table's range, in seconds: 0.4 s and 25 h are out of it, whatever the unit */
    char *b1[] = { "-T", "400ms" }, *b2[] = { "--time", "25h" }, *b3[] = { "-T", "2x" }, *b4[] = { "-T", "-1s" },
         *b5[] = { "--time=" };
    assert_int_equal(parse(&o, 2, b1), -1);
    assert_int_equal(parse(&o, 2, b2), -1);
    assert_int_equal(parse(&o, 2, b3), -1);
    assert_int_equal(parse(&o, 2, b4), -1);
    assert_int_equal(parse(&o, 1, b5), -1);
}

static void test_generated_docs(void **state)
{
    (void)state;
    char *man = NULL, *comp = NULL;
    size_t ml = 0, cl = 0;
    FILE *f = open_memstream(&man, &ml);
    assert_int_equal(manpage_write(f, commands), 0);
    fclose(f);
    f = open_memstream(&comp, &cl);
    assert_int_equal(completion_write(f, commands), 0);
    fclose(f);
    for (size_t c = 0; commands[c]; c++) {
        char want[160];
        snprintf(want, sizeof(want), ".SS \"rtjitter %s ", commands[c]->name);
        CONTAINS(man, want);
        snprintf(want, sizeof(want), "\n    %s)\n", commands[c]->name);
        CONTAINS(comp, want);
        struct opt_section s[CLI_MAX_SECTIONS];
        size_t n = cli_sections(commands[c], s, CLI_MAX_SECTIONS);
        for (size_t i = 0; i < n; i++)
            for (const struct opt_def *d = s[i].defs; d->name; d++) {
                char roffname[100], *o = roffname;
                for (const char *p = d->name; *p && o < roffname + 90; p++) {
                    if (*p == '-')
                        *o++ = '\\';
                    *o++ = *p;
                }
                *o = '\0';
                snprintf(want, sizeof(want), "\\fB\\-\\-%s\\fR", roffname);
                CONTAINS(man, want);
                snprintf(want, sizeof(want), " --%s", d->name);
                CONTAINS(comp, want);
            }
    }
    CONTAINS(man, ".SH NAME\nrtjitter \\- ");
    CONTAINS(man, "\\fB\\-p\\fR, \\fB\\-\\-period\\fR \\fIFRAMES\\fR");
    free(man);
    free(comp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_values),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_help_and_positionals),
        cmocka_unit_test(test_short_options),
        cmocka_unit_test(test_prefixes_and_typos),
        cmocka_unit_test(test_double_dash_and_stdin),
        cmocka_unit_test(test_real_tables),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_generated_docs),
    };
    return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
