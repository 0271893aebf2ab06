/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one UTF-8 check against the byte sequences of Unicode's table of well-formed UTF-8 and Markus Kuhn's
 * decoder stress test: overlong forms, surrogates, code points above U+10FFFF, sequences cut short. jansson's
 * own validator is a second, independent judge of every sequence. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "util/utf8.h"
#define REPL "\xef\xbf\xbd" /* U+FFFD, written out here rather than taken from util/utf8.h */

struct seq {
    const char *bytes;
    size_t len;     /* length of the character, 0 when invalid */
    uint32_t cp;
};

static const struct seq valid[] = {
    { "a", 1, 0x61 }, { "\x7f", 1, 0x7f }, { "\xc2\x80", 2, 0x80 }, { "\xc2\xb5", 2, 0xb5 },
    { "\xdf\xbf", 2, 0x7ff }, { "\xe0\xa0\x80", 3, 0x800 }, { "\xe2\x86\x92", 3, 0x2192 },
    { "\xed\x9f\xbf", 3, 0xd7ff }, { "\xee\x80\x80", 3, 0xe000 }, { "\xef\xbf\xbd", 3, 0xfffd },
    { "\xef\xbf\xbf", 3, 0xffff }, { "\xf0\x90\x80\x80", 4, 0x10000 }, { "\xf0\x9f\x98\x80", 4, 0x1f600 },
    { "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
};

static const char *const invalid[] = {
    "\xc0\x80", "\xc1\xbf", "\xc0\xaf",                 /* overlong two-byte forms (of NUL, '/') */
    "\xe0\x80\x80", "\xe0\x9f\xbf",                     /* overlong three-byte */
    "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",             /* overlong four-byte */
    "\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xaf\xbf\xed\xbf\xbf", /* UTF-16 surrogates, alone and paired */
    "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf", /* above U+10FFFF */
    "\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80", "\xfe", "\xff", /* 5/6-byte forms, never bytes */
    "\x80", "\xbf", "\x80\x80",                         /* continuation bytes alone */
    "\xc2", "\xe2\x86", "\xf0\x9f\x98",                 /* cut short at the end */
    "\xc2 ", "\xe2\x86z", "\xf0\x9f\x98!",              /* cut short by another character */
};

static void test_valid_sequences(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
        uint32_t cp = 0;
        size_t n = strlen(valid[i].bytes);
        if (utf8_char(valid[i].bytes, n, &cp) != valid[i].len || cp != valid[i].cp)
            fail_msg("valid sequence %zu: length or code point wrong (U+%04X)", i, (unsigned)cp);
        assert_true(utf8_valid(valid[i].bytes));
        json_t *j = json_string(valid[i].bytes); /* jansson agrees */
        assert_non_null(j);
        json_decref(j);
    }
    assert_true(utf8_valid(""));
    assert_true(utf8_valid("µs → ± 日本 😀"));
}

static void test_invalid_sequences(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
        const char *s = invalid[i];
        if (utf8_valid(s))
            fail_msg("invalid sequence %zu (first byte %02x) accepted", i, (unsigned char)s[0]);
        assert_int_equal(utf8_char(s, strlen(s), NULL), 0);
        json_t *j = json_string(s); /* jansson refuses it too: the reason a lax check lost report keys */
        if (j)
            fail_msg("jansson accepts invalid sequence %zu: the test's premise is wrong", i);
        char in[32];
        snprintf(in, sizeof(in), "ok %s ok", s);
        assert_false(utf8_valid(in));
    }
    /* An embedded NUL is not text. */
    assert_false(utf8_valid_n("a\0b", 3));
    assert_true(utf8_valid_n("a\0b", 1));
    /* A character that runs past the bytes given is cut short. */
    assert_int_equal(utf8_char("\xe2\x86\x92", 2, NULL), 0);
    assert_int_equal(utf8_char("\xe2\x86\x92", 3, NULL), 3);
}

