/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtjitter.1 and the bash completion, written from the table of subcommands, their option tables and the load
 * registry; the man pages' prose, files under doc/ (manpage_doc.c), through manpage_markup() and manpage_roff().
 * Nothing here names an option: a new option or command appears in both by itself. */
#include "cli/manpage.h"
#include "backend.h"
#include "load.h"
#include "verdict/profile.h"
#include <errno.h>
#include <string.h>

/* ---- roff ---- */

/* Text for a roff line: backslashes escaped, '-' as \- (a hyphen-minus, as typed), and a line that would start
 * with '.' or '\'' (a request) or a space protected by \&. */
static void roff(FILE *f, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\'' || *s == ' '))
            fputs("\\&", f);
        bol = 0;
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == '\n') {
            fputc('\n', f);
            bol = 1;
        } else
            fputc(*s, f);
    }
}

/* A description: its lines joined into one paragraph each ("\n\n" starts the next one). */
static void paragraphs(FILE *f, const char *s)
{
    fputs(".PP\n", f);
    int bol = 1;
    for (; *s; s++) {
        if (s[0] == '\n' && s[1] == '\n') {
            fputs("\n.PP\n", f);
            s++;
            bol = 1;
            continue;
        }
        if (*s == '\n') {
            fputc('\n', f);
            bol = 1;
            continue;
        }
        char one[2] = { *s, '\0' };
        if (bol && (*s == '.' || *s == '\'' || *s == ' '))
            fputs("\\&", f);
        bol = 0;
        roff(f, one);
    }
    fputc('\n', f);
}

/* ---- prose: the sections written as files under doc/ (manpage_doc.c) ---- */

/* One character of running text, escaped as roff() escapes it; *bol says whether it starts an output line. */
static void text_char(FILE *f, char c, int *bol)
{
    if (*bol && (c == '.' || c == '\'' || c == ' '))
        fputs("\\&", f);
    *bol = 0;
    if (c == '\\')
        fputs("\\e", f);
    else if (c == '-')
        fputs("\\-", f);
    else
        fputc(c, f);
}

/* Where a span whose opening mark ends at s closes (close, after a non-space), within n bytes: NULL if never. */
static const char *span_end(const char *s, size_t n, const char *close)
{
    size_t k = strlen(close);
    for (size_t i = 1; i + k <= n; i++)
        if (!memcmp(s + i, close, k) && s[i - 1] != ' ')
            return s + i;
    return NULL;
}

/* n bytes of running text in font base (R, B or I), over as many lines as it takes (each line's indentation left
 * out): `code` and **strong** in bold, *emphasis* in italic, [text](#anchor) as its text. */
static void spans(FILE *f, const char *s, size_t n, char base, int *bol)
{
    for (size_t i = 0; i < n; i++) {
        const char *e, *p;
        if (s[i] == '\n') {
            /* The next line of the paragraph, its indentation left out. */
            fputc('\n', f);
            *bol = 1;
            while (i + 1 < n && s[i + 1] == ' ')
                i++;
        } else if (s[i] == '`' && (e = memchr(s + i + 1, '`', n - i - 1))) {
            fputs("\\fB", f);
            *bol = 0;
            for (p = s + i + 1; p < e; p++) {
                if (*p == '\n') {
                    fputc('\n', f);
                    *bol = 1;
                    while (p + 1 < e && p[1] == ' ')
                        p++;
                } else
                    text_char(f, *p, bol);
            }
            fprintf(f, "\\f%c", base);
            i = (size_t)(e - s);
        } else if (s[i] == '*' && i + 2 < n && s[i + 1] == '*' && s[i + 2] != ' ' &&
                   (e = span_end(s + i + 2, n - i - 2, "**"))) {
            fputs("\\fB", f);
            *bol = 0;
            spans(f, s + i + 2, (size_t)(e - (s + i + 2)), 'B', bol);
            fprintf(f, "\\f%c", base);
            i = (size_t)(e - s) + 1;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] != ' ' && s[i + 1] != '*' &&
                   (e = span_end(s + i + 1, n - i - 1, "*"))) {
            fputs("\\fI", f);
            *bol = 0;
            spans(f, s + i + 1, (size_t)(e - (s + i + 1)), 'I', bol);
            fprintf(f, "\\f%c", base);
            i = (size_t)(e - s);
        } else if (s[i] == '[' && (e = memchr(s + i, ']', n - i)) && e + 1 < s + n && e[1] == '(' &&
                   (p = memchr(e, ')', (size_t)(s + n - e)))) {
            spans(f, s + i + 1, (size_t)(e - (s + i + 1)), base, bol);
            i = (size_t)(p - s);
        } else
            text_char(f, s[i], bol);
    }
}

