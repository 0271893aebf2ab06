/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of the rights a real-time audio thread needs: not running as root, RLIMIT_RTPRIO and RLIMIT_MEMLOCK as
 * in force for this login (process {...}, probed by process.c), a real SCHED_FIFO thread, what the limits files
 * grant and to whom (setup.limits, setup.user: /etc/security/limits.conf and limits.d, /etc/group), and rtkit.
 * The fix follows from comparing the two: granted but not in force is "log out and in again"; granted to a
 * group the user is not in is "usermod -aG"; granted to nobody is the file to write. privileges_check() gives
 * `run` the same judgement (privileges.h). */
#include "checks/checks_internal.h"
#include "checks/privileges.h"
#include "sysinfo/sysinfo.h"
#include "util/shquote.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNLIMITED LLONG_MAX

/* A limits value as pam_limits reads it: "unlimited", "infinity" and -1 mean no limit. -2 when not a number. */
static long long parse_limit(const char *v)
{
    if (!v)
        return -2;
    if (!strcmp(v, "unlimited") || !strcmp(v, "infinity") || !strcmp(v, "-1"))
        return UNLIMITED;
    char *end;
    long long x = strtoll(v, &end, 10);
    return end == v || *end ? -2 : x;
}

/* The soft limit as probed: a number, or "unlimited". */
static long long process_limit(const json_t *p, const char *item)
{
    const json_t *v = json_object_get(json_object_get(p, item), "soft");
    if (json_is_string(v))
        return parse_limit(json_string_value(v));
    return json_is_integer(v) ? json_integer_value(v) : -2;
}

/* What one limits line grants, and to whom. */
struct grant {
    const char *file, *domain;
    long long line, value;    /* value: the item's unit (rtprio, KiB for memlock); UNLIMITED; -2 none */
    int rank;                 /* pam_limits' precedence: 0 the user by name, 1 a group, 2 "*"; 3 nothing */
};

/* How a line's domain applies to user in groups: its rank, or -1. uid ranges ("1000:") and gid ranges are
 * pam_limits' too; %group only limits logins. */
static int domain_rank(const char *dom, const char *user, long long uid, const json_t *groups)
{
    if (!strcmp(dom, "*"))
        return 2;
    if (dom[0] == '@')
        return !strchr(dom, ':') && check_in_list(groups, dom + 1) ? 1 : -1;
    if (dom[0] == '%')
        return -1;
    const char *colon = strchr(dom, ':');
    if (colon) {
        long long lo = colon == dom ? 0 : strtoll(dom, NULL, 10), hi = colon[1] ? strtoll(colon + 1, NULL, 10)
                                                                               : LLONG_MAX;
        return uid >= 0 && uid >= lo && uid <= hi ? 0 : -1;
    }
    return user && !strcmp(dom, user) ? 0 : -1;
}

/* The soft (or hard) limit of item that a login of user in groups gets: a line for the user by name beats a
 * group's, a group's beats "*"; among lines of one rank the last read wins (pam_limits' order of files). */
static struct grant effective_type(const json_t *setup, const char *item, const char *user, long long uid,
                                   const json_t *groups, int hard)
{
    struct grant g = { NULL, NULL, 0, -2, 3 };
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(json_object_get(setup, "limits"), "entries"), i, e) {
        const char *it = check_str(e, "item"), *type = check_str(e, "type"), *dom = check_str(e, "domain");
        if (!it || !type || !dom || strcmp(it, item) || (strcmp(type, hard ? "hard" : "soft") && strcmp(type, "-")))
            continue;
        int rank = domain_rank(dom, user, uid, groups);
        if (rank < 0 || rank > g.rank)
            continue;
        g = (struct grant){ check_str(e, "file"), dom, (long long)check_num(e, "line"),
                            parse_limit(check_str(e, "value")), rank };
    }
    return g;
}

static struct grant effective(const json_t *setup, const char *item, const char *user, long long uid,
                              const json_t *groups)
{
    return effective_type(setup, item, user, uid, groups, 0);
}

