/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The login side of the set-up (setup.c reads the users and the limits files): which PAM services run pam_limits
 * in their session stack (/etc/pam.d: login, sshd, su, sudo, runuser, the display managers, systemd's user
 * manager, and the stacks they include), when each limits file was last written, and whether this system is a
 * container (a container's runtime sets hard limits that no login inside it can raise), and the distribution
 * (/etc/os-release). Read through the root
 * prefix and recorded as read; src/checks/login.c judges. Main thread. */
#include "sysinfo/sysinfo.h"
#include "sysinfo/sysinfo_internal.h"
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The services a login goes through on Debian, Ubuntu, Fedora and Arch, and the shared stacks they include. */
static const char *const pam_services[] = {
    "login", "sshd", "su", "su-l", "sudo", "sudo-i", "runuser", "runuser-l", "systemd-user", "gdm-password",
    "gdm-autologin", "lightdm", "lightdm-autologin", "sddm", "sddm-autologin", "xrdp-sesman", "common-session",
    "system-login", "system-auth", "system-local-login", "system-remote-login", NULL,
};

/* Whether the session stack of service runs pam_limits.so: 1 (in the file itself, or in the stack it includes,
 * named in via), 0 not, -1 no such file. Follows "@include X", "session include X" and "session substack X" up to
 * depth 4 (pam.d(5)). */
static int pam_limits_in(const char *root, const char *service, int depth, char *via, size_t vlen)
{
    char path[PATH_MAX];
    if (strchr(service, '/') || snprintf(path, sizeof(path), "/etc/pam.d/%s", service) >= (int)sizeof(path))
        return -1;
    FILE *f = sysinfo_open(root, path);
    if (!f)
        return -1;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "#\n")] = '\0';
        char *tok[8] = { NULL }, *save = NULL;
        int n = 0;
        for (char *t = strtok_r(line, " \t", &save); t && n < 8; t = strtok_r(NULL, " \t", &save)) {
            /* A bracketed control ([success=1 default=ignore]) is one token. */
            if (t[0] == '[' && !strchr(t, ']')) {
                char *end;
                while ((end = strtok_r(NULL, " \t", &save)) && !strchr(end, ']'))
                    ;
            }
            tok[n++] = t;
        }
        const char *include = NULL;
        if (n >= 2 && !strcmp(tok[0], "@include"))
            include = tok[1];
        else if (n >= 3 && (!strcmp(tok[0], "session") || !strcmp(tok[0], "-session"))) {
            if (!strcmp(tok[1], "include") || !strcmp(tok[1], "substack"))
                include = tok[2];
            else {
                const char *base = strrchr(tok[2], '/') ? strrchr(tok[2], '/') + 1 : tok[2];
                found = !strcmp(base, "pam_limits.so");
            }
        }
        if (include && depth < 4 && pam_limits_in(root, include, depth + 1, via, vlen) == 1) {
            found = 1;
            if (!via[0])
                snprintf(via, vlen, "%s", include);
        }
    }
    fclose(f);
    return found;
}

static json_t *pam_read(const char *root)
{
    json_t *o = json_object();
    for (size_t i = 0; pam_services[i]; i++) {
        char via[128] = "";
        int r = pam_limits_in(root, pam_services[i], 0, via, sizeof(via));
        if (r >= 0)
            json_object_set_new(o, pam_services[i], json_pack("{s:b, s:o}", "limits", r, "via",
                                                              via[0] ? json_string(via) : json_null()));
    }
    return o;
}

/* A container, by the marks its runtime leaves: {kind, evidence}, or null. */
static json_t *container_read(const char *root)
{
    static const struct { const char *file, *kind; } marks[] = {
        { "/.dockerenv", "docker" }, { "/run/.containerenv", "podman" }, { NULL, NULL },
    };
    for (size_t i = 0; marks[i].file; i++)
        if (sysinfo_exists(root, marks[i].file))
            return json_pack("{s:s, s:s}", "kind", marks[i].kind, "evidence", marks[i].file);
    char kind[64];
    if (sysinfo_read_text(root, "/run/systemd/container", kind, sizeof(kind)) == 0 && kind[0])
        return json_pack("{s:s, s:s}", "kind", kind, "evidence", "/run/systemd/container");
    FILE *f = sysinfo_open(root, "/proc/1/cgroup");
    char line[512];
    static const char *const cg[] = { "docker", "libpod", "lxc", "kubepods", "containerd", NULL };
    json_t *found = NULL;
    while (f && !found && fgets(line, sizeof(line), f))
        for (size_t i = 0; cg[i] && !found; i++)
            if (strstr(line, cg[i]))
                found = json_pack("{s:s, s:s}", "kind", cg[i], "evidence", "/proc/1/cgroup");
    if (f)
        fclose(f);
    return found ? found : json_null();
}

/* limits.mtime {file: its mtime, whole seconds since the epoch} for each file of limits.files. */
static void limits_mtimes(const char *root, json_t *setup)
{
    json_t *limits = json_object_get(setup, "limits"), *m = json_object();
    size_t i;
    const json_t *file;
    json_array_foreach(json_object_get(limits, "files"), i, file) {
        char full[PATH_MAX];
        struct stat st;
        const char *path = json_string_value(file);
        if (path && sysinfo_rooted(root, path, full, sizeof(full)) == 0 && stat(full, &st) == 0)
            json_object_set_new(m, path, json_integer((json_int_t)st.st_mtime));
    }
    json_object_set_new(limits, "mtime", m);
}

/* os {id, id_like} of /etc/os-release (os-release(5)), null without it: which distribution's packages and groups
 * a fix may name. */
static json_t *os_read(const char *root)
{
    json_t *a = json_object();
    if (sysinfo_read_assignments(root, "/etc/os-release", a) < 0 &&
        sysinfo_read_assignments(root, "/usr/lib/os-release", a) < 0) {
        json_decref(a);
        return json_null();
    }
    json_t *o = json_pack("{s:O?, s:O?}", "id", json_object_get(a, "ID"), "id_like", json_object_get(a, "ID_LIKE"));
    json_decref(a);
    return o ? o : json_null();
}

void sysinfo_setup_login(const char *root, json_t *setup)
{
    limits_mtimes(root, setup);
    json_object_set_new(setup, "os", os_read(root));
    json_object_set_new(setup, "pam", pam_read(root));
    json_object_set_new(setup, "container", container_read(root));
}
