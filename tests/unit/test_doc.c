/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one document writer: a report never overwrites another, a user's file is replaced whole or not at all
 * (a failing body, a full disk), nothing is written through a planted symlink, a directory or FIFO is refused,
 * and the temporary file is in the target's directory under a name nobody can guess. The truth is the file
 * system as seen by stat() and by reading the files back, never the writer's return value alone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report/doc.h"
#define REPL "\xef\xbf\xbd" /* U+FFFD, written out here rather than taken from util/utf8.h */

static char root[256];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "%s/rtj-doc-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    umask(022);
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", root, name);
}

static void put(const char *path, const char *content)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(content, f);
    assert_int_equal(fclose(f), 0);
}

/* The whole file, or "(absent)". */
static char *slurp(const char *path)
{
    static char buf[65536];
    FILE *f = fopen(path, "r");
    if (!f)
        return strcpy(buf, "(absent)");
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* How many entries the directory holds (. and .. not counted). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static int body_text(FILE *f, void *arg)
{
    return fputs(arg, f) == EOF ? -EIO : 0;
}

/* Writes half a document, then fails as a full disk would. */
static int body_enospc(FILE *f, void *arg)
{
    (void)arg;
    fputs("{\"half\": ", f);
    fflush(f);
    return -ENOSPC;
}

static int body_eio(FILE *f, void *arg)
{
    (void)f;
    (void)arg;
    return -EIO;
}

static void test_exclusive_never_overwrites(void **state)
{
    (void)state;
    char dir[300], p[400];
    path_in(dir, sizeof(dir), "excl");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(p, sizeof(p), "%s/r.json", dir);
    assert_int_equal(doc_write(p, DOC_EXCLUSIVE, body_text, "first\n"), 0);
    assert_string_equal(slurp(p), "first\n");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(st.st_nlink, 1); /* the temporary link is gone */
    assert_int_equal(doc_write(p, DOC_EXCLUSIVE, body_text, "second\n"), -EEXIST);
    assert_string_equal(slurp(p), "first\n");
    assert_int_equal(entries(dir), 1);
    /* A JSON document through the same writer. */
    json_t *d = json_pack("{s:s, s:f}", "schema", "x/1", "v", 0.5);
    snprintf(p, sizeof(p), "%s/d.json", dir);
    assert_int_equal(doc_write_json(p, DOC_EXCLUSIVE, d), 0);
    assert_string_equal(slurp(p), "{\n \"schema\": \"x/1\",\n \"v\": 0.5\n}\n");
    assert_int_equal(doc_write_json(p, DOC_EXCLUSIVE, d), -EEXIST);
    json_decref(d);
    assert_int_equal(entries(dir), 2);
    /* A time on CLOCK_MONOTONIC after 11 days of uptime keeps its microseconds (at 8 digits it read 987654.32) */
    d = json_pack("{s:f}", "t_s", 987654.321234);
    snprintf(p, sizeof(p), "%s/t.json", dir);
    assert_int_equal(doc_write_json(p, DOC_EXCLUSIVE, d), 0);
    assert_string_equal(slurp(p), "{\n \"t_s\": 987654.321234\n}\n");
    json_decref(d);
}

static void test_replace(void **state)
{
    (void)state;
    char dir[300], p[400];
    path_in(dir, sizeof(dir), "repl");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(p, sizeof(p), "%s/out.html", dir);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "new page\n"), 0);
    assert_string_equal(slurp(p), "new page\n");
    struct stat a, b;
    assert_int_equal(stat(p, &a), 0);
    assert_int_equal(a.st_mode & 0777, 0644); /* 0666 less the umask */
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "newer page\n"), 0);
    assert_string_equal(slurp(p), "newer page\n");
    assert_int_equal(stat(p, &b), 0);
    assert_true(a.st_ino != b.st_ino); /* a new file took the name: never rewritten in place */
    assert_int_equal(entries(dir), 1);
}

static void test_failing_body_leaves_the_old_file(void **state)
{
    (void)state;
    char dir[300], p[400];
    path_in(dir, sizeof(dir), "fail");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(p, sizeof(p), "%s/out.json", dir);
    put(p, "the user's old file\n");
    assert_int_equal(doc_write(p, DOC_REPLACE, body_eio, NULL), -EIO);
    assert_string_equal(slurp(p), "the user's old file\n");
    assert_int_equal(doc_write(p, DOC_REPLACE, body_enospc, NULL), -ENOSPC);
    assert_string_equal(slurp(p), "the user's old file\n");
    assert_int_equal(entries(dir), 1); /* no temporary file behind */
    /* A new name and a failing body: nothing at all. */
    snprintf(p, sizeof(p), "%s/new.json", dir);
    assert_int_equal(doc_write(p, DOC_EXCLUSIVE, body_enospc, NULL), -ENOSPC);
    assert_string_equal(slurp(p), "(absent)");
    assert_int_equal(entries(dir), 1);
}