void privileges_configured(const json_t *setup, const char *item, const char *user, long long uid,
                           const json_t *groups, long long *soft, long long *hard)
{
    *soft = effective_type(setup, item, user, uid, groups, 0).value;
    *hard = effective_type(setup, item, user, uid, groups, 1).value;
}

/* A line that grants at least need to a group the user is not in (audio, then realtime, then pipewire, then
 * any other), or rank 3. */
static struct grant group_offer(const json_t *setup, const char *item, long long need, const json_t *mine)
{
    /* Debian and Ubuntu: audio (jackd2's audio.conf); Arch: realtime (realtime-privileges); Debian 12 on:
     * pipewire (95-pipewire.conf); Fedora's JACK: jackuser (95-jack.conf). */
    static const char *const pref[] = { "audio", "realtime", "pipewire", "jackuser", NULL };
    struct grant best = { NULL, NULL, 0, -2, 3 };
    int best_pref = 99;
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(json_object_get(setup, "limits"), "entries"), i, e) {
        const char *it = check_str(e, "item"), *type = check_str(e, "type"), *dom = check_str(e, "domain");
        long long v = parse_limit(check_str(e, "value"));
        if (!it || !type || !dom || strcmp(it, item) || (strcmp(type, "soft") && strcmp(type, "-")) ||
            dom[0] != '@' || strchr(dom, ':') || v < need || check_in_list(mine, dom + 1))
            continue;
        /* Only a group that exists can be joined. */
        if (!json_object_get(json_object_get(setup, "groups"), dom + 1))
            continue;
        int p = 3;
        for (int k = 0; pref[k]; k++)
            if (!strcmp(pref[k], dom + 1))
                p = k;
        if (p < best_pref) {
            best_pref = p;
            best = (struct grant){ check_str(e, "file"), dom, (long long)check_num(e, "line"), v, 1 };
        }
    }
    return best;
}

static void value_text(const char *item, long long v, char *b, size_t n)
{
    if (v == UNLIMITED)
        snprintf(b, n, "unlimited");
    else if (v < 0)
        snprintf(b, n, "nothing");
    else if (!strcmp(item, "memlock"))
        snprintf(b, n, "%lld KiB", v);
    else
        snprintf(b, n, "%lld", v);
}

/* What file grants domain: "rtprio 95 and memlock unlimited" (its lines for that domain, in order). */
static void grants_text(const json_t *setup, const char *file, const char *domain, char *b, size_t n)
{
    size_t o = 0, i;
    const json_t *e;
    b[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(setup, "limits"), "entries"), i, e) {
        const char *f = check_str(e, "file"), *d = check_str(e, "domain"), *it = check_str(e, "item");
        const char *t = check_str(e, "type");
        if (!f || !d || !it || !t || strcmp(f, file) || strcmp(d, domain) || !strcmp(t, "hard") ||
            strstr(b, it))
            continue;
        char v[32];
        value_text(it, parse_limit(check_str(e, "value")), v, sizeof(v));
        int w = snprintf(b + o, o < n ? n - o : 0, "%s%s %s", o ? " and " : "", it, v);
        o += w > 0 ? (size_t)w : 0;
        if (o >= n)
            break;
    }
}

/* Whether /etc/os-release's ID or ID_LIKE names distribution id (a word of the list). */
static int os_like(const json_t *setup, const char *id)
{
    const json_t *os = json_object_get(setup, "os");
    const char *v[2] = { check_str(os, "id"), check_str(os, "id_like") };
    for (int k = 0; k < 2; k++) {
        char buf[128], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", v[k] ? v[k] : "");
        for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
            if (!strcmp(t, id))
                return 1;
    }
    return 0;
}

/* Why a limit is short and what fixes it, judged from the limits files and the user's groups: granted but not
 * in force (log out and in again), granted to a group the user is not in (usermod -aG), or granted to nobody
 * (the file to write). in_force says whether the process has it already (then only the configuration is
 * judged, for limits_files). Returns 1 when the configuration grants enough. */
