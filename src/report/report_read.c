/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report reader: parse with jansson, then check every key a renderer reads against the report's one table
 * of keys, types and ranges (schema.h). Missing keys are allowed (renderers show "-"), wrong types and out-of-range numbers are not: a file
 * that passes here can be rendered without any further check beyond "is it there". */
#include "report/report_read.h"
#include "util/bounds.h"
#include "util/readfile.h"
#include "util/termtext.h"
#include "report/report.h"
#include "report/report_read_culprits.h"
#include "report/schema.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Upper bounds on array lengths: far above what a run writes (2 x 2304 buckets, one timeline entry a second
 * for a day), low enough that a hostile file cannot make the renderers loop for hours. */
#define MAX_BUCKETS 100000
#define MAX_TIMELINE 1000000
#define MAX_STRINGS 100000

static const char *const metric_keys[] = { "period_us", "jitter_us", "wakeup_us", "callback_us", "margin_us" };

int doc_type_ok(const json_t *v, unsigned types)
{
    if ((types & T_STR) && json_is_string(v))
        return 1;
    if ((types & T_BOOL) && json_is_boolean(v))
        return 1;
    if ((types & T_NULL) && json_is_null(v))
        return 1;
    if ((types & T_OBJ) && json_is_object(v))
        return 1;
    if ((types & T_ARR) && json_is_array(v))
        return 1;
    if (json_is_number(v)) {
        double x = json_number_value(v);
        if ((types & T_NUM) && isfinite(x) && fabs(x) <= REPORT_MAX_NUMBER)
            return 1;
        if ((types & T_COUNT) && isfinite(x) && x >= 0 && x <= REPORT_MAX_NUMBER && x == floor(x))
            return 1;
    }
    return 0;
}

const char *doc_type_words(unsigned types)
{
    if (types & T_COUNT)
        return "a whole number from 0 to 1e15";
    if (types & T_NUM)
        return types & T_OBJ ? "an object or a number" : "a number from -1e15 to 1e15";
    if (types & T_OBJ)
        return "an object";
    if (types & T_ARR)
        return "an array";
    if (types & T_STR)
        return "a string";
    if (types & T_BOOL)
        return "true or false";
    return "null";
}