static void test_symlink_is_never_written_through(void **state)
{
    (void)state;
    char dir[300], p[400], victim[400], dangling[400];
    path_in(dir, sizeof(dir), "link");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(victim, sizeof(victim), "%s/victim", root);
    put(victim, "precious\n");
    snprintf(p, sizeof(p), "%s/out.html", dir);
    assert_int_equal(symlink(victim, p), 0);
    assert_int_equal(doc_write(p, DOC_EXCLUSIVE, body_text, "x"), -EEXIST);
    assert_string_equal(slurp(victim), "precious\n");
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "page\n"), 0);
    assert_string_equal(slurp(victim), "precious\n");
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISREG(st.st_mode)); /* the link itself was replaced */
    assert_string_equal(slurp(p), "page\n");
    /* A dangling link: its target is never created. */
    snprintf(p, sizeof(p), "%s/dangling.json", dir);
    snprintf(dangling, sizeof(dangling), "%s/created-through-link", root);
    assert_int_equal(symlink(dangling, p), 0);
    assert_int_equal(doc_write(p, DOC_EXCLUSIVE, body_text, "x"), -EEXIST);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "x"), 0);
    assert_int_equal(access(dangling, F_OK), -1);
    /* Symlinks planted at the names older writers used for their temporary files (NAME.tmp-PID, and the
     * store's .NAME.tmp-PID): not one is followed. */
    char planted[3][480];
    snprintf(p, sizeof(p), "%s/report.json", dir);
    snprintf(planted[0], sizeof(planted[0]), "%s.tmp-%d", p, (int)getpid());
    snprintf(planted[1], sizeof(planted[1]), "%s/.report.json.tmp-%d", dir, (int)getpid());
    snprintf(planted[2], sizeof(planted[2]), "%s/.report.json.tmp-", dir);
    for (int i = 0; i < 3; i++)
        assert_int_equal(symlink(victim, planted[i]), 0);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "r1\n"), 0);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(doc_write(p, DOC_EXCLUSIVE, body_text, "r2\n"), 0);
    assert_string_equal(slurp(victim), "precious\n");
    assert_string_equal(slurp(p), "r2\n");
}

static void test_not_a_regular_file_is_refused(void **state)
{
    (void)state;
    char p[400];
    path_in(p, sizeof(p), "a-directory");
    assert_int_equal(mkdir(p, 0700), 0);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "x"), -EISDIR);
    assert_int_equal(entries(p), 0);
    /* Opening a FIFO for writing would block for ever: alarm() turns that into a failure, not a hang. */
    path_in(p, sizeof(p), "a-fifo");
    assert_int_equal(mkfifo(p, 0600), 0);
    alarm(10);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "x"), -EINVAL);
    alarm(0);
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(doc_write("/dev/null", DOC_REPLACE, body_text, "x"), -EINVAL);
    struct stat dn;
    assert_int_equal(stat("/dev/null", &dn), 0);
    assert_true(S_ISCHR(dn.st_mode));
    assert_string_equal(doc_strerror(-EINVAL), "it exists and is not a regular file");
    /* Names that are no file name, and a directory that is not there. */
    assert_int_equal(doc_write("", DOC_REPLACE, body_text, "x"), -EINVAL);
    snprintf(p, sizeof(p), "%s/", root);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "x"), -EISDIR);
    snprintf(p, sizeof(p), "%s/..", root);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "x"), -EISDIR);
    snprintf(p, sizeof(p), "%s/missing/r.json", root);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_text, "x"), -ENOENT);
}

/* The body looks into the directory while it is being written: the temporary file is there (the target's own
 * directory), hidden, and named after the target with a random part. */
struct seen {
    const char *dir;
    char name[300];
};

static int body_look(FILE *f, void *arg)
{
    struct seen *s = arg;
    DIR *d = opendir(s->dir);
    struct dirent *e;
    s->name[0] = '\0';
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, ".t.json.tmp-", 12))
            snprintf(s->name, sizeof(s->name), "%s", e->d_name);
    if (d)
        closedir(d);
    fputs("{}\n", f);
    return 0;
}

