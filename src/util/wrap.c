/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wrapping prose to the terminal's width: see wrap.h. */
#include "util/wrap.h"
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int wrap_width(FILE *f)
{
    int fd = f ? fileno(f) : -1;
    struct winsize ws;
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col < WRAP_MAX_WIDTH ? ws.ws_col : WRAP_MAX_WIDTH;
    const char *cols = getenv("COLUMNS");
    char *end = NULL;
    long c = cols && *cols ? strtol(cols, &end, 10) : 0;
    if (end && !*end && c >= WRAP_MIN_WIDTH && c <= WRAP_MAX_WIDTH)
        return (int)c;
    return WRAP_DEFAULT_WIDTH;
}

int wrap_tty_width(FILE *f)
{
    int fd = f ? fileno(f) : -1;
    struct winsize ws;
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0)
        return ws.ws_col;
    return 0;
}

void wrap_cut(char *s, int cols)
{
    if (cols <= 0)
        return;
    int n = 0;
    for (size_t i = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            continue; /* a continuation byte belongs to the character counted at its lead */
        if (n++ == cols) {
            s[i] = 0;
            return;
        }
    }
}

/* Length of the SGR sequence (ESC [ digits/semicolons m) at s, 0 when there is none. */
static size_t sgr_len(const char *s)
{
    if (s[0] != '\033' || s[1] != '[')
        return 0;
    size_t i = 2;
    while ((s[i] >= '0' && s[i] <= '9') || s[i] == ';')
        i++;
    return s[i] == 'm' ? i + 1 : 0;
}

static int is_mark(char c)
{
    return c == WRAP_CMD_ON[0] || c == WRAP_CMD_OFF[0];
}

/* Columns of the n bytes at s. */
static int cols_n(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n && s[i];) {
        size_t k = sgr_len(s + i);
        if (k) {
            i += k;
            continue;
        }
        if (!is_mark(s[i]) && ((unsigned char)s[i] & 0xc0) != 0x80)
            w++;
        i++;
    }
    return w;
}

int wrap_cols(const char *s)
{
    return s ? cols_n(s, strlen(s)) : 0;
}

/* The n bytes at s, without the marks. */
static void put_word(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_mark(s[i]))
            fputc(s[i], f);
}

/* The end of the word at p: the next space or newline outside a marked command. */
static const char *word_end(const char *p)
{
    int in_cmd = 0;
    for (; *p; p++) {
        if (*p == WRAP_CMD_ON[0])
            in_cmd = 1;
        else if (*p == WRAP_CMD_OFF[0])
            in_cmd = 0;
        else if (!in_cmd && (*p == ' ' || *p == '\n'))
            break;
    }
    return p;
}

/* A marked command wider than a line, from a fresh line at column *col: broken at its spaces outside quotes, each
 * line but the last ending in " \" (the shell joins them: pasted, it is still the one command), the lines after
 * the first indented 2 more. A command with no such space is printed whole. */
static void put_long_cmd(FILE *f, const char *p, const char *e, int indent, int width, int *col)
{
    char quote = 0;
    int line_start = 1;
    while (p < e) {
        /* the next token: up to a space outside quotes */
        const char *t = p;
        for (; t < e; t++) {
            if (quote) {
                if (*t == quote)
                    quote = 0;
            } else if (*t == '\'' || *t == '"') {
                quote = *t;
            } else if (*t == ' ') {
                break;
            }
        }
        int tw = cols_n(p, (size_t)(t - p));
        int last = t >= e;
        if (!line_start && *col + 1 + tw + (last ? 0 : 2) > width) {
            fprintf(f, " \\\n%*s", indent + 2, "");
            *col = indent + 2;
            line_start = 1;
        }
        if (!line_start) {
            fputc(' ', f);
            (*col)++;
        }
        put_word(f, p, (size_t)(t - p));
        *col += tw;
        line_start = 0;
        p = t < e ? t + 1 : t;
    }
}

void wrap_text(FILE *f, const char *first, int indent, int width, const char *text)
{
    first = first ? first : "";
    int col = wrap_cols(first), at_start = 1;
    if (indent < 0)
        indent = 0;
    if (width < WRAP_MIN_WIDTH)
        width = WRAP_MIN_WIDTH;
    if (indent > width / 2) /* a hanging indent that would leave no room for the words */
        indent = width / 2;
    fputs(first, f);
    for (const char *p = text ? text : ""; *p;) {
        while (*p == ' ' || *p == '\n')
            p++;
        const char *e = word_end(p);
        if (e == p)
            break;
        int ww = cols_n(p, (size_t)(e - p));
        /* "80 %": a unit sign after a space stays with its number (the line breaks before both) */
        const char *n = e;
        while (*n == ' ')
            n++;
        int glue = 0;
        if (*n == '%' && n > e)
            glue = 1 + cols_n(n, (size_t)(word_end(n) - n));
        if (ww > width - indent && memchr(p, WRAP_CMD_ON[0], (size_t)(e - p))) {
            /* a command wider than any line: on lines of its own, joined by the shell */
            if (!at_start || col > indent)
                fprintf(f, "\n%*s", indent, "");
            col = indent;
            put_long_cmd(f, p, e, indent, width, &col);
            at_start = 0;
            p = e;
            continue;
        }
        if (!at_start && col + 1 + ww + glue > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            at_start = 1;
        }
        if (!at_start) {
            fputc(' ', f);
            col++;
        }
        put_word(f, p, (size_t)(e - p));
        col += ww;
        at_start = 0;
        p = e;
    }
    fputc('\n', f);
}

void wrap_paragraphs(FILE *f, int width, const char *text)
{
    const char *p = text ? text : "";
    char *block = malloc(strlen(p) + 1);
    if (!block) { /* no memory to join the lines: the text as it was written */
        fprintf(f, "%s\n", p);
        return;
    }
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == 0) { /* a blank line between paragraphs */
            fputc('\n', f);
            p += nl ? 1 : 0;
            continue;
        }
        /* the block: this line, then the lines after it that continue it (no blank, no indent, no "- ") */
        int lead = 0;
        while (p[lead] == ' ')
            lead++;
        int hang = lead + (strncmp(p + lead, "- ", 2) == 0 ? 2 : 0);
        size_t o = 0;
        for (;;) {
            memcpy(block + o, p, len);
            o += len;
            p += len;
            if (!*p)
                break;
            p++; /* the newline */
            if (!*p || *p == '\n' || *p == ' ' || strncmp(p, "- ", 2) == 0)
                break;
            block[o++] = ' ';
            nl = strchr(p, '\n');
            len = nl ? (size_t)(nl - p) : strlen(p);
        }
        block[o] = '\0';
        char first[64];
        snprintf(first, sizeof(first), "%*s", lead < 60 ? lead : 60, "");
        wrap_text(f, first, hang, width, block + lead);
    }
    free(block);
}

char *wrap_unmark(char *s)
{
    if (!s)
        return s;
    char *o = s;
    for (const char *p = s; *p; p++)
        if (!is_mark(*p))
            *o++ = *p;
    *o = '\0';
    return s;
}

int wrap_marked(const char *s)
{
    return s && strpbrk(s, WRAP_CMD_ON WRAP_CMD_OFF) != NULL;
}