static void text_line(FILE *f, const char *s, size_t n)
{
    int bol = 1;
    spans(f, s, n, 'R', &bol);
    fputc('\n', f);
}

/* The cells of a table row "| a | b |" (a '|' inside `code` is not a border): how many, at most max. */
static size_t table_cells(const char *s, size_t n, const char **cell, size_t *len, size_t max)
{
    size_t k = 0;
    const char *start = NULL;
    int code = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '`')
            code = !code;
        if (s[i] != '|' || code)
            continue;
        if (start && k < max) {
            const char *a = start, *b = s + i;
            while (a < b && *a == ' ')
                a++;
            while (b > a && b[-1] == ' ')
                b--;
            cell[k] = a;
            len[k++] = (size_t)(b - a);
        }
        start = s + i + 1;
    }
    return k;
}

#define MARKUP_MAX_DEPTH 8
#define MARKUP_MAX_CELLS 8

enum line_kind { L_BLANK, L_HEADING, L_FENCE, L_ROW, L_ITEM, L_TEXT };

/* What the line s (n bytes) is; *indent its leading spaces, and for an item *mark the length of "- " or "12. ". */
static enum line_kind line_kind(const char *s, size_t n, size_t *indent, size_t *mark)
{
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    *indent = k;
    *mark = 0;
    if (k == n)
        return L_BLANK;
    if (s[0] == '#')
        return L_HEADING;
    if (n - k >= 3 && !memcmp(s + k, "```", 3))
        return L_FENCE;
    if (s[k] == '|')
        return L_ROW;
    if (s[k] == '-' && k + 1 < n && s[k + 1] == ' ') {
        *mark = 2;
        return L_ITEM;
    }
    size_t d = k;
    while (d < n && s[d] >= '0' && s[d] <= '9')
        d++;
    if (d > k && d + 1 < n && s[d] == '.' && s[d + 1] == ' ') {
        *mark = d - k + 2;
        return L_ITEM;
    }
    return L_TEXT;
}

/* The end of the paragraph whose first line ends at eol: the end of its last continuation line. */
static const char *para_end(const char *eol)
{
    while (*eol == '\n') {
        const char *s = eol + 1, *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s), k, m;
        if (line_kind(s, n, &k, &m) != L_TEXT)
            break;
        eol = s + n;
    }
    return eol;
}

/* Writes text in a small markup as roff: "## T" a section, "### T" a subsection, ``` a verbatim block, "- " and
 * "1. " list items (nested by indentation), an indented paragraph after a blank line continuing the item it is
 * indented under, "| a | b |" table rows (the first row names the columns: each row is an item tagged by its first
 * cell, its other cells each on a line after its column's name), and running text as spans() writes it. */
