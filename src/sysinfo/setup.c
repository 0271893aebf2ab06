/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The studio set-up beyond a report's identity (sysinfo.h): users and real-time limits, the boot loader's
 * kernel options, CPU boost and idle states, filesystems and inotify; setup_audio.c adds the audio stack, USB
 * and power. Everything is read through the root prefix and recorded as read: judging is src/checks' work.
 * Main thread, once per `rtjitter check`. */
#include "sysinfo/sysinfo.h"
#include "util/mountpath.h"
#include "sysinfo/sysinfo_internal.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- users and real-time limits ---- */

/* The user's line of /etc/passwd: 1 when found (uid, primary gid, home; -1 and "" for a field missing), 0 when
 * /etc/passwd has no such user, -1 when it cannot be read. */
static int passwd_entry(const char *root, const char *user, long *uid, long *gid, char *home, size_t hlen)
{
    FILE *f = sysinfo_open(root, "/etc/passwd");
    char line[1024];
    size_t n = strlen(user);
    int found = f ? 0 : -1;
    *uid = *gid = -1;
    home[0] = '\0';
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, user, n) != 0 || line[n] != ':')
            continue;
        found = 1;
        line[strcspn(line, "\n")] = '\0';
        char *fields[7] = { NULL }, *p = line;
        for (int i = 0; i < 7 && p; i++) {
            fields[i] = p;
            p = strchr(p, ':');
            if (p)
                *p++ = '\0';
        }
        if (fields[2] && fields[2][0])
            *uid = strtol(fields[2], NULL, 10);
        if (fields[3] && fields[3][0])
            *gid = strtol(fields[3], NULL, 10);
        if (fields[5])
            snprintf(home, hlen, "%s", fields[5]);
    }
    if (f)
        fclose(f);
    return found;
}

/* user {name, in_passwd, uid, gid, home, groups [...] } as /etc/passwd and /etc/group configure them (what the
 * next login gets; in_passwd null when /etc/passwd cannot be read), and groups {name: [members]} for every group
 * of /etc/group. */
static void users_read(const char *root, const char *user, json_t *setup)
{
    json_t *groups = json_object(), *mine = json_array();
    char home[1024] = "";
    long uid = -1, gid = -1;
    int found = user ? passwd_entry(root, user, &uid, &gid, home, sizeof(home)) : -1;
    FILE *f = sysinfo_open(root, "/etc/group");
    char line[4096];
    while (f && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        char *fields[4] = { NULL, NULL, NULL, NULL }, *p = line;
        for (int i = 0; i < 4 && p; i++) {
            fields[i] = p;
            p = strchr(p, ':');
            if (p)
                *p++ = '\0';
        }
        if (!fields[0][0] || !fields[2])
            continue;
        json_t *members = json_array();
        int member = user && strtol(fields[2], NULL, 10) == gid;
        char *save = NULL;
        for (char *m = fields[3] ? strtok_r(fields[3], ",", &save) : NULL; m; m = strtok_r(NULL, ",", &save)) {
            json_array_append_new(members, json_string(m));
            member |= user && strcmp(m, user) == 0;
        }
        json_object_set_new(groups, fields[0], members);
        if (member)
            json_array_append_new(mine, json_string(fields[0]));
    }
    json_object_set_new(setup, "etc_group", f ? json_true() : json_false());
    if (f)
        fclose(f);
    json_object_set_new(setup, "groups", groups);
    json_object_set_new(setup, "user", user ? json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "name", user,
                                                        "in_passwd", found < 0 ? json_null() : json_boolean(found),
                                                        "uid", uid >= 0 ? json_integer(uid) : json_null(), "gid",
                                                        gid >= 0 ? json_integer(gid) : json_null(), "home",
                                                        home[0] ? json_string(home) : json_null(), "groups", mine)
                                            : (json_decref(mine), json_null()));
}

/* Each rtprio and memlock line of one limits file (pam_limits(8): domain type item value). */
static void limits_file(const char *root, const char *path, json_t *entries)
{
    FILE *f = sysinfo_open(root, path);
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof(line), f)) {
        n++;
        char dom[128], type[16], item[32], value[64];
        line[strcspn(line, "#")] = '\0';
        if (sscanf(line, "%127s %15s %31s %63s", dom, type, item, value) != 4)
            continue;
        if (strcmp(item, "rtprio") != 0 && strcmp(item, "memlock") != 0)
            continue;
        json_array_append_new(entries, json_pack("{s:s, s:i, s:s, s:s, s:s, s:s}", "file", path, "line", n,
                                                 "domain", dom, "type", type, "item", item, "value", value));
    }
    if (f)
        fclose(f);
}

