/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loads' safety promises, each by its attack: an unsafe --tmpdir is refused; a load directory swapped for a
 * symlink mid-phase makes nothing outside it go; a command that daemonises is ended at the phase end without
 * blocking the supervisor; a supervisor killed by SIGKILL is noticed (load_plan_alive) and everything it left is
 * ended and removed by load_plan_abort from this process. Each process test runs twice: with a cgroup per load
 * (where this machine allows one) and with RTJITTER_NO_CGROUP=1 (process groups and the subreaper). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "loadcgroup.h"
#include "loaddir.h"
#include "loadplan.h"
#include "unit/load_marks.h"

static char g_tmp[256];

static int entries(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return d ? n : -1;
}

/* The one child of ours named rtj-loads. */
static pid_t supervisor_pid(void)
{
    char path[64], comm[32];
    snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
    FILE *f = fopen(path, "re");
    long pid;
    pid_t found = 0;
    while (f && !found && fscanf(f, "%ld", &pid) == 1) {
        snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
        FILE *c = fopen(path, "re");
        if (c && fgets(comm, sizeof(comm), c) && strncmp(comm, "rtj-loads", 9) == 0)
            found = (pid_t)pid;
        if (c)
            fclose(c);
    }
    if (f)
        fclose(f);
    return found;
}

/* Does the run's cgroup (rtjitter-loads-<our pid>) exist in our cgroup? 0 also where there is no cgroup v2. */
static int run_cgroup_exists(void)
{
    int fd;
    if (loadcg_open_own(&fd) < 0)
        return 0;
    char name[64];
    snprintf(name, sizeof(name), "rtjitter-loads-%d", (int)getpid());
    struct stat st;
    int there = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
    close(fd);
    return there;
}