static void test_sanitize(void **state)
{
    (void)state;
    char *s = utf8_sanitize("c\xc0\x80.json");
    assert_string_equal(s, "c" REPL REPL ".json");
    free(s);
    s = utf8_sanitize("µs → ok");
    assert_string_equal(s, "µs → ok");
    free(s);
    s = utf8_sanitize("\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x86");
    assert_string_equal(s, REPL REPL REPL "|" REPL
                           REPL REPL REPL "|" REPL
                           REPL);
    free(s);
    assert_null(utf8_sanitize(NULL));
    /* Every invalid sequence comes out as text jansson accepts, never as NULL. */
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
        json_t *j = utf8_json_string(invalid[i]);
        assert_non_null(j);
        assert_true(json_is_string(j));
        assert_non_null(strstr(json_string_value(j), REPL));
        json_decref(j);
    }
    json_t *j = utf8_json_string("plain");
    assert_string_equal(json_string_value(j), "plain");
    json_decref(j);
    j = utf8_json_string(NULL);
    assert_true(json_is_null(j));
    json_decref(j);
}

static void test_trim_and_prefix(void **state)
{
    (void)state;
    char a[] = "ab\xc3", b[] = "x\xe2\x86y", c[] = "µs → ok", d[] = "\xc0\x80";
    utf8_trim(a);
    utf8_trim(b);
    utf8_trim(c);
    utf8_trim(d);
    assert_string_equal(a, "ab");
    assert_string_equal(b, "xy");
    assert_string_equal(c, "µs → ok");
    assert_string_equal(d, "");
    assert_int_equal(utf8_prefix("aé", 2), 1);  /* é is two bytes: not cut */
    assert_int_equal(utf8_prefix("aé", 3), 3);
    assert_int_equal(utf8_prefix("abc", 10), 3);
    assert_int_equal(utf8_prefix("a→b", 3), 1);
    assert_int_equal(utf8_prefix("\xffz", 1), 1); /* a stray byte is one byte: kept for the sanitizer */
    assert_int_equal(utf8_prefix("", 5), 0);
}

/* A message too long for its buffer keeps its start and its end (the reason), "..." between, cut between
 * characters; one that fits is whole. The expected strings are worked out by hand: of the room left beside
 * "..." (cap - 1 - 3), two fifths (rounded down, then back to a character's start) go to the start. */
static void test_fit(void **state)
{
    (void)state;
    char buf[32];
    utf8_fit(buf, sizeof(buf), "short: kept whole");
    assert_string_equal(buf, "short: kept whole");
    utf8_fit(buf, 18, "short: kept whole"); /* 17 bytes and the NUL: fits */
    assert_string_equal(buf, "short: kept whole");
    /* 52 bytes into 32: room 28, start 11, end 17 */
    utf8_fit(buf, sizeof(buf), "cannot create /a/very/long/path/indeed: No such file");
    assert_string_equal(buf, "cannot crea...eed: No such file");
    /* room 16: start 6 bytes (3 x é), end 10 bytes ("→ reason") */
    utf8_fit(buf, 20, "ééééééééééé→→→→→→→→→ reason");
    assert_string_equal(buf, "ééé...→ reason");
    /* room 15: the end's 9 bytes would start inside "→": it starts after it */
    utf8_fit(buf, 19, "ééééééééééé→→→→→→→→→ reason");
    assert_string_equal(buf, "ééé... reason");
    utf8_fit(buf, 5, "abcdefgh"); /* no room for both ends: the start */
    assert_string_equal(buf, "abcd");
    char self[40] = "012345678901234567890123456789012345678"; /* 39 */
    utf8_fit(self, 20, self); /* in place: room 16, start 6, end 10 */
    assert_string_equal(self, "012345...9012345678");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_sequences),
        cmocka_unit_test(test_invalid_sequences),
        cmocka_unit_test(test_sanitize),
        cmocka_unit_test(test_trim_and_prefix),
        cmocka_unit_test(test_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
