/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JACK server log source (src/culprit/src_jacklog.c) on files this test writes: the lines of one stall folded
 * into one observation with their count, a line written in two parts, a truncated and a rotated log, a line of a
 * megabyte, random bytes and invalid UTF-8 (never a crash, names always valid UTF-8), a FIFO and a directory
 * refused at open, jackdbus's coloured and timestamped lines, and jackdbus's log path. The truth is what the test
 * wrote. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "culprit/src_jacklog.h"
#include "util/utf8.h"

#define PENDING_TEST_MAX 64
#define XRUN(name) "JackEngine::XRun: client = " name " was not finished, state = Running\n" \
                   "JackAudioDriver::ProcessGraphAsyncMaster: Process error\n"

static char dir[64], path[256];
static int64_t base; /* the clock when the source opened + 100 ms: polls are placed after it (read at setup, a stall
                      * of this VM between setup and the open put the open after P(0): ci50) */
#define P(ms) (base + (int64_t)(ms) * 1000000)

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/rtjt-jacklog.XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/jackd.log", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("jackdmp 1.9.21\nJACK server starting in realtime mode with priority 10\n", f);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[160];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void append(const char *p, const char *text, size_t n)
{
    int fd = open(p, O_WRONLY | O_APPEND | O_CREAT, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
}
#define APPEND(s) append(path, s, strlen(s))

static struct culprit_source open_src(int from_start)
{
    struct culprit_source src;
    char err[256] = "";
    assert_int_equal(jacklog_source_open(path, from_start, CLOCK_MONOTONIC, &src, err, sizeof(err)), 0);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    base = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec + 100000000;
    return src;
}

static int poll_at(struct culprit_source *s, int64_t now, struct culprit_obs *o, int max)
{
    return s->poll(s->ctx, now, o, max);
}

static void test_parse(void **state)
{
    (void)state;
    char name[CULPRIT_NAME_MAX];
    long long wall = 0;
    const char *l = "JackEngine::XRun: client = stall was not finished, state = Running";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 1);
    assert_string_equal(name, "stall");
    assert_int_equal(wall, -1);
    l = "JackAudioDriver::ProcessGraphAsyncMaster: Process error";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 0);
    l = "JackEngine::XRun: client = my synth 2 was not finished, state = Running\r\n";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 1);
    assert_string_equal(name, "my synth 2");
    /* the clients waiting on the one running are not its culprits */
    l = "JackEngine::XRun: client = dsp6 was not finished, state = Triggered";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 0);
    l = "JackEngine::XRun: client = dsp7 was not finished, state = NotTriggered";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 0);
    l = "JackEngine::XRun: client = old was not finished"; /* an older jack2: no state */
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 1);
    /* jackdbus: ctime's 24 characters, ": ", and its ERROR lines in bold red */
    l = "Wed Dec  2 20:46:02 2026: \x1b[1m\x1b[31mERROR: JackEngine::XRun: client = stall was not finished, state "
        "= Running\x1b[0m";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 1);
    assert_string_equal(name, "stall");
    struct tm tm = { .tm_year = 126, .tm_mon = 11, .tm_mday = 2, .tm_hour = 20, .tm_min = 46, .tm_sec = 2,
                     .tm_isdst = -1 };
    assert_int_equal(wall, (long long)mktime(&tm));
    /* invalid UTF-8 and a control character in a name become '?' */
    l = "JackEngine::XRun: client = a\xff\xc0\x80\x01z\xe2\x86\x92 was not finished";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 1);
    assert_string_equal(name, "a????z\xe2\x86\x92");
    /* an empty name, and a line cut before its tail, name nobody */
    l = "JackEngine::XRun: client =  was not finished";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 0);
    l = "JackEngine::XRun: client = stall";
    assert_int_equal(jacklog_parse_line(l, strlen(l), name, sizeof(name), &wall), 0);
}

/* Four unfinished cycles read in one poll, one more in the next: one observation of 5, given once no line came for
 * 150 ms; a line after an empty poll still folds (jack2 writes them from a thread of its own: beside stress-ng the
 * lines of one stall were read two polls apart); a later stall is another observation. Old lines are skipped when
 * not reading from the start. */
