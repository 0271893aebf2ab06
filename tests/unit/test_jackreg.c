/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jack2's server registry (src/util/jackreg.c) on registries this test writes in jack2's layout (common/shm.h: the
 * header, then 8 entries of a pid and "jack-UID:NAME:"): what holds the slots, which names are rtjitter's, the
 * slots jackreg_reclaim frees (only a dead rtjitter server's whose rtjitter is dead, never a live server's, a live
 * rtjitter's or another name's: the bytes of the file say), the command that frees the rest (shell-quoted for
 * another user), and the check `jack_registry` built on it. A dead PID is a child this test forked and reaped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <unistd.h>
#include "checks/checks.h"
#include "util/jackreg.h"

#define HDR 2136
#define ENTRY 264

static int dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    waitpid(p, NULL, 0);
    return (int)p;
}

static void reg_init(unsigned char *b)
{
    memset(b, 0, HDR);
    uint32_t magic = 0x4A41434Bu;
    int32_t hdr_len = HDR;
    memcpy(b, &magic, 4);
    memcpy(b + 16, &hdr_len, 4);
}

static void reg_set(unsigned char *b, int i, int pid, int uid, const char *name)
{
    unsigned char *e = b + 24 + i * ENTRY;
    int32_t p = pid;
    memcpy(e, &p, 4);
    snprintf((char *)e + 4, 257, "jack-%d:%s:", uid, name);
}

static void test_rtjitter_names(void **state)
{
    (void)state;
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-812-0123abcd-server"), 812);
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-812-0123abcd-sweep"), 812);
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-812-server"), 812); /* an older rtjitter's */
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-812"), 0);          /* a client's name, not a server's */
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-812-0123ABCD-server"), 0);
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-812-../../etc"), 0);
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-0-server"), 0);
    assert_int_equal(jackreg_rtjitter_pid("rtjitter--server"), 0);
    assert_int_equal(jackreg_rtjitter_pid("rtjt-safety-1-server"), 0);
    assert_int_equal(jackreg_rtjitter_pid("rtjitter-99999999-server"), 0);
}

static void test_parse_describe_command(void **state)
{
    (void)state;
    unsigned char b[HDR];
    int dead = dead_pid(), me = (int)getpid(), uid = (int)getuid();
    reg_init(b);
    reg_set(b, 0, dead, uid, "rtjt-safety-1-a");
    reg_set(b, 2, me, uid, "live-one");
    reg_set(b, 5, dead, 1234, "rtjt-safety-1-b");
    reg_set(b, 7, dead, uid, "odd;name");
    struct jackreg r;
    assert_int_equal(jackreg_parse(b, sizeof(b), NULL, NULL, &r), 0);
    assert_int_equal(r.held, 4);
    assert_int_equal(r.dead, 3);
    assert_int_equal(r.slot[1].index, 2);
    assert_true(r.slot[1].alive);
    assert_string_equal(r.slot[2].name, "rtjt-safety-1-b");
    assert_int_equal(r.slot[2].uid, 1234);
    char who[600], want[600], cmd[1200];
    jackreg_describe(&r, who, sizeof(who));
    snprintf(want, sizeof(want), "4 of 8 held: dead rtjt-safety-1-a (uid %d, pid %d), rtjt-safety-1-b (uid 1234, "
             "pid %d), odd;name (uid %d, pid %d); live live-one (uid %d, pid %d)", uid, dead, dead, uid, dead, uid, me);
    assert_string_equal(who, want);
    jackreg_free_command(&r, uid, cmd, sizeof(cmd));
    snprintf(want, sizeof(want), "for n in rtjt-safety-1-a; do jackd -n \"$n\" -d dummy >/dev/null 2>&1 & jack_wait -s "
             "\"$n\" -w -t 10 >/dev/null; kill $!; wait $!; done; %ssetpriv --reuid=1234 --regid=1234 --clear-groups "
             "sh -c 'for n in rtjt-safety-1-b; do jackd -n \"$n\" -d dummy >/dev/null 2>&1 & jack_wait -s \"$n\" -w "
             "-t 10 >/dev/null; kill $!; wait $!; done' (1 name with other characters left out)",
             uid == 0 ? "" : "sudo ");
    assert_string_equal(cmd, want);
    char tiny[40];
    jackreg_free_command(&r, uid, tiny, sizeof(tiny));
    assert_string_equal(tiny, ""); /* never cut short */
    /* not jack2's layout: nothing read */
    int32_t bad = 2000;
    memcpy(b + 16, &bad, 4);
    assert_int_equal(jackreg_parse(b, sizeof(b), NULL, NULL, &r), -EINVAL);
    assert_int_equal(jackreg_parse(b, 100, NULL, NULL, &r), -EINVAL);
}

