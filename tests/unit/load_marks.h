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
