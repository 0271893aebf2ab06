/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wrap: the one way human prose reaches a terminal at its width (check lines, --help, a report's verdict and
 * notes, compare's text). The width is wrap_width()'s: the terminal's (TIOCGWINSZ) when the stream is one, else
 * $COLUMNS when it is a number from 20 to 1000, else 80. Text breaks at spaces; continuation lines are indented
 * (a hanging indent, to where the text started); columns are code points, and the SGR sequences of a palette
 * (ESC [ ... m) count none. A command the user is told to type is written between WRAP_CMD_ON and WRAP_CMD_OFF
 * (the WRAP_CMD() macro): the wrapper never breaks it, moving it whole to the next line, and drops the marks.
 * Text that leaves rtjitter in another form (JSON, TAP, JUnit) goes through wrap_unmark() first, so the marks
 * never reach a file. Machine formats never come here. */
#ifndef RTJ_WRAP_H
#define RTJ_WRAP_H
#include <stddef.h>
#include <stdio.h>

#define WRAP_CMD_ON "\x1e"
#define WRAP_CMD_OFF "\x1f"
/* A literal command in a message: WRAP_CMD("sudo apt install rtkit"), or WRAP_CMD("sysctl %s=%d") in a format. */
#define WRAP_CMD(s) WRAP_CMD_ON s WRAP_CMD_OFF

#define WRAP_DEFAULT_WIDTH 80
#define WRAP_MIN_WIDTH 20
#define WRAP_MAX_WIDTH 1000

/* The columns text to f must fit: f's terminal's width when f is a terminal, else $COLUMNS when it is a whole
 * number from WRAP_MIN_WIDTH to WRAP_MAX_WIDTH, else WRAP_DEFAULT_WIDTH. */
int wrap_width(FILE *f);
/* The columns of the terminal f is, 0 when f is no terminal or its size is not known (a pty nobody sized): for a
 * status line redrawn in place with "\r", which must never reach the terminal's last column (a wrapped line is
 * not redrawn, it piles up). */
int wrap_tty_width(FILE *f);
/* s cut in place to at most cols code points (a UTF-8 character is never cut in two); cols <= 0 leaves s whole. */
void wrap_cut(char *s, int cols);
/* Display columns of UTF-8 text: one per code point; SGR sequences and the command marks count none. */
int wrap_cols(const char *s);
/* `first` (printed as it is: a tag, a label, an indent) then text wrapped at width columns, the continuation lines
 * indented by indent spaces, and a newline. Spaces and newlines in text separate words; a word longer than a line
 * (a path, a marked command) is printed whole on a line of its own; a unit after a space ("80 %") stays with its
 * number. */
void wrap_text(FILE *f, const char *first, int indent, int width, const char *text);
/* A block of paragraphs (a command's description): blank lines separate paragraphs, the lines of a paragraph are
 * joined and wrapped again; a line that starts with a space or "- " starts a block of its own, its continuations
 * indented to its text. */
void wrap_paragraphs(FILE *f, int width, const char *text);
/* s without its command marks, in place. Returns s. */
char *wrap_unmark(char *s);
/* Whether s holds a command mark. */
int wrap_marked(const char *s);

#endif
