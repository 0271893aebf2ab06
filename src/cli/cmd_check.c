/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter check`: the studio set-up checklist. Collects this machine (or the tree under --root) and this
 * process for the checks table (src/checks), prints each check by group (OK / WARN / FAIL / SKIP, why with the
 * value read, the exact fix), coloured on a terminal unless NO_COLOR is set, and writes the checklist document
 * (rtjitter.checks/1) with --json. Exit status 0 with no FAIL, 1 with any, 2 on bad usage. */
#include "cli/cmd_check.h"
#include "checks/checks.h"
#include "report/doc.h"
#include "util/jackreg.h"
#include "util/shquote.h"
#include "util/termtext.h"
#include "util/wrap.h"
#include <pwd.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECKS_SCHEMA "rtjitter.checks/1"
#define CHECKS_MAX 64

struct check_opts {
    const char *json, *root, *dir, *user;
    int quiet;
};

#define O(f) offsetof(struct check_opts, f)
static const struct opt_def check_defs[] = {
    { "json", OPT_STR, O(json), 0, 0, "FILE", "also write the checklist as JSON (rtjitter.checks/1)", NULL, 0 },
    { "dir", OPT_STR, O(dir), 0, 0, "DIR", "where you record: its filesystem is judged with / and /home (default: "
      "the current directory)", NULL, 0 },
    { "user", OPT_STR, O(user), 0, 0, "NAME", "judge NAME's groups and limits files (default: you; under sudo, "
      "the user who ran sudo); as root, NAME's next login as PAM gives it (an unknown NAME: exit 2)", NULL, 0 },
    { "root", OPT_STR, O(root), 0, 0, "DIR", "read /proc, /sys, /etc and /boot under DIR (a copy of another "
      "system); this process is still judged as it runs", NULL, 0 },
    { "quiet", OPT_FLAG, O(quiet), 0, 0, "", "print only the checks that WARN or FAIL, and the count", NULL, 'q' },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

const struct cli_command cmd_check_info = {
    .name = "check",
    .fn = cmd_check,
    .summary = "the studio set-up checklist: OK / WARN / FAIL, why, and the exact fix",
    .synopsis = "[--json FILE] [--dir DIR] [--user NAME] [-q]",
    .description = "Checks what real-time audio needs of this machine and this login, group by group: privileges\n"
                   "(real-time priority and memory locking in force, the limits files, a real SCHED_FIFO thread,\n"
                   "rtkit), the kernel (preemption, threaded interrupts, timers, isolation, the boot loader's\n"
                   "options in force), the CPU (governor, boost, SMT, idle states), memory and disks, the sound\n"
                   "card's and USB controllers' interrupts, the audio stack (JACK, PipeWire, USB autosuspend) and\n"
                   "power managers. Each says OK, WARN, FAIL or SKIP, why (with the value it read) and the exact\n"
                   "command or file edit that fixes it (a step that fixes several checks is printed once, its\n"
                   "values shell-quoted). When this login lacks the real-time rights the limits files grant, the\n"
                   "reason is told apart by facts: the login's groups and start against the file's mtime, its PAM\n"
                   "service and pam_limits, the hard limits, a container. Exit status 1 when any check fails.",
    .positional = NULL,
    .defs = check_defs,
};

/* SGR colours for each status; none when the output is not a terminal or NO_COLOR is set (no-color.org). */
struct palette {
    const char *status[4], *bold, *off;
};

static void palette_init(struct palette *p, FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    int colour = isatty(fileno(f)) && !(nc && nc[0]);
    static const char *const on[4] = { [CHECK_SKIP] = "\033[2m", [CHECK_OK] = "\033[32m",
                                       [CHECK_WARN] = "\033[33m", [CHECK_FAIL] = "\033[1;31m" };
    for (int i = 0; i < 4; i++)
        p->status[i] = colour ? on[i] : "";
    p->bold = colour ? "\033[1m" : "";
    p->off = colour ? "\033[0m" : "";
}

/* What the checks read (a host name, a process's name, a device's, a line of a file) is shown visibly
 * (util/termtext.h): only the palette's own SGR sequences reach the terminal as controls. */
/* The visible form of a fix (term_str()), its command marks (util/wrap.h) kept for the wrapper: each stretch
 * between them is made visible on its own. */
static const char *fix_str(char *buf, size_t len, const char *fix)
{
    size_t o = 0;
    buf[0] = '\0';
    for (const char *p = fix; *p && o + 1 < len;) {
        if (*p == WRAP_CMD_ON[0] || *p == WRAP_CMD_OFF[0]) {
            buf[o++] = *p++;
            buf[o] = '\0';
            continue;
        }
        size_t k = strcspn(p, WRAP_CMD_ON WRAP_CMD_OFF);
        char *part = strndup(p, k);
        if (!part)
            break;
        term_str(buf + o, len - o, part);
        free(part);
        o += strlen(buf + o);
        p += k;
    }
    return buf;
}

static void print_text(FILE *f, const json_t *given, const struct check_result *r, size_t n, int quiet)
{
    int width = wrap_width(f);
    struct palette p;
    palette_init(&p, f);
    json_t *sys = term_safe_json(given);
    char why[sizeof(r->why) * 4], fix[sizeof(r->fix) * 4];
    const json_t *setup = json_object_get(sys, "setup"), *k = json_object_get(sys, "kernel");
    const char *user = json_string_value(json_object_get(json_object_get(setup, "user"), "name"));
    fprintf(f, "%srtjitter check%s: %s%s%s, Linux %s\n", p.bold, p.off, user ? user : "", user ? " on " : "",
            json_string_value(json_object_get(sys, "hostname")) ? json_string_value(json_object_get(sys, "hostname"))
                                                                  : "?",
            json_string_value(json_object_get(k, "release")) ? json_string_value(json_object_get(k, "release")) : "?");
    size_t count[4] = { 0 };
    for (int g = 0; g < CHECK_NGROUPS; g++) {
        int header = 0;
        for (size_t i = 0; i < n; i++) {
            if (r[i].check->group != (enum check_group)g)
                continue;
            if (quiet && r[i].status != CHECK_WARN && r[i].status != CHECK_FAIL)
                continue;
            if (!header) {
                fprintf(f, "\n%s%s%s\n", p.bold, check_group_name((enum check_group)g), p.off);
                header = 1;
            }
            char tag[8];
            snprintf(tag, sizeof(tag), "%s", check_status_name(r[i].status));
            for (char *c = tag; *c; c++)
                *c = (char)(*c - 'a' + 'A');
            /* a check's line and its fix wrap to the terminal, continuing under the title and under the fix */
            char lead[64], line[sizeof(why) + 256];
            snprintf(lead, sizeof(lead), "  %s%-4s%s  ", p.status[r[i].status], tag, p.off);
            snprintf(line, sizeof(line), "%s: %s", r[i].check->title, fix_str(why, sizeof(why), r[i].why));
            wrap_text(f, lead, 8, width, line);
            /* One step that fixes several checks (a login without its limits fails three) is printed once. */
            const struct check_result *same = NULL;
            for (size_t k = 0; r[i].fix[0] && k < i && !same; k++)
                if (!strcmp(r[k].fix, r[i].fix) && (!quiet || r[k].status >= CHECK_WARN))
                    same = &r[k];
            if (same) {
                snprintf(line, sizeof(line), "the same as for \"%s\" above", same->check->title);
                wrap_text(f, "        fix: ", 13, width, line);
            } else if (r[i].fix[0]) {
                wrap_text(f, "        fix: ", 13, width, fix_str(fix, sizeof(fix), r[i].fix));
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        count[r[i].status]++;
    fprintf(f, "\n%zu checks: %s%zu OK%s, %s%zu WARN%s, %s%zu FAIL%s, %zu SKIP\n", n, count[CHECK_OK] ?
            p.status[CHECK_OK] : "", count[CHECK_OK], p.off, count[CHECK_WARN] ? p.status[CHECK_WARN] : "",
            count[CHECK_WARN], p.off, count[CHECK_FAIL] ? p.status[CHECK_FAIL] : "", count[CHECK_FAIL], p.off,
            count[CHECK_SKIP]);
    json_decref(sys);
}

/* The checklist document: the frame, the identity it judged (without the set-up and the process, which follow
 * as their own keys), the user, the results and their count. */
static json_t *checklist_doc(const char *command_line, json_t *sys, const struct check_result *r, size_t n)
{
    json_t *doc = doc_begin(CHECKS_SCHEMA, 1), *setup = json_incref(json_object_get(sys, "setup"));
    json_t *process = json_incref(json_object_get(sys, "process"));
    json_t *identity = json_copy(sys), *list = checks_json(r, n);
    if (identity) {
        json_object_del(identity, "setup");
        json_object_del(identity, "process");
    }
    size_t count[4] = { 0 };
    for (size_t i = 0; i < n; i++)
        count[r[i].status]++;
    int bad = !doc || !identity || !list || doc_set_origin(doc, command_line, identity) < 0 ||
              json_object_set_new(doc, "setup", setup ? setup : json_null()) < 0 ||
              json_object_set_new(doc, "process", process ? process : json_null()) < 0 ||
              json_object_set_new(doc, "checks", list) < 0 ||
              json_object_set_new(doc, "summary", json_pack("{s:I, s:I, s:I, s:I}", "ok", (json_int_t)count[CHECK_OK],
                                  "warn", (json_int_t)count[CHECK_WARN], "fail", (json_int_t)count[CHECK_FAIL],
                                  "skip", (json_int_t)count[CHECK_SKIP])) < 0;
    json_decref(identity);
    if (bad) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/* Why path is not a directory one can read, or NULL. */
static const char *not_a_dir(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return strerror(errno);
    return S_ISDIR(st.st_mode) ? NULL : "not a directory";
}

/* Whether --user names nobody: not in the tree's /etc/passwd (when it can be read), and for this machine not
 * known to the name service either (a directory's users are not in /etc/passwd). */
static int unknown_user(const json_t *sys, const char *root)
{
    const json_t *u = json_object_get(json_object_get(sys, "setup"), "user");
    if (!json_is_false(json_object_get(u, "in_passwd")))
        return 0;
    if (root)
        return 1;
    struct passwd pw, *res = NULL;
    char buf[4096];
    return getpwnam_r(json_string_value(json_object_get(u, "name")), &pw, buf, sizeof(buf), &res) != 0 || !res;
}

int cmd_check(int argc, char **argv, const char *command_line)
{
    struct check_opts o = { 0 };
    int np = 0;
    int status;
    if (cli_parse(&cmd_check_info, NULL, &o, argc, argv, NULL, 0, &np, &status))
        return status;
    const char *bad_dir = NULL, *which = NULL;
    if (o.root)
        bad_dir = not_a_dir(o.root), which = "--root";
    if (!bad_dir && o.dir && !o.root)
        bad_dir = not_a_dir(o.dir), which = "--dir";
    if (bad_dir) {
        fprintf(stderr, "rtjitter check: %s: %s: %s\n", which, which[2] == 'r' ? o.root : o.dir, bad_dir);
        return 2;
    }
    int e = o.json ? doc_check(o.json, DOC_REPLACE) : 0;
    if (e < 0) {
        fprintf(stderr, "rtjitter check: cannot write %s: %s\n", o.json, doc_strerror(e));
        return 2;
    }
    /* The recording location as an absolute path: a relative one means nothing under another root. */
    char cwd[4096], dir[8200];
    const char *where = o.dir;
    if (!where)
        where = getcwd(cwd, sizeof(cwd)) ? cwd : "/";
    if (where[0] != '/' && getcwd(cwd, sizeof(cwd))) {
        snprintf(dir, sizeof(dir), "%s/%s", cwd, where);
        where = dir;
    }
    const char *paths[2] = { where, NULL };
    struct checks_env env = { .root = o.root ? o.root : "", .user = o.user, .paths = paths, .probe = 1 };
    /* this machine: the slots of dead rtjitter servers in jack2's registry are freed first (util/jackreg.h) */
    int freed = o.root ? 0 : jackreg_reclaim(NULL);
    json_t *sys = checks_collect(&env);
    json_t *reg = json_object_get(json_object_get(sys, "setup"), "jack_registry");
    if (freed > 0 && json_is_object(reg))
        json_object_set_new(reg, "freed", json_integer(freed));
    if (sys && o.user && unknown_user(sys, o.root)) {
        fprintf(stderr, "rtjitter check: --user: no user %s on this system (%s/etc/passwd)\n", shq(o.user).s,
                o.root ? o.root : "");
        json_decref(sys);
        return 2;
    }
    struct check_result *r = calloc(CHECKS_MAX, sizeof(*r));
    int n = sys && r ? checks_run(sys, NULL, r, CHECKS_MAX) : -ENOMEM;
    json_t *doc = n >= 0 ? checklist_doc(command_line, sys, r, (size_t)n) : NULL;
    if (!doc) {
        fprintf(stderr, "rtjitter check: out of memory\n");
        json_decref(sys);
        free(r);
        return 2;
    }
    print_text(stdout, sys, r, (size_t)n, o.quiet);
    int rc = 0;
    for (int i = 0; i < n; i++)
        if (r[i].status == CHECK_FAIL)
            rc = 1;
    if (o.json && (e = doc_write_json(o.json, DOC_REPLACE, doc)) < 0) {
        fprintf(stderr, "rtjitter check: cannot write %s: %s\n", o.json, doc_strerror(e));
        rc = 2;
    }
    json_decref(doc);
    json_decref(sys);
    free(r);
    return rc;
}