static void test_fold(void **state)
{
    (void)state;
    APPEND(XRUN("old"));
    struct culprit_source s = open_src(0);
    struct culprit_obs o[8];
    APPEND(XRUN("stall") XRUN("stall") XRUN("stall") XRUN("stall"));
    assert_int_equal(poll_at(&s, P(0), o, 8), 0);
    APPEND(XRUN("stall"));
    assert_int_equal(poll_at(&s, P(50), o, 8), 0);
    assert_int_equal(poll_at(&s, P(100), o, 8), 0);
    assert_int_equal(poll_at(&s, P(200), o, 8), 0);
    assert_int_equal(poll_at(&s, P(250), o, 8), 1);
    assert_int_equal(o[0].kind, CK_CLIENT);
    assert_string_equal(o[0].name, "stall");
    assert_int_equal(o[0].t1_ns, P(50));
    assert_true(o[0].t0_ns <= P(0));
    assert_non_null(strstr(o[0].evidence, "another JACK client did not finish: stall (5 unfinished cycles"));
    APPEND(XRUN("stall"));
    assert_int_equal(poll_at(&s, P(300), o, 8), 0);
    assert_int_equal(poll_at(&s, P(350), o, 8), 0);
    APPEND(XRUN("stall"));
    assert_int_equal(poll_at(&s, P(400), o, 8), 0);
    assert_int_equal(poll_at(&s, P(600), o, 8), 1);
    assert_int_equal(o[0].t0_ns, P(250)); /* written after the poll before the first read */
    assert_int_equal(o[0].t1_ns, P(400));
    assert_non_null(strstr(o[0].evidence, "(2 unfinished cycles in the server's log, written in the 150 ms"));
    APPEND(XRUN("stall"));
    assert_int_equal(poll_at(&s, P(800), o, 8), 0);
    assert_int_equal(poll_at(&s, P(1000), o, 8), 1);
    assert_non_null(strstr(o[0].evidence, "(1 unfinished cycle in the server's log, written in the 200 ms"));
    json_t *j = s.summary(s.ctx);
    assert_int_equal(json_integer_value(json_object_get(j, "unfinished_lines")), 8);
    assert_int_equal(json_integer_value(json_object_get(j, "observations")), 3);
    json_decref(j);
    s.close(s.ctx);
}

static void test_partial_line(void **state)
{
    (void)state;
    struct culprit_source s = open_src(0);
    struct culprit_obs o[4];
    APPEND("JackEngine::XRun: client = sta");
    assert_int_equal(poll_at(&s, P(10 * 20), o, 4), 0);
    assert_int_equal(poll_at(&s, P(20 * 20), o, 4), 0);
    APPEND("ll was not finished, state = Running\n");
    assert_int_equal(poll_at(&s, P(30 * 20), o, 4), 0);
    assert_int_equal(poll_at(&s, P(40 * 20), o, 4), 1);
    assert_string_equal(o[0].name, "stall");
    s.close(s.ctx);
}

static void test_truncate_rotate(void **state)
{
    (void)state;
    struct culprit_source s = open_src(1);
    struct culprit_obs o[4];
    APPEND(XRUN("one") XRUN("one"));
    assert_int_equal(poll_at(&s, P(10 * 20), o, 4), 0);
    assert_int_equal(poll_at(&s, P(20 * 20), o, 4), 1);
    /* truncated (as `> file` does) and written again, shorter than before */
    assert_int_equal(truncate(path, 0), 0);
    APPEND(XRUN("two"));
    assert_int_equal(poll_at(&s, P(30 * 20), o, 4), 0);
    assert_int_equal(poll_at(&s, P(40 * 20), o, 4), 1);
    assert_string_equal(o[0].name, "two");
    /* rotated: a last line in the old file, then a new file under the path */
    APPEND(XRUN("three"));
    char old[300];
    snprintf(old, sizeof(old), "%s.1", path);
    assert_int_equal(rename(path, old), 0);
    APPEND(XRUN("four"));
    assert_int_equal(poll_at(&s, P(50 * 20), o, 4), 0);
    assert_int_equal(poll_at(&s, P(60 * 20), o, 4), 2);
    assert_string_equal(o[0].name, "three");
    assert_string_equal(o[1].name, "four");
    json_t *j = s.summary(s.ctx);
    assert_int_equal(json_integer_value(json_object_get(j, "truncations")), 1);
    assert_int_equal(json_integer_value(json_object_get(j, "rotations")), 1);
    json_decref(j);
    s.close(s.ctx);
}

