/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The set-up of a report as compare matches it, and its system identity: see compare_setup.h. */
#include "compare/compare_setup.h"
#include "report/access.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flat_ctx {
    json_t *map; /* key -> array of n values (null where a report lacks the key) */
    size_t idx, n;
};

/* Keys of the identity that change from run to run on one and the same system (process ids, other audio
 * processes that happened to run, free swap): listing them as "what differs" would hide what does. */
static int identity_noise(const char *key)
{
    static const char *const prefixes[] = { "audio_servers" };
    static const char *const leaves[] = { "pid", "swap_free_mib", "mem_free_mib", "mem_available_mib", "uptime_s" };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
            return 1;
    const char *leaf = strrchr(key, '.');
    leaf = leaf ? leaf + 1 : key;
    for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
        if (!strcmp(leaf, leaves[i]))
            return 1;
    return 0;
}

static void flat_collect(const char *key, const char *value, void *arg)
{
    struct flat_ctx *c = arg;
    if (identity_noise(key))
        return;
    json_t *a = json_object_get(c->map, key);
    if (!a) {
        if (json_object_size(c->map) >= 2000) /* a hostile identity does not get to grow this without bound */
            return;
        a = json_array();
        for (size_t i = 0; i < c->n; i++)
            json_array_append_new(a, json_null());
        json_object_set_new(c->map, key, a);
    }
    json_array_set_new(a, c->idx, json_string(value));
}

/* What differs in the system identity of docs[0..n), key by key, whatever keys exist: [{key, values}]. */
json_t *compare_system_diff(json_t *const *docs, size_t n)
{
    struct flat_ctx fc = { json_object(), 0, n };
    for (size_t i = 0; i < n; i++) {
        fc.idx = i;
        const json_t *sys = json_object_get(docs[i], "system");
        if (json_is_object(sys))
            flatten_json(sys, "", 0, flat_collect, &fc);
    }
    json_t *diff = json_array();
    const char *key;
    json_t *vals;
    json_object_foreach(fc.map, key, vals) {
        int same = 1;
        for (size_t i = 1; i < n; i++)
            same &= json_equal(json_array_get(vals, 0), json_array_get(vals, i));
        if (!same)
            json_array_append_new(diff, json_pack("{s:s, s:O}", "key", key, "values", vals));
    }
    json_decref(fc.map);
    return diff;
}

static void flat_one(const char *key, const char *value, void *arg)
{
    if (!identity_noise(key) && json_object_size(arg) < 2000)
        json_object_set_new(arg, key, json_string(value));
}

/* What makes two reports of one set-up (compare_same_setup()), as one object: equal objects, one set-up. */
static json_t *setup_json(const json_t *doc)
{
    json_t *o = json_object(), *sys = json_object(), *au = json_object();
    flatten_json(json_object_get(doc, "system"), "", 0, flat_one, sys);
    /* what the user set for the run: a private server's name changes from run to run and is left out */
    static const char *const keys[] = { "backend", "provider", "rate", "period_frames", "nperiods", "device", "driver",
                                        "wakeup_method", "interval_us", "cpus", "realtime", "sched_policy",
                                        "priority_requested", "dsp_pct" };
    const json_t *x = json_object_get(doc, "audio");
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const json_t *u = json_object_get(x, keys[i]);
        if (u)
            json_object_set_new(au, keys[i], json_deep_copy(u));
    }
    json_object_set_new(o, "system", sys);
    json_object_set_new(o, "audio", au);
    /* the timer backend's threads: their number was chosen, their figures were measured */
    json_object_set_new(o, "threads", json_integer((json_int_t)json_array_size(json_object_get(x, "threads"))));
    const json_t *la = json_object_get(doc, "label");
    if (la)
        json_object_set_new(o, "label", json_deep_copy(la));
    return o;
}

int compare_same_setup(const json_t *doc, const json_t *rep)
{
    json_t *a = setup_json(doc), *b = setup_json(rep);
    int same = json_equal(a, b);
    json_decref(a);
    json_decref(b);
    return same;
}

json_t *compare_identity(const json_t *doc)
{
    char key[1024];
    if (compare_setup_key(doc, key, sizeof(key)) < 0)
        key[sizeof(key) - 1] = '\0'; /* cut: still the same for one set-up */
    const json_t *la = json_object_get(doc, "label");
    return json_pack("{s:o, s:s, s:s, s:o}", "setup", setup_json(doc), "key", key, "host",
                     doc_str(json_object_get(doc, "system"), "hostname", "?"), "label",
                     json_is_string(la) ? json_deep_copy(la) : json_null());
}

int compare_identity_same_setup(const json_t *a, const json_t *b)
{
    return json_equal(json_object_get(a, "setup"), json_object_get(b, "setup"));
}

int compare_setup_key(const json_t *doc, char *key, size_t len)
{
    const json_t *sys = json_object_get(doc, "system"), *k = json_object_get(sys, "kernel"),
                 *cpu = json_object_get(sys, "cpu"), *au = json_object_get(doc, "audio");
    const json_t *ti = json_object_get(k, "threadirqs");
    /* and what the user chose for the run beyond rate and period, and the label: the same as the runs compare takes
     * for one set-up's replicates (compare_same_setup()) */
    char *cpus = json_dumps(json_object_get(au, "cpus"), JSON_COMPACT | JSON_ENCODE_ANY);
    int n = snprintf(key, len, "%s|%s|%s|%s|%s|%s|%s|%s|%.0f|%.0f|%.0f|%s|%s|%.0f|%.0f|%zu|%s",
                     doc_str(sys, "hostname", "?"), doc_str(k, "release", "?"), doc_str(k, "cmdline", "?"),
                     doc_str(k, "preempt", "?"), doc_str(cpu, "governor", "?"),
                     json_is_true(ti) ? "threadirqs" : json_is_false(ti) ? "-" : "?", doc_str(au, "backend", "?"),
                     doc_str(au, "provider", "?"), doc_num(au, "rate"), doc_num(au, "period_frames"),
                     doc_num(au, "nperiods"), doc_str(au, "device", "-"), cpus ? cpus : "-",
                     doc_num(au, "priority_requested"), doc_num(au, "dsp_pct"),
                     json_array_size(json_object_get(au, "threads")), doc_str(doc, "label", "-"));
    free(cpus);
    return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
