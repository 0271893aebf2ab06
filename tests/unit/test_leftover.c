/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util/leftover.c and util/replace.c: what a dead run left is removed only when nobody holds its lock (a live
 * holder in another process keeps it; once that process is gone it goes); look-alikes (a symlink, a folder where
 * a file is expected, another user's entry) stay; an owner that loses its fresh entry to a sweeper before locking
 * it is told so (-EAGAIN), and so is one whose entry a sweeper holds. replace_allowed() gives the kernel's own
 * answer: each case is set against a real rename() as an unprivileged user in a child process. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/leftover.h"
#include "util/replace.h"

static char dir[256];
static int dfd = -1;

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "%s/rtj-lo-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return dfd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    close(dfd);
    return system(cmd) == 0 ? 0 : -1;
}

static enum leftover_kind match(const char *name)
{
    if (strncmp(name, ".f-", 3) == 0)
        return LEFTOVER_FILE;
    if (strncmp(name, ".d-", 3) == 0)
        return LEFTOVER_DIR;
    return LEFTOVER_NONE;
}

static int rm_dir(int parent, const char *name, int fd)
{
    (void)fd;
    return unlinkat(parent, name, AT_REMOVEDIR) == 0 ? 0 : -errno;
}

static int exists(const char *name)
{
    struct stat st;
    return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int make_file(const char *name)
{
    int fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    assert_true(fd >= 0);
    return fd;
}

/* Held in another process (a live run): kept; that process gone: removed. Unheld: removed. Look-alikes kept. */
static void test_sweep(void **state)
{
    (void)state;
    int up[2], down[2]; /* child to parent: "holding"; parent to child: closed when the child is to die */
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = openat(dfd, ".f-live", O_RDWR | O_CREAT | O_EXCL, 0600); /* no cmocka assert in a child */
        mkdirat(dfd, ".d-live", 0700);
        int d = openat(dfd, ".d-live", O_RDONLY | O_DIRECTORY);
        int ok = fd >= 0 && d >= 0 && leftover_hold(dfd, ".f-live", fd) == 0 && leftover_hold(dfd, ".d-live", d) == 0;
        char c = ok ? 'y' : 'n';
        close(down[1]);
        if (write(up[1], &c, 1) != 1)
            _exit(1);
        if (read(down[0], &c, 1) < 0) /* until the parent closes its end */
            _exit(1);
        _exit(0);
    }
    close(up[1]);
    close(down[0]);
    char c = 0;
    assert_int_equal(read(up[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    close(make_file(".f-dead"));
    assert_int_equal(mkdirat(dfd, ".d-dead", 0700), 0);
    assert_int_equal(symlinkat("/etc/hostname", dfd, ".f-link"), 0);
    assert_int_equal(mkdirat(dfd, ".f-adir", 0700), 0);   /* a folder under a file's name */
    close(make_file(".d-afile"));                          /* a file under a folder's name */
    close(make_file("other"));
    assert_int_equal(leftover_sweep(dfd, match, rm_dir, NULL, NULL), 2);
    assert_false(exists(".f-dead"));
    assert_false(exists(".d-dead"));
    assert_true(exists(".f-live"));
    assert_true(exists(".d-live"));
    assert_true(exists(".f-link"));
    assert_true(exists(".f-adir"));
    assert_true(exists(".d-afile"));
    assert_true(exists("other"));
    /* no remove_dir: folders stay */
    assert_int_equal(mkdirat(dfd, ".d-dead2", 0700), 0);
    assert_int_equal(leftover_sweep(dfd, match, NULL, NULL, NULL), 0);
    assert_true(exists(".d-dead2"));
    /* the live run dies: its lock goes with it */
    close(down[1]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(up[0]);
    assert_int_equal(leftover_sweep(dfd, match, rm_dir, NULL, NULL), 3);
    assert_false(exists(".f-live"));
    assert_false(exists(".d-live"));
    assert_false(exists(".d-dead2"));
}

/* Another user's entry is never taken, even unlocked (root sweeps here: the check is the uid, not the right). */
static void test_sweep_other_user(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* a file of another user can be made only by root */
    close(make_file(".f-theirs"));
    assert_int_equal(fchownat(dfd, ".f-theirs", 12345, 12345, 0), 0);
    assert_int_equal(leftover_sweep(dfd, match, rm_dir, NULL, NULL), 0);
    assert_true(exists(".f-theirs"));
}

/* The owner's window between creating and locking: a sweeper that took the entry then (it removed it) makes the
 * owner's leftover_hold fail, and so does one that holds it at that moment; the owner then makes another. */
static void test_hold_race(void **state)
{
    (void)state;
    int fd = make_file(".f-new");
    assert_int_equal(leftover_sweep(dfd, match, rm_dir, NULL, NULL), 1); /* before the owner's lock: taken */
    assert_int_equal(leftover_hold(dfd, ".f-new", fd), -EAGAIN);
    close(fd);
    fd = make_file(".f-new2");
    int sweeper = openat(dfd, ".f-new2", O_RDONLY | O_CLOEXEC);           /* another open file: another lock */
    assert_int_equal(flock(sweeper, LOCK_EX | LOCK_NB), 0);
    assert_int_equal(leftover_hold(dfd, ".f-new2", fd), -EAGAIN);
    close(sweeper);
    close(fd);
    unlinkat(dfd, ".f-new2", 0);
    fd = make_file(".f-new3");
    assert_int_equal(leftover_hold(dfd, ".f-new3", fd), 0);
    assert_int_equal(leftover_sweep(dfd, match, rm_dir, NULL, NULL), 0);  /* held: kept */
    assert_true(exists(".f-new3"));
    close(fd);
}

/* replace_allowed() against the kernel: as uid 65534 in a child, for each case, the prediction and what rename()
 * over the entry then does. */
static void test_replace_allowed(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* other users' files and a switch to uid 65534 need root */
    struct { const char *sub; mode_t mode; uid_t dir_uid, file_uid; int want; } cases[] = {
        { "st-other", 01777, 0, 12345, -EPERM },  /* /tmp, another user's file: refused */
        { "st-mine", 01777, 0, 65534, 0 },        /* /tmp, our file */
        { "st-dirmine", 01777, 65534, 12345, 0 }, /* our sticky folder: its owner may */
        { "open", 0777, 0, 12345, 0 },            /* not sticky: anyone who may write the folder may */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(mkdirat(dfd, cases[i].sub, 0700), 0);
        int sub = openat(dfd, cases[i].sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(sub >= 0);
        close(openat(sub, "target", O_WRONLY | O_CREAT | O_EXCL, 0666));
        assert_int_equal(fchownat(sub, "target", cases[i].file_uid, cases[i].file_uid, 0), 0);
        assert_int_equal(fchown(sub, cases[i].dir_uid, cases[i].dir_uid), 0);
        assert_int_equal(fchmod(sub, cases[i].mode), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            if (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0)
                _exit(10);
            char why[240] = "";
            int got = replace_allowed(sub, "target", why, sizeof(why));
            if (got != cases[i].want)
                _exit(11);
            if (got == -EPERM && !strstr(why, "sticky"))
                _exit(12);
            /* the kernel's answer */
            int fd = openat(sub, "new", O_WRONLY | O_CREAT | O_EXCL, 0600);
            if (fd < 0)
                _exit(13);
            close(fd);
            int r = renameat(sub, "new", sub, "target") == 0 ? 0 : -errno;
            _exit(r == cases[i].want ? 0 : 14);
        }
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fail_msg("%s: child status %d", cases[i].sub, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        /* as root (CAP_FOWNER): allowed everywhere, as the kernel allows it */
        char why[240];
        assert_int_equal(replace_allowed(sub, "target", why, sizeof(why)), 0);
        assert_int_equal(replace_allowed(sub, "missing", why, sizeof(why)), 0);
        close(sub);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_sweep_other_user),
        cmocka_unit_test(test_hold_race),
        cmocka_unit_test(test_replace_allowed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
