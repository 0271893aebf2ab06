#include "store.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mkdir_p(const char *dir)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
        return -ENAMETOOLONG;
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
                return -errno;
            *p = '/';
        }
    if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

int store_dir(const char *output, char *buf, size_t len)
{
    if (output) {
        snprintf(buf, len, "%s", output);
        return 0;
    }
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(buf, len, "%s/rtjitter/reports", xdg);
    else if (home && home[0])
        snprintf(buf, len, "%s/.local/share/rtjitter/reports", home);
    else
        return -ENOENT;
    return 0;
}

int store_write_json(const json_t *doc, const char *path)
{
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp-%d", path, (int)getpid());
    if (json_dump_file(doc, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(8)) < 0) {
        unlink(tmp);
        return -EIO;
    }
    /* link() refuses to replace: an existing report is never overwritten. */
    if (link(tmp, path) < 0) {
        int e = errno;
        unlink(tmp);
        return -e;
    }
    unlink(tmp);
    return 0;
}

static void safe_name(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (; *in && o + 1 < len && o < 48; in++) {
        char c = *in;
        out[o++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                           c == '_' || c == '-'
                       ? c
                       : '_';
    }
    out[o] = '\0';
}

int store_save(const json_t *doc, const char *output, const char *release, const char *label,
               struct timespec when, char *path, size_t pathlen)
{
    char base[4096], rel[256], lab[64], ts[32];
    int e = store_dir(output, base, sizeof(base));
    if (e < 0)
        return e;
    safe_name(release, rel, sizeof(rel));
    char dir[4400];
    snprintf(dir, sizeof(dir), "%s/%s", base, rel);
    if ((e = mkdir_p(dir)) < 0)
        return e;
    struct tm tm;
    gmtime_r(&when.tv_sec, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    lab[0] = '\0';
    if (label && *label) {
        lab[0] = '-';
        safe_name(label, lab + 1, sizeof(lab) - 1);
    }
    for (int n = 0; n < 1000; n++) {
        if (n == 0)
            snprintf(path, pathlen, "%s/%s%s.json", dir, ts, lab);
        else
            snprintf(path, pathlen, "%s/%s%s.%d.json", dir, ts, lab, n);
        e = store_write_json(doc, path);
        if (e != -EEXIST)
            return e;
    }
    return -EEXIST;
}
