/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text for a terminal: see termtext.h. */
#include "util/termtext.h"
#include "util/utf8.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The visible form of the character at s[0 .. avail) into out (TERM_ESC_MAX + 1 bytes); *used gets the bytes it
 * spans (at least 1). Returns the length of the escape, or 0 when the character shows as itself. */
static size_t escape_one(const char *s, size_t avail, char *out, size_t *used)
{
    uint32_t cp = 0;
    size_t k = utf8_char(s, avail, &cp);
    if (k == 0 && avail > 0 && s[0] == '\0')
        k = 1, cp = 0; /* a NUL inside a counted string is a C0 control like the others */
    if (k == 0) {
        *used = 1;
        return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\x%02x", (unsigned char)s[0]);
    }
    *used = k;
    if (cp < 0x20 || cp == 0x7f) {
        switch (cp) {
        case 0x1b: return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\e");
        case '\n': return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\n");
        case '\r': return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\r");
        case '\t': return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\t");
        default: return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\x%02x", (unsigned)cp);
        }
    }
    if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
        return (size_t)snprintf(out, TERM_ESC_MAX + 1, "\\u%04x", (unsigned)cp);
    return 0;
}

int term_clean_n(const char *s, size_t n)
{
    char esc[TERM_ESC_MAX + 1];
    for (size_t i = 0, k; i < n; i += k) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f) { /* the common case, without a call */
            k = 1;
            continue;
        }
        if (escape_one(s + i, n - i, esc, &k))
            return 0;
    }
    return 1;
}

int term_clean(const char *s)
{
    return !s || term_clean_n(s, strlen(s));
}

/* The visible form of the n bytes at s into out (cap bytes, terminated when cap > 0): whole characters and
 * escapes only, the text ending before the first that does not fit. Returns the length the whole form needs. */
static size_t escape_into(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0, end = 0;
    int full = !out || cap == 0;
    char esc[TERM_ESC_MAX + 1];
    for (size_t i = 0, k; i < n; i += k) {
        size_t e = escape_one(s + i, n - i, esc, &k);
        size_t pl = e ? e : k;
        if (!full && o + pl < cap) {
            memcpy(out + o, e ? esc : s + i, pl);
            end = o + pl;
        } else {
            full = 1;
        }
        o += pl;
    }
    if (out && cap)
        out[end] = '\0';
    return o;
}

char *term_safe(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s), need = escape_into(s, n, NULL, 0);
    char *out = malloc(need + 1);
    if (out)
        escape_into(s, n, out, need + 1);
    return out;
}

const char *term_str(char *buf, size_t len, const char *s)
{
    if (!len)
        return buf;
    if (!s) {
        buf[0] = '\0';
        return buf;
    }
    escape_into(s, strlen(s), buf, len);
    return buf;
}

char *term_fix(char *buf, size_t len)
{
    if (!buf || !len || term_clean_n(buf, strnlen(buf, len)))
        return buf;
    char *copy = strndup(buf, len - 1);
    if (!copy) {
        buf[0] = '\0'; /* no memory to show it safely: show nothing of it */
        return buf;
    }
    term_str(buf, len, copy);
    free(copy);
    return buf;
}

static json_t *safe_string(const json_t *j)
{
    size_t n = json_string_length(j);
    const char *s = json_string_value(j);
    if (term_clean_n(s, n))
        return json_incref((json_t *)j);
    size_t need = escape_into(s, n, NULL, 0);
    char *t = malloc(need + 1);
    if (!t)
        return NULL;
    escape_into(s, n, t, need + 1);
    json_t *r = json_stringn(t, need);
    free(t);
    return r;
}

/* j with its strings and keys made visible: j itself (a new reference) when nothing changed. */
static json_t *safe_value(const json_t *j)
{
    json_t *copy = NULL;
    if (json_is_string(j))
        return safe_string(j);
    if (json_is_array(j)) {
        size_t i, n = json_array_size(j);
        for (i = 0; i < n; i++) {
            json_t *v = json_array_get(j, i), *sv = safe_value(v);
            if (!sv)
                goto fail;
            if (sv != v && !copy) { /* the first change: the copy takes the clean ones before it */
                copy = json_array();
                for (size_t k = 0; copy && k < i; k++)
                    if (json_array_append(copy, json_array_get(j, k)))
                        json_decref(copy), copy = NULL;
                if (!copy) {
                    json_decref(sv);
                    return NULL;
                }
            }
            if (!copy)
                json_decref(sv);
            else if (json_array_append_new(copy, sv))
                goto fail;
        }
        return copy ? copy : json_incref((json_t *)j);
    }
    if (json_is_object(j)) {
        const char *key;
        json_t *v;
        int changed = 0;
        json_object_foreach((json_t *)j, key, v) {
            json_t *sv = safe_value(v);
            if (!sv)
                return NULL;
            changed |= sv != v || !term_clean(key);
            json_decref(sv);
            if (changed)
                break;
        }
        if (!changed)
            return json_incref((json_t *)j);
        copy = json_object();
        if (!copy)
            return NULL;
        json_object_foreach((json_t *)j, key, v) {
            char *k = term_safe(key);
            json_t *sv = safe_value(v);
            int bad = !k || !sv || json_object_set_new(copy, k, sv);
            if (bad && !k)
                json_decref(sv);
            free(k);
            if (bad)
                goto fail;
        }
        return copy;
    }
    return json_incref((json_t *)j);
fail:
    json_decref(copy);
    return NULL;
}

json_t *term_safe_json(const json_t *doc)
{
    return doc ? safe_value(doc) : NULL;
}