static void test_reclaim(void **state)
{
    (void)state;
    if (semget(0x282929, 0, 0) < 0) {
        skip(); /* no jack2 lock on this machine (no jackd ever ran): nothing to take */
        return;
    }
    unsigned char b[HDR], after[HDR];
    int dead = dead_pid(), dead_rtj = dead_pid(), me = (int)getpid(), uid = (int)getuid();
    char n1[64], n2[64], n3[64], n4[64];
    snprintf(n1, sizeof(n1), "rtjitter-%d-0badf00d-server", dead_rtj); /* freed: both dead */
    snprintf(n2, sizeof(n2), "rtjitter-%d-0badf00d-server", (int)getppid()); /* its rtjitter lives: kept */
    snprintf(n3, sizeof(n3), "rtjitter-%d-0badf00d-sweep", dead_rtj);        /* its server lives: kept */
    snprintf(n4, sizeof(n4), "rtjitter-%d-server", me);                      /* this process's own: freed */
    reg_init(b);
    reg_set(b, 0, dead, uid, n1);
    reg_set(b, 1, dead, uid, n2);
    reg_set(b, 2, me, uid, n3);
    reg_set(b, 3, dead, uid, "rtjt-safety-1-c");  /* not rtjitter's: kept */
    reg_set(b, 4, dead, uid, n4);
    if (getuid() != 0)
        reg_set(b, 5, dead, (int)getuid() + 1, n1); /* another user's: kept */
    char path[] = "/tmp/rtjt-safety-jackreg-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b, sizeof(b)), (ssize_t)sizeof(b));
    close(fd);
    assert_int_equal(jackreg_reclaim(path), 2);
    fd = open(path, O_RDONLY);
    assert_int_equal(read(fd, after, sizeof(after)), (ssize_t)sizeof(after));
    close(fd);
    unlink(path);
    unsigned char zero[ENTRY] = { 0 };
    assert_memory_equal(after + 24, zero, ENTRY);              /* slot 0 freed */
    assert_memory_equal(after + 24 + 4 * ENTRY, zero, ENTRY);  /* slot 4 freed */
    for (int i = 1; i <= 5; i++)
        if (i != 4)
            assert_memory_equal(after + 24 + i * ENTRY, b + 24 + i * ENTRY, ENTRY);
    assert_memory_equal(after, b, 24);                         /* the header untouched */
    assert_int_equal(jackreg_reclaim("/nonexistent/jack-shm-registry"), -ENOENT);
}

/* The check on an identity: status and why. */
static enum check_status judge(const char *setup_json, char *why, size_t n, char *fix, size_t fn)
{
    const struct check *c = NULL;
    for (size_t i = 0; i < checks_count(); i++)
        if (!strcmp(checks_get(i)->id, "jack_registry"))
            c = checks_get(i);
    assert_non_null(c);
    json_t *sys = json_pack("{s:o}", "setup", json_loads(setup_json, 0, NULL));
    struct check_result r;
    check_run(c, sys, &r);
    json_decref(sys);
    snprintf(why, n, "%s", r.why);
    snprintf(fix, fn, "%s", r.fix);
    return r.status;
}

static void test_check(void **state)
{
    (void)state;
    char why[sizeof(((struct check_result *)0)->why)], fix[sizeof(((struct check_result *)0)->fix)];
    assert_int_equal(judge("{\"jack_registry\": null}", why, sizeof(why), fix, sizeof(fix)), CHECK_SKIP);
    assert_int_equal(judge("{\"jack_registry\": {\"present\": false}}", why, sizeof(why), fix, sizeof(fix)), CHECK_OK);
    assert_non_null(strstr(why, "all 8 server slots are free"));
    assert_int_equal(judge("{\"jack_registry\": {\"present\": true, \"held\": 2, \"dead\": 0, \"describe\": \"2 of 8 "
                           "held: none dead; live a (uid 0, pid 1), b (uid 0, pid 2)\", \"free_command\": \"\"}}",
                           why, sizeof(why), fix, sizeof(fix)), CHECK_OK);
    assert_non_null(strstr(why, ": 6 free"));
    assert_int_equal(judge("{\"jack_registry\": {\"present\": true, \"held\": 3, \"dead\": 1, \"freed\": 2, "
                           "\"describe\": \"3 of 8 held: dead x (uid 0, pid 9)\", \"free_command\": \"for n in x; do "
                           "...; done\"}}", why, sizeof(why), fix, sizeof(fix)), CHECK_WARN);
    assert_non_null(strstr(why, "2 held by dead rtjitter servers were freed first"));
    assert_non_null(strstr(fix, "for n in x; do ...; done"));
    assert_int_equal(judge("{\"jack_registry\": {\"present\": true, \"held\": 8, \"dead\": 0, \"describe\": \"8 of 8 "
                           "held: none dead; live ...\", \"free_command\": \"\"}}", why, sizeof(why), fix, sizeof(fix)),
                     CHECK_FAIL);
    assert_non_null(strstr(why, "Too many servers already active"));
    assert_non_null(strstr(fix, "stop one of the live servers"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rtjitter_names),
        cmocka_unit_test(test_parse_describe_command),
        cmocka_unit_test(test_reclaim),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
