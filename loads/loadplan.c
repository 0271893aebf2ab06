/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtjitter's side of the loads: the parsed plan, the loads' directory and cgroup (made here, before the
 * supervisor is forked, and held open so that this process can clean up should the supervisor die), and the
 * conversation with the load supervisor. */
#include "loadplan.h"
#include "rtclock.h"
#include "util/procstat.h"
#include "util/utf8.h"
#include "loadcgroup.h"
#include "loaddir.h"
#include "loadspec.h"
#include "supervisor.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 10000 /* a stop takes under a second; freeing many GB of memload can take a few */
#define EXIT_WAIT_MS 3000      /* for the supervisor to end a phase (2 s at most) and leave, at load_plan_free */
#define GONE_WAIT_MS 2000      /* for killed loads to be gone before their files are removed */
#define STOPPED_GIVE_UP_MS 200 /* a supervisor seen stopped (SIGSTOP) this long is given up: it cannot answer */

struct load_plan {
    struct load_spec spec;
    struct load_area area;
    pid_t sup;                         /* 0: no supervisor (only none, it could not start, or it was reaped) */
    int fd;
    int gone;                          /* the supervisor was there and is no more (or stopped answering) */
    char sup_error[200];               /* why there is no supervisor, when a phase needs one */
    char **errors;                     /* per phase, owned */
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* The private directory under --tmpdir: refused (-EPERM, err) in a tmpdir where another user could swap it;
 * any other failure only makes the phases that need it skip their loads with the reason. */
static int make_dir(struct load_area *a, const char *tmpdir, char *err, size_t errlen)
{
    char why[PATH_MAX + 200]; /* the whole message, then fitted: a long --tmpdir keeps its reason at the end */
    a->tmpfd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (a->tmpfd < 0) {
        snprintf(why, sizeof(why), "cannot create a directory in %s: %s", tmpdir, strerror(errno));
        utf8_fit(a->dir_error, sizeof(a->dir_error), why);
        return 0;
    }
    int e = loaddir_check_parent(a->tmpfd, tmpdir, err, errlen);
    if (e == -EPERM)
        return e;
    if (e == 0)
        e = loaddir_make(a->tmpfd, "rtjitter-loads.", a->dirname, sizeof(a->dirname), &a->dirfd);
    if (e < 0) {
        snprintf(why, sizeof(why), "cannot create a directory in %s: %s", tmpdir, strerror(-e));
        utf8_fit(a->dir_error, sizeof(a->dir_error), why);
        a->dirname[0] = '\0';
        return 0;
    }
    snprintf(a->dirpath, sizeof(a->dirpath), "%s/%s", tmpdir, a->dirname);
    return 0;
}

/* The run's cgroup, where this process may make one (RTJITTER_NO_CGROUP=1: never, the process-group way). */
static void make_cgroup(struct load_area *a)
{
    const char *no = getenv("RTJITTER_NO_CGROUP");
    if ((no && no[0] && strcmp(no, "0") != 0) || loadcg_open_own(&a->cgparent) < 0)
        return;
    snprintf(a->cgname, sizeof(a->cgname), "rtjitter-loads-%d", (int)getpid());
    if (loadcg_make(a->cgparent, a->cgname, &a->cgfd) < 0) {
        a->cgfd = -1;
        close_fd(&a->cgparent);
    }
}

int load_plan_parse(const char *spec, const char *tmpdir, struct load_plan **out, char *err, size_t errlen)
{
    struct load_plan *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->fd = -1;
    struct load_area *a = &p->area;
    a->tmpdir = tmpdir;
    a->tmpfd = a->dirfd = a->cgparent = a->cgfd = -1;
    int e = load_spec_parse(spec, &p->spec, err, errlen);
    if (e < 0) {
        free(p);
        return e;
    }
    p->errors = calloc((size_t)p->spec.nphases, sizeof(*p->errors));
    if (!p->errors) {
        load_plan_free(p);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    int real = 0, files = 0;
    for (int i = 0; i < p->spec.nphases; i++)
        for (int j = 0; j < p->spec.phase[i].nuses; j++) {
            const struct load_info *li = p->spec.phase[i].use[j].info;
            real |= li->run != NULL;
            files |= li->run && (li->needs_dir || li->needs_disk);
        }
    if (!real) {
        *out = p;
        return 0;
    }
    if (files && (e = make_dir(a, tmpdir, err, errlen)) < 0) {
        load_plan_free(p);
        return e;
    }
    make_cgroup(a);
    a->groups = mmap(NULL, sizeof(*a->groups), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (a->groups == MAP_FAILED) {
        a->groups = NULL;
        e = -errno;
    } else {
        e = supervisor_spawn(&p->spec, a, &p->sup, &p->fd);
    }
    if (e < 0) {
        /* Not a usage error: the measurement still runs, each loaded phase says why it had no load. */
        snprintf(p->sup_error, sizeof(p->sup_error), "the load supervisor could not start: %s", strerror(-e));
        p->sup = 0;
    }
    *out = p;
    return 0;
}

int load_plan_count(const struct load_plan *p) { return p->spec.nphases; }

const char *load_plan_name(const struct load_plan *p, int phase)
{
    return phase >= 0 && phase < p->spec.nphases ? p->spec.phase[phase].name : "?";
}

static void supervisor_lost(struct load_plan *p, const char *why)
{
    if (!p->gone)
        snprintf(p->sup_error, sizeof(p->sup_error), "the load supervisor %s", why);
    p->gone = 1;
    close_fd(&p->fd);
}

static void describe_end(struct load_plan *p, int st);

/* The socket failed: say how the supervisor ended when it has (it is our child: reaping it tells; a dying
 * process closes its files a moment before it can be reaped), else why. */
static void socket_lost(struct load_plan *p, const char *why)
{
    for (int waited = 0; !p->gone && p->sup > 0 && waited < 200; waited += 5) {
        int st;
        if (waitpid(p->sup, &st, WNOHANG) == p->sup) {
            p->sup = 0;
            describe_end(p, st);
            break;
        }
        mono_nap_ms(5);
    }
    supervisor_lost(p, why);
}

/* A stopped supervisor answers nothing and ends nothing until someone continues it; waiting for it held a run
 * 10 s past its phase's end. It is killed now (SIGKILL ends a stopped process; it is our child, not yet reaped, so
 * the number is still its own) and reaped; load_plan_abort then ends its loads and removes their files. */
static int reap_supervisor(struct load_plan *p, int wait_ms);

static void supervisor_stopped(struct load_plan *p)
{
    supervisor_lost(p, "was stopped (SIGSTOP) and could not end its loads: killed");
    kill(p->sup, SIGKILL);
    if (!reap_supervisor(p, GONE_WAIT_MS))
        p->sup = 0; /* stuck in the kernel; it can do nothing more */
}

/* One request, one reply. 0, or -EPIPE once the supervisor is gone (p->sup_error says why). The reply is awaited
 * in slices, each of which looks whether the supervisor is stopped: then it is given up at once. */
static int ask(struct load_plan *p, int op, int phase, struct sup_reply *r)
{
    if (p->fd < 0)
        return -EPIPE;
    struct sup_request q = { op, phase };
    if (send(p->fd, &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q)) {
        socket_lost(p, "is gone");
        return -EPIPE;
    }
    struct pollfd pf = { p->fd, POLLIN, 0 };
    int n = 0;
    double t0 = mono_ns() / 1e6, stopped_since = -1;
    for (;;) {
        n = poll(&pf, 1, 20);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != 0)
            break;
        double now = mono_ns() / 1e6;
        if (p->sup > 0 && proc_stopped(p->sup)) {
            if (stopped_since < 0)
                stopped_since = now;
            if (now - stopped_since >= STOPPED_GIVE_UP_MS) {
                supervisor_stopped(p);
                return -EPIPE;
            }
        } else {
            stopped_since = -1;
        }
        if (now - t0 >= REPLY_TIMEOUT_MS)
            break;
    }
    if (n <= 0) {
        socket_lost(p, "stopped answering");
        return -EPIPE;
    }
    if (recv(p->fd, r, sizeof(*r), 0) != (ssize_t)sizeof(*r)) {
        socket_lost(p, "is gone");
        return -EPIPE;
    }
    r->error[sizeof(r->error) - 1] = '\0';
    return 0;
}

static int phase_has_process(const struct load_plan *p, int phase)
{
    for (int j = 0; j < p->spec.phase[phase].nuses; j++)
        if (p->spec.phase[phase].use[j].info->run)
            return 1;
    return 0;
}

int load_phase_start(struct load_plan *p, int phase)
{
    static struct sup_reply r;
    if (phase < 0 || phase >= p->spec.nphases)
        return -EINVAL;
    if (!phase_has_process(p, phase))
        return 0;
    return ask(p, SUP_START, phase, &r) < 0 ? 0 : r.rc; /* a lost supervisor is reported at the stop */
}

int load_phase_measure(struct load_plan *p, int phase)
{
    static struct sup_reply r;
    if (phase < 0 || phase >= p->spec.nphases || !phase_has_process(p, phase))
        return 0;
    return ask(p, SUP_MEASURE, phase, &r) < 0 ? 0 : r.rc;
}

void load_phase_stop(struct load_plan *p, int phase, json_t *metrics, const char **error)
{
    static struct sup_reply r;
    *error = NULL;
    if (phase < 0 || phase >= p->spec.nphases || !phase_has_process(p, phase))
        return;
    const char *msg = NULL;
    if (ask(p, SUP_STOP, phase, &r) < 0) {
        msg = p->sup_error;
    } else {
        for (int i = 0; i < r.nmetrics && i < SUP_MAX_METRICS; i++) {
            if (!isfinite(r.m[i].value))
                continue; /* JSON has no NaN; a load that measured nothing says so by its absence */
            json_t *m = json_object();
            r.m[i].name[sizeof(r.m[i].name) - 1] = '\0';
            r.m[i].unit[sizeof(r.m[i].unit) - 1] = '\0';
            json_object_set_new(m, "name", utf8_json_string(r.m[i].name));
            json_object_set_new(m, "value", json_real(r.m[i].value));
            json_object_set_new(m, "unit", utf8_json_string(r.m[i].unit));
            json_array_append_new(metrics, m);
        }
        if (r.error[0])
            msg = r.error;
    }
    if (msg) {
        free(p->errors[phase]);
        p->errors[phase] = strdup(msg);
        *error = p->errors[phase];
    }
}

/* The supervisor's end, in words. */
static void describe_end(struct load_plan *p, int st)
{
    char why[120];
    if (WIFSIGNALED(st))
        snprintf(why, sizeof(why), "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(why, sizeof(why), "exited unexpectedly (status %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    supervisor_lost(p, why);
}

int load_plan_alive(struct load_plan *p, char *why, size_t len)
{
    if (!p->gone && p->sup > 0) {
        int st;
        pid_t r = waitpid(p->sup, &st, WNOHANG);
        if (r == p->sup) {
            p->sup = 0; /* reaped: its number is no longer ours to signal */
            describe_end(p, st);
        } else if (r < 0 && errno == ECHILD) {
            p->sup = 0;
            supervisor_lost(p, "is gone");
        }
    }
    if (!p->gone)
        return 1;
    if (why && len)
        snprintf(why, len, "%s", p->sup_error);
    return 0;
}

/* Waits (polling, never blocking) for the supervisor to be gone; 1 once reaped. 0 at once when it is stopped:
 * it cannot leave before someone continues it (load_plan_abort kills it). */
static int reap_supervisor(struct load_plan *p, int wait_ms)
{
    if (p->sup <= 0)
        return 1;
    double end = (mono_ns() / 1e6) + wait_ms, stopped_since = -1;
    for (;;) {
        int st;
        pid_t r = waitpid(p->sup, &st, WNOHANG);
        if (r == p->sup || (r < 0 && errno == ECHILD)) {
            if (r == p->sup && !p->gone && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
                describe_end(p, st);
            p->sup = 0;
            return 1;
        }
        double now = mono_ns() / 1e6;
        if (now >= end)
            return 0;
        if (!proc_stopped(p->sup))
            stopped_since = -1;
        else if (stopped_since < 0)
            stopped_since = now;
        else if (now - stopped_since >= STOPPED_GIVE_UP_MS)
            return 0;
        mono_nap_ms(5);
    }
}

/* Has process group g a live member? Zombies do not count: they wait only for whoever reaps orphans. */
static int group_alive(int g)
{
    if (kill(-g, 0) < 0)
        return 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    int alive = 0;
    while (!alive && d && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300];
        struct proc_stat ps;
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        if (proc_stat_read(path, &ps) == 0 && ps.pgrp == g && ps.state != 'Z')
            alive = 1;
    }
    if (d)
        closedir(d);
    return alive;
}

static int groups_left(struct load_area *a, int sig)
{
    int left = 0;
    for (int i = 0; a->groups && i < LOAD_MAX_COMBO; i++) {
        int g = atomic_load(&a->groups->pgid[i]);
        if (g > 0 && group_alive(g)) {
            kill(-g, sig);
            left++;
        } else if (g > 0) {
            atomic_store(&a->groups->pgid[i], 0);
        }
    }
    return left;
}

void load_plan_abort(struct load_plan *p)
{
    if (!p)
        return;
    struct load_area *a = &p->area;
    if (p->sup > 0) {
        /* Still running (or hung): it must not act any more while this process cleans up. Not yet reaped, so the
         * number is still its own. */
        kill(p->sup, SIGKILL);
        if (!reap_supervisor(p, GONE_WAIT_MS))
            p->sup = 0; /* stuck in the kernel; it can do nothing more */
        if (!p->gone)
            supervisor_lost(p, "was stopped");
    }
    close_fd(&p->fd);
    /* Its loads: their leaders died with it (PR_SET_PDEATHSIG); their cgroup, or else their process groups,
     * hold everything they started. */
    double end = (mono_ns() / 1e6) + GONE_WAIT_MS;
    if (a->cgfd >= 0) {
        while (loadcg_populated(a->cgfd) == 1 && (mono_ns() / 1e6) < end) {
            loadcg_kill(a->cgfd);
            mono_nap_ms(5);
        }
    }
    /* Without a cgroup: what stayed in the loads' process groups. (A group's number could in principle have
     * been reused since its members died; its leader was the supervisor's child and this is the rare path.) */
    while (groups_left(a, SIGKILL) > 0 && (mono_ns() / 1e6) < end)
        mono_nap_ms(5);
    if (a->cgfd >= 0) {
        loadcg_remove(a->cgparent, a->cgname, a->cgfd);
        close_fd(&a->cgfd);
    }
    close_fd(&a->cgparent);
    if (a->dirfd >= 0) {
        loaddir_remove(a->tmpfd, a->dirname, a->dirfd);
        close_fd(&a->dirfd);
    }
    close_fd(&a->tmpfd);
}

void load_plan_free(struct load_plan *p)
{
    if (!p)
        return;
    /* The supervisor sees the end of its socket: it stops every load, removes the files and leaves. Whatever it
     * could not do, load_plan_abort does from here. */
    close_fd(&p->fd);
    reap_supervisor(p, EXIT_WAIT_MS);
    load_plan_abort(p);
    if (p->area.groups)
        munmap(p->area.groups, sizeof(*p->area.groups));
    if (p->errors)
        for (int i = 0; i < p->spec.nphases; i++)
            free(p->errors[i]);
    free(p->errors);
    load_spec_free(&p->spec);
    free(p);
}
