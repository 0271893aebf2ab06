/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/util/: small helpers with no knowledge of rtjitter's documents or runs. A file here may include libc and
 * jansson, never a header of another src/ folder; any folder may include it.
 *
 * utf8: the one strict UTF-8 check, and the one way text from outside (labels, command lines, file names, load
 * output, /proc and /sys strings) becomes a JSON string. jansson refuses invalid UTF-8 by returning NULL, which a
 * json_object_set_new() then drops without a word: a key would vanish from a report. So such text goes through
 * utf8_json_string(), which replaces what is not UTF-8 instead. */
#ifndef RTJ_UTF8_H
#define RTJ_UTF8_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* U+FFFD REPLACEMENT CHARACTER, in UTF-8. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* Length (1 to 4) of the well-formed UTF-8 character at s[0 .. avail), or 0 when there is none: a NUL byte,
 * a stray continuation byte, an overlong form (C0 80, E0 80 80), a UTF-16 surrogate (ED A0 80), a code point
 * above U+10FFFF, or a sequence cut short. *cp gets the code point (cp may be NULL). */
size_t utf8_char(const char *s, size_t avail, uint32_t *cp);
/* Whether the n bytes at s are well-formed UTF-8 with no NUL. */
int utf8_valid_n(const char *s, size_t n);
/* The same, for a NUL-terminated string. */
int utf8_valid(const char *s);
/* A malloc'ed copy of s in which every byte that starts no well-formed character became U+FFFD. NULL only when
 * s is NULL or memory ran out. */
char *utf8_sanitize(const char *s);
/* A JSON string of s with every invalid byte replaced by U+FFFD; json null when s is NULL. NULL only when
 * memory ran out. */
json_t *utf8_json_string(const char *s);
/* In place: drops every byte that starts no well-formed character. For a buffer filled by snprintf from valid
 * text, where a precision ("%.80s") or the buffer's end may have cut a character in two. */
void utf8_trim(char *s);
/* s into dst (cap bytes, always terminated), whole when it fits; else its start and its end with "..." between
 * them, cut between characters: a message's reason, at its end, survives a long path in its middle. */
void utf8_fit(char *dst, size_t cap, const char *s);
/* The longest prefix of s, at most max bytes, that does not end inside a character ("%.*s" with it never cuts
 * one). */
int utf8_prefix(const char *s, size_t max);

#endif
