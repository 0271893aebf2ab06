/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The prose wrapper (util/wrap.c): each expected layout is written out by hand. Lines never pass the width but
 * for a word longer than a line; continuation lines hang at the indent; columns are code points (µ is one) and
 * colour sequences none; a marked command moves whole to the next line, or, wider than a line, continues on
 * lines the shell joins (bash reads it back as the one command); the marks never reach the output; the width is
 * the terminal's, else $COLUMNS when sane, else 80. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/wrap.h"

/* wrap_text() into a string (malloc'd). */
static __attribute__((noinline)) char *wrapped(const char *first, int indent, int width, const char *text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    wrap_text(f, first, indent, width, text);
    fclose(f);
    return buf;
}

static void expect(const char *first, int indent, int width, const char *text, const char *want)
{
    char *got = wrapped(first, indent, width, text);
    if (strcmp(got, want))
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    free(got);
}

static void test_hanging_indent(void **state)
{
    (void)state;
    expect("  WARN  ", 8, 30, "Real-time throttling: on: kernel.sched_rt_runtime_us is 950000",
           "  WARN  Real-time throttling:\n"
           "        on:\n"
           "        kernel.sched_rt_runtime_us\n"
           "        is 950000\n");
    expect("", 2, 20, "one two three four five six seven", "one two three four\n  five six seven\n");
    /* newlines and runs of spaces in the text separate words like one space */
    expect("", 0, 20, "a  b\nc", "a b c\n");
    /* a unit after a space stays with its number */
    expect("", 0, 20, "a share of about 80 %", "a share of about\n80 %\n");
    /* a word longer than a line is printed whole, on a line of its own */
    expect("x: ", 3, 20, "see /a/very/long/path/that/does/not/fit here",
           "x: see\n   /a/very/long/path/that/does/not/fit\n   here\n");
}

static void test_columns(void **state)
{
    (void)state;
    assert_int_equal(wrap_cols("µs ±"), 4);
    assert_int_equal(wrap_cols("\033[33mWARN\033[0m"), 4);
    assert_int_equal(wrap_cols(WRAP_CMD("ls -l")), 5);
    /* "µµµµ µµµµ" is 9 columns (18 bytes): it fits 9 */
    expect("", 0, 20, "µµµµµµµµµ µµµµµµµµµ µ", "µµµµµµµµµ µµµµµµµµµ\nµ\n");
    /* the colour of a tag counts nothing */
    expect("\033[33mWARN\033[0m  ", 6, 20, "aaaa bbbb cccc dddd", "\033[33mWARN\033[0m  aaaa bbbb cccc\n      dddd\n");
}

static void test_commands(void **state)
{
    (void)state;
    /* a command moves whole to the next line; its marks are not printed */
    expect("fix: ", 5, 34, "run it as root (or " WRAP_CMD("rtjitter check --user NAME") "), not as root",
           "fix: run it as root (or\n     rtjitter check --user NAME),\n     not as root\n");
    /* a command wider than a line: broken at spaces outside quotes, " \\" at each line's end */
    expect("fix: ", 5, 40, WRAP_CMD("echo 'a b c d e f g h i j k' | sudo tee /etc/x/y.conf") ", then",
           "fix: echo 'a b c d e f g h i j k' | \\\n"
           "       sudo tee /etc/x/y.conf, then\n");
    char *got = wrapped("", 0, 24, "type " WRAP_CMD("printf '%s\\n' 'one two three' four five six seven"));
    assert_null(strchr(got, WRAP_CMD_ON[0]));
    assert_null(strchr(got, WRAP_CMD_OFF[0]));
    /* bash reads the continued lines back as the one command */
    char *cmd = strstr(got, "printf");
    assert_non_null(cmd);
    char sh[512];
    snprintf(sh, sizeof(sh), "bash -c \"$(cat <<'EOF'\n%s\nEOF\n)\"", cmd);
    FILE *p = popen(sh, "r");
    assert_non_null(p);
    char out[128] = "";
    size_t n = fread(out, 1, sizeof(out) - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_string_equal(out, "one two three\nfour\nfive\nsix\nseven\n");
    free(got);
}

static void test_paragraphs(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    wrap_paragraphs(f, 20, "one two three\nfour five six\n\n- a list item that wraps\n  plain indented");
    fclose(f);
    assert_string_equal(buf, "one two three four\nfive six\n\n- a list item that\n  wraps\n  plain indented\n");
    free(buf);
}

static void test_unmark_and_width(void **state)
{
    (void)state;
    char s[] = "a " WRAP_CMD("b c") " d";
    assert_true(wrap_marked(s));
    assert_string_equal(wrap_unmark(s), "a b c d");
    assert_false(wrap_marked(s));
    FILE *f = tmpfile(); /* not a terminal */
    assert_non_null(f);
    unsetenv("COLUMNS");
    assert_int_equal(wrap_width(f), 80);
    setenv("COLUMNS", "132", 1);
    assert_int_equal(wrap_width(f), 132);
    setenv("COLUMNS", "5", 1); /* not sane: the default */
    assert_int_equal(wrap_width(f), 80);
    setenv("COLUMNS", "90x", 1);
    assert_int_equal(wrap_width(f), 80);
    /* a status line's width: a file is no terminal, whatever $COLUMNS says (nothing to fit) */
    setenv("COLUMNS", "60", 1);
    assert_int_equal(wrap_tty_width(f), 0);
    unsetenv("COLUMNS");
    fclose(f);
    /* cut to code points, a character never cut in two; 0 keeps it whole */
    char u[] = "worst jitter 12 \u00b5s";
    wrap_cut(u, 17);
    assert_string_equal(u, "worst jitter 12 \u00b5");
    wrap_cut(u, 0);
    assert_string_equal(u, "worst jitter 12 \u00b5");
    wrap_cut(u, 5);
    assert_string_equal(u, "worst");
    assert_int_equal(wrap_cols(u), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hanging_indent), cmocka_unit_test(test_columns), cmocka_unit_test(test_commands),
        cmocka_unit_test(test_paragraphs), cmocka_unit_test(test_unmark_and_width),
    };
    return cmocka_run_group_tests_name("wrap", tests, NULL, NULL);
}
