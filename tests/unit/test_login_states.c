/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a login lacks the real-time rights its limits files grant (src/checks/login.c), each state built from its
 * facts and judged to exactly one fix, the same for rtprio, memlock and the SCHED_FIFO try (so `check` prints it
 * once and `run` says it once): the file written after the login started (the musician, whose login began
 * five minutes *after* audio.conf, is not told that), a login through a PAM service without pam_limits, a process
 * that comes from no login, a login program that could not raise the hard limit, a container's hard limit of 0, a
 * soft limit lowered under the hard one, systemd's user manager older than the file, a predicted login (--user as
 * root), and the group joined after the login. The tree is tests/fixtures/sys-dynamic-full (musician in audio,
 * jackd2's audio.conf granting rtprio 95 and memlock unlimited); the times are written out by hand (UTC), from
 * Python's calendar: 1796000000 is 2026-11-30 00:53:20. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "checks/checks.h"
#include "checks/privileges.h"
#include "sysinfo/sysinfo.h"
#include "util/wrap.h"
#include <sys/stat.h>
#include <unistd.h>

#define MAXCHECKS 64
#define AUDIO_CONF "/etc/security/limits.d/audio.conf"
#define T_FILE 1796000000LL      /* 2026-11-30 00:53:20 */
#define T_AFTER 1796000300LL     /* 2026-11-30 00:58:20: five minutes after the file */
#define T_BEFORE 1795999700LL    /* 2026-11-30 00:48:20: five minutes before it */

/* musician (uid 1000) in groups, with soft and hard limits (memlock in bytes, -1 unlimited), a refused
 * SCHED_FIFO try, and a login begun at `started` by `comm`, opened by `opener` (NULL: none) through `service`. */
static json_t *login(const char *groups, long long rt_soft, long long rt_hard, long long ml_soft, long long ml_hard,
                     const char *comm, long long started, const char *opener, const char *service)
{
    json_t *g = json_array();
    char buf[256], *save = NULL;
    snprintf(buf, sizeof(buf), "%s", groups);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        json_array_append_new(g, json_string(t));
#define ML(v) ((v) < 0 ? json_string("unlimited") : json_integer(v))
    json_t *p = json_pack("{s:i, s:i, s:i, s:s, s:s, s:s, s:o, s:b, s:b, s:b, s:{s:I, s:I}, s:{s:o, s:o}, "
                          "s:{s:i, s:b, s:s}, s:{s:b, s:s}}",
                          "uid", 1000, "euid", 1000, "gid", 1000, "user", "musician", "judged_user", "musician", "home",
                          "/home/musician", "groups", g, "cap_sys_nice", 0, "cap_ipc_lock", 0, "cap_sys_resource", 0,
                          "rtprio", "soft", (json_int_t)rt_soft, "hard", (json_int_t)rt_hard,
                          "memlock", "soft", ML(ml_soft), "hard", ML(ml_hard),
                          "sched_fifo", "priority", 80, "ok", 0, "error", "Operation not permitted",
                          "cpu_dma_latency", "writable", 0, "error", "Permission denied");
#undef ML
    json_object_set_new(p, "login", json_pack("{s:i, s:s, s:I, s:o, s:o, s:{s:i}}", "pid", 4242, "comm", comm,
                                              "started", (json_int_t)started, "opener", opener ?
                                              json_pack("{s:i, s:s, s:i, s:b}", "pid", 4200, "comm", opener, "uid",
                                                        0, "login_flag", 0) : json_null(),
                                              "service", service ? json_string(service) : json_null(), "session",
                                              "id", 4242));
    assert_non_null(p);
    assert_non_null(json_object_get(p, "login"));
    return p;
}

/* The tree with proc as this process, audio.conf written at T_FILE, /etc/pam.d/login running pam_limits or not,
 * and a container or not. */
static json_t *tree(json_t *proc, int pam_limits, const char *container)
{
    const char *top = getenv("RTJ_TOP");
    char root[4096];
    snprintf(root, sizeof(root), "%s/tests/fixtures/sys-dynamic-full", top ? top : ".");
    struct checks_env env = { .root = root, .user = "musician" };
    json_t *sys = checks_collect(&env);
    assert_non_null(sys);
    json_object_set_new(sys, "process", proc);
    json_t *setup = json_object_get(sys, "setup");
    json_object_set_new(json_object_get(setup, "limits"), "mtime", json_pack("{s:I}", AUDIO_CONF, T_FILE));
    json_t *pam = json_pack("{s:{s:b, s:n}, s:{s:b, s:n}, s:{s:b, s:n}}", "login", "limits", pam_limits, "via",
                            "sshd", "limits", pam_limits, "via", "systemd-user", "limits", pam_limits, "via");
    assert_non_null(pam);
    json_object_set_new(setup, "pam", pam);
    json_object_set_new(setup, "container", container ? json_pack("{s:s, s:s}", "kind", container, "evidence",
                                                                  "/.dockerenv") : json_null());
    return sys;
}

/* The results as a reader sees them: the command marks of the text form (util/wrap.h) taken out, so that they
 * compare with the plain text the checklist says (the JSON's). */
static void plain(struct check_result *r, int n)
{
    for (int i = 0; i < n; i++)
        wrap_unmark(r[i].why), wrap_unmark(r[i].fix);
}

/* rtprio, memlock and sched_fifo all FAIL with exactly fix, why holds `fact`, and run's gate says fix once. */
static void one_fix(json_t *sys, const char *fact, const char *fix)
{
    struct check_result r[MAXCHECKS];
    int n = checks_run(sys, NULL, r, MAXCHECKS);
    assert_int_equal(n, (int)checks_count());
    plain(r, n);
    static const char *const ids[] = { "rtprio", "memlock", "sched_fifo" };
    for (size_t k = 0; k < 3; k++)
        for (int i = 0; i < n; i++)
            if (!strcmp(r[i].check->id, ids[k])) {
                if (r[i].status != CHECK_FAIL)
                    fail_msg("%s: %s (%s)", ids[k], check_status_name(r[i].status), r[i].why);
                if (strcmp(r[i].fix, fix))
                    fail_msg("%s: fix \"%s\", want \"%s\"", ids[k], r[i].fix, fix);
                if (!strstr(r[i].why, fact))
                    fail_msg("%s: \"%s\" not in \"%s\"", ids[k], fact, r[i].why);
            }
    struct priv_result p;
    privileges_judge(sys, &p);
    assert_false(p.realtime);
    assert_string_equal(p.fix, fix);
    json_decref(sys);
}

/* The file came after the login: the one state where logging out and in again is the fix. */
static void test_file_after_login(void **state)
{
    (void)state;
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_BEFORE, "login", "login"), 1, NULL),
            AUDIO_CONF " (rtprio 95 and memlock unlimited for audio) was written at 2026-11-30 00:53:20, after this "
            "login started at 2026-11-30 00:48:20 (bash, pid 4242)",
            "log out and in again (or reboot): " AUDIO_CONF " was written at 2026-11-30 00:53:20, after this login "
            "started (2026-11-30 00:48:20)");
}

