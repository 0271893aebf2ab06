/* SPDX-License-Identifier: GPL-2.0-or-later */
/* For the load tests: the processes a test's loads started, found by a marker in their environment (the test sets
 * g_mark, e.g. "RTJT_MARK=<pid>", in its own environment before starting a plan; a zombie shows an empty one). */
#ifndef RTJ_TEST_LOAD_MARKS_H
#define RTJ_TEST_LOAD_MARKS_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rtclock.h"

static char g_mark[64];

/* From main(), first: /proc/PID/environ shows the environment a process was exec'd with, so set the marker and
 * exec this test again; the supervisor and the loads (forked, never exec'd) then carry it where the scan sees it.
 * Returns only in the re-exec'd test, with g_mark set (or 1 when the exec failed: main returns it). */
static int load_marks_init(char **argv, const char *test)
{
    if (!getenv("RTJ_TEST_MARK")) {
        char mark[64];
        snprintf(mark, sizeof(mark), "%s-%d", test, (int)getpid());
        setenv("RTJ_TEST_MARK", mark, 1);
        execv("/proc/self/exe", argv);
        return 1;
    }
    snprintf(g_mark, sizeof(g_mark), "RTJ_TEST_MARK=%s", getenv("RTJ_TEST_MARK"));
    return 0;
}

/* Live processes other than this one that carry g_mark in their environment. */
static int marked_processes(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    char path[300];
    static char buf[1 << 17];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
            continue;
        snprintf(path, sizeof(path), "/proc/%s/environ", e->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[len] = '\0';
        for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
            if (strcmp(buf + i, g_mark) == 0) {
                n++;
                break;
            }
    }
    if (d)
        closedir(d);
    return n;
}

/* Waits up to secs for the marked processes to be at most max; returns how many there were last. */
static inline int marked_within(int max, double secs)
{
    double end = mono_s() + secs;
    int n;
    while ((n = marked_processes()) > max && mono_s() < end)
        mono_nap_ms(50);
    return n;
}

#endif
