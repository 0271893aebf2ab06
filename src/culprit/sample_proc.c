/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit sampler's parsers: /proc/interrupts and /proc/softirqs (one table shape), /proc/stat's steal,
 * schedstat, PSI, a task's stat and status. They take text already read (with its length, not NUL-terminated) and
 * must survive any bytes: a truncated, malformed, huge or non-UTF-8 file gives fewer rows, never a crash. Every
 * index is checked against the length; numbers that overflow saturate. The sampler thread only (never RT). */
#include "culprit/engine_internal.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include "util/textscan.h"

/* The header's columns: tokens "CPUn". */
static int header_columns(const char *b, size_t end)
{
    int n = 0;
    for (size_t i = scan_skip_blank(b, end, 0); i < end;) {
        size_t j = i;
        while (j < end && b[j] != ' ' && b[j] != '\t')
            j++;
        if (j - i > 3 && memcmp(b + i, "CPU", 3) == 0)
            n++;
        i = scan_skip_blank(b, end, j);
    }
    return n;
}

/* One row "LABEL: n n n ... rest". */
static void table_row(const char *b, size_t i, size_t end, int ncol, uint64_t *v, ce_row_fn fn, void *ctx)
{
    i = scan_skip_blank(b, end, i);
    const char *colon = memchr(b + i, ':', end - i);
    if (!colon || colon == b + i)
        return;
    char label[16];
    size_t ll = (size_t)(colon - (b + i));
    if (ll >= sizeof label)
        ll = sizeof label - 1;
    memcpy(label, b + i, ll);
    label[ll] = '\0';
    size_t j = (size_t)(colon - b) + 1;
    int n = 0;
    for (;;) {
        size_t k = scan_skip_blank(b, end, j);
        size_t after = scan_read_u64(b, end, k, &v[n < CE_CPUS_MAX ? n : CE_CPUS_MAX - 1]);
        if (after == k || (after < end && b[after] != ' ' && b[after] != '\t'))
            break;
        j = after;
        if (++n >= ncol || n >= CE_CPUS_MAX)
            break;
    }
    char rest[64];
    size_t k = scan_skip_blank(b, end, j), rl = end - k;
    if (rl >= sizeof rest)
        rl = sizeof rest - 1;
    memcpy(rest, b + k, rl);
    rest[rl] = '\0';
    for (size_t x = 0; x < rl; x++)
        if ((unsigned char)rest[x] < 0x20)
            rest[x] = ' ';
    fn(ctx, label, v, n, rest);
}

int ce_parse_table(const char *b, size_t len, ce_row_fn fn, void *ctx)
{
    if (!b || len == 0)
        return -1;
    size_t end = scan_line_end(b, len, 0);
    int ncol = header_columns(b, end);
    if (ncol <= 0)
        return -1;
    if (ncol > CE_CPUS_MAX)
        ncol = CE_CPUS_MAX;
    uint64_t *v = malloc(sizeof *v * CE_CPUS_MAX);
    if (!v)
        return -1;
    for (size_t i = end + 1; i < len; i = end + 1) {
        end = scan_line_end(b, len, i);
        table_row(b, i, end, ncol, v, fn, ctx);
    }
    free(v);
    return ncol;
}

/* "cpuN user nice system idle iowait irq softirq steal ...": steal is the 8th number. */
int ce_parse_stat_steal(const char *b, size_t len, void (*fn)(void *, int, uint64_t), void *ctx)
{
    int rows = 0;
    for (size_t i = 0, end; b && i < len; i = end + 1) {
        end = scan_line_end(b, len, i);
        if (end - i < 4 || memcmp(b + i, "cpu", 3) != 0 || !isdigit((unsigned char)b[i + 3]))
            continue;
        uint64_t cpu, v = 0;
        size_t j = scan_read_u64(b, end, i + 3, &cpu);
        int k = 0;
        for (; k < 8; k++) {
            size_t s = scan_skip_blank(b, end, j);
            size_t a = scan_read_u64(b, end, s, &v);
            if (a == s)
                break;
            j = a;
        }
        if (k == 8 && cpu < CE_CPUS_MAX) {
            fn(ctx, (int)cpu, v);
            rows++;
        }
    }
    return rows;
}

