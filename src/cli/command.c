/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help of a subcommand, generated from its struct cli_command and option tables. */
#include "cli/command.h"
#include "util/wrap.h"

/* The synopsis with each [OPTION VALUE] group marked as one word (util/wrap.h): a line breaks between them. */
static void usage_line(FILE *f, int width, const char *name, const char *synopsis)
{
    char first[64], text[1024];
    size_t o = 0;
    int depth = 0;
    snprintf(first, sizeof(first), "usage: rtjitter %s ", name);
    for (const char *p = synopsis; *p && o + 3 < sizeof(text); p++) {
        if (*p == '[' && depth++ == 0)
            text[o++] = WRAP_CMD_ON[0];
        text[o++] = *p;
        if (*p == ']' && depth > 0 && --depth == 0)
            text[o++] = WRAP_CMD_OFF[0];
    }
    if (depth > 0) /* an unclosed group: no marks */
        text[o++] = WRAP_CMD_OFF[0];
    text[o] = '\0';
    wrap_text(f, first, wrap_cols(first), width, text);
}

size_t cli_sections(const struct cli_command *c, struct opt_section *out, size_t max)
{
    if (c->sections)
        return c->sections(out, max);
    if (max < 1 || !c->defs)
        return 0;
    out[0] = (struct opt_section){ NULL, c->defs };
    return 1;
}

int cli_parse(const struct cli_command *c, const struct opt_def *defs, void *opts, int argc, char **argv,
              const char **pos, int maxpos, int *npos, int *status)
{
    int r = opts_parse(c->name, defs ? defs : c->defs, opts, argc, argv, pos, maxpos, npos);
    if (r == 1)
        cli_help(stdout, c);
    *status = r == 1 ? 0 : 2;
    return r != 0;
}

void cli_help(FILE *f, const struct cli_command *c)
{
    int width = wrap_width(f);
    usage_line(f, width, c->name, c->synopsis);
    if (c->description) { /* written for 100 columns: joined and wrapped again to the terminal's */
        fputc('\n', f);
        wrap_paragraphs(f, width, c->description);
    }
    struct opt_section s[CLI_MAX_SECTIONS];
    size_t n = cli_sections(c, s, CLI_MAX_SECTIONS);
    for (size_t i = 0; i < n; i++) {
        if (s[i].title) {
            fputc('\n', f);
            wrap_text(f, "", 2, width, s[i].title);
        }
        else
            fputc('\n', f);
        opts_help_list(f, s[i].defs);
    }
}
