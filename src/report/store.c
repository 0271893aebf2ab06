/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report store. Reports are the source of truth that compare and report read back, so a report is written
 * whole or not at all, and never replaces another one (doc_write, DOC_EXCLUSIVE). */
#include "report/store.h"
#include "report/doc.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

static int mkdir_p_mode(const char *dir, mode_t mode)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
        return -ENAMETOOLONG;
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, mode) < 0 && errno != EEXIST)
                return -errno;
            *p = '/';
        }
    if (mkdir(tmp, mode) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

int mkdir_p(const char *dir)
{
    return mkdir_p_mode(dir, 0755);
}

int store_dir(const char *output, char *buf, size_t len)
{
    int n;
    if (output) {
        if (!output[0])
            return -EINVAL;
        n = snprintf(buf, len, "%s", output);
    } else {
        const char *xdg = getenv("XDG_DATA_HOME");
        const char *home = getenv("HOME");
        /* The XDG spec: a relative XDG_DATA_HOME is invalid and is ignored. */
        if (xdg && xdg[0] == '/')
            n = snprintf(buf, len, "%s/rtjitter/reports", xdg);
        else if (home && home[0])
            n = snprintf(buf, len, "%s/.local/share/rtjitter/reports", home);
        else
            return -ENOENT;
    }
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int store_write_json(const json_t *doc, const char *path)
{
    /* doc_write's temporary file is hidden and not named *.json: no reader of the store sees half a report. */
    return doc_write_json(path, DOC_EXCLUSIVE, doc);
}

/* A file-name part from outside text (a kernel release, a label): letters, digits, '.', '_' and '-' kept,
 * anything else '_', at most max characters; never empty, ".", or "..". */
static void safe_name(const char *in, char *out, size_t len, size_t max)
{
    size_t o = 0;
    for (; *in && o + 1 < len && o < max; in++) {
        char c = *in;
        out[o++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                           c == '_' || c == '-'
                       ? c
                       : '_';
    }
    out[o] = '\0';
    if (!out[0] || strcmp(out, ".") == 0 || strcmp(out, "..") == 0)
        snprintf(out, len, "unknown");
}

/* STORE/<release>, created private. */
static int release_dir(const char *output, const char *release, char *dir, size_t len)
{
    char base[4096], rel[256];
    int e = store_dir(output, base, sizeof(base));
    if (e < 0)
        return e;
    /* A release is at most 64 characters (utsname); a label is cut to keep the name readable. */
    safe_name(release ? release : "", rel, sizeof(rel), 200);
    if (snprintf(dir, len, "%s/%s", base, rel) >= (int)len)
        return -ENAMETOOLONG;
    /* Reports name the machine and its boot options: the store is private, as XDG asks (0700). */
    return mkdir_p_mode(dir, 0700);
}

/* The longest name store_save() gives a report: a UTC stamp, "-" and a label of 48, ".999", ".json". */
#define STORE_NAME_MAX (16 + 1 + 48 + 4 + 5)

int store_check(const char *output, const char *release, char *dir, size_t len)
{
    int e = release_dir(output, release, dir, len);
    if (e < 0)
        return e;
    /* Every report this store may get must be openable by its path, the one printed (PATH_MAX counts the
     * terminating NUL). */
    if (strlen(dir) + 1 + STORE_NAME_MAX >= PATH_MAX)
        return -ENAMETOOLONG;
    char probe[4500];
    if (snprintf(probe, sizeof(probe), "%s/probe.json", dir) >= (int)sizeof(probe))
        return -ENAMETOOLONG;
    e = doc_check(probe, DOC_REPLACE);
    return e == -EEXIST ? 0 : e;
}

int store_save(const json_t *doc, const char *output, const char *release, const char *label,
               struct timespec when, char *path, size_t pathlen)
{
    char lab[64], ts[32], dir[4400];
    int e = release_dir(output, release, dir, sizeof(dir));
    if (e < 0)
        return e;
    struct tm tm;
    gmtime_r(&when.tv_sec, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    lab[0] = '\0';
    if (label && *label) {
        lab[0] = '-';
        safe_name(label, lab + 1, sizeof(lab) - 1, 48);
    }
    for (int k = 0; k < 1000; k++) {
        int n = k == 0 ? snprintf(path, pathlen, "%s/%s%s.json", dir, ts, lab)
                       : snprintf(path, pathlen, "%s/%s%s.%d.json", dir, ts, lab, k);
        if (n < 0 || (size_t)n >= pathlen)
            return -ENAMETOOLONG;
        e = store_write_json(doc, path);
        if (e != -EEXIST)
            return e;
    }
    return -EEXIST;
}

/* A report's name: not hidden (doc_write's temporary files are), *.json. */
static int report_name(const char *name)
{
    size_t l = strlen(name);
    return name[0] != '.' && l > 5 && strcmp(name + l - 5, ".json") == 0 && !strstr(name, ".tmp-");
}

/* 1 when (stamp a, mtime ta, name a) is newer than b's; a name's stamp is its first 16 characters. */
static int newer(const char *a, const struct timespec *ta, const char *b, const struct timespec *tb)
{
    int c = strncmp(a, b, 16);
    if (c)
        return c > 0;
    if (ta->tv_sec != tb->tv_sec)
        return ta->tv_sec > tb->tv_sec;
    if (ta->tv_nsec != tb->tv_nsec)
        return ta->tv_nsec > tb->tv_nsec;
    return strcmp(a, b) > 0;
}

int store_newest(const char *output, char *path, size_t pathlen)
{
    char base[4096], best[512] = "", best_rel[256] = "";
    struct timespec best_t = { 0, 0 };
    int e = store_dir(output, base, sizeof(base));
    if (e < 0)
        return e;
    DIR *top = opendir(base);
    if (!top)
        return errno == ENOENT ? -ENOENT : -errno;
    struct dirent *r;
    while ((r = readdir(top))) {
        if (r->d_name[0] == '.' || strlen(r->d_name) >= sizeof(best_rel))
            continue;
        int fd = openat(dirfd(top), r->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        if (!d) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        struct dirent *f;
        while ((f = readdir(d))) {
            struct stat st;
            if (!report_name(f->d_name) || strlen(f->d_name) >= sizeof(best) ||
                fstatat(dirfd(d), f->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
                continue;
            if (!best[0] || newer(f->d_name, &st.st_mtim, best, &best_t)) {
                snprintf(best, sizeof(best), "%s", f->d_name);
                snprintf(best_rel, sizeof(best_rel), "%s", r->d_name);
                best_t = st.st_mtim;
            }
        }
        closedir(d);
    }
    closedir(top);
    if (!best[0])
        return -ENOENT;
    if (snprintf(path, pathlen, "%s/%s/%s", base, best_rel, best) >= (int)pathlen)
        return -ENAMETOOLONG;
    return 0;
}
