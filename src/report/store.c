/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report store. Reports are the source of truth that compare and report read back, so a report is written
 * whole or not at all, and never replaces another one (doc_write, DOC_EXCLUSIVE). */
#include "report/store.h"
#include "report/doc.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
