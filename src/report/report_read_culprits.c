/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checking the events, spikes and culprits of a report read back (report_read_culprits.h): the same tables of
 * types as the rest of the reader (report_read.h, doc_check_fields). A key that is absent is not checked: a report
 * written before the culprits existed has none of them. */
#include "report/report_read_culprits.h"
#include "report/report_read.h"
#include <errno.h>
#include <stdio.h>

/* Far above what a run lists (EVENT_KEEP_LATEST + EVENT_KEEP_WORST, SEGMENT_SPIKES_MAX, CULPRITS_MAX), low enough that a hostile
 * file cannot make a renderer loop for hours. */
#define MAX_HAPPENINGS 100000
#define MAX_CULPRITS 64

static const struct field event_fields[] = {
    { "n", T_COUNT | T_NULL }, { "t_s", T_NUM | T_NULL }, { "wall", T_STR | T_NULL }, { "length_ms", T_NUM | T_NULL },
    { "cycles", T_COUNT | T_NULL }, { "skipped", T_COUNT | T_NULL }, { "notifications", T_COUNT | T_NULL },
    { "cpu", T_NUM | T_NULL }, { "callback_max_us", T_NUM | T_NULL }, { "explained", T_BOOL | T_NULL },
    { "culprits", T_ARR | T_NULL }, { NULL, 0 },
};

static const struct field spike_fields[] = {
    { "t_s", T_NUM | T_NULL }, { "wall", T_STR | T_NULL }, { "wakeup_us", T_NUM | T_NULL },
    { "callback_us", T_NUM | T_NULL }, { "cpu", T_NUM | T_NULL }, { "explained", T_BOOL | T_NULL },
    { "culprits", T_ARR | T_NULL }, { NULL, 0 },
};

/* A culprit (culprit_json): kind, basis and name are what every reader switches on and prints. */
static const struct field culprit_fields[] = {
    { "kind", T_STR }, { "basis", T_STR | T_NULL }, { "name", T_STR }, { "pid", T_NUM | T_NULL },
    { "tid", T_NUM | T_NULL }, { "cpu", T_NUM | T_NULL }, { "irq", T_NUM | T_NULL }, { "score", T_NUM | T_NULL },
    { "evidence", T_STR | T_NULL }, { NULL, 0 },
};

static const struct field top_fields[] = {
    { "kind", T_STR }, { "name", T_STR }, { "basis", T_STR | T_NULL }, { "events", T_COUNT | T_NULL },
    { "spikes", T_COUNT | T_NULL }, { "evidence", T_STR | T_NULL }, { NULL, 0 },
};

/* phases[].events_summary (report_events.h): the events not listed, summed. */
static const struct field events_summary_fields[] = {
    { "total", T_COUNT | T_NULL }, { "listed", T_COUNT | T_NULL }, { "summarised", T_COUNT | T_NULL },
    { "lost", T_COUNT | T_NULL }, { "kept_latest", T_COUNT | T_NULL }, { "kept_worst", T_COUNT | T_NULL },
    { "bucket_s", T_NUM | T_NULL }, { "per_minute", T_ARR | T_NULL }, { "per_culprit", T_ARR | T_NULL },
    { "per_culprit_others", T_OBJ | T_NULL }, { NULL, 0 },
};

static const struct field event_sum_fields[] = {
    { "t_s", T_NUM | T_NULL }, { "wall", T_STR | T_NULL }, { "span_s", T_NUM | T_NULL },
    { "kind", T_STR | T_NULL }, { "name", T_STR | T_NULL }, { "events", T_COUNT | T_NULL },
    { "length_ms_sum", T_NUM | T_NULL }, { "length_ms_max", T_NUM | T_NULL }, { "skipped", T_COUNT | T_NULL },
    { "notifications", T_COUNT | T_NULL }, { NULL, 0 },
};

static const struct field summary_fields[] = {
    { "sampler", T_OBJ | T_NULL }, { "cost", T_OBJ | T_NULL }, { "periodicity", T_ARR | T_NULL },
    { "trace", T_OBJ | T_NULL }, { NULL, 0 },
};

static const struct field periodicity_fields[] = {
    { "period_s", T_NUM | T_NULL }, { "count", T_COUNT | T_NULL }, { "spread_s", T_NUM | T_NULL },
    { "what", T_STR | T_NULL }, { NULL, 0 },
};

/* Each entry of the array a (when it is one) an object whose keys f lists; entries' culprits too when sub. */
static int check_list(const json_t *a, size_t max, const struct field *f, int sub, const char *path, char *err,
                      size_t errlen)
{
    if (!json_is_array(a))
        return 0;
    if (json_array_size(a) > max) {
        snprintf(err, errlen, "malformed report: %s has %zu entries (more than %zu)", path, json_array_size(a), max);
        return -EINVAL;
    }
    size_t i;
    const json_t *e;
    char at[320];
    json_array_foreach(a, i, e) {
        snprintf(at, sizeof(at), "%s[%zu]", path, i);
        if (!json_is_object(e)) {
            snprintf(err, errlen, "malformed report: %s is not an object", at);
            return -EINVAL;
        }
        if (doc_check_fields(e, f, "report", at, err, errlen) < 0)
            return -EINVAL;
        char cs[360];
        snprintf(cs, sizeof(cs), "%s.culprits", at);
        if (sub && check_list(json_object_get(e, "culprits"), MAX_CULPRITS, culprit_fields, 0, cs, err, errlen) < 0)
            return -EINVAL;
    }
    return 0;
}

int report_check_happenings(const json_t *phase, const char *path, char *err, size_t errlen)
{
    static const struct {
        const char *key;
        const struct field *f;
        size_t max;
        int sub;
    } lists[] = {
        { "events", event_fields, MAX_HAPPENINGS, 1 },
        { "spikes", spike_fields, MAX_HAPPENINGS, 1 },
        { "top_culprits", top_fields, MAX_CULPRITS, 0 },
    };
    for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
        char at[256];
        snprintf(at, sizeof(at), "%s.%s", path, lists[k].key);
        if (check_list(json_object_get(phase, lists[k].key), lists[k].max, lists[k].f, lists[k].sub, at, err,
                       errlen) < 0)
            return -EINVAL;
    }
    /* written since issue 34; older reports have none */
    const json_t *sum = json_object_get(phase, "events_summary");
    if (json_is_object(sum)) {
        char at[256];
        snprintf(at, sizeof(at), "%s.events_summary", path);
        if (doc_check_fields(sum, events_summary_fields, "report", at, err, errlen) < 0)
            return -EINVAL;
        static const char *const lists2[] = { "per_minute", "per_culprit" };
        for (size_t k = 0; k < 2; k++) {
            char at2[300];
            snprintf(at2, sizeof(at2), "%s.%s", at, lists2[k]);
            if (check_list(json_object_get(sum, lists2[k]), MAX_HAPPENINGS, event_sum_fields, 0, at2, err, errlen) < 0)
                return -EINVAL;
        }
        const json_t *o = json_object_get(sum, "per_culprit_others");
        snprintf(at, sizeof(at), "%s.events_summary.per_culprit_others", path);
        if (json_is_object(o) && doc_check_fields(o, event_sum_fields, "report", at, err, errlen) < 0)
            return -EINVAL;
    }
    return 0;
}

int report_check_culprits_summary(const json_t *c, char *err, size_t errlen)
{
    if (doc_check_fields(c, summary_fields, "report", "culprits", err, errlen) < 0)
        return -EINVAL;
    return check_list(json_object_get(c, "periodicity"), MAX_HAPPENINGS, periodicity_fields, 0,
                      "culprits.periodicity", err, errlen);
}
