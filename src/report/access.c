/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accessors for documents, the phase name, and flattening for identity tables. */
#include "report/access.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

double doc_num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *doc_str(const json_t *o, const char *k, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : dflt;
}

json_t *doc_number_json(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

void doc_phase_name(const json_t *phase, char *buf, size_t len)
{
    const char *load = doc_str(phase, "load", "?");
    double segs = doc_num(phase, "segments_in_phase"), frames = doc_num(phase, "period_frames");
    double life = doc_num(phase, "life"); /* watch: the server's life this phase watched, when it had several */
    if (segs > 1 && !isnan(frames))
        snprintf(buf, len, "%.*s@%.0f", utf8_prefix(load, PHASE_NAME_LOAD_MAX), load, frames);
    else if (!isnan(life))
        snprintf(buf, len, "%.*s (life %.0f)", utf8_prefix(load, PHASE_NAME_LOAD_MAX), load, life);
    else
        snprintf(buf, len, "%.*s", utf8_prefix(load, PHASE_NAME_LOAD_MAX), load);
    utf8_trim(buf); /* a buffer shorter than PHASE_NAME_LEN may still cut */
}

#define FLAT_MAX_DEPTH 4
#define FLAT_VALUE_MAX 512

static void scalar_text(const json_t *v, char *buf, size_t len)
{
    switch (json_typeof(v)) {
    case JSON_STRING: snprintf(buf, len, "%s", json_string_value(v)); break;
    case JSON_INTEGER: snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
    case JSON_REAL: snprintf(buf, len, "%.6g", json_real_value(v)); break;
    case JSON_TRUE: snprintf(buf, len, "yes"); break;
    case JSON_FALSE: snprintf(buf, len, "no"); break;
    case JSON_NULL: snprintf(buf, len, "-"); break;
    default: snprintf(buf, len, "…"); break;
    }
    utf8_trim(buf);
}

static int is_scalar(const json_t *v)
{
    return !json_is_object(v) && !json_is_array(v);
}

void flatten_json(const json_t *o, const char *prefix, int depth,
                  void (*fn)(const char *key, const char *value, void *arg), void *arg)
{
    char key[256], val[FLAT_VALUE_MAX];
    if (!o) /* absent: nothing to flatten */
        return;
    if (is_scalar(o)) {
        scalar_text(o, val, sizeof(val));
        fn(prefix, val, arg);
        return;
    }
    if (depth >= FLAT_MAX_DEPTH) {
        fn(prefix, "…", arg);
        return;
    }
    if (json_is_array(o)) {
        /* An array of scalars reads best on one line; an array of objects (sound cards) one line each. */
        int scalars = 1;
        size_t i;
        const json_t *e;
        json_array_foreach(o, i, e)
            scalars &= is_scalar(e);
        if (scalars) {
            size_t off = 0;
            val[0] = '\0';
            json_array_foreach(o, i, e) {
                char one[128];
                scalar_text(e, one, sizeof(one));
                int w = snprintf(val + off, sizeof(val) - off, "%s%s", i ? ", " : "", one);
                if (w < 0 || (size_t)w >= sizeof(val) - off)
                    break;
                off += (size_t)w;
            }
            utf8_trim(val); /* the last entry may have been cut */
            fn(prefix, val, arg);
            return;
        }
        json_array_foreach(o, i, e) {
            if (i >= 64)
                break;
            snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
            flatten_json(e, key, depth + 1, fn, arg);
        }
        return;
    }
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        snprintf(key, sizeof(key), "%s%s%.*s", prefix, *prefix ? "." : "", utf8_prefix(k, 80), k);
        utf8_trim(key);
        flatten_json(v, key, depth + 1, fn, arg);
    }
}

int doc_idle_governable(const json_t *system)
{
    const json_t *states = json_object_get(json_object_get(json_object_get(system, "cpu"), "idle"), "states"), *s;
    if (!json_is_array(states))
        return -1;
    size_t i;
    json_array_foreach(states, i, s)
        if (doc_num(s, "enabled_cpus") > 0 && doc_num(s, "latency_us") > 0)
            return 1;
    return 0;
}