const char *doc_value_words(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: case JSON_REAL: return "a number out of range";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

int doc_check_fields(const json_t *o, const struct field *f, const char *what, const char *path, char *err,
                     size_t errlen)
{
    for (; f->key; f++) {
        const json_t *v = json_object_get(o, f->key);
        if (!v || doc_type_ok(v, f->types))
            continue;
        snprintf(err, errlen, "malformed %s: %s%s%s is %s, expected %s", what, path, *path ? "." : "", f->key,
                 doc_value_words(v), doc_type_words(f->types));
        return -EINVAL;
    }
    return 0;
}

/* The keys of o the schema lists under at (schema.h), in a report; o itself must be an object (checked by the
 * caller). */
static int check_fields(const json_t *o, const char *at, const char *path, char *err, size_t errlen)
{
    return schema_check_object(o, at, path, err, errlen);
}

static int check_array_len(const json_t *a, size_t max, const char *path, char *err, size_t errlen)
{
    if (json_array_size(a) > max) {
        snprintf(err, errlen, "malformed report: %s has %zu entries (more than %zu)", path, json_array_size(a),
                 max);
        return -EINVAL;
    }
    return 0;
}

/* An array of strings (warnings, advice). */
static int check_strings(const json_t *a, const char *path, char *err, size_t errlen)
{
    if (!a)
        return 0;
    if (check_array_len(a, MAX_STRINGS, path, err, errlen) < 0)
        return -EINVAL;
    size_t i;
    const json_t *s;
    json_array_foreach(a, i, s)
        if (!json_is_string(s)) {
            snprintf(err, errlen, "malformed report: %s[%zu] is %s, expected a string", path, i, doc_value_words(s));
            return -EINVAL;
        }
    return 0;
}

/* histograms.NAME: [[lo_us, hi_us, count], ...] with lo <= hi. */
static int check_histogram(const json_t *a, const char *path, char *err, size_t errlen)
{
    if (!json_is_array(a)) {
        snprintf(err, errlen, "malformed report: %s is %s, expected an array of buckets", path, doc_value_words(a));
        return -EINVAL;
    }
    if (check_array_len(a, MAX_BUCKETS, path, err, errlen) < 0)
        return -EINVAL;
    size_t i;
    const json_t *b;
    json_array_foreach(a, i, b) {
        if (!json_is_array(b) || json_array_size(b) != 3 || !doc_type_ok(json_array_get(b, 0), T_NUM) ||
            !doc_type_ok(json_array_get(b, 1), T_NUM) || !doc_type_ok(json_array_get(b, 2), T_COUNT)) {
            snprintf(err, errlen, "malformed report: %s[%zu] is not a bucket [low_us, high_us, count]", path, i);
            return -EINVAL;
        }
        if (json_number_value(json_array_get(b, 0)) > json_number_value(json_array_get(b, 1))) {
            snprintf(err, errlen, "malformed report: %s[%zu] has its low edge above its high edge", path, i);
            return -EINVAL;
        }
    }
    return 0;
}

static int check_phase(const json_t *p, size_t idx, char *err, size_t errlen)
{
    char path[160], sub[256];
    snprintf(path, sizeof(path), "phases[%zu]", idx);
    if (!json_is_object(p)) {
        snprintf(err, errlen, "malformed report: %s is %s, expected an object", path, doc_value_words(p));
        return -EINVAL;
    }
    if (check_fields(p, "phases[]", path, err, errlen) < 0)
        return -EINVAL;
    const json_t *x = json_object_get(p, "xruns");
    snprintf(sub, sizeof(sub), "%s.xruns", path);
    if (json_is_object(x) && check_fields(x, "phases[].xruns", sub, err, errlen) < 0)
        return -EINVAL;
    for (size_t m = 0; m < sizeof(metric_keys) / sizeof(metric_keys[0]); m++) {
        const json_t *mo = json_object_get(p, metric_keys[m]);
        snprintf(sub, sizeof(sub), "%s.%s", path, metric_keys[m]);
        char at[40];
        snprintf(at, sizeof(at), "phases[].%s", metric_keys[m]);
        if (json_is_object(mo) && check_fields(mo, at, sub, err, errlen) < 0)
            return -EINVAL;
    }
    const json_t *dl = json_object_get(p, "dsp_load");
    if (json_is_object(dl)) {
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)dl, k, v)
            if (!doc_type_ok(v, T_NUM | T_NULL)) {
                snprintf(err, errlen, "malformed report: %s.dsp_load.%.40s is %s, expected a number", path, k,
                         doc_value_words(v));
                return -EINVAL;
            }
    }
    const json_t *lm = json_object_get(p, "load_metrics");
    if (json_is_array(lm)) {
        snprintf(sub, sizeof(sub), "%s.load_metrics", path);
        if (check_array_len(lm, MAX_STRINGS, sub, err, errlen) < 0)
            return -EINVAL;
        size_t i;
        const json_t *e;
        json_array_foreach(lm, i, e) {
            snprintf(sub, sizeof(sub), "%s.load_metrics[%zu]", path, i);
            if (!json_is_object(e)) {
                snprintf(err, errlen, "malformed report: %s is %s, expected an object", sub, doc_value_words(e));
                return -EINVAL;
            }
            if (check_fields(e, "phases[].load_metrics[]", sub, err, errlen) < 0)
                return -EINVAL;
        }
    }
    const json_t *h = json_object_get(p, "histograms");
    if (json_is_object(h)) {
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)h, k, v) {
            snprintf(sub, sizeof(sub), "%s.histograms.%.40s", path, k);
            if (check_histogram(v, sub, err, errlen) < 0)
                return -EINVAL;
        }
    }
    const json_t *tl = json_object_get(p, "timeline");
    if (json_is_array(tl) && report_check_timeline(tl, idx, err, errlen) < 0)
        return -EINVAL;
    return report_check_happenings(p, path, err, errlen);
}

