/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System identity: the whole of it (sysinfo_collect); the parts are collected by kernel.c, cpu.c and sound.c,
 * through the reads under the root prefix of sysread.c. Runs once, on the main thread, after the measurement:
 * nothing here is real-time safe, nor needs to be. */
#include "sysinfo/sysinfo.h"
#include "util/utf8.h"
#include "sysinfo/sysinfo_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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
