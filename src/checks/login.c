/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why the real-time rights the limits files grant a user are not in force in this login: the states told apart
 * by facts, never guessed, each with its one fix. The facts: the login's groups against /etc/group (added to the
 * group after the login started), the granting file's mtime against the login's start (the file came after it),
 * the program that opened the login and its PAM service (none: not a login at all; a service without pam_limits
 * in its session stack), the hard limits (a container's runtime, or a login program that may not raise them),
 * the soft limit under the hard one (lowered after the login). process.login is probed by login_probe.c (or
 * predicted by login_predict.c for --user), setup.limits.mtime, setup.pam and setup.container are read by
 * sysinfo/setup_login.c. Main thread. */
#include "checks/checks_internal.h"
#include "util/shquote.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The process's soft or hard limit of item: a number (memlock in KiB), LLONG_MAX unlimited, -2 unknown. */
static long long limit_of(const json_t *p, const char *item, const char *which)
{
    const json_t *v = json_object_get(json_object_get(p, item), which);
    long long x;
    if (json_is_string(v))
        return strcmp(json_string_value(v), "unlimited") == 0 ? LLONG_MAX : -2;
    if (!json_is_integer(v))
        return -2;
    x = json_integer_value(v);
    return strcmp(item, "memlock") == 0 ? x / 1024 : x;
}

static long long need_of(const char *item)
{
    return strcmp(item, "memlock") == 0 ? CHECK_MEMLOCK_NEED_KIB : CHECK_RTPRIO_NEED;
}

static void limit_text(const char *item, long long v, char *b, size_t n)
{
    if (v == LLONG_MAX)
        snprintf(b, n, "unlimited");
    else if (v < 0)
        snprintf(b, n, "unknown");
    else
        snprintf(b, n, "%lld%s", v, strcmp(item, "memlock") == 0 ? " KiB" : "");
}

/* A time of the epoch as the user's clock shows it. */
static void when(long long t, char *b, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm) || !strftime(b, n, "%Y-%m-%d %H:%M:%S", &tm))
        snprintf(b, n, "%lld", t);
}

const char *login_words(const json_t *sys, char *buf, size_t len)
{
    const json_t *p = check_process(sys), *l = json_object_get(p, "login");
    if (json_is_true(json_object_get(l, "predicted")))
        snprintf(buf, len, "%s's next login (as PAM gives it)", check_str(p, "user") ? check_str(p, "user") : "?");
    else
        snprintf(buf, len, "this login");
    return buf;
}

int login_container(const json_t *sys, const char *item, long long need, char *why, size_t wl, char *fix,
                    size_t fl)
{
    const json_t *p = check_process(sys), *c = json_object_get(check_setup(sys), "container");
    long long hard = limit_of(p, item, "hard");
    if (!json_is_object(c) || hard == -2 || hard >= need || json_is_true(json_object_get(p, "cap_sys_resource")))
        return 0;
    char h[32];
    limit_text(item, hard, h, sizeof(h));
    check_fmt(why, wl, "this system is a %s container (%s): its runtime set the hard RLIMIT_%s to %s, and no login "
              "inside it can raise that (pam_limits is refused without CAP_SYS_RESOURCE)",
              check_str(c, "kind") ? check_str(c, "kind") : "?", check_str(c, "evidence") ? check_str(c, "evidence")
              : "?", strcmp(item, "memlock") == 0 ? "MEMLOCK" : "RTPRIO", h);
    check_fmt(fix, fl, "start the container with --ulimit rtprio=95 --ulimit memlock=-1 (docker run or podman run; "
              "--cap-add=SYS_NICE --cap-add=IPC_LOCK gives the same rights)");
    return 1;
}

/* The first item (rtprio, then memlock) whose hard limit is below what the files grant and an audio thread needs;
 * NULL when both hard limits suffice. */
static const char *hard_short(const json_t *p, long long *hard)
{
    static const char *const items[] = { "rtprio", "memlock" };
    for (size_t i = 0; i < 2; i++) {
        *hard = limit_of(p, items[i], "hard");
        if (*hard != -2 && *hard < need_of(items[i]))
            return items[i];
    }
    return NULL;
}

/* The first item whose soft limit is short while its hard one is enough. */
static const char *soft_short(const json_t *p, long long *soft, long long *hard)
{
    static const char *const items[] = { "rtprio", "memlock" };
    for (size_t i = 0; i < 2; i++) {
        *soft = limit_of(p, items[i], "soft");
        *hard = limit_of(p, items[i], "hard");
        if (*soft != -2 && *soft < need_of(items[i]) && *hard >= need_of(items[i]))
            return items[i];
    }
    return NULL;
}