static void __attribute__((format(printf, 1, 2))) sh(const char *fmt, ...)
{
    char cmd[2000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_tmp, sizeof(g_tmp), "%s/rtjt-loadsafety.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(g_tmp))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* Would a plan here get its cgroup? (Not as a normal user outside a delegated cgroup, nor without cgroup v2.) */
static int cgroups_here(void)
{
    static int known = -1;
    if (known < 0) {
        struct load_plan *p = NULL;
        char err[512];
        unsetenv("RTJITTER_NO_CGROUP");
        if (load_plan_parse("burn:threads=1", g_tmp, &p, err, sizeof(err)) < 0)
            fail_msg("%s", err);
        known = run_cgroup_exists();
        load_plan_free(p);
    }
    return known;
}

/* 0: the test runs in that mode; -1: the cgroup mode is not available here (the test is skipped). */
static int use_cgroup(int yes)
{
    if (yes && !cgroups_here()) {
        printf("  # no cgroup v2 we may write here: the cgroup variant is skipped\n");
        return -1;
    }
    if (yes)
        unsetenv("RTJITTER_NO_CGROUP");
    else
        setenv("RTJITTER_NO_CGROUP", "1", 1);
    return 0;
}

/* A tmpdir where another user could rename our directory is refused with one line; a safe one is taken, and a
 * plan that makes no file does not care. */
static void test_tmpdir_rules(void **state)
{
    (void)state;
    struct { const char *name; mode_t mode; int uid; const char *says; } cases[] = {
        { "open", 0777, -1, "is writable by everyone and not sticky" },
        { "group", 0775, -1, "is writable by its group and not sticky" },
        { "theirs", 01777, 65534, "is owned by another user (uid 65534)" },
        { "theirs-private", 0700, 65534, "is owned by another user (uid 65534)" },
        { "sticky", 01777, -1, NULL },
        { "mine", 0700, -1, NULL },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char dir[400], err[512] = "";
        snprintf(dir, sizeof(dir), "%s/%s", g_tmp, cases[i].name);
        assert_int_equal(mkdir(dir, 0700), 0);
        assert_int_equal(chmod(dir, cases[i].mode), 0);
        if (cases[i].uid >= 0 && chown(dir, (uid_t)cases[i].uid, (gid_t)cases[i].uid) < 0) {
            printf("  # skip %s: chown needs root\n", cases[i].name);
            rmdir(dir);
            continue;
        }
        struct load_plan *p = NULL;
        int rc = load_plan_parse("none,write:mb=1", dir, &p, err, sizeof(err));
        printf("  %-15s %04o: %s\n", cases[i].name, (unsigned)cases[i].mode, rc < 0 ? err : "taken");
        if (cases[i].says) {
            assert_int_equal(rc, -EPERM);
            assert_null(p);
            assert_non_null(strstr(err, "--tmpdir "));
            assert_non_null(strstr(err, dir));
            assert_non_null(strstr(err, cases[i].says));
            assert_null(strchr(err, '\n'));
            assert_int_equal(entries(dir), 0);
            /* No file, no danger: a plan of CPU loads does not look at the tmpdir. */
            assert_int_equal(load_plan_parse("burn:threads=1", dir, &p, err, sizeof(err)), 0);
            load_plan_free(p);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(entries(dir), 1); /* our private directory */
            load_plan_free(p);
            assert_int_equal(entries(dir), 0);
        }
        assert_int_equal(marked_within(0, 2), 0);
        assert_int_equal(rmdir(dir), 0);
    }
}

/* Someone who could rename entries in the tmpdir (here the test itself: in a tmpdir we accept, only root or we
 * could) moves our load directory away mid-phase and puts a symlink to a victim directory in its place; the
 * victim holds what the loads' directories would hold. Nothing in the victim goes, our files go with the moved
 * directory's content, no process is left. */
static void swapped_dir(int cgroup)
{
    if (use_cgroup(cgroup) < 0)
        skip();
    char t[300], victim[300], moved[320], err[512];
    snprintf(t, sizeof(t), "%s/t", g_tmp);
    snprintf(victim, sizeof(victim), "%s/victim", g_tmp);
    snprintf(moved, sizeof(moved), "%s/moved", t);
    assert_int_equal(mkdir(t, 0755), 0);
    assert_int_equal(mkdir(victim, 0755), 0);
    sh("cd '%s' && mkdir 0-exec 0-compile 0-write && for f in victim 0-exec/output.log 0-compile/u0.c 0-write/x; "
       "do echo keep > $f; done", victim);
    struct load_plan *p = NULL;
    assert_int_equal(load_plan_parse("compile:units=2+write:mb=2+exec:echo out; touch mine; sleep 100", t, &p, err,
                                     sizeof(err)), 0);
    assert_int_equal(load_phase_start(p, 0), 0);
    mono_nap_ms(800);
    DIR *d = opendir(t);
    struct dirent *e;
    char ours[700] = "";
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, "rtjitter-loads.", 15) == 0)
            snprintf(ours, sizeof(ours), "%s/%s", t, e->d_name);
    closedir(d);
    assert_true(ours[0]);
    assert_int_equal(rename(ours, moved), 0);
    assert_int_equal(symlink(victim, ours), 0);
    json_t *m = json_array();
    const char *error = NULL;
    load_phase_stop(p, 0, m, &error);
    if (error)
        printf("  load_error: %s\n", error);
    json_decref(m);
    load_plan_free(p);
    assert_int_equal(marked_within(0, 2), 0);
    sh("cd '%s' && test \"$(cat victim 0-exec/output.log 0-compile/u0.c 0-write/x | tr '\\n' ' ')\" = "
       "'keep keep keep keep ' && test \"$(ls -A | wc -l)\" = 4", victim);
    assert_int_equal(entries(moved), 0); /* its content was ours and went; where it was moved to, we cannot know */
    assert_int_equal(unlink(ours), 0);
    assert_int_equal(rmdir(moved), 0);
    assert_int_equal(entries(t), 0);
    assert_false(run_cgroup_exists());
    sh("rm -rf '%s' '%s'", t, victim);
}