/* "RUN_NS DELAY_NS SLICES". */
int ce_parse_schedstat(const char *b, size_t len, int64_t *run_ns, int64_t *delay_ns)
{
    if (!b)
        return -1;
    size_t end = scan_line_end(b, len, 0);
    uint64_t r, d;
    size_t i = scan_read_u64(b, end, scan_skip_blank(b, end, 0), &r);
    size_t s = scan_skip_blank(b, end, i);
    if (i == 0 || s == i)
        return -1;
    if (scan_read_u64(b, end, s, &d) == s)
        return -1;
    *run_ns = r > INT64_MAX ? INT64_MAX : (int64_t)r;
    *delay_ns = d > INT64_MAX ? INT64_MAX : (int64_t)d;
    return 0;
}

/* "some avg10=... total=N" (µs). */
int ce_parse_psi_some(const char *b, size_t len, int64_t *total_us)
{
    if (!b)
        return -1;
    size_t end = scan_line_end(b, len, 0);
    if (end < 5 || memcmp(b, "some ", 5) != 0)
        return -1;
    for (size_t i = 5; i + 6 <= end; i++)
        if (memcmp(b + i, "total=", 6) == 0) {
            uint64_t v;
            if (scan_read_u64(b, end, i + 6, &v) == i + 6)
                return -1;
            *total_us = v > INT64_MAX ? INT64_MAX : (int64_t)v;
            return 0;
        }
    return -1;
}

/* "PID (COMM) S f4 ... f39 processor f40 rt_priority f41 policy": comm may hold spaces and ')' (the last ')'
 * ends it). */
int ce_parse_task_stat(const char *b, size_t len, struct ce_task_stat *out)
{
    if (!b || len == 0)
        return -1;
    size_t end = scan_line_end(b, len, 0);
    const char *open = memchr(b, '(', end), *close = NULL;
    for (size_t i = end; i-- > 0;)
        if (b[i] == ')') {
            close = b + i;
            break;
        }
    if (!open || !close || close < open)
        return -1;
    size_t cl = (size_t)(close - open - 1);
    if (cl >= sizeof out->comm)
        cl = sizeof out->comm - 1;
    memcpy(out->comm, open + 1, cl);
    out->comm[cl] = '\0';
    /* fields from 3 (state) on, space-separated; 39..41 are what we want */
    size_t i = (size_t)(close - b) + 1;
    uint64_t v[42] = {0};
    int field = 2;
    while (i < end && field < 41) {
        i = scan_skip_blank(b, end, i);
        if (i >= end)
            break;
        field++;
        size_t a = scan_read_u64(b, end, i, &v[field]);
        while (a < end && b[a] != ' ')
            a++;
        i = a;
    }
    if (field < 41)
        return -1;
    out->processor = v[39] > CE_CPUS_MAX ? -1 : (int)v[39];
    out->rt_priority = v[40] > 99 ? 99 : (int)v[40];
    out->policy = v[41] > 7 ? 0 : (int)v[41];
    out->kthread = (v[9] & 0x00200000u) != 0; /* PF_KTHREAD */
    return 0;
}

/* "0-3,8,10-11" into mask bits (maxcpu bits). */
int ce_parse_cpulist(const char *s, uint64_t *mask, int maxcpu)
{
    int n = 0;
    size_t end = strlen(s), i = 0;
    while (i < end) {
        uint64_t a, b;
        size_t j = scan_read_u64(s, end, i, &a);
        if (j == i)
            return -1;
        b = a;
        if (j < end && s[j] == '-') {
            size_t k = scan_read_u64(s, end, j + 1, &b);
            if (k == j + 1 || b < a)
                return -1;
            j = k;
        }
        for (uint64_t c = a; c <= b && c < (uint64_t)maxcpu; c++, n++)
            mask[c / 64] |= 1ull << (c % 64);
        if (j < end && s[j] != ',' && s[j] != '\n')
            return -1;
        i = j + 1;
        if (j < end && s[j] == '\n')
            break;
    }
    return n;
}

/* status's "Cpus_allowed_list:\t0-3". */
int ce_parse_allowed(const char *b, size_t len, uint64_t *mask, int maxcpu)
{
    static const char key[] = "Cpus_allowed_list:";
    for (size_t i = 0, end; b && i < len; i = end + 1) {
        end = scan_line_end(b, len, i);
        if (end - i > sizeof key && memcmp(b + i, key, sizeof key - 1) == 0) {
            char list[256];
            size_t s = scan_skip_blank(b, end, i + sizeof key - 1), l = end - s;
            if (l >= sizeof list)
                l = sizeof list - 1;
            memcpy(list, b + s, l);
            list[l] = '\0';
            return ce_parse_cpulist(list, mask, maxcpu);
        }
    }
    return -1;
}

