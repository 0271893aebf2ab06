/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guard of the trace's instance (src/culprit/tracefs_guard.c) on a fake tracefs tree (a directory with `trace`
 * and `instances/`), no root needed: a child process opens an instance and is SIGKILLed, and the instance's
 * directory, as this test sees it with stat, is gone within 2 s, and so is the guard (a process of the name
 * rtjitter-guard whose parent was the child); a normal close removes the instance itself and leaves no guard (no
 * child left to wait for); a directory that is not the one made (another of the same name) is never removed. The
 * real tracefs, as root, is trace_guard.sh's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "culprit/tracefs.h"

static void fake_root(char *root, size_t len)
{
    snprintf(root, len, "/tmp/rtjt-safety-guard.XXXXXX");
    assert_non_null(mkdtemp(root));
    char p[PATH_MAX + 32];
    snprintf(p, sizeof(p), "%s/instances", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/trace", root);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

static void rm_root(const char *root)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof(p), "%s/instances", root);
    rmdir(p);
    snprintf(p, sizeof(p), "%s/trace", root);
    unlink(p);
    assert_int_equal(rmdir(root), 0);
}

static int gone_within_ms(const char *path, int ms)
{
    struct stat st;
    for (int t = 0; t < ms; t += 10) {
        if (stat(path, &st) < 0 && errno == ENOENT)
            return 1;
        struct timespec ts = { 0, 10000000L };
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void test_sigkill(void **state)
{
    (void)state;
    char root[256], inst[PATH_MAX + 64], err[256];
    fake_root(root, sizeof(root));
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t child = fork();
    if (child == 0) {
        struct tracefs t;
        close(ready[0]);
        if (tracefs_locate(&t, root, err, sizeof(err)) < 0 || tracefs_instance_open(&t, err, sizeof(err)) < 0)
            _exit(1);
        char msg[16];
        int n = snprintf(msg, sizeof(msg), "%d\n", (int)t.guard_pid);
        if (write(ready[1], msg, (size_t)n) != n)
            _exit(2);
        pause();
        _exit(0);
    }
    close(ready[1]);
    char buf[32] = "";
    assert_true(read(ready[0], buf, sizeof(buf) - 1) > 0);
    close(ready[0]);
    int guard = atoi(buf);
    assert_true(guard > 0);
    snprintf(inst, sizeof(inst), "%s/instances/rtjitter-%d", root, (int)child);
    struct stat st;
    assert_int_equal(stat(inst, &st), 0); /* made, and there while its process lives */
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_true(gone_within_ms(inst, 2000));
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/%d/comm", guard);
    int ended = 0;
    for (int t = 0; t < 2000 && !ended; t += 10) {
        FILE *f = fopen(proc, "r");
        char comm[32] = "";
        if (f) {
            if (!fgets(comm, sizeof(comm), f))
                comm[0] = '\0';
            fclose(f);
        }
        char stat_path[64], line[256] = "";
        snprintf(stat_path, sizeof(stat_path), "/proc/%d/stat", guard);
        FILE *s = fopen(stat_path, "r");
        if (s) {
            if (!fgets(line, sizeof(line), s))
                line[0] = '\0';
            fclose(s);
        }
        const char *rp = strrchr(line, ')');
        /* gone, or a zombie its new parent has not reaped yet, or the PID already another process's */
        ended = !f || (rp && rp[2] == 'Z') || strcmp(comm, "rtjitter-guard\n") != 0;
        if (!ended) {
            struct timespec ts = { 0, 10000000L };
            nanosleep(&ts, NULL);
        }
    }
    assert_true(ended);
    rm_root(root);
}

static void test_normal_close(void **state)
{
    (void)state;
    char root[256], inst[PATH_MAX + 64], err[256];
    fake_root(root, sizeof(root));
    struct tracefs t;
    assert_int_equal(tracefs_locate(&t, root, err, sizeof(err)), 0);
    assert_int_equal(tracefs_instance_open(&t, err, sizeof(err)), 0);
    pid_t guard = t.guard_pid;
    assert_true(guard > 0);
    snprintf(inst, sizeof(inst), "%s/instances/rtjitter-%d", root, (int)getpid());
    tracefs_close(&t);
    struct stat st;
    assert_int_equal(stat(inst, &st), -1);
    assert_int_equal(t.guard_pid, 0);
    assert_int_equal(waitpid(guard, NULL, WNOHANG), -1); /* reaped: no child of ours left */
    assert_int_equal(errno, ECHILD);
    rm_root(root);
}

static void test_not_ours(void **state)
{
    (void)state;
    char root[256], inst[PATH_MAX + 64], err[256];
    fake_root(root, sizeof(root));
    struct tracefs t;
    assert_int_equal(tracefs_locate(&t, root, err, sizeof(err)), 0);
    assert_int_equal(tracefs_instance_open(&t, err, sizeof(err)), 0);
    snprintf(inst, sizeof(inst), "%s/instances/%s", root, t.name);
    /* another directory of the same name in its place: the one made is gone */
    close(t.inst_fd);
    t.inst_fd = -1;
    assert_int_equal(rmdir(inst), 0);
    char other[PATH_MAX + 64];
    snprintf(other, sizeof(other), "%s/instances/keep", root);
    assert_int_equal(mkdir(other, 0700), 0);
    assert_int_equal(mkdir(inst, 0700), 0); /* a new inode under the old name */
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof(dir), "%s/instances", root);
    assert_int_equal(tracefs_instance_remove(dir, t.name, t.inst_dev, t.inst_ino, 0), -ESTALE);
    tracefs_close(&t);
    struct stat st;
    assert_int_equal(stat(inst, &st), 0); /* kept */
    assert_int_equal(rmdir(inst), 0);
    assert_int_equal(rmdir(other), 0);
    rm_root(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigkill),
        cmocka_unit_test(test_normal_close),
        cmocka_unit_test(test_not_ours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