/* limits {files [...], entries [...]}: limits.conf, then limits.d/ *.conf in name order, as pam_limits reads
 * them (later lines of the same rank win). */
static json_t *limits_read(const char *root)
{
    json_t *files = json_array(), *entries = json_array();
    if (sysinfo_exists(root, "/etc/security/limits.conf")) {
        json_array_append_new(files, json_string("/etc/security/limits.conf"));
        limits_file(root, "/etc/security/limits.conf", entries);
    }
    char **names = sysinfo_list_dir(root, "/etc/security/limits.d");
    for (size_t i = 0; names && names[i]; i++) {
        size_t l = strlen(names[i]);
        if (l < 6 || strcmp(names[i] + l - 5, ".conf") != 0 || names[i][0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof(path), "/etc/security/limits.d/%s", names[i]);
        json_array_append_new(files, json_string(path));
        limits_file(root, path, entries);
    }
    sysinfo_free_names(names);
    return json_pack("{s:o, s:o, s:b}", "files", files, "entries", entries, "dir",
                     sysinfo_exists(root, "/etc/security"));
}

/* ---- the boot loader's kernel options ---- */

/* The options a GRUB defaults file adds (GRUB_CMDLINE_LINUX and _DEFAULT), without references to variables. */
static json_t *grub_file(const char *root, const char *path)
{
    json_t *o = json_object();
    if (sysinfo_read_assignments(root, path, o) < 0) {
        json_decref(o);
        return NULL;
    }
    char params[2048] = "";
    size_t n = 0;
    static const char *const keys[] = { "GRUB_CMDLINE_LINUX", "GRUB_CMDLINE_LINUX_DEFAULT", NULL };
    for (const char *const *k = keys; *k; k++) {
        const char *v = json_string_value(json_object_get(o, *k));
        char buf[1024], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", v ? v : "");
        for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
            if (w[0] != '$' && n < sizeof(params))
                n += (size_t)snprintf(params + n, sizeof(params) - n, "%s%s", n ? " " : "", w);
    }
    json_decref(o);
    return json_pack("{s:s, s:s}", "file", path, "params", params);
}

/* grub [{file, params}]: /etc/default/grub, then /etc/default/grub.d/ *.cfg in the order update-grub reads
 * them; null without /etc/default/grub (another boot loader, or none to read). */
static json_t *grub_read(const char *root)
{
    json_t *f = grub_file(root, "/etc/default/grub");
    if (!f)
        return json_null();
    json_t *a = json_array();
    json_array_append_new(a, f);
    char **names = sysinfo_list_dir(root, "/etc/default/grub.d");
    for (size_t i = 0; names && names[i]; i++) {
        size_t l = strlen(names[i]);
        if (l < 5 || strcmp(names[i] + l - 4, ".cfg") != 0)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof(path), "/etc/default/grub.d/%s", names[i]);
        if ((f = grub_file(root, path)))
            json_array_append_new(a, f);
    }
    sysinfo_free_names(names);
    return a;
}

/* ---- CPU: boost, idle states, /dev/cpu_dma_latency ---- */

