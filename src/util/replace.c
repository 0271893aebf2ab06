/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sticky-directory rule of rename() and unlink(): see replace.h. */
#include "util/replace.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CAP_FOWNER_BIT 3 /* linux/capability.h: CAP_FOWNER */

/* Does this process have CAP_FOWNER in its effective set (root has it, unless dropped)? From /proc/self/status,
 * the kernel's own account; without /proc, root is taken to have it. */
static int have_cap_fowner(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return geteuid() == 0;
    char line[256];
    int have = -1;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "CapEff:", 7) == 0) {
            unsigned long long caps = strtoull(line + 7, NULL, 16);
            have = (caps >> CAP_FOWNER_BIT) & 1;
            break;
        }
    }
    fclose(f);
    return have < 0 ? geteuid() == 0 : have;
}

int replace_allowed(int dirfd, const char *name, char *why, size_t len)
{
    struct stat dst, est;
    if (fstatat(dirfd, name, &est, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? 0 : -errno;
    if (fstat(dirfd, &dst) < 0)
        return -errno;
    uid_t me = geteuid();
    if (!(dst.st_mode & S_ISVTX) || est.st_uid == me || dst.st_uid == me || have_cap_fowner())
        return 0;
    snprintf(why, len, "it belongs to another user (uid %u) in a sticky directory (mode %04o, owner uid %u): the "
             "kernel lets only its owner or the directory's replace it; choose another name",
             (unsigned)est.st_uid, (unsigned)(dst.st_mode & 07777), (unsigned)dst.st_uid);
    return -EPERM;
}

int replace_open_parent(const char *path, const char **basep)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == path)
        snprintf(dir, sizeof(dir), "/");
    else if ((size_t)(slash - path) >= sizeof(dir))
        return -ENAMETOOLONG;
    else
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return -EISDIR;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    *basep = base;
    return dfd < 0 ? -errno : dfd;
}

int replace_allowed_path(const char *path, char *why, size_t len)
{
    const char *base = NULL;
    int dfd = replace_open_parent(path, &base);
    if (dfd == -EISDIR)
        return 0; /* no name to replace: the write itself says what is wrong */
    if (dfd < 0)
        return dfd;
    int e = replace_allowed(dfd, base, why, len);
    close(dfd);
    return e;
}
