/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plain-text layout: see textfmt.h. */
#include "render/textfmt.h"
#include "util/wrap.h"
#include <stdlib.h>
#include <string.h>

int tx_width(const char *s)
{
    int w = 0;
    for (; s && *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

void tx_cell(FILE *f, const char *s, int width, int right)
{
    int pad = width - tx_width(s);
    if (right)
        fprintf(f, "%*s", pad > 0 ? pad : 0, "");
    fputs(s ? s : "", f);
    if (!right)
        fprintf(f, "%*s", pad > 0 ? pad : 0, "");
}

void tx_wrap(FILE *f, const char *first, int indent, int width, const char *text)
{
    wrap_text(f, first, indent, width, text);
}

char *tx_dup(const struct render_opts *o, const char *s)
{
    if (!s)
        return NULL;
    if (!o || !o->ascii)
        return strdup(s);
    static const struct { const char *from, *to; } map[] = {
        { "µ", "u" }, { "μ", "u" }, { "±", "+/-" }, { "→", "->" }, { "←", "<-" }, { "≥", ">=" }, { "≤", "<=" },
        { "−", "-" }, { "–", "-" }, { "—", "--" }, { "…", "..." }, { "×", "x" }, { "·", "-" }, { "≈", "~" },
    };
    size_t n = strlen(s);
    char *out = malloc(3 * n + 1); /* no replacement is more than 3 times longer than what it replaces */
    if (!out)
        return NULL;
    size_t o2 = 0;
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k < sizeof(map) / sizeof(map[0]); k++) {
            size_t fl = strlen(map[k].from);
            if (!strncmp(s + i, map[k].from, fl)) {
                size_t tl = strlen(map[k].to);
                memcpy(out + o2, map[k].to, tl);
                o2 += tl;
                i += fl;
                break;
            }
        }
        if (k == sizeof(map) / sizeof(map[0]))
            out[o2++] = s[i++];
    }
    out[o2] = '\0';
    return out;
}

const char *tx_us(const struct render_opts *o)
{
    return o && o->ascii ? "us" : "µs";
}

const char *tx_pm(const struct render_opts *o)
{
    return o && o->ascii ? "+/-" : "±";
}