/* How to get a new login: "log out and in again (or reboot)", and where `su -` runs pam_limits (su-l's session
 * stack on Debian 12, else su's), a new login in this very terminal: su - USER (it asks the user's password). */
static const char *relogin(const json_t *sys, const char *user, char *b, size_t n)
{
    const json_t *pam = json_object_get(check_setup(sys), "pam");
    const json_t *svc = json_object_get(pam, "su-l") ? json_object_get(pam, "su-l") : json_object_get(pam, "su");
    if (json_is_true(json_object_get(svc, "limits")) && user && strcmp(user, "$USER"))
        check_fmt(b, n, "start a new login in this terminal, " WRAP_CMD("su - %s") " (or log out and in again)",
                  shq(user).s);
    else if (json_is_true(json_object_get(svc, "limits")))
        check_fmt(b, n, "start a new login in this terminal, " WRAP_CMD("su - $USER") " (or log out and in again)");
    else
        check_fmt(b, n, "log out and in again (or reboot)");
    return b;
}

void login_explain(const json_t *sys, const char *file, const char *domain, const char *grants, char *why,
                   size_t wl, char *fix, size_t fl)
{
    const json_t *p = check_process(sys), *setup = check_setup(sys), *l = json_object_get(p, "login");
    const char *user = check_str(json_object_get(setup, "user"), "name");
    const char *grp = domain[0] == '@' ? domain + 1 : NULL;
    const char *whom = grp ? grp : domain;
    user = user ? user : "$USER";
    char again[160];
    relogin(sys, user, again, sizeof(again));
    /* The group: in /etc/group, not in this login's groups. */
    if (grp && !check_in_list(json_object_get(p, "groups"), grp)) {
        check_fmt(why, wl, "you are in %s (/etc/group), and %s grants it %s, but this login is not in %s yet", grp,
                  file, grants, grp);
        check_fmt(fix, fl, "%s: you were added to %s after this login started, so it has none of %s's rights (%s "
                  "grants %s %s)", again, grp, grp, file, grp, grants);
        return;
    }
    /* What the files grant, said once: "you are in audio, and FILE grants it ..." or "FILE grants @x ...". */
    char granted[400];
    if (grp)
        check_fmt(granted, sizeof(granted), "you are in %s, and %s grants it %s", grp, file, grants);
    else
        check_fmt(granted, sizeof(granted), "%s grants %s %s", file, domain, grants);
    if (!json_is_object(l)) {
        check_fmt(why, wl, "%s, but not to this login (when it started could not be read)", granted);
        check_fmt(fix, fl, "%s: %s, and a new login gets it", again, granted);
        return;
    }
    int predicted = json_is_true(json_object_get(l, "predicted"));
    const char *comm = check_str(l, "comm") ? check_str(l, "comm") : "?", *service = check_str(l, "service");
    double pid = check_num(l, "pid"), started = check_num(l, "started");
    double mtime = check_num(json_object_get(json_object_get(setup, "limits"), "mtime"), file);
    char t_file[40], t_login[40];
    when((long long)mtime, t_file, sizeof(t_file));
    when((long long)started, t_login, sizeof(t_login));
    /* Not a login: no PAM session was opened on the way to this process. First: no limits file applies to it, so
     * when the file was written says nothing (a file written a second after a setpriv start once got "log out
     * and in again"). */
    const json_t *opener = json_object_get(l, "opener");
    if (!predicted && !service) {
        if (json_is_object(opener))
            check_fmt(why, wl, "this process comes from no login: its first process as %s (%s, pid %.0f) was "
                      "started by %s (pid %.0f), which opens no PAM session, so no limits file was applied", user,
                      comm, pid, check_str(opener, "comm") ? check_str(opener, "comm") : "?",
                      check_num(opener, "pid"));
        else
            check_fmt(why, wl, "this process comes from no login: its first process as %s (%s, pid %.0f) has no "
                      "parent in view (a container's exec, or a service), so no limits file was applied", user, comm,
                      pid);
        check_fmt(fix, fl, "start rtjitter from a login of %s: a console or desktop login, ssh, or "
                  WRAP_CMD("sudo runuser -l %s"),
                  user, shq(user).s);
        return;
    }
    /* The file came after the login started. */
    if (!predicted && mtime == mtime && started == started && mtime > started) {
        check_fmt(why, wl, "%s (%s for %s) was written at %s, after this login started at %s (%s, pid %.0f)", file,
                  grants, whom, t_file, t_login, comm, pid);
        if (!strcmp(comm, "systemd"))
            check_fmt(fix, fl, "log out of every session of %s, or reboot: systemd's user manager (pid %.0f) started "
                      "before %s was written and keeps its limits while any session lasts ("
                      WRAP_CMD("sudo loginctl terminate-user %s") " ends it)", user, pid, file, shq(user).s);
        else
            check_fmt(fix, fl, "%s: %s was written at %s, after this login started (%s)", again, file, t_file,
                      t_login);
        return;
    }
    /* The login's PAM service runs no pam_limits. */
    const json_t *pam = json_object_get(json_object_get(setup, "pam"), service ? service : "");
    char path[96];
    snprintf(path, sizeof(path), "/etc/pam.d/%s", service ? service : "?");
    if (json_is_false(json_object_get(pam, "limits"))) {
        check_fmt(why, wl, "%s goes through PAM's %s, whose session stack has no pam_limits.so: no limits file "
                  "applies to it", predicted ? "a new login" : "this login", path);
        check_fmt(fix, fl, "add the line \"session required pam_limits.so\" to %s, then log out and in again",
                  shq(path).s);
        return;
    }
    long long soft, hard;
    const char *item = hard_short(p, &hard);
    char h[32], s[32];
    /* The files set the soft limit only (or a low hard one): pam_limits cannot raise the soft above the hard. */
    const json_t *u = json_object_get(setup, "user");
    long long uid = check_num(u, "uid") == check_num(u, "uid") ? (long long)check_num(u, "uid") : -1, csoft, chard;
    if (item) {
        privileges_configured(setup, item, user, uid, json_object_get(u, "groups"), &csoft, &chard);
        if (chard != LLONG_MAX && chard < need_of(item)) {
            limit_text(item, hard, h, sizeof(h));
            check_fmt(why, wl, "%s sets the soft RLIMIT_%s for %s but no hard one of at least %lld%s: the hard limit "
                      "stays %s, and the soft one cannot rise above it", file, strcmp(item, "memlock") == 0 ?
                      "MEMLOCK" : "RTPRIO", whom, need_of(item), strcmp(item, "memlock") == 0 ? " KiB" : "", h);
            check_fmt(fix, fl, "in %s, write the %s line with \"-\" (soft and hard): %s - %s %s; then log out and in "
                      "again", shq(file).s, item, domain, item, strcmp(item, "memlock") == 0 ? "unlimited" : "95");
            return;
        }
    }
    if (item) {
        limit_text(item, hard, h, sizeof(h));
        const char *opc = json_is_object(opener) && check_str(opener, "comm") ? check_str(opener, "comm") : "?";
        if (predicted)
            check_fmt(why, wl, "a login opened from here gets a hard RLIMIT_%s of %s: this rtjitter runs without "
                      "CAP_SYS_RESOURCE, so pam_limits cannot raise it to what %s grants",
                      strcmp(item, "memlock") == 0 ? "MEMLOCK" : "RTPRIO", h, file);
        else
            check_fmt(why, wl, "this login (%s, started at %s by %s through %s, which runs pam_limits) has a hard "
                      "RLIMIT_%s of %s: %s could not raise it to what %s grants (it runs without CAP_SYS_RESOURCE)",
                      comm, t_login, opc, path, strcmp(item, "memlock") == 0 ? "MEMLOCK" : "RTPRIO", h, opc, file);
        check_fmt(fix, fl, "log in through a login program with full root rights (a console or desktop login, or ssh), "
                  "not one from a sandbox without CAP_SYS_RESOURCE");
        return;
    }
    if ((item = soft_short(p, &soft, &hard))) {
        limit_text(item, soft, s, sizeof(s));
        limit_text(item, hard, h, sizeof(h));
        check_fmt(why, wl, "the hard RLIMIT_%s of this login is %s, but the soft one is %s: something lowered it "
                  "after the login (a ulimit line in a shell start-up file), or started rtjitter with lower limits",
                  strcmp(item, "memlock") == 0 ? "MEMLOCK" : "RTPRIO", h, s);
        check_fmt(fix, fl, "raise the soft limits to the hard ones before rtjitter: ulimit -S -r \"$(ulimit -H -r)\" "
                  "-l \"$(ulimit -H -l)\"; and remove the ulimit line that lowers them (~/.profile, ~/.bashrc, "
                  "/etc/profile)");
        return;
    }
    check_fmt(why, wl, "%s, and this login (%s, pid %.0f, started at %s, after the file was written at %s, through "
              "%s) should have it, but has not", granted, comm, pid, t_login, t_file, path);
    check_fmt(fix, fl, "%s; if the limits are still short, " WRAP_CMD("sudo rtjitter check --user %s") " shows "
              "what a new login gets", again, shq(user).s);
}
