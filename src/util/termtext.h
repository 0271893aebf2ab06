/* SPDX-License-Identifier: GPL-2.0-or-later */
/* termtext: the one way text from outside (a report's label, hostname, warnings, load_error, a file's name, a
 * parser's error that quotes a file) reaches a terminal. A terminal obeys the bytes it is given: ESC ] 0 ; ... BEL
 * sets its window title, ESC [ 31 m leaves the text red, U+202E turns the rest of the line around. So every
 * character a terminal would act on is shown visibly instead, as the HTML form escapes its markup:
 *   C0 controls (U+0000..U+001F) and DEL: \e for ESC, \n, \r and \t, \xHH for the others;
 *   C1 controls (U+0080..U+009F) and the bidirectional embeddings, overrides and isolates (U+202A..U+202E,
 *   U+2066..U+2069): \uHHHH;
 *   a byte that starts no well-formed UTF-8 character (utf8_char()): \xHH.
 * Everything else, multibyte text included, is kept as it is. The newlines and tabs a renderer writes itself are
 * its own: only the text it was given goes through here. */
#ifndef RTJ_TERMTEXT_H
#define RTJ_TERMTEXT_H
#include <jansson.h>
#include <stddef.h>

/* The longest visible form of one character: "\u202e". */
#define TERM_ESC_MAX 6

/* Whether the n bytes at s show as themselves (nothing in them needs an escape). */
int term_clean_n(const char *s, size_t n);
int term_clean(const char *s);
/* The visible form of s, malloc'd; s itself duplicated when clean. NULL when s is NULL or memory ran out. */
char *term_safe(const char *s);
/* The visible form of s into buf (len bytes, always terminated when len > 0); an escape is never cut in two: what
 * does not fit is left out whole. Returns buf, for a printf argument. */
const char *term_str(char *buf, size_t len, const char *s);
/* buf (len bytes, terminated) replaced by its visible form, cut to fit as term_str() cuts: for a reader's error
 * message, which may quote the file (jansson's "near '...'", a key's name). Returns buf. */
char *term_fix(char *buf, size_t len);
/* doc with every string and every object key in its visible form: a new reference to doc itself when all are
 * clean (the common case costs one walk, no copy), else a copy that shares every clean part. NULL only when
 * memory ran out. The text renderers' entry points take their document through it. */
json_t *term_safe_json(const json_t *doc);

#endif
