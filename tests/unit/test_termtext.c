/* SPDX-License-Identifier: GPL-2.0-or-later */
/* term_safe() and its kin against visible forms written out by hand: every C0 control, DEL, every C1 control
 * (as UTF-8 it is two bytes, C2 80 .. C2 9F), every bidirectional embedding, override and isolate, the code
 * points just beside those ranges (kept), multibyte text (kept), and bytes that are not UTF-8 (\xHH). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/termtext.h"

static void expect(const char *in, const char *want)
{
    char *got = term_safe(in);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_int_equal(term_clean(in), strcmp(in, want) == 0);
    free(got);
}

static void test_attacks(void **state)
{
    (void)state;
    expect("\x1b]0;pwned\x07", "\\e]0;pwned\\x07");          /* sets the window title */
    expect("\x1b[31mred", "\\e[31mred");                        /* colours what follows */
    expect("a\nb\rc\td", "a\\nb\\rc\\td");
    expect("\x7f", "\\x7f");
    expect("\xc2\x9b" "31m", "\\u009b31m");                     /* C1 CSI: ESC [ in one character */
    expect("\xc2\x9d" "0;t\xc2\x9c", "\\u009d0;t\\u009c");      /* C1 OSC ... ST */
    expect("abc\xe2\x80\xae" "fdp.exe", "abc\\u202efdp.exe");   /* RIGHT-TO-LEFT OVERRIDE */
}

static void test_every_c0_and_c1(void **state)
{
    (void)state;
    static const char *const c0[32] = {
        NULL, "\\x01", "\\x02", "\\x03", "\\x04", "\\x05", "\\x06", "\\x07", "\\x08", "\\t", "\\n", "\\x0b",
        "\\x0c", "\\r", "\\x0e", "\\x0f", "\\x10", "\\x11", "\\x12", "\\x13", "\\x14", "\\x15", "\\x16", "\\x17",
        "\\x18", "\\x19", "\\x1a", "\\e", "\\x1c", "\\x1d", "\\x1e", "\\x1f",
    };
    for (int c = 1; c < 32; c++) {
        char in[2] = { (char)c, 0 };
        expect(in, c0[c]);
    }
    static const char hex[] = "0123456789abcdef";
    for (int c = 0x80; c <= 0x9f; c++) {
        char in[3] = { (char)0xc2, (char)c, 0 };
        char want[8] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0 };
        expect(in, want);
    }
    /* A NUL inside a JSON string ("\u0000") is a C0 control too: seen through the document walk below. */
}

static void test_bidi(void **state)
{
    (void)state;
    expect("\xe2\x80\xaa", "\\u202a"); expect("\xe2\x80\xab", "\\u202b"); expect("\xe2\x80\xac", "\\u202c");
    expect("\xe2\x80\xad", "\\u202d"); expect("\xe2\x80\xae", "\\u202e");
    expect("\xe2\x81\xa6", "\\u2066"); expect("\xe2\x81\xa7", "\\u2067"); expect("\xe2\x81\xa8", "\\u2068");
    expect("\xe2\x81\xa9", "\\u2069");
    /* their neighbours are text: U+2029, U+202F (narrow no-break space), U+2065, U+206A */
    expect("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa", "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
}

static void test_text_kept(void **state)
{
    (void)state;
    expect("", "");
    expect("plain ASCII ~ !\"#$%&'()*+,-./\\", "plain ASCII ~ !\"#$%&'()*+,-./\\");
    expect("µs ± → ≥ Grüße 日本 \xf0\x9f\x8e\xb5 \xc2\xa0", "µs ± → ≥ Grüße 日本 \xf0\x9f\x8e\xb5 \xc2\xa0");
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    expect("\xff", "\\xff");
    expect("a\xc0\x80z", "a\\xc0\\x80z");            /* overlong NUL */
    expect("\xed\xa0\x80", "\\xed\\xa0\\x80");       /* a surrogate */
    expect("cut \xe2\x86", "cut \\xe2\\x86");        /* cut short at the end */
    expect("\xc2\x1b[0m", "\\xc2\\e[0m");           /* cut short by an ESC: both seen */
}

static void test_bounded(void **state)
{
    (void)state;
    char buf[8];
    assert_string_equal(term_str(buf, sizeof(buf), "ab\x1b[1m"), "ab\\e[1m"); /* 7 bytes and the NUL */
    assert_string_equal(term_str(buf, sizeof(buf), "abcdef\x1b"), "abcdef"); /* "\e" does not fit: left out whole */
    assert_string_equal(term_str(buf, 5, "ab\xe2\x86\x92"), "ab");           /* "→" does not fit whole */
    assert_string_equal(term_str(buf, sizeof(buf), NULL), "");
    assert_string_equal(term_str(buf, 1, "abc"), "");
}

static void test_document(void **state)
{
    (void)state;
    json_error_t e;
    json_t *clean = json_loads("{\"label\": \"µs\", \"n\": [1, 2.5, true, null, \"x\"]}", 0, &e);
    assert_non_null(clean);
    json_t *same = term_safe_json(clean);
    assert_ptr_equal(same, clean); /* nothing to change: no copy */
    json_decref(same);
    json_t *doc = json_loads("{\"label\": \"\\u001b]0;t\\u0007\", \"system\": {\"hostname\": \"h\\u202e\","
                             " \"cpu\": {\"model\": \"m\"}}, \"warnings\": [\"ok\", \"\\u009b1m\", \"a\\u0000b\"],"
                             " \"k\\u001bey\": 7}", JSON_ALLOW_NUL, &e);
    assert_non_null(doc);
    json_t *s = term_safe_json(doc);
    assert_non_null(s);
    assert_ptr_not_equal(s, doc);
    assert_string_equal(json_string_value(json_object_get(s, "label")), "\\e]0;t\\x07");
    assert_string_equal(json_string_value(json_object_get(json_object_get(s, "system"), "hostname")), "h\\u202e");
    assert_ptr_equal(json_object_get(json_object_get(s, "system"), "cpu"),
                     json_object_get(json_object_get(doc, "system"), "cpu")); /* clean parts are shared */
    const json_t *w = json_object_get(s, "warnings");
    assert_int_equal(json_array_size(w), 3);
    assert_string_equal(json_string_value(json_array_get(w, 0)), "ok");
    assert_string_equal(json_string_value(json_array_get(w, 1)), "\\u009b1m");
    assert_string_equal(json_string_value(json_array_get(w, 2)), "a\\x00b");
    assert_int_equal(json_integer_value(json_object_get(s, "k\\eey")), 7);
    assert_null(json_object_get(s, "k\x1b" "ey"));
    /* the original is untouched */
    assert_string_equal(json_string_value(json_object_get(doc, "label")), "\x1b]0;t\x07");
    json_decref(s);
    json_decref(doc);
    json_decref(clean);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attacks),       cmocka_unit_test(test_every_c0_and_c1),
        cmocka_unit_test(test_bidi),          cmocka_unit_test(test_text_kept),
        cmocka_unit_test(test_invalid_utf8),  cmocka_unit_test(test_bounded),
        cmocka_unit_test(test_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
