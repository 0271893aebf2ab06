/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load files through directory descriptors only (see loaddir.h). */
#include "loaddir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 64 /* one descriptor per level: a deeper tree left by a command is not followed further */

int loaddir_check_parent(int fd, const char *path, char *why, size_t len)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        snprintf(why, len, "--tmpdir %s: %s", path, strerror(e));
        return -e;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, len, "--tmpdir %s: not a directory", path);
        return -ENOTDIR;
    }
    uid_t me = geteuid();
    if (st.st_uid != me && st.st_uid != 0) {
        snprintf(why, len, "--tmpdir %s is owned by another user (uid %u), who could replace the load files with "
                 "links: use a directory of your own, or /tmp", path, (unsigned)st.st_uid);
        return -EPERM;
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
        snprintf(why, len, "--tmpdir %s is writable by %s and not sticky: another user could replace the load "
                 "files with links; use a directory of your own, or /tmp", path,
                 st.st_mode & S_IWOTH ? "everyone" : "its group");
        return -EPERM;
    }
    return 0;
}

static int open_ours(int parent, const char *name, int *fd)
{
    int d = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d < 0)
        return -errno;
    struct stat st;
    if (fstat(d, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
        close(d);
        return -EPERM; /* not the directory we just made */
    }
    *fd = d;
    return 0;
}

int loaddir_make_exact(int parent, const char *name, int *fd)
{
    if (mkdirat(parent, name, 0700) < 0)
        return -errno;
    int e = open_ours(parent, name, fd);
    if (e < 0)
        unlinkat(parent, name, AT_REMOVEDIR); /* ours and empty, or not a directory (then this fails) */
    return e;
}

static void random_suffix(char *out)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[6];
    if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
        /* No entropy yet (early boot): the name needs to be unpredictable only to avoid collisions, since
         * mkdirat never reuses an existing entry. */
        static uint64_t x = 0x9e3779b97f4a7c15ull;
        x ^= (uint64_t)getpid() << 17 ^ (uint64_t)(uintptr_t)out;
        for (int i = 0; i < 6; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            r[i] = (unsigned char)x;
        }
    }
    for (int i = 0; i < 6; i++)
        out[i] = set[r[i] % (sizeof(set) - 1)];
    out[6] = '\0';
}

int loaddir_make(int parent, const char *prefix, char *name, size_t namelen, int *fd)
{
    for (int tries = 0; tries < 100; tries++) {
        char sfx[7];
        random_suffix(sfx);
        if ((size_t)snprintf(name, namelen, "%s%s", prefix, sfx) >= namelen)
            return -ENAMETOOLONG;
        int e = loaddir_make_exact(parent, name, fd);
        if (e != -EEXIST)
            return e;
    }
    return -EEXIST;
}

static int empty_at(int fd, dev_t dev, int depth)
{
    int rc = 0;
    /* Entries removed while a directory is read may shift the rest: read it again until a pass removes
     * nothing more. */
    for (int pass = 0, removed = 1; removed && pass < 8; pass++) {
        removed = 0;
        int dfd = dup(fd);
        DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
        if (!d) {
            int e = -errno;
            if (dfd >= 0)
                close(dfd);
            return e;
        }
        rewinddir(d);
        struct dirent *e;
        rc = 0;
        while ((e = readdir(d))) {
            const char *n = e->d_name;
            if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
                continue;
            if (unlinkat(fd, n, 0) == 0) {
                removed = 1;
                continue;
            }
            if (errno == ENOENT)
                continue;
            if (errno != EISDIR && errno != EPERM) {
                rc = rc ? rc : -errno;
                continue;
            }
            struct stat st, st2;
            if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)) {
                rc = rc ? rc : -EPERM;
                continue;
            }
            if (st.st_dev != dev || depth >= MAX_DEPTH) {
                rc = rc ? rc : (st.st_dev != dev ? -EBUSY : -ELOOP);
                continue;
            }
            /* A command may have left a directory without access for its owner: give it back (only our own,
             * finished processes can touch entries here, so it is still the directory just looked at). One we
             * cannot give it back to (not ours, a read-only mount) is not emptied: its error, not a later
             * EACCES from inside it, is the one to report. */
            if ((st.st_mode & 0700) != 0700 && fchmodat(fd, n, 0700, 0) < 0) {
                rc = rc ? rc : -errno;
                continue;
            }
            int sub = openat(fd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) {
                rc = rc ? rc : -errno;
                continue;
            }
            int e2 = fstat(sub, &st2) == 0 && st2.st_dev == st.st_dev && st2.st_ino == st.st_ino
                         ? empty_at(sub, dev, depth + 1) : -EAGAIN;
            close(sub);
            if (e2 == 0 && unlinkat(fd, n, AT_REMOVEDIR) == 0)
                removed = 1;
            else
                rc = rc ? rc : e2 < 0 ? e2 : -errno;
        }
        closedir(d);
    }
    return rc;
}

int loaddir_empty(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -errno;
    return empty_at(fd, st.st_dev, 0);
}

int loaddir_unlink_if_ours(int parent, const char *name, int fd, int rc)
{
    struct stat mine, there;
    if (fstat(fd, &mine) < 0)
        return -errno;
    if (fstatat(parent, name, &there, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? rc : -errno;
    if (there.st_dev != mine.st_dev || there.st_ino != mine.st_ino)
        return rc ? rc : -ESTALE; /* the entry is no longer our directory: leave it */
    if (unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
        return rc ? rc : -errno;
    return rc;
}

int loaddir_remove(int parent, const char *name, int fd)
{
    return loaddir_unlink_if_ours(parent, name, fd, loaddir_empty(fd));
}

int loaddir_tmpfile(int fd, int flags)
{
    int f = openat(fd, ".", flags | O_TMPFILE | O_CLOEXEC, 0600);
    if (f >= 0)
        return f;
    /* Some file systems have no O_TMPFILE: a fresh name, unlinked at once, is as good. */
    for (int tries = 0; tries < 100; tries++) {
        char name[16] = "data.";
        random_suffix(name + 5);
        f = openat(fd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (f >= 0) {
            unlinkat(fd, name, 0);
            return f;
        }
        if (errno != EEXIST)
            return -errno;
    }
    return -EEXIST;
}