static int limits_advice(const json_t *sys, const char *item, long long need, int in_force, char *why, size_t wl,
                         char *fix, size_t fl)
{
    const json_t *setup = check_setup(sys), *p = check_process(sys), *u = json_object_get(setup, "user");
    const char *user = check_str(u, "name") ? check_str(u, "name") : "$USER";
    const json_t *mine = json_object_get(u, "groups");
    long long uid = p && check_str(p, "user") && !strcmp(check_str(p, "user"), user) ? (long long)check_num(p, "uid")
                                                                                    : -1;
    struct grant g = effective(setup, item, user, uid, mine);
    char val[32], all[160];
    value_text(item, g.value, val, sizeof(val));
    why[0] = fix[0] = '\0';
    /* A container's hard limit first: nothing done inside it can help. */
    if (!in_force && login_container(sys, item, need, why, wl, fix, fl))
        return 0;
    if (g.value >= need) {
        if (in_force)
            return 1;
        /* The fix names everything the file grants, so that rtprio and memlock, short for one reason, get one
         * and the same fix. */
        grants_text(setup, g.file, g.domain, all, sizeof(all));
        login_explain(sys, g.file, g.domain, all, why, wl, fix, fl);
        return 1;
    }
    struct grant o = group_offer(setup, item, need, mine);
    if (o.rank < 3) {
        grants_text(setup, o.file, o.domain, all, sizeof(all));
        check_fmt(why, wl, "%s grants %s %s, and %s is not in %s", o.file, o.domain + 1, all, user, o.domain + 1);
        check_fmt(fix, fl, WRAP_CMD("sudo usermod -aG %s %s") ", then log out and in again (%s grants %s %s)",
                  shq(o.domain + 1).s, shq(user).s, o.file, o.domain + 1, all);
        return 0;
    }
    if (g.rank < 3) {
        check_fmt(why, wl, "%s line %lld gives %s %s %s, less than the %lld%s an audio thread needs", g.file, g.line,
                  g.domain, item, val, need, !strcmp(item, "memlock") ? " KiB" : "");
        check_fmt(fix, fl, "edit %s line %lld: %s - %s %s", shq(g.file).s, g.line, g.domain, item,
                  !strcmp(item, "memlock") ? "unlimited" : "95");
        return 0;
    }
    int member = check_in_list(mine, "audio");
    char join[400] = "";
    if (!member)
        check_fmt(join, sizeof(join), ", then " WRAP_CMD("sudo usermod -aG audio %s"), shq(user).s);
    check_fmt(why, wl, "no file in /etc/security/limits.d (nor limits.conf) grants %s real-time rights (rtprio, "
              "memlock)", user);
    if (os_like(setup, "arch"))
        /* Arch and its derivatives: the realtime group, from the realtime-privileges package. */
        check_fmt(fix, fl, WRAP_CMD("sudo pacman -S realtime-privileges") " (it writes "
                  "/etc/security/limits.d/99-realtime-privileges.conf: @realtime rtprio 98, memlock unlimited)%s%s%s, "
                  "and log out and in again",
                  check_in_list(mine, "realtime") ? "" : ", then " WRAP_CMD_ON "sudo usermod -aG realtime ",
                  check_in_list(mine, "realtime") ? "" : shq(user).s,
                  check_in_list(mine, "realtime") ? "" : WRAP_CMD_OFF);
    else if (check_installed(sys, "jackd2", "jackd", NULL) > 0)
        check_fmt(fix, fl, WRAP_CMD("sudo dpkg-reconfigure -p high jackd2") " and answer Yes (it writes "
                  "/etc/security/limits.d/audio.conf: @audio rtprio 95, memlock unlimited)%s, and log out and in "
                  "again", join);
    else
        check_fmt(fix, fl, "write /etc/security/limits.d/audio.conf with the lines \"@audio - rtprio 95\" and "
                  "\"@audio - memlock unlimited\"%s, and log out and in again", join);
    return 0;
}

/* ---- the checks ---- */

static int predicted(const json_t *p);