int report_check_timeline(const json_t *tl, size_t idx, char *err, size_t errlen)
{
    char sub[256];
    snprintf(sub, sizeof(sub), "phases[%zu].timeline", idx);
    if (check_array_len(tl, MAX_TIMELINE, sub, err, errlen) < 0)
        return -EINVAL;
    size_t i;
    const json_t *e;
    json_array_foreach(tl, i, e) {
        snprintf(sub, sizeof(sub), "phases[%zu].timeline[%zu]", idx, i);
        if (!json_is_object(e)) {
            snprintf(err, errlen, "malformed report: %s is %s, expected an object", sub, doc_value_words(e));
            return -EINVAL;
        }
        if (check_fields(e, "phases[].timeline[]", sub, err, errlen) < 0)
            return -EINVAL;
    }
    return 0;
}

int report_validate(const json_t *doc, char *err, size_t errlen)
{
    if (report_check_schema(doc, err, errlen) < 0)
        return -EINVAL;
    if (check_fields(doc, "", "", err, errlen) < 0)
        return -EINVAL;
    const json_t *o;
    if ((o = json_object_get(doc, "tool")) && check_fields(o, "tool", "tool", err, errlen) < 0)
        return -EINVAL;
    if ((o = json_object_get(doc, "audio")) && check_fields(o, "audio", "audio", err, errlen) < 0)
        return -EINVAL;
    if ((o = json_object_get(doc, "system"))) {
        if (check_fields(o, "system", "system", err, errlen) < 0)
            return -EINVAL;
        const json_t *k = json_object_get(o, "kernel");
        if (k && check_fields(k, "system.kernel", "system.kernel", err, errlen) < 0)
            return -EINVAL;
    }
    if (check_strings(json_object_get(doc, "warnings"), "warnings", err, errlen) < 0)
        return -EINVAL;
    if (json_is_object(o = json_object_get(doc, "verdict"))) {
        if (check_fields(o, "verdict", "verdict", err, errlen) < 0 ||
            check_strings(json_object_get(o, "advice"), "verdict.advice", err, errlen) < 0)
            return -EINVAL;
    }
    if (json_is_object(o = json_object_get(doc, "culprits")) && report_check_culprits_summary(o, err, errlen) < 0)
        return -EINVAL;
    const json_t *phases = json_object_get(doc, "phases");
    if (check_array_len(phases, RTJ_MAX_PHASES, "phases", err, errlen) < 0)
        return -EINVAL;
    size_t i;
    const json_t *p;
    json_array_foreach(phases, i, p)
        if (check_phase(p, i, err, errlen) < 0)
            return -EINVAL;
    return 0;
}

static int read_buffer(const char *buf, size_t len, json_t **doc, char *err, size_t errlen)
{
    *doc = NULL;
    if (len > REPORT_MAX_BYTES) {
        snprintf(err, errlen, "not a report: larger than %u MiB", REPORT_MAX_BYTES >> 20);
        return -EFBIG;
    }
    json_error_t je;
    /* Duplicate keys are refused: which of two "schema" keys wins is not something to guess. jansson
     * refuses NUL inside strings, invalid UTF-8 and nesting deeper than 2048 by itself. */
    json_t *d = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!d) {
        snprintf(err, errlen, "not valid JSON (line %d, column %d): %.120s", je.line, je.column, je.text);
        return -EINVAL;
    }
    int e = report_validate(d, err, errlen);
    if (e < 0) {
        json_decref(d);
        return e;
    }
    *doc = d;
    return 0;
}

int report_read_buffer(const char *buf, size_t len, json_t **doc, char *err, size_t errlen)
{
    int rc = read_buffer(buf, len, doc, err, errlen);
    if (rc < 0)
        term_fix(err, errlen); /* it may quote the file: a key's name, jansson's "near '...'" */
    return rc;
}

int report_read_file(const char *path, json_t **doc, char *err, size_t errlen)
{
    *doc = NULL;
    char *buf;
    size_t len;
    int rc = read_regular_file(path, REPORT_MAX_BYTES, &buf, &len, err, errlen);
    if (rc == -EFBIG)
        snprintf(err, errlen, "not a report: larger than %u MiB", REPORT_MAX_BYTES >> 20);
    if (rc < 0)
        return rc;
    rc = report_read_buffer(buf, len, doc, err, errlen);
    free(buf);
    return rc;
}
