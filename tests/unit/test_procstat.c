/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/stat split into its fields (src/util/procstat.c), against what the kernel and libc say otherwise: this
 * process's parent (getppid), session (getsid), a thread whose name holds ") (" and spaces, a child stopped by
 * SIGSTOP and continued, and a process that is gone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/procstat.h"

static void test_self(void **state)
{
    (void)state;
    struct proc_stat ps;
    assert_int_equal(proc_stat_pid(getpid(), &ps), 0);
    assert_int_equal(ps.ppid, getppid());
    assert_int_equal(ps.session, getsid(0));
    assert_int_equal(ps.pgrp, getpgrp());
    assert_int_equal(ps.state, 'R'); /* reading its own stat, it runs */
    assert_true(ps.starttime > 0);
    assert_true(ps.have_sched);
    assert_int_equal(proc_start_ticks(getpid()), ps.starttime);
    assert_false(proc_stopped(getpid()));
}

static void *idle_thread(void *arg)
{
    (void)arg;
    pause();
    return NULL;
}

/* A name with ") (" and spaces: the fields follow the last ')'. */
static void test_name_with_parentheses(void **state)
{
    (void)state;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, idle_thread, NULL), 0);
    assert_int_equal(pthread_setname_np(t, "a) (b ) S 1"), 0);
    char path[96];
    pid_t tid = 0; /* the thread's id: the entry of /proc/PID/task that is not this thread */
    struct proc_stat me;
    assert_int_equal(proc_stat_pid(getpid(), &me), 0);
    char line[64];
    snprintf(path, sizeof(path), "/proc/%d/task", (int)getpid());
    FILE *ls;
    char cmd[160];
    snprintf(cmd, sizeof(cmd), "ls %s", path);
    ls = popen(cmd, "r");
    assert_non_null(ls);
    while (fgets(line, sizeof(line), ls))
        if (atoi(line) != getpid())
            tid = atoi(line);
    pclose(ls);
    assert_true(tid > 0);
    snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)getpid(), (int)tid);
    struct proc_stat ps;
    assert_int_equal(proc_stat_read(path, &ps), 0);
    assert_string_equal(ps.comm, "a) (b ) S 1");
    assert_int_equal(ps.state, 'S');
    assert_int_equal(ps.ppid, me.ppid);
    assert_int_equal(ps.starttime >= me.starttime, 1);
    pthread_cancel(t);
    pthread_join(t, NULL);
}

static void test_stopped_child(void **state)
{
    (void)state;
    pid_t c = fork();
    assert_true(c >= 0);
    if (c == 0) {
        pause();
        _exit(0);
    }
    struct proc_stat ps;
    assert_int_equal(proc_stat_pid(c, &ps), 0);
    assert_int_equal(ps.ppid, getpid());
    assert_false(proc_stopped(c));
    kill(c, SIGSTOP);
    int st;
    assert_int_equal(waitpid(c, &st, WUNTRACED), c); /* the kernel says it stopped: then /proc must too */
    assert_true(WIFSTOPPED(st));
    assert_true(proc_stopped(c));
    kill(c, SIGCONT);
    assert_int_equal(waitpid(c, &st, WCONTINUED), c);
    assert_false(proc_stopped(c));
    unsigned long long start = proc_start_ticks(c);
    assert_true(start > 0);
    kill(c, SIGKILL);
    waitpid(c, &st, 0);
    assert_int_equal(proc_start_ticks(c), 0); /* gone */
    assert_true(proc_stat_pid(c, &ps) < 0);
    assert_false(proc_stopped(c));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self),
        cmocka_unit_test(test_name_with_parentheses),
        cmocka_unit_test(test_stopped_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