static const json_t *probed(const json_t *sys, struct check_result *r)
{
    const json_t *p = check_process(sys);
    if (!p)
        check_say(r, CHECK_SKIP, "this process was not probed: what is in force belongs to a login, not to the "
                  "files of a system");
    else if (check_str(p, "other_user")) {
        check_say(r, CHECK_SKIP, "%s's login is not this process's: only root can judge it ("
                  WRAP_CMD("sudo rtjitter check --user %s") ")", check_str(p, "other_user"), shq(check_str(p, "other_user")).s);
        return NULL;
    }
    return p;
}

static int predicted(const json_t *p)
{
    return json_is_true(json_object_get(json_object_get(p, "login"), "predicted"));
}

static void eval_root(const json_t *sys, struct check_result *r)
{
    const json_t *p = probed(sys, r);
    if (!p)
        return;
    const char *user = check_str(p, "user"), *judged = check_str(p, "judged_user");
    const json_t *l = json_object_get(p, "login");
    if (predicted(p)) {
        /* As root for another user: that user's next login, as PAM gives it (login_predict.c). */
        int sudo = check_str(l, "how") && !strcmp(check_str(l, "how"), "sudo");
        check_say(r, sudo ? CHECK_WARN : CHECK_OK, "running as root%s: %s's next login is judged as PAM gives it "
                  "(the limits files%s%s, set in a child that became %s)%s", sudo ? " through sudo" : "", user ? user
                  : "?", check_str(l, "service") ? ", /etc/pam.d/" : "", check_str(l, "service") ?
                  check_str(l, "service") : "", user ? user : "?", sudo ? ", not the login in force now" : "");
        if (sudo)
            check_fix(r, "run rtjitter as %s, without sudo", shq(user).s);
        return;
    }
    if (check_num(p, "euid") != 0) {
        check_say(r, CHECK_OK, "running as %s (uid %.0f)", user ? user : "?", check_num(p, "euid"));
        return;
    }
    int sudo = judged && user && strcmp(judged, user) != 0;
    check_say(r, CHECK_WARN, "running as root%s%s%s: root gets real-time priority and locked memory whatever the "
              "limits say, so this says nothing about the user who makes music", sudo ? " (through sudo, for " : "",
              sudo ? judged : "", sudo ? ")" : "");
    if (sudo)
        check_fix(r, "run rtjitter as %s, without sudo", shq(judged).s);
    else
        check_fix(r, "run rtjitter as the user who makes music (or " WRAP_CMD("rtjitter check --user NAME") "), not as root");
}

const struct check check_root = {
    .id = "root",
    .title = "The user the checks judge (root or the musician)",
    .group = CHECK_PRIVILEGES,
    .reads = "process.euid, process.judged_user (geteuid, SUDO_USER)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_root,
};

/* RLIMIT_RTPRIO or RLIMIT_MEMLOCK in force: item "rtprio" or "memlock" (the process reports bytes, the limits
 * files KiB). */