/* The musician: the login began five minutes after the file, through a service without pam_limits. */
static void test_no_pam_limits(void **state)
{
    (void)state;
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_AFTER, "login", "login"), 0, NULL),
            "this login goes through PAM's /etc/pam.d/login, whose session stack has no pam_limits.so",
            "add the line \"session required pam_limits.so\" to /etc/pam.d/login, then log out and in again");
}

/* Begun after the file, but no login program opened it (setpriv, a service, a container's exec). */
static void test_not_a_login(void **state)
{
    (void)state;
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "rtjitter", T_AFTER, "bash", NULL), 1, NULL),
            "its first process as musician (rtjitter, pid 4242) was started by bash (pid 4200), which opens no PAM "
            "session",
            "start rtjitter from a login of musician: a console or desktop login, ssh, or sudo runuser -l musician");
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_AFTER, NULL, NULL), 1, NULL),
            "has no parent in view", "start rtjitter from a login of musician: a console or desktop login, ssh, or "
            "sudo runuser -l musician");
    /* ... also when it began before the file was written: no limits file applies to what no login opened, so the
     * file's time says nothing (it once got "log out and in again": privileges.sh writes its tree a second before
     * its setpriv start, and the start read from /proc/stat's whole-second btime came out a second early) */
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "rtjitter", T_BEFORE, "bash", NULL), 1, NULL),
            "its first process as musician (rtjitter, pid 4242) was started by bash (pid 4200), which opens no PAM "
            "session",
            "start rtjitter from a login of musician: a console or desktop login, ssh, or sudo runuser -l musician");
}

/* After the file, through pam_limits, but the hard limit stayed 0: the login program could not raise it. */
static void test_hard_not_raised(void **state)
{
    (void)state;
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_AFTER, "sshd", "sshd"), 1, NULL),
            "has a hard RLIMIT_RTPRIO of 0: sshd could not raise it",
            "log in through a login program with full root rights (a console or desktop login, or ssh), not one "
            "from a sandbox without CAP_SYS_RESOURCE");
}

/* audio.conf written with "soft" lines only: the hard limit stays 0, and the soft one with it. */
static void test_soft_lines_only(void **state)
{
    (void)state;
    json_t *s = tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_AFTER, "login", "login"), 1, NULL);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(json_object_get(json_object_get(s, "setup"), "limits"), "entries"), i, e)
        json_object_set_new(e, "type", json_string("soft"));
    one_fix(s, AUDIO_CONF " sets the soft RLIMIT_RTPRIO for audio but no hard one of at least 70: the hard limit "
            "stays 0", "in " AUDIO_CONF ", write the rtprio line with \"-\" (soft and hard): @audio - rtprio 95; then "
            "log out and in again");
}

