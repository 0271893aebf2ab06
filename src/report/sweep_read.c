/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep reader (sweep_read.h). Missing keys are allowed (renderers show "-" or "?"); a key of the wrong type,
 * a number out of range or an array longer than a sweep can make is refused. */
#include "report/sweep_read.h"
#include "report/report_read.h"
#include "util/readfile.h"
#include "util/termtext.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Far above what `rtjitter sweep` writes (8 rates x 16 loads x 16 sizes), low enough to render quickly. */
#define SWEEP_MAX_CELLS 4096
#define SWEEP_MAX_AXIS 64

static const struct field top_fields[] = {
    { "schema", T_STR }, { "tool", T_OBJ }, { "complete", T_BOOL }, { "incomplete_reason", T_STR | T_NULL },
    { "label", T_STR | T_NULL }, { "started", T_STR | T_NULL }, { "finished", T_STR | T_NULL },
    { "system", T_OBJ }, { "audio", T_OBJ }, { "profile", T_OBJ }, { "rates", T_ARR }, { "periods", T_ARR },
    { "loads", T_ARR }, { "cells", T_ARR }, { "smallest_safe", T_ARR }, { "duration_s", T_NUM | T_NULL },
    { NULL, 0 },
};
static const struct field audio_fields[] = {
    { "backend", T_STR | T_NULL }, { "server", T_STR | T_NULL }, { "device", T_STR | T_NULL },
    { "buffer_change", T_STR | T_NULL }, { "dsp_pct", T_NUM | T_NULL }, { NULL, 0 },
};
static const struct field profile_fields[] = {
    { "name", T_STR | T_NULL }, { "warn_margin_pct", T_NUM | T_NULL }, { "max_xruns", T_NUM | T_NULL },
    { "max_deadlines_missed", T_NUM | T_NULL }, { NULL, 0 },
};
static const struct field cell_fields[] = {
    { "rate", T_NUM }, { "period_frames", T_NUM }, { "period_ms", T_NUM | T_NULL }, { "load", T_STR },
    { "state", T_STR }, { "measured", T_BOOL }, { "why", T_STR | T_NULL }, { "clear", T_BOOL | T_NULL },
    { "measured_s", T_NUM | T_NULL }, { "cycles", T_NUM | T_NULL }, { "xrun_events", T_NUM | T_NULL },
    { "deadlines_met_pct", T_NUM | T_NULL }, { "deadlines_missed", T_NUM | T_NULL },
    { "wakeup_p999_us", T_NUM | T_NULL }, { "wakeup_max_us", T_NUM | T_NULL },
    { "margin_p999_us", T_NUM | T_NULL }, { "margin_p999_pct", T_NUM | T_NULL },
    { "margin_min_us", T_NUM | T_NULL }, { "proof", T_OBJ | T_NULL }, { "report", T_STR | T_NULL },
    { NULL, 0 },
};
static const struct field proof_fields[] = { { "text", T_STR | T_NULL }, { NULL, 0 } };
static const struct field answer_fields[] = {
    { "rate", T_NUM }, { "per_load", T_ARR }, { "overall", T_OBJ | T_NULL }, { NULL, 0 },
};
static const struct field per_load_fields[] = {
    { "load", T_STR }, { "smallest_safe", T_OBJ | T_NULL }, { NULL, 0 },
};
static const struct field size_fields[] = { { "frames", T_NUM }, { "ms", T_NUM }, { NULL, 0 } };

static int check_fields(const json_t *o, const struct field *fs, const char *where, char *err, size_t errlen)
{
    if (!json_is_object(o)) {
        snprintf(err, errlen, "malformed sweep: %s is not an object", where);
        return -EINVAL;
    }
    return doc_check_fields(o, fs, "sweep", where, err, errlen);
}

/* An array of at most max entries, each of the type want (a positive number when T_NUM). */
static int check_list(const json_t *a, size_t max, unsigned want, const char *where, char *err, size_t errlen)
{
    if (!a)
        return 0;
    if (json_array_size(a) > max) {
        snprintf(err, errlen, "malformed sweep: %s has %zu entries, %zu at most", where, json_array_size(a), max);
        return -EINVAL;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v) {
        if (!doc_type_ok(v, want) || (want == T_NUM && !(json_number_value(v) > 0))) {
            snprintf(err, errlen, "malformed sweep: %s[%zu] is not a %s", where, i,
                     want == T_NUM ? "positive number" : "string");
            return -EINVAL;
        }
    }
    return 0;
}

int sweepdoc_is_sweep(const json_t *doc)
{
    const char *s = json_string_value(json_object_get(doc, "schema"));
    return s && strncmp(s, SWEEP_SCHEMA_PREFIX, strlen(SWEEP_SCHEMA_PREFIX)) == 0;
}

