/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loads in cgroups v2 (see loadcgroup.h). */
#include "loadcgroup.h"
#include "util/mountpath.h"
#include "loaddir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define CGROUP2_MAGIC 0x63677270

int loadcg_open_own(int *fd)
{
    char line[4096], cg[2048] = "", mnt[2048] = "", mroot[2048] = "";
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return -errno;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, "0::", 3) == 0) {
            snprintf(cg, sizeof(cg), "%.*s", (int)strcspn(line + 3, "\n"), line + 3);
            break;
        }
    fclose(f);
    if (cg[0] != '/')
        return -ENOENT;
    if (!(f = fopen("/proc/self/mountinfo", "re")))
        return -errno;
    while (fgets(line, sizeof(line), f)) {
        char *sep = strstr(line, " - ");
        char r[2048], m[2048], type[64];
        if (sep && sscanf(sep + 3, "%63s", type) == 1 && strcmp(type, "cgroup2") == 0 &&
            sscanf(line, "%*s %*s %*s %2047s %2047s", r, m) == 2) {
            snprintf(mroot, sizeof(mroot), "%s", r);
            snprintf(mnt, sizeof(mnt), "%s", m);
            break;
        }
    }
    fclose(f);
    if (!mnt[0])
        return -ENOENT;
    mountpath_unescape(mnt);
    mountpath_unescape(mroot);
    const char *rel = cg;
    size_t rl = strlen(mroot);
    if (strcmp(mroot, "/") != 0 && strncmp(cg, mroot, rl) == 0 && (cg[rl] == '/' || cg[rl] == '\0'))
        rel = cg + rl; /* the mount shows a sub-tree (a container's): our path is relative to it */
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", mnt, rel[0] == '/' ? rel + 1 : rel);
    int d = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0)
        return -errno;
    struct statfs sf;
    if (fstatfs(d, &sf) < 0 || sf.f_type != CGROUP2_MAGIC) {
        close(d);
        return -ENOENT;
    }
    *fd = d;
    return 0;
}

int loadcg_make(int parent, const char *name, int *fd)
{
    if (mkdirat(parent, name, 0755) < 0)
        return -errno;
    int d = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d < 0) {
        int e = -errno;
        unlinkat(parent, name, AT_REMOVEDIR);
        return e;
    }
    if (faccessat(d, "cgroup.kill", W_OK, 0) < 0) {
        int e = errno == ENOENT ? -ENOTSUP : -errno;
        close(d);
        unlinkat(parent, name, AT_REMOVEDIR);
        return e;
    }
    *fd = d;
    return 0;
}

static int write_at(int cg, const char *file, const char *text)
{
    int f = openat(cg, file, O_WRONLY | O_CLOEXEC);
    if (f < 0)
        return -errno;
    ssize_t n = write(f, text, strlen(text));
    int e = n < 0 ? -errno : 0;
    close(f);
    return e;
}

int loadcg_attach(int cg, pid_t pid)
{
    char buf[24];
    snprintf(buf, sizeof(buf), "%d", (int)pid);
    return write_at(cg, "cgroup.procs", buf);
}

int loadcg_kill(int cg) { return write_at(cg, "cgroup.kill", "1"); }

int loadcg_populated(int cg)
{
    int f = openat(cg, "cgroup.events", O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return -errno;
    char buf[256];
    ssize_t n = read(f, buf, sizeof(buf) - 1);
    close(f);
    if (n < 0)
        return -errno;
    buf[n] = '\0';
    const char *p = strstr(buf, "populated ");
    return p ? p[10] == '1' : -EINVAL;
}

int loadcg_signal(int cg, int sig)
{
    int f = openat(cg, "cgroup.procs", O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return -errno;
    FILE *in = fdopen(f, "r");
    if (!in) {
        close(f);
        return -ENOMEM;
    }
    int n = 0;
    long pid;
    while (fscanf(in, "%ld", &pid) == 1)
        if (pid > 0 && kill((pid_t)pid, sig) == 0)
            n++;
    fclose(in);
    return n;
}

static int remove_at(int parent, const char *name, int fd, int depth)
{
    if (depth >= 16)
        return -ELOOP; /* a load may make cgroups of its own: not without end */
    int rc = 0, dfd = dup(fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        rc = -errno;
        if (dfd >= 0)
            close(dfd);
        return rc;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.')
            continue;
        int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            continue;
        int e2 = remove_at(fd, e->d_name, sub, depth + 1);
        close(sub);
        if (e2 < 0 && e2 != -ENOENT && !rc)
            rc = e2;
    }
    closedir(d);
    return loaddir_unlink_if_ours(parent, name, fd, rc);
}

int loadcg_remove(int parent, const char *name, int fd) { return remove_at(parent, name, fd, 0); }