static void test_temp_name(void **state)
{
    (void)state;
    char dir[300], p[400], pid[32];
    path_in(dir, sizeof(dir), "tmpname");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(p, sizeof(p), "%s/t.json", dir);
    struct seen a = { dir, "" }, b = { dir, "" };
    assert_int_equal(doc_write(p, DOC_REPLACE, body_look, &a), 0);
    assert_int_equal(doc_write(p, DOC_REPLACE, body_look, &b), 0);
    assert_true(strlen(a.name) >= 12 + 12);
    assert_true(strlen(b.name) >= 12 + 12);
    assert_string_not_equal(a.name, b.name);
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    assert_null(strstr(a.name + 12, pid));
    assert_int_equal(entries(dir), 1);
}

/* A real full disk: a 64 KiB tmpfs in a private mount namespace (root only), filled up. The old file must
 * survive a write that runs out of space part way. */
static int body_big(FILE *f, void *arg)
{
    (void)arg;
    for (int i = 0; i < 4096; i++)
        if (fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", f) == EOF)
            return -errno;
    return 0;
}

static void test_full_disk(void **state)
{
    (void)state;
    char dir[300];
    path_in(dir, sizeof(dir), "small");
    assert_int_equal(mkdir(dir, 0700), 0);
    pid_t kid = fork();
    assert_true(kid >= 0);
    if (kid == 0) {
        if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
            mount("rtjt-doc", dir, "tmpfs", 0, "size=64k") < 0)
            _exit(77);
        char p[400], fill[400];
        snprintf(p, sizeof(p), "%s/out.json", dir);
        snprintf(fill, sizeof(fill), "%s/filler", dir);
        put(p, "old and whole\n");
        FILE *f = fopen(fill, "w");
        char block[1024] = { 0 };
        while (f && fwrite(block, 1, sizeof(block), f) == sizeof(block) && fflush(f) == 0)
            ;
        if (f)
            fclose(f);
        /* No room at all: a small body fits in the stdio buffer, so the disk is found full only when the
         * writer flushes it. */
        int rc = doc_write(p, DOC_REPLACE, body_text, "a small new file\n") == -ENOSPC ? 0 : 8;
        if (truncate(fill, 8192) < 0) /* room for part of the new file, not all of it */
            _exit(78);
        int e = doc_write(p, DOC_REPLACE, body_big, NULL);
        rc |= e == -ENOSPC ? 0 : 1;
        if (strcmp(slurp(p), "old and whole\n"))
            rc |= 2;
        if (entries(dir) != 2)
            rc |= 4;
        umount(dir);
        _exit(rc);
    }
    int st;
    assert_int_equal(waitpid(kid, &st, 0), kid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 77) {
        print_message("full disk: skipped (no private tmpfs without root); a body failing with ENOSPC is "
                      "tested above\n");
        return;
    }
    if (WEXITSTATUS(st))
        fail_msg("full disk: %s%s%s%s", WEXITSTATUS(st) & 1 ? "not -ENOSPC; " : "",
                 WEXITSTATUS(st) & 2 ? "the old file changed; " : "", WEXITSTATUS(st) & 4 ? "a temp left; " : "",
                 WEXITSTATUS(st) & 8 ? "a failing flush not seen" : "");
}

static void test_frame(void **state)
{
    (void)state;
    json_t *d = doc_begin("rtjitter.report/1", 1), *sys = json_pack("{s:s}", "hostname", "box");
    assert_int_equal(doc_set_origin(d, "rtjitter run --label \xc0\x80", sys), 0);
    char *s = json_dumps(d, 0);
    assert_string_equal(s, "{\"schema\": \"rtjitter.report/1\", \"tool\": {\"name\": \"rtjitter\", \"version\": \""
                           RTJ_VERSION "\"}, \"command\": \"rtjitter run --label " REPL REPL "\", "
                           "\"system\": {\"hostname\": \"box\"}}");
    free(s);
    json_decref(d);
    json_decref(sys);
    d = doc_begin("rtjitter.compare/1", 0);
    s = json_dumps(d, 0);
    assert_string_equal(s, "{\"schema\": \"rtjitter.compare/1\"}");
    free(s);
    assert_int_equal(doc_set_origin(d, NULL, NULL), 0);
    assert_true(json_is_null(json_object_get(d, "command")));
    assert_true(json_is_object(json_object_get(d, "system")));
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exclusive_never_overwrites),
        cmocka_unit_test(test_replace),
        cmocka_unit_test(test_failing_body_leaves_the_old_file),
        cmocka_unit_test(test_symlink_is_never_written_through),
        cmocka_unit_test(test_not_a_regular_file_is_refused),
        cmocka_unit_test(test_temp_name),
        cmocka_unit_test(test_full_disk),
        cmocka_unit_test(test_frame),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
