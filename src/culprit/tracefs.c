/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs file operations (tracefs.h): the mount, the private instance, its files, and the removal of what a dead
 * rtjitter left behind. Normal-priority threads only (the trace source, `rtjitter diagnose`). */
#include "culprit/tracefs.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, int e, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return e;
}

/* Whether dir is a tracefs root: it has a `trace` file and an `instances` directory. */
static int looks_like_tracefs(const char *dir)
{
    char p[PATH_MAX + 16];
    struct stat st;
    snprintf(p, sizeof(p), "%s/instances", dir);
    if (lstat(p, &st) < 0 || !S_ISDIR(st.st_mode))
        return 0;
    snprintf(p, sizeof(p), "%s/trace", dir);
    return lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The mount points of tracefs (and debugfs's tracing/) from /proc/mounts, /sys/kernel/tracing first. */
static int find_mounted(char *root, size_t len)
{
    FILE *f = fopen("/proc/mounts", "re");
    if (!f)
        return -errno;
    char line[1024], dev[256], dir[PATH_MAX], type[64], best[PATH_MAX + 16] = "";
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%255s %4095s %63s", dev, dir, type) != 3)
            continue;
        char cand[PATH_MAX + 16];
        if (!strcmp(type, "tracefs"))
            snprintf(cand, sizeof(cand), "%s", dir);
        else if (!strcmp(type, "debugfs"))
            snprintf(cand, sizeof(cand), "%s/tracing", dir);
        else
            continue;
        if (strchr(cand, '\\') || !looks_like_tracefs(cand)) /* an escaped name (\040): not ours to guess */
            continue;
        if (!best[0] || !strcmp(cand, "/sys/kernel/tracing"))
            snprintf(best, sizeof(best), "%s", cand);
    }
    fclose(f);
    if (!best[0])
        return -ENOENT;
    if (strlen(best) >= len)
        return -ENAMETOOLONG;
    memcpy(root, best, strlen(best) + 1);
    return 0;
}

int tracefs_locate(struct tracefs *t, const char *given, char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->inst_fd = -1;
    t->guard_fd = -1;
    if (given) {
        if (!looks_like_tracefs(given))
            return fail(err, errlen, -ENOENT, "%s is not a tracefs (no trace file, no instances/)", given);
        snprintf(t->root, sizeof(t->root), "%s", given);
        return 0;
    }
    tracefs_reap_stale(NULL, TRACEFS_RUN_DIR);
    if (find_mounted(t->root, sizeof(t->root)) == 0)
        return 0;
    if (geteuid() != 0)
        return fail(err, errlen, -EPERM, "tracefs is not mounted, and mounting it needs root");
    snprintf(t->mounted, sizeof(t->mounted), "%s/rtjitter-tracefs-%d", TRACEFS_RUN_DIR, (int)getpid());
    if (mkdir(t->mounted, 0700) < 0 && errno != EEXIST) {
        int e = -errno;
        t->mounted[0] = '\0';
        return fail(err, errlen, e, "cannot make a mount point for tracefs in %s: %s", TRACEFS_RUN_DIR, strerror(-e));
    }
    if (mount("nodev", t->mounted, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
        int e = -errno;
        rmdir(t->mounted);
        t->mounted[0] = '\0';
        return fail(err, errlen, e, "cannot mount tracefs: %s", strerror(-e));
    }
    snprintf(t->root, sizeof(t->root), "%s", t->mounted);
    return 0;
}

/* The PID of a name "PREFIXdigits", or 0. */
static int name_pid(const char *name, const char *prefix)
{
    size_t k = strlen(prefix);
    if (strncmp(name, prefix, k) || !name[k])
        return 0;
    long v = 0;
    for (const char *p = name + k; *p; p++) {
        if (!isdigit((unsigned char)*p) || v > 4194304)
            return 0;
        v = v * 10 + (*p - '0');
    }
    return (int)v;
}

static int pid_dead(int pid)
{
    return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
}

/* Each entry of dir "PREFIX<pid>" that is a directory (never a symlink) of a dead PID: rmdir (after umount when
 * unmount is set). */
static int reap_in(const char *dir, const char *prefix, int unmount)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return 0;
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return 0;
    }
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int pid = name_pid(de->d_name, prefix);
        struct stat st;
        if (!pid || pid == getpid() || !pid_dead(pid) ||
            fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
            continue;
        if (unmount) {
            char p[PATH_MAX + 300];
            snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
            umount2(p, UMOUNT_NOFOLLOW | MNT_DETACH);
        }
        if (unlinkat(dfd, de->d_name, AT_REMOVEDIR) == 0)
            n++;
    }
    closedir(d);
    return n;
}