/* A line of 3 MB (with the XRun text at its start and its end) is skipped whole; the lines around it are read. */
static void test_huge_line(void **state)
{
    (void)state;
    struct culprit_source s = open_src(0);
    struct culprit_obs o[4];
    size_t n = 3 << 20;
    char *big = malloc(n + 1);
    assert_non_null(big);
    memset(big, 'x', n);
    const char *x = "JackEngine::XRun: client = huge was not finished";
    memcpy(big, x, strlen(x));
    memcpy(big + n - strlen(x) - 1, x, strlen(x));
    big[n - 1] = '\n';
    APPEND(XRUN("before"));
    append(path, big, n);
    APPEND(XRUN("after"));
    free(big);
    int got = poll_at(&s, P(10 * 20), o, 4);
    got += poll_at(&s, P(20 * 20), o + got, 4 - got);
    got += poll_at(&s, P(30 * 20), o + got, 4 - got);
    assert_int_equal(got, 2);
    assert_string_equal(o[0].name, "before");
    assert_string_equal(o[1].name, "after");
    json_t *j = s.summary(s.ctx);
    assert_int_equal(json_integer_value(json_object_get(j, "long_lines_skipped")), 1);
    json_decref(j);
    s.close(s.ctx);
}

/* Random bytes, NULs and invalid UTF-8 around the names: no crash, every name and evidence valid UTF-8. */
static void test_garbage(void **state)
{
    (void)state;
    struct culprit_source s = open_src(0);
    struct culprit_obs o[PENDING_TEST_MAX];
    srand(24);
    for (int k = 0; k < 200; k++) {
        char buf[300];
        size_t n = 0;
        n += (size_t)snprintf(buf, sizeof(buf), "JackEngine::XRun: client = ");
        for (int i = 0; i < 40; i++)
            buf[n++] = (char)(rand() & 0xff);
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, " was not finished\n");
        append(path, buf, n);
        for (int i = 0; i < 100; i++)
            buf[i] = (char)(rand() & 0xff);
        append(path, buf, 100);
    }
    int total = 0, got;
    for (int64_t t = 1; t < 100 && (got = poll_at(&s, P(t * 200), o, PENDING_TEST_MAX)) >= 0; t++) {
        for (int i = 0; i < got; i++) {
            assert_true(utf8_valid(o[i].name));
            assert_true(utf8_valid(o[i].evidence));
            assert_null(strchr(o[i].evidence, '\n'));
        }
        total += got;
    }
    assert_true(total > 0);
    s.close(s.ctx);
}

static void test_refused(void **state)
{
    (void)state;
    struct culprit_source s;
    char err[256] = "", fifo[160];
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(jacklog_source_open(fifo, 0, CLOCK_MONOTONIC, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "a FIFO, not a regular file: refused"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(jacklog_source_open(dir, 0, CLOCK_MONOTONIC, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "a directory"));
    snprintf(fifo, sizeof(fifo), "%s/none", dir);
    assert_int_equal(jacklog_source_open(fifo, 0, CLOCK_MONOTONIC, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "No such file"));
}

/* jackdbus's lines carry their second: the observation is placed in it (on the given clock), not at the read. */
static void test_jackdbus(void **state)
{
    (void)state;
    char home[128], p[256];
    snprintf(home, sizeof(home), "%s/home", dir);
    setenv("HOME", home, 1);
    assert_int_equal(jacklog_default_path(p, sizeof(p)), -1);
    snprintf(p, sizeof(p), "%s/.log", home);
    mkdir(home, 0700), mkdir(p, 0700);
    snprintf(p, sizeof(p), "%s/.log/jack", home);
    mkdir(p, 0700);
    snprintf(path, sizeof(path), "%s/.log/jack/jackdbus.log", home);
    APPEND("");
    assert_int_equal(jacklog_default_path(p, sizeof(p)), 0);
    assert_string_equal(p, path);
    struct culprit_source s = open_src(0);
    struct culprit_obs o[4];
    time_t t = time(NULL) - 3;
    char line[300], ct[32];
    ctime_r(&t, ct);
    ct[24] = '\0';
    snprintf(line, sizeof(line), "%s: \x1b[1m\x1b[31mERROR: JackEngine::XRun: client = stall was not finished, "
             "state = Running\x1b[0m\n", ct);
    APPEND(line);
    struct timespec mono, real;
    clock_gettime(CLOCK_MONOTONIC, &mono);
    clock_gettime(CLOCK_REALTIME, &real);
    int64_t now = mono.tv_sec * 1000000000LL + mono.tv_nsec;
    int64_t expect = now - ((int64_t)real.tv_sec - t) * 1000000000LL - real.tv_nsec;
    assert_int_equal(poll_at(&s, now, o, 4), 0);
    assert_int_equal(poll_at(&s, now + 1, o, 4), 1);
    assert_true(llabs(o[0].t0_ns - expect) < 50000000);
    assert_true(llabs(o[0].t1_ns - (expect + 1000000000LL)) < 50000000);
    assert_non_null(strstr(o[0].evidence, "timed to the second"));
    s.close(s.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test_setup_teardown(test_fold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncate_rotate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_huge_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_jackdbus, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