/* A container whose runtime set hard limits of 0: its fix first, even for a user not in audio. */
static void test_container(void **state)
{
    (void)state;
    const char *fix = "start the container with --ulimit rtprio=95 --ulimit memlock=-1 (docker run or podman run; "
                      "--cap-add=SYS_NICE --cap-add=IPC_LOCK gives the same rights)";
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_AFTER, "login", "login"), 1, "docker"),
            "this system is a docker container (/.dockerenv): its runtime set the hard RLIMIT_", fix);
    one_fix(tree(login("musician", 0, 0, 8388608, 8388608, "bash", T_BEFORE, NULL, NULL), 1, "docker"),
            "docker container", fix);
    /* The same hard limit of 0 outside a container is the ordinary state of a login without its rights. */
    json_t *s = tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_BEFORE, "login", "login"), 1, NULL);
    struct priv_result p;
    privileges_judge(s, &p);
    assert_null(strstr(p.fix, "container"));
    json_decref(s);
}

/* The hard limits allow it, the soft ones were lowered after the login. */
static void test_soft_lowered(void **state)
{
    (void)state;
    one_fix(tree(login("musician,audio", 0, 95, 65536, -1, "bash", T_AFTER, "login", "login"), 1, NULL),
            "the hard RLIMIT_RTPRIO of this login is 95, but the soft one is 0",
            "raise the soft limits to the hard ones before rtjitter: ulimit -S -r \"$(ulimit -H -r)\" -l \"$(ulimit "
            "-H -l)\"; and remove the ulimit line that lowers them (~/.profile, ~/.bashrc, /etc/profile)");
}

/* A desktop terminal: its oldest process as the user is systemd's user manager, older than the file. */
static void test_user_manager(void **state)
{
    (void)state;
    one_fix(tree(login("musician,audio", 0, 0, 8388608, 8388608, "systemd", T_BEFORE, "systemd", "systemd-user"), 1,
                 NULL),
            "after this login started at 2026-11-30 00:48:20 (systemd, pid 4242)",
            "log out of every session of musician, or reboot: systemd's user manager (pid 4242) started before "
            AUDIO_CONF " was written and keeps its limits while any session lasts (sudo loginctl terminate-user "
            "musician ends it)");
}

/* Joined audio after the login began: the login's groups lack it. */
static void test_group_after_login(void **state)
{
    (void)state;
    one_fix(tree(login("musician", 0, 0, 8388608, 8388608, "bash", T_AFTER, "login", "login"), 1, NULL),
            "you are in audio (/etc/group)", "log out and in again (or reboot): you were added to audio after this "
            "login started, so it has none of audio's rights (" AUDIO_CONF " grants audio rtprio 95 and memlock "
            "unlimited)");
}

/* In the group, limits in force: every privileges check passes, run's gate has nothing to say. */
static void test_in_force(void **state)
{
    (void)state;
    json_t *proc = login("musician,audio", 95, 95, -1, -1, "bash", T_AFTER, "login", "login");
    json_object_set_new(json_object_get(proc, "sched_fifo"), "ok", json_true());
    json_object_set_new(json_object_get(proc, "sched_fifo"), "error", json_null());
    json_t *s = tree(proc, 1, NULL);
    struct check_result r[MAXCHECKS];
    int n = checks_run(s, NULL, r, MAXCHECKS);
    plain(r, n);
    for (int i = 0; i < n; i++)
        if (r[i].check->group == CHECK_PRIVILEGES && strcmp(r[i].check->id, "rtkit"))
            if (r[i].status != CHECK_OK)
                fail_msg("%s: %s (%s)", r[i].check->id, check_status_name(r[i].status), r[i].why);
    struct priv_result p;
    privileges_judge(s, &p);
    assert_true(p.realtime && p.mlock);
    assert_string_equal(p.fix, "");
    json_decref(s);
}

/* A predicted login (root, --user): a login service without pam_limits is named as such, with no start time. */
static void test_predicted(void **state)
{
    (void)state;
    json_t *proc = login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_BEFORE, NULL, NULL);
    json_object_set_new(proc, "login", json_pack("{s:b, s:s, s:s, s:b}", "predicted", 1, "how", "--user", "service",
                                                 "login", "pam_limits", 0));
    one_fix(tree(proc, 0, NULL), "a new login goes through PAM's /etc/pam.d/login, whose session stack has no "
            "pam_limits.so",
            "add the line \"session required pam_limits.so\" to /etc/pam.d/login, then log out and in again");
}

