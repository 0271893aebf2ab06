/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the loads. Everything here runs in a load's child process unless said otherwise. */
#include "load.h"
#include "rtclock.h"
#include "loaddir.h"
#include "memavail.h"
#include "util/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void load_fail(struct load_child *c, const char *fmt, ...)
{
    if (atomic_load(&c->shared->failed))
        return; /* the first reason is the one that matters */
    char why[1024]; /* the whole message, then fitted: a long path in it keeps the reason at its end */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    utf8_fit(c->shared->error, sizeof(c->shared->error), why);
    atomic_store(&c->shared->failed, 1);
}

void load_count(struct load_child *c, int i, uint64_t n)
{
    atomic_fetch_add_explicit(&c->shared->count[i], n, memory_order_relaxed);
}

int load_online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int64_t load_now_ns(void)
{
    return mono_ns();
}

void load_sleep_until_ns(int64_t t_ns)
{
    struct timespec ts = { (time_t)(t_ns / 1000000000), (long)(t_ns % 1000000000) };
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

int64_t load_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int load_mem_available(uint64_t *bytes)
{
    uint64_t total;
    return mem_available_at("", bytes, &total);
}

int load_mem_total(uint64_t *bytes)
{
    uint64_t avail;
    return mem_available_at("", &avail, bytes);
}

int load_tmpfile(int dirfd, int flags) { return loaddir_tmpfile(dirfd, flags); }

int load_thread(void *(*fn)(void *), void *arg)
{
    pthread_attr_t a;
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 128 * 1024);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int e = pthread_create(&t, &a, fn, arg);
    pthread_attr_destroy(&a);
    return -e;
}

int load_metric_set(struct load_metric *m, const char *load, const char *what, double value, const char *unit)
{
    snprintf(m->name, sizeof(m->name), "%s.%s", load, what);
    m->value = value;
    snprintf(m->unit, sizeof(m->unit), "%s", unit);
    return 1;
}

void load_last_line_fd(int fd, char *out, size_t len)
{
    int dfd = dup(fd);
    FILE *f = dfd >= 0 ? fdopen(dfd, "re") : NULL;
    if (!f) {
        if (dfd >= 0)
            close(dfd);
        return;
    }
    rewind(f);
    /* Whole lines, however long (a line longer than a buffer would leave its last piece as "the last line");
     * each kept with its start and its end, where a tool says why. */
    char last[1024] = "", urgent[1024] = "", *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        utf8_fit(last, sizeof(last), line);
        if (strstr(line, "No space left on device") || strstr(line, "Disk quota exceeded"))
            utf8_fit(urgent, sizeof(urgent), line);
    }
    free(line);
    fclose(f);
    if (urgent[0] || last[0])
        utf8_fit(out, len, urgent[0] ? urgent : last); /* a tool's last words end with their reason */
}

void load_last_line(int dirfd, const char *name, char *out, size_t len)
{
    int fd = dirfd >= 0 ? openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd < 0)
        return;
    load_last_line_fd(fd, out, len);
    close(fd);
}
