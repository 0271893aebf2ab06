/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checking the events, spikes and culprits of a report read back (report_read_culprits.h): against the report's
 * one table of keys, as the rest of the reader (schema.h). A key that is absent is not checked: a report
 * written before the culprits existed has none of them. */
#include "report/report_read_culprits.h"
#include "report/report_read.h"
#include "report/schema.h"
#include <errno.h>
#include <stdio.h>

/* Far above what a run lists (EVENT_KEEP_LATEST + EVENT_KEEP_WORST, SEGMENT_SPIKES_MAX, CULPRITS_MAX), low enough that a hostile
 * file cannot make a renderer loop for hours. */
#define MAX_HAPPENINGS 100000
#define MAX_CULPRITS 64

/* Each entry of the array a (when it is one) an object whose keys the schema lists under at ("phases[].events[]");
 * entries' culprits too when sub. */
static int check_list(const json_t *a, size_t max, const char *at, int sub, const char *path, char *err,
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
    char where[320];
    json_array_foreach(a, i, e) {
        snprintf(where, sizeof(where), "%s[%zu]", path, i);
        if (!json_is_object(e)) {
            snprintf(err, errlen, "malformed report: %s is not an object", where);
            return -EINVAL;
        }
        if (schema_check_object(e, at, where, err, errlen) < 0)
            return -EINVAL;
        char cs[360], cat[120];
        snprintf(cs, sizeof(cs), "%s.culprits", where);
        snprintf(cat, sizeof(cat), "%s.culprits[]", at);
        if (sub && check_list(json_object_get(e, "culprits"), MAX_CULPRITS, cat, 0, cs, err, errlen) < 0)
            return -EINVAL;
    }
    return 0;
}

int report_check_happenings(const json_t *phase, const char *path, char *err, size_t errlen)
{
    static const struct {
        const char *key, *at;
        size_t max;
        int sub;
    } lists[] = {
        { "events", "phases[].events[]", MAX_HAPPENINGS, 1 },
        { "spikes", "phases[].spikes[]", MAX_HAPPENINGS, 1 },
        { "top_culprits", "phases[].top_culprits[]", MAX_CULPRITS, 0 },
    };
    for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
        char at[256];
        snprintf(at, sizeof(at), "%s.%s", path, lists[k].key);
        if (check_list(json_object_get(phase, lists[k].key), lists[k].max, lists[k].at, lists[k].sub, at, err,
                       errlen) < 0)
            return -EINVAL;
    }
    /* written since issue 34; older reports have none */
    const json_t *sum = json_object_get(phase, "events_summary");
    if (json_is_object(sum)) {
        char at[256];
        snprintf(at, sizeof(at), "%s.events_summary", path);
        if (schema_check_object(sum, "phases[].events_summary", at, err, errlen) < 0)
            return -EINVAL;
        static const char *const lists2[] = { "per_minute", "per_culprit" };
        for (size_t k = 0; k < 2; k++) {
            char at2[300];
            snprintf(at2, sizeof(at2), "%s.%s", at, lists2[k]);
            char sat[80];
            snprintf(sat, sizeof(sat), "phases[].events_summary.%s[]", lists2[k]);
            if (check_list(json_object_get(sum, lists2[k]), MAX_HAPPENINGS, sat, 0, at2, err, errlen) < 0)
                return -EINVAL;
        }
        const json_t *o = json_object_get(sum, "per_culprit_others");
        snprintf(at, sizeof(at), "%s.events_summary.per_culprit_others", path);
        if (json_is_object(o) && schema_check_object(o, "phases[].events_summary.per_culprit_others", at, err, errlen) < 0)
            return -EINVAL;
    }
    return 0;
}

int report_check_culprits_summary(const json_t *c, char *err, size_t errlen)
{
    if (schema_check_object(c, "culprits", "culprits", err, errlen) < 0)
        return -EINVAL;
    return check_list(json_object_get(c, "periodicity"), MAX_HAPPENINGS, "culprits.periodicity[]", 0,
                      "culprits.periodicity", err, errlen);
}
