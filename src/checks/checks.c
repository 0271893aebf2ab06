/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks table, made from the one list CHECKS (checks_internal.h, which says its order), its runner, and what
 * `rtjitter check` collects for it. */
#include "checks/checks_internal.h"
#include "sysinfo/sysinfo.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ENTRY(n) &check_##n,
static const struct check *const table[] = { CHECKS(CHECK_ENTRY) };

#define NCHECKS (sizeof(table) / sizeof(table[0]))

size_t checks_count(void)
{
    return NCHECKS;
}

const struct check *checks_get(size_t i)
{
    return i < NCHECKS ? table[i] : NULL;
}

static void vfill(char *buf, size_t len, const char *fmt, va_list ap)
{
    if (vsnprintf(buf, len, fmt, ap) < 0)
        buf[0] = '\0';
}

void check_fmt(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfill(buf, len, fmt, ap);
    va_end(ap);
}

void check_say(struct check_result *r, enum check_status s, const char *fmt, ...)
{
    va_list ap;
    r->status = s;
    va_start(ap, fmt);
    vfill(r->why, sizeof(r->why), fmt, ap);
    va_end(ap);
}

void check_fix(struct check_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfill(r->fix, sizeof(r->fix), fmt, ap);
    va_end(ap);
}

void check_advise(struct check_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfill(r->advice, sizeof(r->advice), fmt, ap);
    va_end(ap);
}

void check_hint(struct check_result *r, const char *hint)
{
    snprintf(r->hint, sizeof(r->hint), "%s", hint);
}

const char *check_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

int check_in_list(const json_t *names, const char *name)
{
    size_t i;
    const json_t *v;
    json_array_foreach(names, i, v)
        if (json_string_value(v) && strcmp(json_string_value(v), name) == 0)
            return 1;
    return 0;
}

double check_num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

const json_t *check_setup(const json_t *sys)
{
    const json_t *s = json_object_get(sys, "setup");
    return json_is_object(s) ? s : NULL;
}

const json_t *check_process(const json_t *sys)
{
    const json_t *p = json_object_get(sys, "process");
    return json_is_object(p) ? p : NULL;
}

int check_installed(const json_t *sys, const char *package, const char *program, const char **version)
{
    const json_t *s = check_setup(sys), *pk = json_object_get(s, "packages");
    const char *v = package ? check_str(pk, package) : NULL;
    int prog = program && check_str(json_object_get(s, "programs"), program) != NULL;
    if (version)
        *version = v;
    if (v || prog)
        return 1;
    return json_is_object(pk) ? 0 : -1;
}

/* Length of the valid UTF-8 sequence at s, 0 when it is not one (or is cut short). */
static size_t utf8_len(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* The why and the fix are one line each: values read from the system (a card's name, the command line) must
 * not break a table or a log line, and a value cut to fit may end inside a UTF-8 sequence, which JSON refuses.
 * With marks, the why and the fix keep their command marks (util/wrap.h) when they pair up (on, off, on, off); marks that do
 * not (a value from the system holding one, a command cut short) become spaces like the other controls. */
static void one_line(char *s, int marks)
{
    if (marks) {
        int on = 0, ok = 1;
        for (const char *q = s; *q && ok; q++)
            if (*q == WRAP_CMD_ON[0] || *q == WRAP_CMD_OFF[0])
                ok = (*q == WRAP_CMD_ON[0]) == !on, on = !on;
        marks = ok && !on;
    }
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) {
            *p++ = '?';
            continue;
        }
        if (n == 1 && (*p < 0x20 || *p == 0x7f) && !(marks && (*p == WRAP_CMD_ON[0] || *p == WRAP_CMD_OFF[0])))
            *p = ' ';
        p += n;
    }
}

