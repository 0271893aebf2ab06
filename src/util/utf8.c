/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict UTF-8 (RFC 3629, Unicode's table 3-7 of well-formed byte sequences). Every check of the program is
 * this one: a lax one that takes C0 80 for a character lets a string through that jansson then refuses. */
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>

size_t utf8_char(const char *s, size_t avail, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    if (avail == 0 || p[0] == 0)
        return 0;
    unsigned c = p[0];
    size_t n;
    uint32_t v, min;
    if (c < 0x80) {
        n = 1, v = c, min = 0;
    } else if (c >= 0xc2 && c <= 0xdf) { /* C0 and C1 could only start overlong forms */
        n = 2, v = c & 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, v = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) { /* F5..FF would be above U+10FFFF */
        n = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n > avail)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) /* also stops at a NUL: a sequence cut short */
            return 0;
        v = (v << 6) | (p[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    if (cp)
        *cp = v;
    return n;
}

int utf8_valid_n(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = utf8_char(s + i, n - i, NULL);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

int utf8_valid(const char *s)
{
    return utf8_valid_n(s, strlen(s));
}

char *utf8_sanitize(const char *s)
{
    if (!s)
        return NULL;
    size_t len = strlen(s), bad = 0;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_char(s + i, len - i, NULL);
        bad += k == 0;
        i += k ? k : 1;
    }
    char *out = malloc(len + 2 * bad + 1); /* each bad byte grows to three */
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_char(s + i, len - i, NULL);
        if (k) {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        } else {
            memcpy(out + o, UTF8_REPLACEMENT, 3);
            o += 3;
            i++;
        }
    }
    out[o] = '\0';
    return out;
}

json_t *utf8_json_string(const char *s)
{
    if (!s)
        return json_null();
    if (utf8_valid(s))
        return json_string(s);
    char *t = utf8_sanitize(s);
    json_t *j = t ? json_string(t) : NULL;
    free(t);
    return j;
}

void utf8_trim(char *s)
{
    size_t len = strlen(s), o = 0;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_char(s + i, len - i, NULL);
        if (k == 0) {
            i++;
            continue;
        }
        memmove(s + o, s + i, k);
        o += k;
        i += k;
    }
    s[o] = '\0';
}

int utf8_prefix(const char *s, size_t max)
{
    size_t i = 0, len = strnlen(s, max);
    while (i < len) {
        size_t k = utf8_char(s + i, len - i, NULL);
        if (k == 0) {
            /* Not a whole character within max: a cut one ends the prefix, a stray byte is one byte. */
            size_t whole = utf8_char(s + i, strnlen(s + i, 4), NULL);
            if (whole > len - i)
                break;
            k = 1;
        }
        i += k;
    }
    return (int)i;
}

void utf8_fit(char *dst, size_t cap, const char *s)
{
    if (!cap)
        return;
    size_t len = s ? strlen(s) : 0;
    if (len < cap) {
        memmove(dst, s ? s : "", len + 1);
        return;
    }
    if (cap < 8) { /* no room for both ends: the start alone */
        int h = utf8_prefix(s, cap - 1);
        memmove(dst, s, (size_t)h);
        dst[h] = '\0';
        return;
    }
    size_t room = cap - 1 - 3, head = utf8_prefix(s, room * 2 / 5); /* the end (the reason) gets the larger share */
    size_t t = len - (room - head);
    while (t < len && ((unsigned char)s[t] & 0xc0) == 0x80) /* not inside a character */
        t++;
    char *copy = strdup(s + t); /* dst may be s */
    if (!copy) {
        memmove(dst, s, head);
        dst[head] = '\0';
        return;
    }
    memmove(dst, s, head);
    memcpy(dst + head, "...", 3);
    memcpy(dst + head + 3, copy, len - t + 1);
    free(copy);
}
