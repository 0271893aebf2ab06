/* SPDX-License-Identifier: GPL-2.0-or-later */
/* This process as it runs now: who it runs as, its groups, its capabilities, the limits in force (RLIMIT_RTPRIO,
 * RLIMIT_MEMLOCK), whether a thread can really get SCHED_FIFO, and whether /dev/cpu_dma_latency opens for
 * writing. None of it can be read from a root prefix, so it is probed here once, into a JSON object the checks
 * judge like the rest (checks.h: process {...}); tests inject that object instead. Main thread. */
#include "checks/checks_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* the thread that proves real time is started at the priority the gate, run and the advice name */
#define DEFAULT_FIFO_PRIORITY CHECK_RTPRIO_NEED

static json_t *limit_json(int resource)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) < 0)
        return json_null();
    return json_pack("{s:o, s:o}", "soft", rl.rlim_cur == RLIM_INFINITY ? json_string("unlimited")
                     : json_integer((json_int_t)rl.rlim_cur), "hard", rl.rlim_max == RLIM_INFINITY
                     ? json_string("unlimited") : json_integer((json_int_t)rl.rlim_max));
}

/* CapEff of /proc/self/status (this process, not the tree under a root prefix): bits 23, 14 and 24. */
static void caps(int *sys_nice, int *ipc_lock, int *sys_resource)
{
    *sys_nice = *ipc_lock = *sys_resource = 0;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        unsigned long long eff;
        if (sscanf(line, "CapEff: %llx", &eff) == 1) {
            *sys_nice = (eff >> 23) & 1;
            *ipc_lock = (eff >> 14) & 1;
            *sys_resource = (eff >> 24) & 1;
        }
    }
    if (f)
        fclose(f);
}

static void *nothing(void *arg)
{
    return arg;
}

/* Starts a thread with SCHED_FIFO at prio, as JACK starts its real-time threads (explicit scheduling in the
 * attributes: pthread_create fails with EPERM when the limits refuse it). 0 or -errno. */
int checks_try_fifo(int prio)
{
    pthread_attr_t a;
    struct sched_param sp = { .sched_priority = prio };
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 64 * 1024);
    int e = pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
    if (!e)
        e = pthread_attr_setschedpolicy(&a, SCHED_FIFO);
    if (!e)
        e = pthread_attr_setschedparam(&a, &sp);
    if (!e)
        e = pthread_create(&t, &a, nothing, NULL);
    pthread_attr_destroy(&a);
    if (e)
        return -e;
    pthread_join(t, NULL);
    return 0;
}

static json_t *user_name(uid_t uid)
{
    struct passwd pw, *res = NULL;
    char buf[4096];
    if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res)
        return json_string(pw.pw_name);
    char n[32];
    snprintf(n, sizeof(n), "#%u", (unsigned)uid);
    return json_string(n);
}

static json_t *group_name(gid_t gid)
{
    struct group gr, *res = NULL;
    char buf[8192];
    if (getgrgid_r(gid, &gr, buf, sizeof(buf), &res) == 0 && res)
        return json_string(gr.gr_name);
    char n[32];
    snprintf(n, sizeof(n), "#%u", (unsigned)gid);
    return json_string(n);
}

json_t *checks_probe_process(const char *root, int fifo_priority)
{
    int prio = fifo_priority > 0 ? fifo_priority : DEFAULT_FIFO_PRIORITY;
    json_t *p = json_object();
    if (!p)
        return NULL;
    uid_t uid = getuid(), euid = geteuid();
    json_object_set_new(p, "uid", json_integer(uid));
    json_object_set_new(p, "euid", json_integer(euid));
    json_object_set_new(p, "gid", json_integer(getgid()));
    json_t *name = user_name(euid);
    json_object_set_new(p, "user", name);
    /* Under sudo, the set-up to judge is the musician's, not root's. */
    const char *sudo_user = getenv("SUDO_USER");
    const char *judged = euid == 0 && sudo_user && sudo_user[0] ? sudo_user : json_string_value(name);
    json_object_set_new(p, "judged_user", json_string(judged));
    struct passwd pw, *res = NULL;
    char buf[4096];
    const char *home = getpwnam_r(judged, &pw, buf, sizeof(buf), &res) == 0 && res ? pw.pw_dir : getenv("HOME");
    json_object_set_new(p, "home", home ? json_string(home) : json_null());
    /* This login's groups: what pam_limits matched when it started. */
    json_t *groups = json_array();
    gid_t gids[NGROUPS_MAX + 1];
    int n = getgroups(NGROUPS_MAX, gids);
    json_array_append_new(groups, group_name(getgid()));
    for (int i = 0; i < n; i++)
        if (gids[i] != getgid())
            json_array_append_new(groups, group_name(gids[i]));
    json_object_set_new(p, "groups", groups);
    int nice, lock, resource;
    caps(&nice, &lock, &resource);
    json_object_set_new(p, "cap_sys_nice", json_boolean(nice));
    json_object_set_new(p, "cap_ipc_lock", json_boolean(lock));
    json_object_set_new(p, "cap_sys_resource", json_boolean(resource));
    json_object_set_new(p, "login", checks_probe_login());
    json_object_set_new(p, "rtprio", limit_json(RLIMIT_RTPRIO));
    json_object_set_new(p, "memlock", limit_json(RLIMIT_MEMLOCK));
    int e = checks_try_fifo(prio);
    json_object_set_new(p, "sched_fifo", json_pack("{s:i, s:b, s:o}", "priority", prio, "ok", e == 0, "error",
                                                   e ? json_string(strerror(-e)) : json_null()));
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/dev/cpu_dma_latency", root);
    json_t *dma;
    if (access(path, F_OK) < 0)
        dma = json_pack("{s:n, s:s}", "writable", "error", strerror(errno));
    else if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0)
        dma = json_pack("{s:b, s:n}", "writable", 1, "error");
    else
        dma = json_pack("{s:b, s:s}", "writable", 0, "error", strerror(errno));
    json_object_set_new(p, "cpu_dma_latency", dma);
    return p;
}