int tracefs_reap_stale(const char *root, const char *run_dir)
{
    int n = 0;
    if (run_dir)
        n += reap_in(run_dir, "rtjitter-tracefs-", 1);
    if (root) {
        char p[PATH_MAX + 16];
        snprintf(p, sizeof(p), "%s/instances", root);
        n += reap_in(p, TRACEFS_INSTANCE_PREFIX, 0);
    }
    return n;
}

int tracefs_instance_open(struct tracefs *t, char *err, size_t errlen)
{
    snprintf(t->name, sizeof(t->name), TRACEFS_INSTANCE_PREFIX "%d", (int)getpid());
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof(dir), "%s/instances", t->root);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return fail(err, errlen, -errno, "%s: %s", dir, strerror(errno));
    int e = 0;
    if (mkdirat(dfd, t->name, 0700) == 0)
        t->made = 1;
    else if (errno != EEXIST) /* EEXIST: a fake tree made by a test (a real one of ours was reaped or is open) */
        e = -errno;
    if (!e && (t->inst_fd = openat(dfd, t->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        e = -errno;
    struct stat st;
    if (!e && fstat(t->inst_fd, &st) == 0) {
        t->inst_dev = st.st_dev;
        t->inst_ino = st.st_ino;
    }
    close(dfd);
    if (e) {
        tracefs_close(t);
        return fail(err, errlen, e, "cannot make the tracefs instance %s/%s: %s", dir, t->name, strerror(-e));
    }
    snprintf(t->inst, sizeof(t->inst), "%s/%s", dir, t->name);
    if (t->made)
        tracefs_guard_start(t); /* no guard: the next open reaps what a SIGKILL left */
    return 0;
}

int tracefs_has(const struct tracefs *t, const char *rel)
{
    struct stat st;
    return t->inst_fd >= 0 && fstatat(t->inst_fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode);
}

int tracefs_write(const struct tracefs *t, const char *rel, const char *val)
{
    if (t->inst_fd < 0)
        return -EBADF;
    int fd = openat(t->inst_fd, rel, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t n = strlen(val);
    ssize_t w = write(fd, val, n);
    int e = w < 0 ? -errno : (size_t)w != n ? -EIO : 0;
    if (close(fd) < 0 && !e)
        e = -errno;
    return e;
}

int tracefs_read(const struct tracefs *t, const char *rel, char **buf, size_t *len, size_t max)
{
    *buf = NULL;
    *len = 0;
    if (t->inst_fd < 0)
        return -EBADF;
    int fd = openat(t->inst_fd, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t cap = 65536, n = 0;
    char *b = malloc(cap + 1);
    int e = b ? 0 : -ENOMEM;
    while (!e) {
        if (n == cap) {
            if (cap >= max) {
                e = -EFBIG;
                break;
            }
            size_t nc = cap * 2 > max ? max : cap * 2;
            char *nb = realloc(b, nc + 1);
            if (!nb) {
                e = -ENOMEM;
                break;
            }
            b = nb, cap = nc;
        }
        ssize_t r = read(fd, b + n, cap - n); /* tracefs text files are produced as they are read: read to EOF */
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            e = -errno;
        else if (r == 0)
            break;
        else
            n += (size_t)r;
    }
    close(fd);
    if (e) {
        free(b);
        return e;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

void tracefs_close(struct tracefs *t)
{
    if (t->inst_fd >= 0)
        close(t->inst_fd); /* before the rmdir: an open file keeps a tracefs instance busy */
    t->inst_fd = -1;
    if (t->made && t->name[0]) {
        char dir[PATH_MAX + 16];
        snprintf(dir, sizeof(dir), "%s/instances", t->root);
        tracefs_instance_remove(dir, t->name, t->inst_dev, t->inst_ino, 0);
    }
    t->made = 0;
    if (t->mounted[0]) {
        umount2(t->mounted, UMOUNT_NOFOLLOW);
        rmdir(t->mounted);
        t->mounted[0] = '\0';
    }
    tracefs_guard_stop(t); /* last: were this process killed in the lines above, the guard would finish them */
}

const char *tracefs_clock_name(clockid_t clock)
{
    return clock == CLOCK_MONOTONIC ? "mono" : clock == CLOCK_MONOTONIC_RAW ? "mono_raw" : NULL;
}

int tracefs_clock_listed(const char *text, const char *name, int *selected)
{
    size_t k = strlen(name);
    *selected = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\n')
            p++;
        int sel = *p == '[';
        const char *w = p + sel;
        size_t n = strcspn(w, " ]\n");
        if (n == k && !strncmp(w, name, k)) {
            *selected = sel;
            return 1;
        }
        p = w + n;
        if (*p == ']')
            p++;
        if (!n && *p)
            p++;
    }
    return 0;
}