void manpage_markup(FILE *f, const char *text)
{
    size_t indent[MARKUP_MAX_DEPTH];   /* the indentation of each open list item's mark */
    size_t depth = 0;
    int fresh = 1, table = 0;          /* fresh: just after a heading; table: its first row was read */
    const char *head[MARKUP_MAX_CELLS];
    size_t headlen[MARKUP_MAX_CELLS], nhead = 0;
    for (const char *s = text; *s;) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s), k, mark;
        const char *next = eol ? eol + 1 : s + n;
        enum line_kind kind = line_kind(s, n, &k, &mark);
        if (kind != L_ROW)
            table = 0;
        if (kind == L_BLANK) {
            s = next;
            continue;
        }
        /* What closes open list items: a heading, a block, a table or a paragraph at the margin close all; an item
         * or an indented paragraph those indented as far as it or further. */
        size_t keep = depth;
        if (kind != L_ITEM && kind != L_TEXT)
            keep = 0;
        while (keep && indent[keep - 1] >= k)
            keep--;
        for (; depth > keep; depth--)
            if (depth > 1)
                fputs(".RE\n", f);
        if (kind == L_HEADING) {
            size_t h = 0, t;
            while (h < n && s[h] == '#')
                h++;
            for (t = h; t < n && s[t] == ' '; t++)
                ;
            fputs(h > 2 ? ".SS \"" : ".SH \"", f);
            int bol = 0;
            for (size_t i = t; i < n; i++)
                text_char(f, s[i], &bol);
            fputs("\"\n", f);
            fresh = 1;
        } else if (kind == L_FENCE) {
            fputs(fresh ? ".RS 4\n.nf\n" : ".PP\n.RS 4\n.nf\n", f);
            for (s = next; *s; s = next) {
                eol = strchr(s, '\n');
                n = eol ? (size_t)(eol - s) : strlen(s);
                next = eol ? eol + 1 : s + n;
                if (n >= 3 && !memcmp(s, "```", 3))
                    break;
                int bol = 1;
                for (size_t i = 0; i < n; i++)
                    text_char(f, s[i], &bol);
                fputc('\n', f);
            }
            fputs(".fi\n.RE\n", f);
            fresh = 0;
        } else if (kind == L_ROW) {
            const char *cell[MARKUP_MAX_CELLS];
            size_t len[MARKUP_MAX_CELLS];
            size_t nc = table_cells(s + k, n - k, cell, len, MARKUP_MAX_CELLS);
            if (!table) {
                table = 1;
                nhead = nc;
                memcpy(head, cell, sizeof(head));
                memcpy(headlen, len, sizeof(headlen));
            } else if (nc && len[0] && cell[0][0] != '-') {
                fputs(".TP\n", f);
                text_line(f, cell[0], len[0]);
                for (size_t c = 1; c < nc; c++) {
                    if (c > 1)
                        fputs(".br\n", f);
                    int bol = 1;
                    if (c < nhead) {
                        fputs("\\fI", f);
                        bol = 0;
                        spans(f, head[c], headlen[c], 'I', &bol);
                        fputs("\\fR: ", f);
                    }
                    spans(f, cell[c], len[c], 'R', &bol);
                    fputc('\n', f);
                }
            }
            fresh = 0;
        } else {
            /* An item or a paragraph, with the lines that continue it. */
            if (kind == L_ITEM) {
                if (depth == MARKUP_MAX_DEPTH) {
                    fputs(".RE\n", f);
                    depth--;
                }
                if (depth)
                    fputs(".RS\n", f);
                indent[depth++] = k;
                if (mark == 2)
                    fputs(".IP \\(bu 2\n", f);
                else
                    fprintf(f, ".IP %.*s 4\n", (int)(mark - 1), s + k);
            } else if (depth)
                fputs(".IP\n", f);
            else if (!fresh)
                fputs(".PP\n", f);
            const char *end = para_end(s + n);
            text_line(f, s + k + mark, (size_t)(end - (s + k + mark)));
            next = *end ? end + 1 : end;
            fresh = 0;
        }
        s = next;
    }
    for (; depth > 1; depth--)
        fputs(".RE\n", f);
}

/* An item tagged by a line of markup (spans only), its text a line of the same. */
void manpage_tagged(FILE *f, const char *tag, const char *text)
{
    fputs(".TP\n", f);
    text_line(f, tag, strlen(tag));
    text_line(f, text, strlen(text));
}