static void eval_limit(const json_t *sys, struct check_result *r, const char *item)
{
    const json_t *p = probed(sys, r);
    if (!p)
        return;
    int mem = !strcmp(item, "memlock");
    long long soft = process_limit(p, item), need = mem ? CHECK_MEMLOCK_NEED_KIB : CHECK_RTPRIO_NEED;
    long long have = soft == UNLIMITED || soft < 0 || !mem ? soft : soft / 1024;
    char val[32], why[400], fix[700], lw[96];
    value_text(item, have, val, sizeof(val));
    login_words(sys, lw, sizeof(lw));
    if (json_is_true(json_object_get(p, mem ? "cap_ipc_lock" : "cap_sys_nice"))) {
        check_say(r, CHECK_OK, "this process has CAP_%s%s: %s whatever RLIMIT_%s (%s) says",
                  mem ? "IPC_LOCK" : "SYS_NICE", check_num(p, "euid") == 0 ? " (root)" : "",
                  mem ? "it may lock any amount of memory" : "real-time priority is allowed",
                  mem ? "MEMLOCK" : "RTPRIO", val);
        return;
    }
    if (soft == -2) {
        check_say(r, CHECK_SKIP, "RLIMIT_%s could not be read", mem ? "MEMLOCK" : "RTPRIO");
        return;
    }
    if (have >= need) {
        check_say(r, CHECK_OK, "RLIMIT_%s is %s for %s", mem ? "MEMLOCK" : "RTPRIO", val, lw);
        if (!mem && have != UNLIMITED) {
            size_t l = strlen(r->why);
            snprintf(r->why + l, sizeof(r->why) - l, ": real-time priorities up to %lld", have);
        }
        return;
    }
    limits_advice(sys, item, need, 0, why, sizeof(why), fix, sizeof(fix));
    if (mem)
        check_say(r, CHECK_FAIL, "RLIMIT_MEMLOCK is %s for %s, less than the %d MiB an audio program locks: %s",
                  val, lw, CHECK_MEMLOCK_NEED_KIB / 1024, why);
    else
        check_say(r, CHECK_FAIL, "RLIMIT_RTPRIO is %s for %s, so no thread of it may run real-time above "
                  "that (an audio thread needs %d): %s", val, lw, CHECK_RTPRIO_NEED, why);
    check_fix(r, "%s", fix);
}

static void eval_rtprio(const json_t *sys, struct check_result *r)
{
    eval_limit(sys, r, "rtprio");
}

static void eval_memlock(const json_t *sys, struct check_result *r)
{
    eval_limit(sys, r, "memlock");
}

const struct check check_rtprio = {
    .id = "rtprio",
    .title = "Real-time priority for this login (RLIMIT_RTPRIO)",
    .group = CHECK_PRIVILEGES,
    .reads = "process.rtprio (getrlimit), setup.limits and setup.user (/etc/security/limits.conf, limits.d, "
             "/etc/group)",
    .level = CHECK_FAIL,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_rtprio,
};

const struct check check_memlock = {
    .id = "memlock",
    .title = "Locked memory for this login (RLIMIT_MEMLOCK)",
    .group = CHECK_PRIVILEGES,
    .reads = "process.memlock (getrlimit), setup.limits and setup.user (/etc/security/limits.conf, limits.d, "
             "/etc/group)",
    .level = CHECK_FAIL,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_memlock,
};

static void eval_sched_fifo(const json_t *sys, struct check_result *r)
{
    const json_t *p = probed(sys, r);
    if (!p)
        return;
    const json_t *f = json_object_get(p, "sched_fifo");
    double prio = check_num(f, "priority");
    if (!json_is_boolean(json_object_get(f, "ok"))) {
        check_say(r, CHECK_SKIP, "no SCHED_FIFO thread was tried");
        return;
    }
    if (json_is_true(json_object_get(f, "ok"))) {
        check_say(r, CHECK_OK, "a thread of %s got SCHED_FIFO at priority %.0f", predicted(p) ?
                  "a process with its limits and uid" : "this process", prio);
        return;
    }
    long long soft = process_limit(p, "rtprio");
    const char *err = check_str(f, "error") ? check_str(f, "error") : "?";
    if (json_is_true(json_object_get(p, "cap_sys_nice")) || soft == UNLIMITED || soft >= prio) {
        /* Allowed by the limits, refused all the same: the cgroup has no real-time time (RT_GROUP_SCHED), or
         * a container's seccomp profile. */
        check_say(r, CHECK_FAIL, "a SCHED_FIFO thread at priority %.0f was refused (%s) although the limits allow "
                  "it: this process's cgroup gets no real-time time (CONFIG_RT_GROUP_SCHED), or a container forbids "
                  "real-time scheduling", prio, err);
        check_fix(r, "run rtjitter outside the container or service that starts it, or give its cgroup real-time "
                  "time (cpu.rt_runtime_us)");
        return;
    }
    char why[400], fix[700];
    limits_advice(sys, "rtprio", prio > CHECK_RTPRIO_NEED ? (long long)prio : CHECK_RTPRIO_NEED, 0, why,
                  sizeof(why), fix, sizeof(fix));
    check_say(r, CHECK_FAIL, "a SCHED_FIFO thread at priority %.0f was refused (%s): %s", prio, err, why);
    check_fix(r, "%s", fix);
}

