/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The texts rtjitter advises in, as its own code writes them, for tests/integration/advice_commands.sh (issues 32
 * and 35: every command a verdict or a check prints is run by a test). One JSON object a line on stdout:
 *
 *   advice_texts kinds                  {"kind": TOKEN} for every culprit kind of the table (culprit_kinds.c)
 *   advice_texts checks ROOT [USER [DIR...]]
 *                                       {"id", "status", "fix", "advice"} of every check that gives a fix, on the
 *                                       tree ROOT as `rtjitter check --root ROOT [--user USER] [--dir DIR]` collects
 *                                       it ("" USER: this process's; DIR: where recordings go); the
 *                                       fix keeps its command marks (util/wrap.h: U+001E ... U+001F), which
 *                                       `rtjitter check` drops on printing: they say exactly what is a command
 *   advice_texts irq N                  {"irq", "affinity"}: what a run records of line N (culprit_irq_affinity():
 *                                       1 the kernel refuses to move it, -1 movable, 0 not known)
 *   advice_texts judge REPORT.json      {"id", "advice"} of each piece of the verdict's advice, the report judged
 *                                       again (verdict_report(), as a run judges it) by its own profile
 *
 * Exit 0, or 2 with one line on bad input. */
#include "checks/checks.h"
#include "culprit/culprit.h"
#include "verdict/profile.h"
#include "verdict/verdict.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(json_t *o)
{
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    if (s)
        puts(s);
    free(s);
    json_decref(o);
}

static int checks(const char *root, const char *user, const char *const *paths)
{
    struct checks_env env = { .root = root, .user = user && user[0] ? user : NULL, .paths = paths, .probe = 1 };
    json_t *sys = checks_collect(&env);
    size_t max = checks_count();
    struct check_result *r = calloc(max, sizeof(*r));
    int n = sys && r ? checks_run(sys, NULL, r, max) : -1;
    for (int i = 0; i < n; i++)
        if (r[i].fix[0] || r[i].advice[0])
            put(json_pack("{s:s, s:s, s:s, s:s}", "id", r[i].check->id, "status", check_status_name(r[i].status),
                          "fix", r[i].fix, "advice", r[i].advice));
    free(r);
    json_decref(sys);
    return n < 0 ? 2 : 0;
}

static int judge(const char *path)
{
    json_error_t e;
    json_t *doc = json_load_file(path, 0, &e);
    if (!doc) {
        fprintf(stderr, "advice_texts: %s: %s\n", path, e.text);
        return 2;
    }
    const char *name = json_string_value(json_object_get(json_object_get(doc, "profile"), "name"));
    json_t *profile = NULL;
    char err[512];
    if (profile_load(name ? name : PROFILE_DEFAULT, &profile, err, sizeof(err)) < 0) {
        fprintf(stderr, "advice_texts: %s\n", err);
        json_decref(doc);
        return 2;
    }
    int rc = verdict_report(doc, profile, 0, -1, -1) < 0 ? 2 : 0;
    const json_t *v = json_object_get(doc, "verdict");
    const json_t *texts = json_object_get(v, "advice"), *ids = json_object_get(v, "advice_ids");
    for (size_t i = 0; i < json_array_size(texts); i++)
        put(json_pack("{s:O, s:O}", "id", json_array_get(ids, i) ? json_array_get(ids, i) : json_null(), "advice",
                      json_array_get(texts, i)));
    json_decref(profile);
    json_decref(doc);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "kinds") == 0) {
        for (int k = 0; k < CK_COUNT; k++)
            put(json_pack("{s:s}", "kind", culprit_kind_name((enum culprit_kind)k)));
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "checks") == 0)
        return checks(argv[2], argc >= 4 ? argv[3] : NULL, argc >= 5 ? (const char *const *)argv + 4 : NULL);
    if (argc == 3 && strcmp(argv[1], "irq") == 0) {
        int irq = atoi(argv[2]);
        put(json_pack("{s:i, s:i}", "irq", irq, "affinity", culprit_irq_affinity("/proc", irq)));
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "judge") == 0)
        return judge(argv[2]);
    fprintf(stderr, "usage: advice_texts kinds | checks ROOT [USER [DIR...]] | irq N | judge REPORT.json\n");
    return 2;
}