static void test_swapped_dir_cgroup(void **state) { (void)state; swapped_dir(1); }
static void test_swapped_dir_groups(void **state) { (void)state; swapped_dir(0); }

/* A command that starts a daemon with a child of its own (setsid, double fork) and returns at once: the phase
 * still stops within a second or two, and nothing of it is left. */
static void daemon_exec(int cgroup)
{
    if (use_cgroup(cgroup) < 0)
        skip();
    struct load_plan *p = NULL;
    char err[512];
    assert_int_equal(load_plan_parse("exec:sh -c \"(setsid sh -c \\\"sleep 300 & sleep 300\\\") &\",none", g_tmp, &p,
                                     err, sizeof(err)),
                     0);
    assert_int_equal(load_phase_start(p, 0), 0);
    mono_nap_ms(600);
    assert_true(marked_processes() >= 3); /* the supervisor and the two sleeps */
    json_t *m = json_array();
    const char *error = NULL;
    double t0 = mono_s();
    load_phase_stop(p, 0, m, &error);
    double stop_s = mono_s() - t0;
    printf("  %s: stopped in %.3f s, %d marked processes left, error %s\n", cgroup ? "cgroup" : "groups", stop_s,
           marked_processes(), error ? error : "none");
    assert_null(error);
    assert_true(stop_s < 2.5);
    assert_int_equal(marked_within(1, 0.5), 1); /* the supervisor only, before the plan ends */
    json_decref(m);
    load_plan_free(p);
    assert_int_equal(marked_within(0, 2), 0);
    assert_int_equal(entries(g_tmp), 0);
    assert_false(run_cgroup_exists());
}

static void test_daemon_exec_cgroup(void **state) { (void)state; daemon_exec(1); }
static void test_daemon_exec_groups(void **state) { (void)state; daemon_exec(0); }

/* kill -9 of the supervisor mid-phase: load_plan_alive says so at once, load_plan_abort ends every load process
 * and removes every file from here; the phase's stop then reports the supervisor's end. */
static void supervisor_killed(int cgroup)
{
    if (use_cgroup(cgroup) < 0)
        skip();
    struct load_plan *p = NULL;
    char err[512], why[200] = "";
    /* Without a cgroup a setsid'd process is out of reach once the supervisor (its subreaper) is gone: that is
     * what the cgroup is for, so only the cgroup run starts one. */
    const char *spec = cgroup ? "compile:units=3+hackbench:groups=1:fds=2+write:mb=4+exec:(setsid sleep 300 &); "
                                "sleep 300 & echo > mine; sleep 300"
                              : "compile:units=3+hackbench:groups=1:fds=2+write:mb=4+exec:sleep 300 & echo > mine; "
                                "sleep 300";
    assert_int_equal(load_plan_parse(spec, g_tmp, &p, err, sizeof(err)), 0);
    assert_int_equal(load_phase_start(p, 0), 0);
    mono_nap_ms(1000);
    assert_int_equal(load_plan_alive(p, why, sizeof(why)), 1);
    int before = marked_processes();
    pid_t sup = supervisor_pid();
    assert_true(sup > 0);
    assert_int_equal(entries(g_tmp), 1);
    assert_int_equal(kill(sup, SIGKILL), 0);
    double t0 = mono_s();
    while (load_plan_alive(p, why, sizeof(why)) && mono_s() - t0 < 1)
        mono_nap_ms(10);
    double noticed_s = mono_s() - t0;
    assert_int_equal(load_plan_alive(p, why, sizeof(why)), 0);
    t0 = mono_s();
    load_plan_abort(p);
    double abort_s = mono_s() - t0;
    int left = marked_within(0, 1);
    printf("  %s: %d processes; noticed in %.3f s (%s); abort took %.3f s; left %d, tmpdir entries %d\n",
           cgroup ? "cgroup" : "groups", before, noticed_s, why, abort_s, left, entries(g_tmp));
    assert_true(before >= 8);
    assert_non_null(strstr(why, "the load supervisor was killed by signal 9"));
    assert_true(noticed_s < 0.5);
    assert_true(abort_s < 2.5);
    assert_int_equal(left, 0);
    assert_int_equal(entries(g_tmp), 0);
    assert_false(run_cgroup_exists());
    load_plan_abort(p); /* idempotent */
    json_t *m = json_array();
    const char *error = NULL;
    load_phase_stop(p, 0, m, &error);
    assert_non_null(error);
    assert_non_null(strstr(error, "killed by signal 9"));
    json_decref(m);
    load_plan_free(p);
}