/* Reads fd whole into b from where it is (grown up to CE_FILE_MAX; beyond, truncated and said so). /proc files have
 * no size: read until EOF. */
/* Reads fd whole from its start (pread: no seek first). one_read: a read that returns less than asked is the end
 * (no second read to see 0): true of /proc's single-record files (stat, softirqs, pressure, a task's stat and
 * schedstat: the kernel makes the whole text and hands out as much as asked) and of sysfs attributes (a page at most,
 * in one read), not of /proc/interrupts, a seq_file of a record a line that hands out a page at a time. A tick's
 * files read in one call each, not three (strace timed 4-7 us a read in this VM). */
static int read_whole_at(struct ce_buf *b, int fd, bool one_read)
{
    b->len = 0;
    b->truncated = false;
    for (;;) {
        if (b->len + 4096 > b->cap) {
            if (b->cap >= CE_FILE_MAX) {
                b->truncated = true;
                break;
            }
            size_t nc = b->cap ? b->cap * 2 : 16384;
            char *p = realloc(b->p, nc + 1);
            if (!p)
                break;
            b->p = p;
            b->cap = nc;
        }
        size_t want = b->cap - b->len;
        ssize_t r = pread(fd, b->p + b->len, want, (off_t)b->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r < 0 && b->len == 0)
                return -errno;
            break;
        }
        b->len += (size_t)r;
        if (one_read && (size_t)r < want)
            break;
    }
    if (b->p)
        b->p[b->len] = '\0';
    return b->p ? 0 : -ENOMEM;
}

static int read_whole(struct ce_buf *b, int fd)
{
    return read_whole_at(b, fd, false);
}

/* Whether a short read of this /proc or /sys file is its end (read_whole_at): all but /proc/interrupts. */
static bool one_read(const char *path)
{
    const char *base = strrchr(path, '/');
    return strcmp(base ? base + 1 : path, "interrupts") != 0;
}

static int open_ro(const char *path)
{
    return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

/* Reads path whole into b. */
int ce_read(struct ce_buf *b, const char *path)
{
    int fd = open_ro(path);
    if (fd < 0)
        return -errno;
    int r = read_whole(b, fd);
    close(fd);
    return r;
}

/* Keeps fd open (stored as fd + 1 in *kept) when it is of /proc or /sys, whose text a read from the start makes anew,
 * and while the process has room for it; a file elsewhere (the unit tests' fixture trees, rewritten by renaming) is
 * opened at each read as before. */
static void keep_fd(int fd, int *kept)
{
    struct statfs f;
    if (fd < CE_KEPT_FD_MAX && fstatfs(fd, &f) == 0 && (f.f_type == PROC_SUPER_MAGIC || f.f_type == SYSFS_MAGIC))
        *kept = fd + 1;
    else
        close(fd);
}

int ce_read_fd(struct ce_buf *b, int *kept, const char *path)
{
    if (*kept > 0) {
        int fd = *kept - 1;
        int r = read_whole_at(b, fd, one_read(path));
        if (r == 0)
            return 0;
        close(fd); /* gone (the task ended) or failing: opened by its path again, as a read without it would */
        *kept = 0;
    }
    int fd = open_ro(path);
    if (fd < 0)
        return -errno;
    int r = read_whole(b, fd);
    if (r == 0)
        keep_fd(fd, kept);
    else
        close(fd);
    return r;
}

void ce_fd_close(int *kept)
{
    if (*kept > 0)
        close(*kept - 1);
    *kept = 0;
}

int ce_read_kept(struct culprit_engine *e, const char *path)
{
    size_t n = strlen(path);
    struct ce_file *free_slot = NULL;
    for (int i = 0; n < sizeof e->files[0].path && i < CE_FILES_MAX; i++) {
        struct ce_file *f = &e->files[i];
        if (f->kept > 0 && strcmp(f->path, path) == 0)
            return ce_read_fd(&e->buf, &f->kept, path);
        if (f->kept == 0 && !free_slot)
            free_slot = f;
    }
    if (!free_slot || n >= sizeof free_slot->path)
        return ce_read(&e->buf, path);
    memcpy(free_slot->path, path, n + 1);
    return ce_read_fd(&e->buf, &free_slot->kept, path);
}

void ce_buf_free(struct ce_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->cap = b->len = 0;
}
