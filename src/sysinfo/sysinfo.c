/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System identity: the whole of it (sysinfo_collect) and the reads through the root prefix that every file of
 * this folder uses; the parts are collected by kernel.c, cpu.c and sound.c. Runs once, on the main thread,
 * after the measurement: nothing here is real-time safe, nor needs to be. */
#include "sysinfo/sysinfo.h"
#include "util/utf8.h"
#include "sysinfo/sysinfo_internal.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* ---- reading files under the root prefix ---- */

int sysinfo_rooted(const char *root, const char *path, char *out, size_t len)
{
    int n = snprintf(out, len, "%s%s", root, path);
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

FILE *sysinfo_open(const char *root, const char *path)
{
    char full[PATH_MAX];
    if (sysinfo_rooted(root, path, full, sizeof(full)) < 0)
        return NULL;
    return fopen(full, "r");
}

/* The whole file (up to len-1 bytes), trailing white space removed. */
int sysinfo_read_text(const char *root, const char *path, char *buf, size_t len)
{
    FILE *f = sysinfo_open(root, path);
    if (!f)
        return -errno;
    size_t n = fread(buf, 1, len - 1, f);
    int err = ferror(f) ? -EIO : 0;
    fclose(f);
    if (err)
        return err;
    buf[n] = '\0';
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return 0;
}

int sysinfo_read_ll(const char *root, const char *path, long long *v)
{
    char buf[64], *end;
    int e = sysinfo_read_text(root, path, buf, sizeof(buf));
    if (e < 0)
        return e;
    errno = 0;
    *v = strtoll(buf, &end, 10);
    return end == buf || errno ? -EINVAL : 0;
}

json_t *sysinfo_text_or_null(const char *root, const char *path)
{
    char buf[1024];
    return sysinfo_read_text(root, path, buf, sizeof(buf)) == 0 ? utf8_json_string(buf) : json_null();
}

json_t *sysinfo_ll_or_null(const char *root, const char *path)
{
    long long v;
    return sysinfo_read_ll(root, path, &v) == 0 ? json_integer(v) : json_null();
}

json_t *sysinfo_str_or_null(const char *s)
{
    return s ? utf8_json_string(s) : json_null();
}

/* ---- the whole identity ---- */

const char *sysinfo_release(const char *root, char *buf, size_t len)
{
    if (sysinfo_read_text(root, "/proc/sys/kernel/osrelease", buf, len) == 0 && buf[0])
        return buf;
    struct utsname u;
    snprintf(buf, len, "%s", uname(&u) == 0 && !root[0] ? u.release : "unknown");
    return buf;
}

json_t *sysinfo_collect(const char *root)
{
    char rel[256], host[256], *cmdline = malloc(8192);
    if (!cmdline)
        return NULL;
    sysinfo_release(root, rel, sizeof(rel));
    /* Unreadable is not empty: the kernel part says null, and what depends on it is unknown, not "off". */
    int have_cmdline = sysinfo_read_text(root, "/proc/cmdline", cmdline, 8192) == 0;
    if (sysinfo_read_text(root, "/proc/sys/kernel/hostname", host, sizeof(host)) < 0)
        snprintf(host, sizeof(host), "unknown");
    json_t *sound, *servers;
    sysinfo_sound(root, &sound, &servers);
    json_t *sys = json_object();
    json_object_set_new(sys, "hostname", utf8_json_string(host));
    json_object_set_new(sys, "kernel", sysinfo_kernel(root, rel, have_cmdline ? cmdline : NULL));
    json_object_set_new(sys, "cpu", sysinfo_cpu(root));
    json_object_set_new(sys, "memory", sysinfo_memory(root));
    json_object_set_new(sys, "sound", sound);
    json_object_set_new(sys, "audio_servers", servers);
    free(cmdline);
    return sys;
}
