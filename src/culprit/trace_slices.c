/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace's slices ring (trace_slices.h). Not RT-safe: the engine's sampler thread puts, the caller saves. */
#include "culprit/trace_slices.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct slice {
    int seq, cpu, lines, truncated;
    int64_t t0_ns, t1_ns;
    char *text;
    size_t len;
};

struct trace_slices {
    pthread_mutex_t lock;
    atomic_int refs;
    int taken, kept;                  /* slices made, and how many of them the ring holds */
    struct slice s[TRACE_SLICES_MAX]; /* a ring: slice k at s[k % TRACE_SLICES_MAX] */
};

struct trace_slices *trace_slices_new(void)
{
    struct trace_slices *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->refs, 1);
    return s;
}

struct trace_slices *trace_slices_ref(struct trace_slices *s)
{
    atomic_fetch_add(&s->refs, 1);
    return s;
}

void trace_slices_unref(struct trace_slices *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    for (int i = 0; i < TRACE_SLICES_MAX; i++)
        free(s->s[i].text);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void trace_slices_put(struct trace_slices *s, int cpu, int64_t t0_ns, int64_t t1_ns, const char *text, size_t len,
                      size_t body_at, int truncated)
{
    int lines = 0;
    for (size_t i = body_at; i < len; i++)
        lines += text[i] == '\n';
    char *copy = malloc(len + 1); /* the ring holds what was taken, at its length */
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = 0;
    pthread_mutex_lock(&s->lock);
    struct slice *sl = &s->s[s->taken % TRACE_SLICES_MAX];
    free(sl->text);
    *sl = (struct slice){ .seq = ++s->taken, .cpu = cpu, .lines = lines, .truncated = truncated, .t0_ns = t0_ns,
                          .t1_ns = t1_ns, .text = copy, .len = len };
    if (s->kept < TRACE_SLICES_MAX)
        s->kept++;
    pthread_mutex_unlock(&s->lock);
}

static void slice_name(char *buf, size_t len, const struct slice *sl)
{
    if (sl->cpu >= 0)
        snprintf(buf, len, "trace-%02d-cpu%d.txt", sl->seq, sl->cpu);
    else
        snprintf(buf, len, "trace-%02d-all.txt", sl->seq);
}

int trace_slices_list(struct trace_slices *s, json_t *list)
{
    pthread_mutex_lock(&s->lock);
    for (int k = s->taken - s->kept; k < s->taken; k++) {
        const struct slice *x = &s->s[k % TRACE_SLICES_MAX];
        char name[64];
        slice_name(name, sizeof(name), x);
        json_array_append_new(list, json_pack("{s:s, s:I, s:I, s:i, s:i, s:b}", "file", name, "t0_ns",
                                              (json_int_t)x->t0_ns, "t1_ns", (json_int_t)x->t1_ns, "cpu", x->cpu,
                                              "lines", x->lines, "truncated", x->truncated));
    }
    int dropped = s->taken - s->kept;
    pthread_mutex_unlock(&s->lock);
    return dropped;
}

int trace_slices_save(struct trace_slices *s, const char *dir, char *err, size_t errlen)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -errno;
    }
    int n = 0, e = 0;
    pthread_mutex_lock(&s->lock);
    for (int k = s->taken - s->kept; k < s->taken && !e; k++) {
        const struct slice *sl = &s->s[k % TRACE_SLICES_MAX];
        char name[64];
        slice_name(name, sizeof(name), sl);
        int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, sl->text, sl->len) != (ssize_t)sl->len) {
            e = -errno;
            snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
        } else {
            n++;
        }
        if (fd >= 0 && close(fd) < 0 && !e)
            e = -errno;
    }
    pthread_mutex_unlock(&s->lock);
    close(dfd);
    return e ? e : n;
}