static json_t *boost_read(const char *root)
{
    long long v;
    if (sysinfo_read_ll(root, "/sys/devices/system/cpu/cpufreq/boost", &v) == 0)
        return json_pack("{s:s, s:I, s:b}", "file", "/sys/devices/system/cpu/cpufreq/boost", "value",
                         (json_int_t)v, "on", v != 0);
    if (sysinfo_read_ll(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", &v) == 0)
        return json_pack("{s:s, s:I, s:b}", "file", "/sys/devices/system/cpu/intel_pstate/no_turbo", "value",
                         (json_int_t)v, "on", v == 0);
    return json_null();
}

/* ---- filesystems ---- */

/* Whether mount point m holds path p (component-wise: /home holds /home/x, not /homework). */
static int holds(const char *m, const char *p)
{
    size_t n = strlen(m);
    if (strcmp(m, "/") == 0)
        return p[0] == '/';
    return strncmp(m, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* The mount that holds path: the last of the longest matching mount points (a later mount hides an earlier). */
static json_t *mount_of(const char *root, const char *path)
{
    char resolved[PATH_MAX], full[PATH_MAX], p[PATH_MAX];
    snprintf(p, sizeof(p), "%s", path);
    /* Symlinks resolved within the tree: /home may be a link to /data/home. */
    if (sysinfo_rooted(root, path, full, sizeof(full)) == 0 && realpath(full, resolved)) {
        size_t rl = strlen(root);
        if (strncmp(resolved, root, rl) == 0)
            snprintf(p, sizeof(p), "%s", resolved[rl] ? resolved + rl : "/");
    }
    FILE *f = sysinfo_open(root, "/proc/mounts");
    if (!f)
        return NULL;
    char line[2048], best_mp[1024] = "", best_fs[64] = "", best_src[512] = "", best_opt[512] = "";
    size_t best = 0;
    while (fgets(line, sizeof(line), f)) {
        char src[512], mp[1024], fs[64], opt[512];
        if (sscanf(line, "%511s %1023s %63s %511s", src, mp, fs, opt) != 4)
            continue;
        mountpath_unescape(mp);
        if (!holds(mp, p) || strlen(mp) < best)
            continue;
        best = strlen(mp);
        snprintf(best_mp, sizeof(best_mp), "%s", mp);
        snprintf(best_fs, sizeof(best_fs), "%s", fs);
        snprintf(best_src, sizeof(best_src), "%s", src);
        snprintf(best_opt, sizeof(best_opt), "%s", opt);
    }
    fclose(f);
    if (!best_mp[0])
        return json_pack("{s:s, s:n, s:n, s:n, s:n}", "path", path, "mountpoint", "fstype", "source", "options");
    return json_pack("{s:s, s:s, s:s, s:s, s:s}", "path", path, "mountpoint", best_mp, "fstype", best_fs, "source",
                     best_src, "options", best_opt);
}

/* mounts [{path, mountpoint, fstype, source, options}] for /, /home and the paths asked (those with
 * "recording": true); null without /proc/mounts. */
static json_t *mounts_read(const char *root, const char *const *paths)
{
    if (!sysinfo_exists(root, "/proc/mounts"))
        return json_null();
    json_t *a = json_array();
    static const char *const fixed[] = { "/", "/home", NULL };
    for (const char *const *p = fixed; *p; p++) {
        json_t *m = mount_of(root, *p);
        if (m)
            json_array_append_new(a, m);
    }
    for (size_t i = 0; paths && paths[i]; i++) {
        json_t *m = paths[i][0] == '/' ? mount_of(root, paths[i]) : NULL;
        if (m) {
            json_object_set_new(m, "recording", json_true());
            json_array_append_new(a, m);
        }
    }
    return a;
}

/* Whether the CPU says it runs under a hypervisor (the "hypervisor" flag of /proc/cpuinfo); null unreadable. */
static json_t *virtual_read(const char *root)
{
    FILE *f = sysinfo_open(root, "/proc/cpuinfo");
    if (!f)
        return json_null();
    char line[4096];
    int vm = 0, flags = 0;
    while (!vm && fgets(line, sizeof(line), f))
        if (strncmp(line, "flags", 5) == 0) {
            flags = 1;
            vm = strstr(line, " hypervisor") != NULL;
        }
    fclose(f);
    return flags ? json_boolean(vm) : json_null();
}

/* ---- the whole ---- */

json_t *sysinfo_setup(const char *root, const struct sysinfo_setup_args *a)
{
    json_t *s = json_object();
    if (!s)
        return NULL;
    users_read(root, a ? a->user : NULL, s);
    json_object_set_new(s, "limits", limits_read(root));
    sysinfo_setup_login(root, s);
    json_object_set_new(s, "grub", grub_read(root));
    json_object_set_new(s, "boost", boost_read(root));
    json_object_set_new(s, "idle", sysinfo_idle(root));
    json_object_set_new(s, "cpu_dma_latency", json_boolean(sysinfo_exists(root, "/dev/cpu_dma_latency")));
    json_object_set_new(s, "mounts", mounts_read(root, a ? a->paths : NULL));
    json_object_set_new(s, "inotify", json_pack("{s:o, s:o}", "max_user_watches",
                        sysinfo_ll_or_null(root, "/proc/sys/fs/inotify/max_user_watches"), "max_user_instances",
                        sysinfo_ll_or_null(root, "/proc/sys/fs/inotify/max_user_instances")));
    json_object_set_new(s, "virtual", virtual_read(root));
    json_object_set_new(s, "laptop_mode", sysinfo_ll_or_null(root, "/proc/sys/vm/laptop_mode"));
    /* The user's home as this system's /etc/passwd says, else as given. */
    const char *home = json_string_value(json_object_get(json_object_get(s, "user"), "home"));
    sysinfo_setup_audio(root, home ? home : a ? a->home : NULL, s);
    return s;
}