const struct check check_sched_fifo = {
    .id = "sched_fifo",
    .title = "Starting a real-time thread (SCHED_FIFO)",
    .group = CHECK_PRIVILEGES,
    .reads = "process.sched_fifo (pthread_create with SCHED_FIFO 70, the priority run asks for)",
    .level = CHECK_FAIL,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_sched_fifo,
};

static void eval_limits_files(const json_t *sys, struct check_result *r)
{
    const json_t *setup = check_setup(sys), *u = json_object_get(setup, "user");
    const char *user = check_str(u, "name");
    if (!user) {
        check_say(r, CHECK_SKIP, "no user to judge (the limits files grant rights to users and groups)");
        return;
    }
    if (!strcmp(user, "root")) {
        check_say(r, CHECK_SKIP, "judging root's limits says nothing of a musician's: run " WRAP_CMD("rtjitter check") " as the "
                  "user who makes music (or " WRAP_CMD("rtjitter check --user NAME") ")");
        return;
    }
    if (!json_is_true(json_object_get(setup, "etc_group")) ||
        !json_is_true(json_object_get(json_object_get(setup, "limits"), "dir"))) {
        check_say(r, CHECK_SKIP, "/etc/group or /etc/security could not be read");
        return;
    }
    char wr[400], fr[700], wm[400], fm[700];
    int rt = limits_advice(sys, "rtprio", CHECK_RTPRIO_NEED, 1, wr, sizeof(wr), fr, sizeof(fr));
    int ml = limits_advice(sys, "memlock", CHECK_MEMLOCK_NEED_KIB, 1, wm, sizeof(wm), fm, sizeof(fm));
    const json_t *mine = json_object_get(u, "groups");
    long long uid = -1;
    struct grant g = effective(setup, "rtprio", user, uid, mine), m = effective(setup, "memlock", user, uid, mine);
    if (rt && ml) {
        char gv[32], mv[32];
        value_text("rtprio", g.value, gv, sizeof(gv));
        value_text("memlock", m.value, mv, sizeof(mv));
        check_say(r, CHECK_OK, "%s gets rtprio %s (%s, for %s) and memlock %s (%s, for %s) at login", user, gv,
                  g.file, g.domain, mv, m.file, m.domain);
        return;
    }
    int same = !rt && !ml && !strcmp(wr, wm);
    check_say(r, CHECK_WARN, "%s%s%s", rt ? "" : wr, !rt && !ml && !same ? "; " : "", ml || same ? "" : wm);
    if (!rt && !ml && strcmp(fr, fm) != 0)
        check_fix(r, "%s; %s", fr, fm);
    else
        check_fix(r, "%s", rt ? fm : fr);
}

const struct check check_limits_files = {
    .id = "limits_files",
    .title = "Real-time rights the limits files give your groups",
    .group = CHECK_PRIVILEGES,
    .reads = "setup.limits, setup.user (/etc/security/limits.conf, /etc/security/limits.d/*.conf, /etc/passwd, "
             "/etc/group)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_limits_files,
};

