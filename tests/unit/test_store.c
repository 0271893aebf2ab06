/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report store: where reports go (XDG, --output), their names, that a report is written whole and never
 * replaces another, even when several runs save in the same second. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include "report/store.h"

static char root[256];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "%s/rtj-store-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static const struct timespec when = { 1704164645, 0 }; /* 2024-01-02T03:04:05Z */

static json_t *doc(int n)
{
    return json_pack("{s:s, s:i, s:s}", "schema", "rtjitter.report/1", "n", n, "text", "é \"quoted\"");
}

/* Names in dir, sorted, joined by spaces. */
static void listing(const char *dir, char *out, size_t len)
{
    struct dirent **names;
    int k = scandir(dir, &names, NULL, alphasort);
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        if (names[i]->d_name[0] != '.' || (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, "..")))
            o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", names[i]->d_name);
        free(names[i]);
    }
    if (k >= 0)
        free(names);
}

static void test_store_dir(void **state)
{
    (void)state;
    char buf[4096];
    setenv("XDG_DATA_HOME", "/xdg/data", 1);
    setenv("HOME", "/home/musician", 1);
    assert_int_equal(store_dir(NULL, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "/xdg/data/rtjitter/reports");
    /* The XDG spec: a relative path is invalid and ignored. */
    setenv("XDG_DATA_HOME", "relative/data", 1);
    assert_int_equal(store_dir(NULL, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "/home/musician/.local/share/rtjitter/reports");
    unsetenv("XDG_DATA_HOME");
    assert_int_equal(store_dir(NULL, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "/home/musician/.local/share/rtjitter/reports");
    unsetenv("HOME");
    assert_int_equal(store_dir(NULL, buf, sizeof(buf)), -ENOENT);
    assert_int_equal(store_dir("/my/reports", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "/my/reports");
    assert_int_equal(store_dir("", buf, sizeof(buf)), -EINVAL);
    char small[8];
    assert_int_equal(store_dir("/a/long/directory", small, sizeof(small)), -ENAMETOOLONG);
}

static void test_save_name_and_content(void **state)
{
    (void)state;
    char out[1024], path[4608], want[1200], names[1024];
    snprintf(out, sizeof(out), "%s/out", root);
    json_t *d = doc(1);
    assert_int_equal(store_save(d, out, "6.1.0-18-rt-amd64", "after rtirq", when, path, sizeof(path)), 0);
    snprintf(want, sizeof(want), "%s/6.1.0-18-rt-amd64/20240102T030405Z-after_rtirq.json", out);
    assert_string_equal(path, want);
    json_error_t je;
    json_t *back = json_load_file(path, 0, &je);
    assert_non_null(back);
    assert_true(json_equal(back, d));
    json_decref(back);
    /* Only the report in the directory: no temp file left behind. */
    snprintf(want, sizeof(want), "%s/6.1.0-18-rt-amd64", out);
    listing(want, names, sizeof(names));
    assert_string_equal(names, "20240102T030405Z-after_rtirq.json");
    /* The store is private: it names the machine and its boot options. */
    struct stat sb;
    assert_int_equal(stat(want, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
    /* Without a label. */
    assert_int_equal(store_save(d, out, "6.1.0-18-rt-amd64", NULL, when, path, sizeof(path)), 0);
    assert_non_null(strstr(path, "/6.1.0-18-rt-amd64/20240102T030405Z.json"));
    json_decref(d);
}

/* The newest report: the latest start stamp over every release's folder, whatever order the files were written in;
 * hidden and temporary files and other names are no reports; an empty or missing store has none. */
static void test_newest(void **state)
{
    (void)state;
    char out[1024], path[4608], want[1200], other[1200];
    snprintf(out, sizeof(out), "%s/newest", root);
    assert_int_equal(store_newest(out, path, sizeof(path)), -ENOENT); /* no store at all */
    json_t *d = doc(1);
    struct timespec early = { 1704164645, 0 }, late = { 1704164645 + 3600, 0 };
    /* the later run saved first, in another release's folder */
    assert_int_equal(store_save(d, out, "6.1.0-rt", "late", late, want, sizeof(want)), 0);
    assert_int_equal(store_save(d, out, "6.8.0-generic", NULL, early, other, sizeof(other)), 0);
    assert_int_equal(store_newest(out, path, sizeof(path)), 0);
    assert_string_equal(path, want);
    /* two in the same second: the second one (.1), whose file changed last */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    assert_int_equal(store_save(d, out, "6.8.0-generic", "x", late, other, sizeof(other)), 0);
    assert_int_equal(store_save(d, out, "6.8.0-generic", "x", late, want, sizeof(want)), 0);
    assert_non_null(strstr(want, "-x.1.json"));
    struct timespec times[2] = { { 0, UTIME_OMIT }, { now.tv_sec + 10, 0 } };
    assert_int_equal(utimensat(AT_FDCWD, want, times, 0), 0);
    assert_int_equal(store_newest(out, path, sizeof(path)), 0);
    assert_string_equal(path, want);
    /* not reports: a hidden file, doc_write's temporary one, another name, a folder named *.json */
    const char *junk[] = { ".99999999T999999Z.json", "99999999T999999Z.json.tmp-1", "99999999T999999Z.txt" };
    for (size_t i = 0; i < 3; i++) {
        snprintf(other, sizeof(other), "%s/6.1.0-rt/%s", out, junk[i]);
        FILE *f = fopen(other, "w");
        assert_non_null(f);
        fclose(f);
    }
    snprintf(other, sizeof(other), "%s/6.1.0-rt/99999999T999999Z-dir.json", out);
    assert_int_equal(mkdir(other, 0700), 0);
    assert_int_equal(store_newest(out, path, sizeof(path)), 0);
    assert_string_equal(path, want);
    json_decref(d);
    /* an empty store (its folders, no report) */
    snprintf(other, sizeof(other), "%s/empty/6.1.0-rt", root);
    assert_int_equal(mkdir_p(other), 0);
    snprintf(other, sizeof(other), "%s/empty", root);
    assert_int_equal(store_newest(other, path, sizeof(path)), -ENOENT);
}

static void test_never_overwrites(void **state)
{
    (void)state;
    char out[1024], path[4608], dir[1200], names[1024];
    snprintf(out, sizeof(out), "%s/same-second", root);
    for (int i = 0; i < 3; i++) {
        json_t *d = doc(i);
        assert_int_equal(store_save(d, out, "6.8.0-lowlatency", "x", when, path, sizeof(path)), 0);
        json_decref(d);
    }
    snprintf(dir, sizeof(dir), "%s/6.8.0-lowlatency", out);
    listing(dir, names, sizeof(names));
    assert_string_equal(names, "20240102T030405Z-x.1.json 20240102T030405Z-x.2.json 20240102T030405Z-x.json");
    /* The first one still holds the first report. */
    char first[1300];
    snprintf(first, sizeof(first), "%s/20240102T030405Z-x.json", dir);
    json_t *back = json_load_file(first, 0, NULL);
    assert_int_equal(json_integer_value(json_object_get(back, "n")), 0);
    json_decref(back);
    /* store_write_json refuses an existing name and leaves it alone. */
    json_t *d = doc(99);
    assert_int_equal(store_write_json(d, first), -EEXIST);
    back = json_load_file(first, 0, NULL);
    assert_int_equal(json_integer_value(json_object_get(back, "n")), 0);
    json_decref(back);
    listing(dir, names, sizeof(names));
    assert_null(strstr(names, "tmp"));
    /* A directory that does not exist: an error, nothing written. */
    char nowhere[1300];
    snprintf(nowhere, sizeof(nowhere), "%s/missing/r.json", root);
    assert_int_equal(store_write_json(d, nowhere), -ENOENT);
    json_decref(d);
}

static void test_concurrent_saves(void **state)
{
    (void)state;
    /* Eight runs finishing in the same second: eight reports, none lost, none torn. */
    char out[1024], dir[1200];
    snprintf(out, sizeof(out), "%s/concurrent", root);
    enum { N = 8 };
    pid_t kids[N];
    for (int i = 0; i < N; i++) {
        kids[i] = fork();
        assert_true(kids[i] >= 0);
        if (kids[i] == 0) {
            char path[4608];
            json_t *d = doc(i);
            _exit(store_save(d, out, "6.6.30-rt30", "live", when, path, sizeof(path)) == 0 ? 0 : 1);
        }
    }
    for (int i = 0; i < N; i++) {
        int st;
        assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    snprintf(dir, sizeof(dir), "%s/6.6.30-rt30", out);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *de;
    int files = 0, seen = 0;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char p[1500];
        snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
        json_t *back = json_load_file(p, 0, NULL);
        assert_non_null(back);
        seen |= 1 << json_integer_value(json_object_get(back, "n"));
        json_decref(back);
        files++;
    }
    closedir(dp);
    assert_int_equal(files, N);
    assert_int_equal(seen, (1 << N) - 1);
}

static void test_hostile_names(void **state)
{
    (void)state;
    char out[1024], path[4608], names[4096];
    snprintf(out, sizeof(out), "%s/hostile", root);
    json_t *d = doc(0);
    /* A release or label can never leave the store or hide a file. */
    assert_int_equal(store_save(d, out, "..", "../../etc/passwd", when, path, sizeof(path)), 0);
    char want[1300];
    snprintf(want, sizeof(want), "%s/unknown/20240102T030405Z-.._.._etc_passwd.json", out);
    assert_string_equal(path, want);
    assert_int_equal(store_save(d, out, "", NULL, when, path, sizeof(path)), 0);
    assert_non_null(strstr(path, "/unknown/20240102T030405Z.json"));
    assert_int_equal(store_save(d, out, "6.1/evil", "a b\nc", when, path, sizeof(path)), 0);
    assert_non_null(strstr(path, "/6.1_evil/20240102T030405Z-a_b_c.json"));
    listing(out, names, sizeof(names));
    assert_string_equal(names, "6.1_evil unknown");
    /* A long label is cut, a long release is not. */
    char label[200], rel[70];
    memset(label, 'L', sizeof(label) - 1);
    label[sizeof(label) - 1] = '\0';
    memset(rel, 'r', sizeof(rel) - 1);
    rel[sizeof(rel) - 1] = '\0';
    assert_int_equal(store_save(d, out, rel, label, when, path, sizeof(path)), 0);
    const char *base = strrchr(path, '/') + 1;
    assert_int_equal(strlen(base), strlen("20240102T030405Z-") + 48 + strlen(".json"));
    assert_non_null(strstr(path, rel));
    /* A path buffer too small for the name: an error, not a truncated name. */
    char small[40];
    assert_int_equal(store_save(d, out, "6.1", NULL, when, small, sizeof(small)), -ENAMETOOLONG);
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_dir),
        cmocka_unit_test(test_save_name_and_content),
        cmocka_unit_test(test_newest),
        cmocka_unit_test(test_never_overwrites),
        cmocka_unit_test(test_concurrent_saves),
        cmocka_unit_test(test_hostile_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