void check_run(const struct check *c, const json_t *sys, struct check_result *r)
{
    json_t *empty = NULL;
    memset(r, 0, sizeof(*r));
    r->check = c;
    if (!json_is_object(sys))
        sys = empty = json_object();
    /* A check that forgets to say anything still gives a status and a reason. */
    check_say(r, CHECK_SKIP, "the check gave no answer");
    if (sys)
        c->eval(sys, r);
    json_decref(empty);
    /* A check never claims more than its table entry says it can give. */
    if (r->status > c->level && r->status != CHECK_SKIP)
        r->status = c->level;
    if (r->status == CHECK_OK || r->status == CHECK_SKIP || c->matters == CHECK_MATTERS_CHECKLIST)
        r->advice[0] = r->hint[0] = '\0';
    if (r->status == CHECK_OK || r->status == CHECK_SKIP)
        r->fix[0] = '\0';
    one_line(r->why, 1);
    one_line(r->fix, 1);
    one_line(r->advice, 0);
    one_line(r->hint, 0);
}

int checks_run(const json_t *system, const char *root, struct check_result *out, size_t max)
{
    json_t *collected = NULL;
    if (!system && root) {
        struct checks_env env = { .root = root };
        collected = checks_collect(&env);
        if (!collected)
            return -ENOMEM;
        system = collected;
    }
    size_t n = max < NCHECKS ? max : NCHECKS;
    for (size_t i = 0; i < n; i++)
        check_run(table[i], system, &out[i]);
    json_decref(collected);
    return (int)n;
}

const char *check_group_name(enum check_group g)
{
    static const char *const names[] = { [CHECK_PRIVILEGES] = "Privileges", [CHECK_KERNEL] = "Kernel",
                                         [CHECK_CPU] = "CPU", [CHECK_MEMORY] = "Memory and disks",
                                         [CHECK_IRQS] = "IRQs", [CHECK_AUDIO] = "Audio stack",
                                         [CHECK_POWER] = "Power" };
    return (unsigned)g < sizeof(names) / sizeof(names[0]) ? names[g] : "?";
}

json_t *checks_collect(const struct checks_env *env)
{
    const char *root = env->root ? env->root : "";
    json_t *sys = sysinfo_collect(root);
    if (!sys)
        return NULL;
    json_t *proc = env->probe ? checks_probe_process(root, env->fifo_priority) : NULL;
    const char *user = env->user ? env->user : check_str(proc, "judged_user");
    const char *home = env->home ? env->home : check_str(proc, "home");
    struct sysinfo_setup_args a = { .user = user, .home = home, .paths = env->paths };
    json_t *setup = sysinfo_setup(root, &a);
    if (!setup || (env->probe && !proc)) {
        json_decref(setup);
        json_decref(proc);
        json_decref(sys);
        return NULL;
    }
    json_object_set_new(sys, "setup", setup);
    if (proc)
        json_object_set_new(sys, "process", proc);
    /* Another user's login is not this process's: only root can predict it; for anyone else it is not judged. */
    if (proc && check_num(proc, "euid") != 0 && env->user && check_str(proc, "user") &&
        strcmp(env->user, check_str(proc, "user")) != 0)
        json_object_set_new(proc, "other_user", json_string(env->user));
    /* As root, another user's login is judged as PAM would give it, not root's own (login_predict.c). */
    if (proc && check_num(proc, "euid") == 0 && user && strcmp(user, "root") != 0 &&
        checks_predict_login(sys, env->fifo_priority, env->user ? "--user" : "sudo") == -ENOMEM) {
        json_decref(sys);
        return NULL;
    }
    return sys;
}

const char *check_status_name(enum check_status s)
{
    static const char *const names[] = { [CHECK_SKIP] = "skip", [CHECK_OK] = "ok", [CHECK_WARN] = "warn",
                                         [CHECK_FAIL] = "fail" };
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

json_t *checks_json(const struct check_result *r, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        const struct check *c = r[i].check;
        char why[sizeof(r[i].why)], fix[sizeof(r[i].fix)];
        snprintf(why, sizeof(why), "%s", r[i].why);
        snprintf(fix, sizeof(fix), "%s", r[i].fix);
        wrap_unmark(why); /* the marks are the text form's: never in a file */
        wrap_unmark(fix);
        json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "id", c->id, "group",
                              check_group_name(c->group), "title", c->title, "reads",
                              c->reads, "level", check_status_name(c->level), "status",
                              check_status_name(r[i].status), "why", why, "fix",
                              fix[0] ? json_string(fix) : json_null());
        if (!o || json_array_append_new(a, o) < 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}
