/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Leftovers of dead runs, proven dead by a lock nobody holds: see leftover.h. */
#include "util/leftover.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int same(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int leftover_hold(int dirfd, const char *name, int fd)
{
    struct stat a, b;
    if (flock(fd, LOCK_EX | LOCK_NB) < 0)
        return errno == EWOULDBLOCK ? -EAGAIN : -errno;
    /* Locked: still the entry under that name? (A sweeper may have removed it before the lock was taken.) */
    if (fstat(fd, &a) < 0 || fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) < 0 || !same(&a, &b) || a.st_nlink == 0)
        return -EAGAIN;
    return 0;
}

/* One entry: removed when ours, of the kind its name says, and unlocked. 1 when it went, else 0. */
static int sweep_one(int dirfd, const char *name, enum leftover_kind kind,
                     int (*remove_dir)(int parent, const char *name, int fd))
{
    struct stat st, fst;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_uid != geteuid())
        return 0;
    if (kind == LEFTOVER_FILE ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode) || !remove_dir)
        return 0;
    /* O_NONBLOCK: a file swapped for a FIFO since the look above does not hang the open. */
    int fd = openat(dirfd, name, kind == LEFTOVER_FILE ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
                                                       : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int gone = 0;
    if (fstat(fd, &fst) == 0 && same(&st, &fst) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && same(&st, &fst)) {
        /* Nobody holds it: its run is dead. Held while it goes, so that an owner racing for the name loses. */
        if (kind == LEFTOVER_FILE)
            gone = unlinkat(dirfd, name, 0) == 0;
        else
            gone = remove_dir(dirfd, name, fd) == 0;
    }
    close(fd);
    return gone;
}

int leftover_sweep(int dirfd, enum leftover_kind (*match)(const char *name),
                   int (*remove_dir)(int parent, const char *name, int fd),
                   void (*removed)(const char *name, void *arg), void *arg)
{
    int dfd = dup(dirfd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        int e = -errno;
        if (dfd >= 0)
            close(dfd);
        return e;
    }
    rewinddir(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        enum leftover_kind k = match(de->d_name);
        if (k != LEFTOVER_NONE && sweep_one(dirfd, de->d_name, k, remove_dir)) {
            n++;
            if (removed)
                removed(de->d_name, arg);
        }
    }
    closedir(d);
    return n;
}
