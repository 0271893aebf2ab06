/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding and checking verdict profiles. Runs on the main thread before the measurement starts, so that a
 * wrong --profile fails at once (exit 2), not after minutes of measuring. */
#include "verdict/profile.h"
#include "util/readfile.h"
#include <stdlib.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const number_keys[] = { "max_xruns", "max_deadlines_missed", "warn_jitter_pct", "warn_margin_pct",
                                           "warn_period_ms", NULL };

int profile_check(const json_t *p, char *err, size_t errlen)
{
    if (!json_is_object(p)) {
        snprintf(err, errlen, "not a JSON object");
        return -EINVAL;
    }
    const char *schema = json_string_value(json_object_get(p, "schema"));
    if (!schema || strcmp(schema, PROFILE_SCHEMA) != 0) {
        snprintf(err, errlen, "schema is \"%.40s\", expected \"%s\"", schema ? schema : "(none)", PROFILE_SCHEMA);
        return -EINVAL;
    }
    if (!json_string_value(json_object_get(p, "name"))) {
        snprintf(err, errlen, "no \"name\"");
        return -EINVAL;
    }
    for (const char *const *k = number_keys; *k; k++) {
        const json_t *v = json_object_get(p, *k);
        if (!json_is_number(v) || json_number_value(v) < 0) {
            snprintf(err, errlen, "\"%s\" must be a number >= 0", *k);
            return -EINVAL;
        }
    }
    const json_t *soak = json_object_get(p, "soak_max_wakeup_pct"); /* optional: verdict_soak.h */
    if (soak && (!json_is_number(soak) || json_number_value(soak) < 0)) {
        snprintf(err, errlen, "\"soak_max_wakeup_pct\" must be a number >= 0 when given");
        return -EINVAL;
    }
    if (!json_is_boolean(json_object_get(p, "require_realtime"))) {
        snprintf(err, errlen, "\"require_realtime\" must be true or false");
        return -EINVAL;
    }
    return 0;
}

#ifndef RTJ_DATADIR
#define RTJ_DATADIR "/usr/local/share/rtjitter"
#endif

static void add_dir(char dirs[][PATH_MAX], int *n, int max, const char *d)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(dirs[i], d) == 0)
            return;
    if (*n < max)
        snprintf(dirs[(*n)++], PATH_MAX, "%s", d);
}

/* The directories searched, in order; n gets how many. */
static int profile_dirs(char dirs[][PATH_MAX], int max)
{
    int n = 0;
    char d[PATH_MAX];
    const char *env = getenv("RTJ_DATADIR");
    if (env && env[0]) {
        snprintf(d, sizeof(d), "%.3000s/profiles", env);
        add_dir(dirs, &n, max, d);
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = '\0';
        /* ./rtjitter in the source tree */
        snprintf(d, sizeof(d), "%.3000s/data/profiles", exe);
        add_dir(dirs, &n, max, d);
    }
    /* where make install put them (PREFIX/share/rtjitter), then the same place relative to a moved install */
    add_dir(dirs, &n, max, RTJ_DATADIR "/profiles");
    if (slash) {
        snprintf(d, sizeof(d), "%.3000s/../share/rtjitter/profiles", exe);
        add_dir(dirs, &n, max, d);
    }
    return n;
}

#define PROFILE_MAX_BYTES (1u << 20) /* a profile is a few hundred bytes */

/* Parses and checks a profile's text; path says where it came from. */
static int load_text(const char *path, const char *buf, size_t len, json_t **out, char *err, size_t errlen)
{
    json_error_t je;
    json_t *p = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!p) {
        snprintf(err, errlen, "profile %.300s: %.200s (line %d)", path, je.text, je.line);
        return -EINVAL;
    }
    char why[200];
    if (profile_check(p, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "profile %.300s: %s", path, why);
        json_decref(p);
        return -EINVAL;
    }
    json_object_set_new(p, "path", json_string(path));
    *out = p;
    return 0;
}

static int load_file(const char *path, json_t **out, char *err, size_t errlen)
{
    char *buf, why0[200];
    size_t len;
    if (read_regular_file(path, PROFILE_MAX_BYTES, &buf, &len, why0, sizeof(why0)) < 0) {
        snprintf(err, errlen, "profile %.300s: %s", path, why0);
        return -EINVAL;
    }
    int r = load_text(path, buf, len, out, err, errlen);
    free(buf);
    return r;
}

static int has_name(char names[][72], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* "live, studio": every profile found in the directories and built in, sorted, each once. */
static void list_available(char dirs[][PATH_MAX], int n, char *buf, size_t len)
{
    char names[64][72];
    int k = 0;
    for (int i = 0; i < n; i++) {
        struct dirent **de;
        int m = scandir(dirs[i], &de, NULL, alphasort);
        for (int j = 0; j < m; j++) {
            size_t l = strlen(de[j]->d_name);
            if (l > 5 && l < 70 && strcmp(de[j]->d_name + l - 5, ".json") == 0 && k < 64) {
                snprintf(names[k], sizeof(names[k]), "%.*s", (int)(l - 5), de[j]->d_name);
                if (!has_name(names, k, names[k]))
                    k++;
            }
            free(de[j]);
        }
        if (m >= 0)
            free(de);
    }
    for (const struct profile_builtin *b = profile_builtins(); b->name && k < 64; b++)
        if (!has_name(names, k, b->name))
            snprintf(names[k++], sizeof(names[0]), "%s", b->name);
    qsort(names, (size_t)k, sizeof(names[0]), by_name);
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < k && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
}

int profile_load(const char *name, json_t **out, char *err, size_t errlen)
{
    *out = NULL;
    if (strchr(name, '/')) {
        if (access(name, R_OK) < 0) {
            snprintf(err, errlen, "profile %.300s: %s", name, strerror(errno));
            return -ENOENT;
        }
        return load_file(name, out, err, errlen);
    }
    /* A bare name only: never a path made up from user text. */
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
              *c == '_') || c - name > 64) {
            snprintf(err, errlen, "bad profile name \"%.70s\": letters, digits, - and _ only", name);
            return -EINVAL;
        }
    char dirs[4][PATH_MAX];
    int n = profile_dirs(dirs, 4);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 80];
        snprintf(path, sizeof(path), "%.4000s/%.70s.json", dirs[i], name);
        if (access(path, F_OK) == 0)
            return load_file(path, out, err, errlen);
    }
    for (const struct profile_builtin *b = profile_builtins(); b->name; b++)
        if (strcmp(b->name, name) == 0)
            return load_text("built in", b->json, strlen(b->json), out, err, errlen);
    char avail[256];
    list_available(dirs, n, avail, sizeof(avail));
    int o = snprintf(err, errlen, "unknown profile \"%s\" (%s%s; looked in", name,
                     avail[0] ? "available: " : "no profile found", avail);
    for (int i = 0; i < n && o > 0 && (size_t)o < errlen; i++)
        o += snprintf(err + o, errlen - (size_t)o, "%s %s", i ? "," : "", dirs[i]);
    if (o > 0 && (size_t)o < errlen)
        snprintf(err + o, errlen - (size_t)o, ", and among those built in)");
    return -ENOENT;
}
