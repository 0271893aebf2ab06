/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One shell word from any string (shquote.h). */
#include "util/shquote.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int bare_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c);
}

/* The length of the control character at s (C0, DEL: 1; a C1 control as UTF-8, 0xc2 0x80..0x9f: 2), else 0. */
static size_t control_len(const unsigned char *s)
{
    if (s[0] < 0x20 || s[0] == 0x7f)
        return 1;
    if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
        return 2;
    return 0;
}

int sh_quote(const char *s, char *out, size_t n)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    int bare = u[0] != '\0', control = 0;
    for (const unsigned char *p = u; *p; p++) {
        bare &= bare_char(*p) != 0;
        control |= control_len(p) != 0;
    }
    size_t o = 0;
#define PUT(c) do { if (o + 1 >= n) goto too_long; out[o++] = (char)(c); } while (0)
    if (bare) {
        for (const unsigned char *p = u; *p; p++)
            PUT(*p);
    } else if (!control) {
        PUT('\'');
        for (const unsigned char *p = u; *p; p++) {
            if (*p == '\'') {
                PUT('\'');
                PUT('\\');
                PUT('\'');
            }
            PUT(*p);
        }
        PUT('\'');
    } else {
        PUT('$');
        PUT('\'');
        for (const unsigned char *p = u; *p; p++) {
            size_t k = control_len(p);
            if (k) {
                static const char hex[] = "0123456789abcdef";
                for (size_t j = 0; j < k; j++) {
                    PUT('\\');
                    PUT('x');
                    PUT(hex[p[j] >> 4]);
                    PUT(hex[p[j] & 15]);
                }
                p += k - 1;
                continue;
            }
            if (*p == '\'' || *p == '\\')
                PUT('\\');
            PUT(*p);
        }
        PUT('\'');
    }
#undef PUT
    if (n)
        out[o] = '\0';
    return (int)o;
too_long:
    if (n)
        out[0] = '\0';
    return -ENAMETOOLONG;
}

struct shq_word shq(const char *s)
{
    struct shq_word w;
    if (sh_quote(s, w.s, sizeof(w.s)) < 0)
        snprintf(w.s, sizeof(w.s), "'...'");
    return w;
}