static void eval_rtkit(const json_t *sys, struct check_result *r)
{
    const json_t *setup = check_setup(sys), *rk = json_object_get(setup, "rtkit");
    const char *version = NULL;
    int have = check_installed(sys, "rtkit", "rtkit-daemon", &version);
    int pipewire = check_installed(sys, "pipewire", NULL, NULL) > 0;
    if (have < 0) {
        check_say(r, CHECK_SKIP, "without dpkg's status nor /usr/libexec/rtkit-daemon, whether rtkit is installed "
                  "is unknown");
        return;
    }
    if (have == 0) {
        if (pipewire) {
            check_say(r, CHECK_WARN, "rtkit is not installed: PipeWire asks it for real-time priority when the "
                      "limits files give its user none");
            check_fix(r, WRAP_CMD("sudo apt install rtkit"));
        } else {
            check_say(r, CHECK_OK, "rtkit is not installed (JACK does not use it: its real-time priority comes from "
                      "the limits files)");
        }
        return;
    }
    const json_t *running = json_object_get(json_object_get(setup, "daemons"), "rtkit-daemon");
    check_say(r, CHECK_OK, "rtkit%s%s is installed (%s) and hands out real-time priority up to %.0f (%s)",
              version ? " " : "", version ? version : "", json_array_size(running) ? "running" :
              "started by D-Bus when asked", json_is_object(rk) ? check_num(rk, "max_realtime_priority") : 20,
              json_is_object(rk) ? check_str(rk, "source") : "rtkit's default");
}

const struct check check_rtkit = {
    .id = "rtkit",
    .title = "rtkit, for PipeWire's real-time priority",
    .group = CHECK_PRIVILEGES,
    .reads = "setup.packages, setup.rtkit (rtkit-daemon.service's ExecStart), setup.daemons (/proc)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_rtkit,
};

/* ---- for `run` ---- */

void privileges_judge(const json_t *sys, struct priv_result *out)
{
    struct check_result rt, ml, ff;
    memset(out, 0, sizeof(*out));
    check_run(&check_rtprio, sys, &rt);
    check_run(&check_memlock, sys, &ml);
    check_run(&check_sched_fifo, sys, &ff);
    const json_t *p = check_process(sys);
    out->root = check_num(p, "euid") == 0;
    snprintf(out->user, sizeof(out->user), "%s", check_str(p, "judged_user") ? check_str(p, "judged_user") : "?");
    out->realtime = ff.status == CHECK_OK;
    out->mlock = ml.status == CHECK_OK;
    /* The real-time fix first (SCHED_FIFO's own when the limit is there but the thread was refused all the same),
     * then memory locking's when it is another one. */
    const struct check_result *first = !out->realtime ? (rt.status == CHECK_FAIL ? &rt : &ff) : NULL;
    const struct check_result *second = !out->mlock ? &ml : NULL;
    if (first && second && strcmp(first->fix, second->fix) == 0)
        second = NULL;
    snprintf(out->why, sizeof(out->why), "%.640s%s%.640s", first ? first->why : "", first && second ? "; " : "",
             second ? second->why : "");
    if (first && second)
        snprintf(out->fix, sizeof(out->fix), "%.640s; then %.640s", first->fix, second->fix);
    else
        snprintf(out->fix, sizeof(out->fix), "%s", first ? first->fix : second ? second->fix : "");
    wrap_unmark(out->why);
    wrap_unmark(out->fix); /* run prints it and the report keeps it: the command marks are check's text's */
}

int privileges_check(int priority, struct priv_result *out)
{
    json_t *proc = checks_probe_process("", priority);
    struct sysinfo_setup_args a = { .user = check_str(proc, "judged_user"), .home = check_str(proc, "home") };
    json_t *setup = proc ? sysinfo_setup("", &a) : NULL, *sys = json_object();
    if (!setup || !sys || json_object_set(sys, "setup", setup) < 0 || json_object_set(sys, "process", proc) < 0) {
        json_decref(setup);
        json_decref(proc);
        json_decref(sys);
        memset(out, 0, sizeof(*out));
        snprintf(out->why, sizeof(out->why), "out of memory while checking the privileges");
        return -ENOMEM;
    }
    privileges_judge(sys, out);
    json_decref(setup);
    json_decref(proc);
    json_decref(sys);
    return 0;
}

json_t *privileges_json(const struct priv_result *r)
{
    return json_pack("{s:b, s:b, s:b, s:s, s:o, s:o}", "realtime", r->realtime, "mlock", r->mlock, "root", r->root,
                     "user", r->user, "why", r->why[0] ? json_string(r->why) : json_null(), "fix",
                     r->fix[0] ? json_string(r->fix) : json_null());
}
