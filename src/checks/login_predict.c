/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a new login of another user gets, for `rtjitter check --user NAME` as root (and for sudo's user): what
 * pam_limits does at login, done for real in a child of this process and read back, so the kernel's own rules
 * decide rather than a model of them. The child sets RLIMIT_RTPRIO and RLIMIT_MEMLOCK to the soft and hard
 * values the limits files give that user (what they leave alone is inherited from this process, as a login
 * opened from here, runuser -l or su -, inherits it), with one setrlimit each as pam_limits does: a hard limit
 * above this process's is refused without CAP_SYS_RESOURCE (a container), and then the login keeps what it
 * inherited, as pam_limits' login does. Only when the login's PAM service runs pam_limits at all. Then the child
 * becomes the user (uid, primary gid, no other groups: groups do not change what the kernel allows here), reads
 * its limits back, tries a SCHED_FIFO thread and /dev/cpu_dma_latency. Main thread, root only. */
#include "checks/checks_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

struct predicted {
    struct rlimit rtprio, memlock;
    int fifo_error;      /* 0, or the errno of the SCHED_FIFO try */
    int dma_error;       /* 0 writable, or the errno of access(W_OK) */
    int set_error;       /* the errno of a refused setrlimit, or 0 */
};

/* The PAM service a login is predicted through: the console's login, else the shared stack. */
static const char *predicted_service(const json_t *pam)
{
    static const char *const order[] = { "login", "system-login", "common-session", "system-auth", NULL };
    for (size_t i = 0; order[i]; i++)
        if (json_is_object(json_object_get(pam, order[i])))
            return order[i];
    return NULL;
}

/* A limits value (item units, LLONG_MAX unlimited, -2 none) as rlim_t, or keep when none. */
static rlim_t to_rlim(long long v, rlim_t keep, long long unit)
{
    if (v == -2)
        return keep;
    if (v == LLONG_MAX || v < 0)
        return RLIM_INFINITY;
    return (rlim_t)v * (rlim_t)unit;
}

static void apply(int resource, long long soft, long long hard, long long unit, int *err)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) < 0)
        return;
    struct rlimit want = { to_rlim(soft, rl.rlim_cur, unit), to_rlim(hard, rl.rlim_max, unit) };
    if (want.rlim_cur > want.rlim_max)
        want.rlim_cur = want.rlim_max;
    if ((soft != -2 || hard != -2) && setrlimit(resource, &want) < 0 && !*err)
        *err = errno;
}

static json_t *limit_json(const struct rlimit *rl)
{
    return json_pack("{s:o, s:o}", "soft", rl->rlim_cur == RLIM_INFINITY ? json_string("unlimited")
                     : json_integer((json_int_t)rl->rlim_cur), "hard", rl->rlim_max == RLIM_INFINITY
                     ? json_string("unlimited") : json_integer((json_int_t)rl->rlim_max));
}

int checks_predict_login(json_t *sys, int fifo_priority, const char *how)
{
    json_t *setup = json_object_get(sys, "setup"), *u = json_object_get(setup, "user");
    json_t *old = json_object_get(sys, "process");
    const char *user = json_string_value(json_object_get(u, "name"));
    if (!user || !json_is_integer(json_object_get(u, "uid")))
        return -ENOENT;
    long long uid = json_integer_value(json_object_get(u, "uid"));
    long long gid = json_is_integer(json_object_get(u, "gid")) ? json_integer_value(json_object_get(u, "gid")) : uid;
    const json_t *groups = json_object_get(u, "groups");
    const char *service = predicted_service(json_object_get(setup, "pam"));
    int pam_limits = !service || json_is_true(json_object_get(json_object_get(json_object_get(setup, "pam"),
                                                                               service), "limits"));
    long long rs, rh, ms, mh;
    privileges_configured(setup, "rtprio", user, uid, groups, &rs, &rh);
    privileges_configured(setup, "memlock", user, uid, groups, &ms, &mh);
    int prio = fifo_priority > 0 ? fifo_priority : 80;
    int fd[2];
    if (pipe(fd) < 0)
        return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fd[0]);
        close(fd[1]);
        return -e;
    }
    if (pid == 0) {
        struct predicted r;
        memset(&r, 0, sizeof(r));
        close(fd[0]);
        if (pam_limits) {
            apply(RLIMIT_RTPRIO, rs, rh, 1, &r.set_error);
            apply(RLIMIT_MEMLOCK, ms, mh, 1024, &r.set_error);
        }
        if (setgroups(0, NULL) < 0 || setgid((gid_t)gid) < 0 || setuid((uid_t)uid) < 0)
            _exit(3);
        getrlimit(RLIMIT_RTPRIO, &r.rtprio);
        getrlimit(RLIMIT_MEMLOCK, &r.memlock);
        r.fifo_error = -checks_try_fifo(prio);
        r.dma_error = access("/dev/cpu_dma_latency", W_OK) == 0 ? 0 : errno;
        _exit(write(fd[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 4);
    }
    close(fd[1]);
    struct predicted r;
    ssize_t n;
    while ((n = read(fd[0], &r, sizeof(r))) < 0 && errno == EINTR)
        ;
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (n != (ssize_t)sizeof(r))
        return -EPERM;
    json_t *p = json_object();
    if (!p)
        return -ENOMEM;
    json_object_set_new(p, "uid", json_integer(uid));
    json_object_set_new(p, "euid", json_integer(uid));
    json_object_set_new(p, "gid", json_integer(gid));
    json_object_set_new(p, "user", json_string(user));
    json_object_set_new(p, "judged_user", json_string(user));
    json_object_set_new(p, "home", json_incref(json_object_get(u, "home")));
    json_object_set_new(p, "groups", json_deep_copy(groups));
    json_object_set_new(p, "cap_sys_nice", json_false());
    json_object_set_new(p, "cap_ipc_lock", json_false());
    /* Whether the login program (this root) may raise hard limits: pam_limits runs with its rights. */
    json_object_set_new(p, "cap_sys_resource", json_incref(json_object_get(old, "cap_sys_resource")));
    json_object_set_new(p, "rtprio", limit_json(&r.rtprio));
    json_object_set_new(p, "memlock", limit_json(&r.memlock));
    json_object_set_new(p, "sched_fifo", json_pack("{s:i, s:b, s:o}", "priority", prio, "ok", r.fifo_error == 0,
                                                   "error", r.fifo_error ? json_string(strerror(r.fifo_error))
                                                   : json_null()));
    json_object_set_new(p, "cpu_dma_latency", r.dma_error == ENOENT
                        ? json_pack("{s:n, s:s}", "writable", "error", strerror(r.dma_error))
                        : json_pack("{s:b, s:o}", "writable", r.dma_error == 0, "error", r.dma_error ?
                                    json_string(strerror(r.dma_error)) : json_null()));
    json_object_set_new(p, "login", json_pack("{s:b, s:s, s:o, s:b, s:o}", "predicted", 1, "how", how, "service",
                                              service ? json_string(service) : json_null(), "pam_limits",
                                              pam_limits, "setrlimit_error", r.set_error ?
                                              json_string(strerror(r.set_error)) : json_null()));
    json_object_set_new(p, "predicted_by", json_pack("{s:O, s:O}", "user", json_object_get(old, "user"), "euid",
                                                     json_object_get(old, "euid")));
    json_object_set(sys, "process", p);
    json_decref(p);
    return 0;
}