static void option_item(FILE *f, const struct opt_def *d)
{
    fputs(".TP\n", f);
    if (d->short_name)
        fprintf(f, "\\fB\\-%c\\fR, ", d->short_name);
    fputs("\\fB\\-\\-", f);
    roff(f, d->name);
    fputs("\\fR", f);
    if (d->type != OPT_FLAG) {
        fputs(" \\fI", f);
        roff(f, d->metavar);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    roff(f, d->help);
    if (d->choices) {
        fputs(" (", f);
        for (const char *const *c = d->choices; *c; c++) {
            fputs(c == d->choices ? "" : ", ", f);
            roff(f, *c);
        }
        fputc(')', f);
    }
    fputs(".\n", f);
}

static void command_section(FILE *f, const struct cli_command *c)
{
    fputs(".SS \"rtjitter ", f);
    roff(f, c->name);
    fputc(' ', f);
    roff(f, c->synopsis);
    fputs("\"\n", f);
    /* The summary is a line of --help: a sentence here. */
    char first[256];
    snprintf(first, sizeof(first), "%s", c->summary);
    if (first[0] >= 'a' && first[0] <= 'z')
        first[0] = (char)(first[0] - 'a' + 'A');
    roff(f, first);
    fputs(".\n", f);
    if (c->description)
        paragraphs(f, c->description);
    struct opt_section s[CLI_MAX_SECTIONS];
    size_t n = cli_sections(c, s, CLI_MAX_SECTIONS);
    for (size_t i = 0; i < n; i++) {
        if (s[i].title) {
            fputs(".PP\n", f);
            roff(f, s[i].title);
            fputc('\n', f);
        }
        for (const struct opt_def *d = s[i].defs; d->name; d++)
            option_item(f, d);
    }
}

/* The loads: the prose, then each load of the registry with its metric and parameters. */
static void loads_section(FILE *f)
{
    fputs(".SH LOADS\n", f);
    manpage_markup(f, manpage_text_loads);
    fputs(".SS \"Each load, from the load registry\"\n", f);
    for (const struct load_info *const *l = load_registry; *l; l++) {
        fputs(".TP\n.B ", f);
        roff(f, (*l)->name);
        fputc('\n', f);
        roff(f, (*l)->summary);
        fputc('\n', f);
        if ((*l)->metric) {
            char text[200];
            snprintf(text, sizeof(text), "metric: %s, %s", (*l)->metric, (*l)->unit);
            fputs(".br\n", f);
            roff(f, text);
            fputc('\n', f);
        }
        if ((*l)->bounds) {
            fputs(".br\nbounds: ", f);
            roff(f, (*l)->bounds);
            fputc('\n', f);
        }
        for (int i = 0; i < LOAD_MAX_PARAMS && (*l)->params[i].name; i++) {
            const struct load_param *p = &(*l)->params[i];
            char text[400];
            snprintf(text, sizeof(text), "%s: %s (default %.15g%s%s, from %.15g to %.15g)", p->name, p->help,
                     p->def, p->unit[0] ? " " : "", p->unit, p->min, p->max);
            fputs(".br\n", f);
            roff(f, text);
            fputc('\n', f);
        }
    }
}

void manpage_roff(FILE *f, const char *roff)
{
    static const char mark[] = "@DATADIR@";
    for (const char *m; (m = strstr(roff, mark)); roff = m + sizeof(mark) - 1) {
        fwrite(roff, 1, (size_t)(m - roff), f);
        fputs(RTJ_DATADIR, f);
    }
    fputs(roff, f);
}

int manpage_write(FILE *f, const struct cli_command *const *cmds)
{
    fputs(".\\\" rtjitter(1), generated by `rtjitter --man` from its option tables: do not edit.\n", f);
    fprintf(f, ".TH RTJITTER 1 \"\" \"rtjitter %s\" \"User Commands\"\n", RTJ_VERSION);
    manpage_roff(f, manpage_roff_head);
    for (size_t i = 0; cmds[i]; i++)
        command_section(f, cmds[i]);
    manpage_markup(f, manpage_text_measure);
    manpage_markup(f, manpage_text_judge);
    loads_section(f);
    manpage_markup(f, manpage_text_safety);
    manpage_roff(f, manpage_roff_tail);
    return ferror(f) ? -EIO : 0;
}

/* ---- bash completion ---- */

/* The values of an option that names an entry of a registry (a load, a backend, a built-in profile) rather than one
 * of a fixed list of choices: written from the registry, so that a new entry is offered by itself. */
static void words_loads(FILE *f)
{
    for (size_t i = 0; load_registry[i]; i++)
        fprintf(f, "%s ", load_registry[i]->name);
    fputs("all", f); /* every load but exec (loadplan.c) */
}

static void words_backends(FILE *f)
{
    for (size_t i = 0; rtj_backends[i]; i++)
        fprintf(f, "%s ", rtj_backends[i]->name);
    fputs("auto list", f); /* --backend auto: the server that answers; list: what each is and why one is unavailable */
}

static void words_profiles(FILE *f)
{
    const struct profile_builtin *p = profile_builtins();
    for (size_t i = 0; p[i].name; i++)
        fprintf(f, "%s%s", i ? " " : "", p[i].name);
}

/* A list (--loads none,burn; run's --backend timer,alsa,jack, the depth ladder) completes the item after its last
 * comma (a load's ":param=" is left to the user); a profile is a built-in name or a file. */
static const struct registry_words {
    const char *option;
    void (*words)(FILE *f);
    int list, files;
} registry_words[] = {
    { "loads", words_loads, 1, 0 },
    { "backend", words_backends, 1, 0 },
    { "profile", words_profiles, 0, 1 },
};

static const struct registry_words *registry_of(const struct opt_def *d)
{
    for (size_t i = 0; i < sizeof(registry_words) / sizeof(registry_words[0]); i++)
        if (!strcmp(registry_words[i].option, d->name) && d->type == OPT_STR && !d->choices)
            return &registry_words[i];
    return NULL;
}

static void value_case(FILE *f, const struct opt_def *d)
{
    fputs("        ", f);
    if (d->short_name)
        fprintf(f, "-%c|", d->short_name);
    fprintf(f, "--%s)\n            ", d->name);
    const struct registry_words *r = registry_of(d);
    if (r && r->list) {
        /* "none,bu" -> "none,burn": the words after the last comma, the list before it kept as a prefix */
        fputs("local pre=; [[ $cur == *,* ]] && pre=${cur%,*},; compopt -o nospace 2>/dev/null; "
              "COMPREPLY=($(compgen -P \"$pre\" -W \"", f);
        r->words(f);
        fputs("\" -- \"${cur##*,}\")); return;;\n", f);
    } else if (r) {
        fputs(r->files ? "compopt -o filenames 2>/dev/null; " : "", f);
        fputs("COMPREPLY=($(compgen -W \"", f);
        r->words(f);
        fprintf(f, "\" -- \"$cur\")%s); return;;\n", r->files ? " $(compgen -f -- \"$cur\")" : "");
    } else if (d->choices) {
        fputs("COMPREPLY=($(compgen -W \"", f);
        for (const char *const *c = d->choices; *c; c++)
            fprintf(f, "%s%s", c == d->choices ? "" : " ", *c);
        fputs("\" -- \"$cur\")); return;;\n", f);
    } else if (strcmp(d->metavar, "FILE") == 0) {
        fputs("compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return;;\n", f);
    } else if (strcmp(d->metavar, "DIR") == 0) {
        fputs("compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); return;;\n", f);
    } else {
        fputs("COMPREPLY=(); return;;\n", f);
    }
}

/* An option several backends list (--priority, --device) is one option of `run`: said once. */
static int listed_before(const struct opt_section *s, size_t sec, const struct opt_def *d)
{
    for (size_t i = 0; i <= sec; i++)
        for (const struct opt_def *e = s[i].defs; e->name && e != d; e++)
            if (!strcmp(e->name, d->name))
                return 1;
    return 0;
}

static void command_case(FILE *f, const struct cli_command *c)
{
    struct opt_section s[CLI_MAX_SECTIONS];
    size_t n = cli_sections(c, s, CLI_MAX_SECTIONS);
    fprintf(f, "    %s)\n        case $prev in\n", c->name);
    for (size_t i = 0; i < n; i++)
        for (const struct opt_def *d = s[i].defs; d->name; d++)
            if (d->type != OPT_FLAG && !listed_before(s, i, d))
                value_case(f, d);
    fputs("        esac\n        if [[ $cur == -* ]]; then\n            COMPREPLY=($(compgen -W \"-h --help", f);
    for (size_t i = 0; i < n; i++)
        for (const struct opt_def *d = s[i].defs; d->name; d++) {
            if (listed_before(s, i, d))
                continue;
            if (d->short_name)
                fprintf(f, " -%c", d->short_name);
            fprintf(f, " --%s", d->name);
        }
    fputs("\" -- \"$cur\"))\n", f);
    if (c->positional)
        fputs("        else\n            compopt -o filenames 2>/dev/null; "
              "mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n", f);
    fputs("        fi;;\n", f);
}

int completion_write(FILE *f, const struct cli_command *const *cmds)
{
    fputs("# bash completion for rtjitter, generated by `rtjitter --bash-completion` from its option tables: do not\n"
          "# edit. Installed as share/bash-completion/completions/rtjitter.\n"
          "_rtjitter()\n{\n    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n        COMPREPLY=($(compgen -W \"", f);
    for (size_t i = 0; cmds[i]; i++)
        fprintf(f, "%s ", cmds[i]->name);
    fputs("-h --help -V --version\" -- \"$cur\"))\n        return\n    fi\n    case ${COMP_WORDS[1]} in\n", f);
    for (size_t i = 0; cmds[i]; i++)
        command_case(f, cmds[i]);
    fputs("    esac\n}\ncomplete -F _rtjitter rtjitter\n", f);
    return ferror(f) ? -EIO : 0;
}