/* No file grants anything: the fix names the distribution's own way (os-release), else the file to write. */
static void test_no_grant_by_distribution(void **state)
{
    (void)state;
    json_t *s = tree(login("musician,audio", 0, 0, 8388608, 8388608, "bash", T_AFTER, "login", "login"), 1, NULL);
    json_t *setup = json_object_get(s, "setup");
    json_array_clear(json_object_get(json_object_get(setup, "limits"), "entries"));
    json_object_set_new(setup, "os", json_pack("{s:s, s:s}", "id", "manjaro", "id_like", "arch"));
    one_fix(json_incref(s), "no file in /etc/security/limits.d (nor limits.conf) grants musician real-time rights",
            "sudo pacman -S realtime-privileges (it writes /etc/security/limits.d/99-realtime-privileges.conf: "
            "@realtime rtprio 98, memlock unlimited), then sudo usermod -aG realtime musician, and log out and in "
            "again");
    json_object_set_new(setup, "os", json_pack("{s:s, s:s}", "id", "fedora", "id_like", "rhel archlinux"));
    json_object_set_new(setup, "packages", json_object());
    json_object_set_new(setup, "programs", json_object());
    one_fix(s, "no file in /etc/security/limits.d",
            "write /etc/security/limits.d/audio.conf with the lines \"@audio - rtprio 95\" and \"@audio - memlock "
            "unlimited\", and log out and in again");
}

/* /etc/pam.d read as pam.d(5) says: pam_limits found directly, through "@include", "session include" and
 * "session substack", after a bracketed control; not in another type's lines nor in a comment; a missing
 * service is absent; and the container's marks. The files are written here. */
static void put(const char *root, const char *path, const char *text)
{
    char full[4096];
    snprintf(full, sizeof(full), "%s%s", root, path);
    FILE *f = fopen(full, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_pam_stacks(void **state)
{
    (void)state;
    char root[4096], dir[4200];
    snprintf(root, sizeof(root), "%s/rtj-pam-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(root));
    snprintf(dir, sizeof(dir), "%s/etc", root);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(dir, sizeof(dir), "%s/etc/pam.d", root);
    assert_int_equal(mkdir(dir, 0755), 0);
    put(root, "/etc/pam.d/common-session", "session [default=1] pam_permit.so\nsession required pam_unix.so\n");
    put(root, "/etc/pam.d/limits-here", "session\t[success=ok default=ignore]\t/lib/security/pam_limits.so\n");
    put(root, "/etc/pam.d/login", "# session required pam_limits.so\nauth required pam_limits.so\n"
        "@include common-session\n");
    put(root, "/etc/pam.d/sshd", "@include common-session\nsession include limits-here\n");
    put(root, "/etc/pam.d/su", "-session optional pam_systemd.so\nsession substack limits-here\n");
    put(root, "/etc/pam.d/su-l", "session include su\n");
    put(root, "/etc/pam.d/runuser", "session required pam_limits.so\n");
    put(root, "/.dockerenv", "");
    struct sysinfo_setup_args a = { .user = NULL };
    json_t *setup = sysinfo_setup(root, &a), *pam = json_object_get(setup, "pam");
    static const struct { const char *service; int limits; const char *via; } want[] = {
        { "common-session", 0, NULL }, { "login", 0, NULL }, { "sshd", 1, "limits-here" },
        { "su", 1, "limits-here" }, { "su-l", 1, "limits-here" }, { "runuser", 1, NULL },
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const json_t *o = json_object_get(pam, want[i].service);
        if (!json_is_object(o) || json_is_true(json_object_get(o, "limits")) != want[i].limits)
            fail_msg("%s: limits %s, want %d", want[i].service, json_dumps(o, 0), want[i].limits);
        const char *via = json_string_value(json_object_get(o, "via"));
        if (want[i].via ? !via || strcmp(via, want[i].via) : via != NULL)
            fail_msg("%s: via %s, want %s", want[i].service, via ? via : "null", want[i].via ? want[i].via : "null");
    }
    assert_null(json_object_get(pam, "sudo"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(setup, "container"), "kind")), "docker");
    json_decref(setup);
    char cmd[4300];
    snprintf(cmd, sizeof(cmd), "rm -r '%s'", root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    tzset();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_after_login),
        cmocka_unit_test(test_no_pam_limits),
        cmocka_unit_test(test_not_a_login),
        cmocka_unit_test(test_hard_not_raised),
        cmocka_unit_test(test_soft_lines_only),
        cmocka_unit_test(test_container),
        cmocka_unit_test(test_soft_lowered),
        cmocka_unit_test(test_user_manager),
        cmocka_unit_test(test_group_after_login),
        cmocka_unit_test(test_in_force),
        cmocka_unit_test(test_predicted),
        cmocka_unit_test(test_no_grant_by_distribution),
        cmocka_unit_test(test_pam_stacks),
    };
    return cmocka_run_group_tests_name("login_states", tests, NULL, NULL);
}