static void test_supervisor_killed_cgroup(void **state) { (void)state; supervisor_killed(1); }
static void test_supervisor_killed_groups(void **state) { (void)state; supervisor_killed(0); }

/* loaddir_remove and loaddir_empty follow no symlink, give back directories left without access, and leave an
 * entry that is no longer the directory they were given. */
static void test_loaddir(void **state)
{
    (void)state;
    char victim[400], err[512];
    snprintf(victim, sizeof(victim), "%s/victim", g_tmp);
    sh("mkdir -p '%s/sub' && echo keep > '%s/sub/file'", victim, victim);
    int top = open(g_tmp, O_RDONLY | O_DIRECTORY);
    assert_true(top >= 0);
    assert_int_equal(loaddir_check_parent(top, g_tmp, err, sizeof(err)), 0);
    char name[64];
    int fd;
    assert_int_equal(loaddir_make(top, "d.", name, sizeof(name), &fd), 0);
    assert_int_equal(strlen(name), 8);
    char d[400];
    snprintf(d, sizeof(d), "%s/%s", g_tmp, name);
    sh("cd '%s' && mkdir -p a/b/c && echo x > a/b/c/f && ln -s '%s' link && ln -s '%s/sub/file' a/flink", d,
       victim, victim);
    sh("cd '%s' && mkdir locked && echo x > locked/f && chmod 000 locked && chmod 500 a/b", d);
    int tf = loaddir_tmpfile(fd, O_RDWR);
    assert_true(tf >= 0);
    close(tf);
    assert_int_equal(loaddir_remove(top, name, fd), 0);
    close(fd);
    assert_int_equal(access(d, F_OK), -1);
    sh("test \"$(cat '%s/sub/file')\" = keep && test -d '%s/sub'", victim, victim);
    /* An entry swapped for a symlink: emptied through the descriptor, the symlink stays, and so does its target. */
    assert_int_equal(loaddir_make(top, "d.", name, sizeof(name), &fd), 0);
    snprintf(d, sizeof(d), "%s/%s", g_tmp, name);
    sh("echo x > '%s/f' && mv '%s' '%s/elsewhere'", d, d, g_tmp);
    sh("ln -s '%s' '%s'", victim, d);
    assert_int_equal(loaddir_remove(top, name, fd), -ESTALE);
    close(fd);
    sh("test -L '%s' && test \"$(cat '%s/sub/file')\" = keep", d, victim);
    sh("test -z \"$(ls -A '%s/elsewhere')\" && rm '%s'", g_tmp, d);
    sh("rmdir '%s/elsewhere' && rm -rf '%s'", g_tmp, victim);
    close(top);
    assert_int_equal(entries(g_tmp), 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (load_marks_init(argv, "loadsafety"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loaddir),
        cmocka_unit_test(test_tmpdir_rules),
        cmocka_unit_test(test_swapped_dir_cgroup),
        cmocka_unit_test(test_swapped_dir_groups),
        cmocka_unit_test(test_daemon_exec_cgroup),
        cmocka_unit_test(test_daemon_exec_groups),
        cmocka_unit_test(test_supervisor_killed_cgroup),
        cmocka_unit_test(test_supervisor_killed_groups),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