int sweepdoc_validate(const json_t *doc, char *err, size_t errlen)
{
    if (!sweepdoc_is_sweep(doc)) {
        snprintf(err, errlen, "not an rtjitter sweep: no \"schema\": \"" SWEEP_SCHEMA_PREFIX "1\"");
        return -EINVAL;
    }
    const char *v = json_string_value(json_object_get(doc, "schema")) + strlen(SWEEP_SCHEMA_PREFIX);
    if (strcmp(v, "1") != 0 && strncmp(v, "1.", 2) != 0) {
        snprintf(err, errlen, "sweep schema \"" SWEEP_SCHEMA_PREFIX "%.40s\" is newer than this rtjitter reads "
                 "(" SWEEP_SCHEMA_PREFIX "1)", v);
        return -EINVAL;
    }
    const json_t *o;
    if (check_fields(doc, top_fields, "", err, errlen) < 0 ||
        ((o = json_object_get(doc, "audio")) && check_fields(o, audio_fields, "audio", err, errlen) < 0) ||
        ((o = json_object_get(doc, "profile")) && check_fields(o, profile_fields, "profile", err, errlen) < 0) ||
        check_list(json_object_get(doc, "rates"), SWEEP_MAX_AXIS, T_NUM, "rates", err, errlen) < 0 ||
        check_list(json_object_get(doc, "periods"), SWEEP_MAX_AXIS, T_NUM, "periods", err, errlen) < 0 ||
        check_list(json_object_get(doc, "loads"), SWEEP_MAX_AXIS, T_STR, "loads", err, errlen) < 0)
        return -EINVAL;
    const json_t *cells = json_object_get(doc, "cells"), *c;
    size_t i;
    if (json_array_size(cells) > SWEEP_MAX_CELLS) {
        snprintf(err, errlen, "malformed sweep: %zu cells, %d at most", json_array_size(cells), SWEEP_MAX_CELLS);
        return -EINVAL;
    }
    char where[96];
    json_array_foreach(cells, i, c) {
        snprintf(where, sizeof(where), "cells[%zu]", i);
        if (check_fields(c, cell_fields, where, err, errlen) < 0)
            return -EINVAL;
        snprintf(where, sizeof(where), "cells[%zu].proof", i);
        if (json_is_object(o = json_object_get(c, "proof")) && check_fields(o, proof_fields, where, err, errlen) < 0)
            return -EINVAL;
    }
    const json_t *answers = json_object_get(doc, "smallest_safe"), *a;
    if (json_array_size(answers) > SWEEP_MAX_AXIS) {
        snprintf(err, errlen, "malformed sweep: smallest_safe has more than %d rates", SWEEP_MAX_AXIS);
        return -EINVAL;
    }
    json_array_foreach(answers, i, a) {
        snprintf(where, sizeof(where), "smallest_safe[%zu]", i);
        if (check_fields(a, answer_fields, where, err, errlen) < 0)
            return -EINVAL;
        if (!(json_number_value(json_object_get(a, "rate")) > 0)) {
            snprintf(err, errlen, "malformed sweep: %s.rate is not a positive number", where);
            return -EINVAL;
        }
        snprintf(where, sizeof(where), "smallest_safe[%zu].overall", i);
        if (json_is_object(o = json_object_get(a, "overall")) && check_fields(o, size_fields, where, err, errlen) < 0)
            return -EINVAL;
        const json_t *per = json_object_get(a, "per_load"), *e;
        size_t k;
        if (json_array_size(per) > SWEEP_MAX_AXIS) {
            snprintf(err, errlen, "malformed sweep: %s.per_load is too long", where);
            return -EINVAL;
        }
        json_array_foreach(per, k, e) {
            snprintf(where, sizeof(where), "smallest_safe[%zu].per_load[%zu]", i, k);
            if (check_fields(e, per_load_fields, where, err, errlen) < 0 ||
                (json_is_object(o = json_object_get(e, "smallest_safe")) &&
                 check_fields(o, size_fields, where, err, errlen) < 0))
                return -EINVAL;
        }
    }
    return 0;
}

int sweepdoc_read_file(const char *path, json_t **doc, char *err, size_t errlen)
{
    *doc = NULL;
    char *buf;
    size_t len;
    int rc = read_regular_file(path, REPORT_MAX_BYTES, &buf, &len, err, errlen);
    if (rc < 0)
        return rc == -EFBIG ? -ENOMSG : rc; /* the report reader says it in its own words */
    json_error_t je;
    json_t *d = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    free(buf);
    if (!d || !sweepdoc_is_sweep(d)) {
        json_decref(d);
        return -ENOMSG;
    }
    if ((rc = sweepdoc_validate(d, err, errlen)) < 0) {
        term_fix(err, errlen); /* it may quote the file: a key's name, a value */
        json_decref(d);
        return rc;
    }
    *doc = d;
    return 0;
}
