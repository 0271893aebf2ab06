/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor process (see supervisor.h). Single-threaded, so forking from it is safe. Each load runs in a
 * cgroup of its own where one can be made (loadcgroup.h), and in a process group of its own in any case; the
 * supervisor is a child subreaper, so whatever a load leaves behind comes back to it to be killed and reaped.
 * It never blocks on a child: every wait is WNOHANG in a loop with a deadline. Files go through descriptors only
 * (loaddir.h). */
#include "supervisor.h"
#include "rtclock.h"
#include "loadcgroup.h"
#include "loaddir.h"
#include "util/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STOP_GRACE_MS 400 /* SIGTERM first (exec'd commands may want to tidy up), SIGKILL after this */
#define KILL_WAIT_MS 1600 /* then this long at most for the killed to go (a process in D state may take a while) */

struct inst {
    struct load_child c;
    int slot;                          /* index in the phase, and in area->groups */
    pid_t pid;                         /* 0: no process (none, skipped); the leader of its process group */
    int reaped, status, early;
    double child_cpu_s;
    const char *skip;                  /* why it did not start */
    char skipbuf[300];
    int dirfd;                         /* its directory, in area->dirfd; -1 */
    char dirname[64];
    char dirpath[4300];
    int cgfd;                          /* its cgroup, in area->cgfd; -1: process group and subreaper only */
    char cgname[64];
    uint64_t c0[LOAD_NCOUNT];
    double cpu0, t0, tstart;
};

struct sup {
    const struct load_spec *spec;
    struct load_area *a;
    int fd, sigfd;
    pid_t self;
    int phase;                         /* running phase, or -1 */
    struct inst inst[LOAD_MAX_COMBO];
    int ninst;
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Runs in the new child, before the load: it must not outlive the supervisor, must not inherit rtjitter's
 * real-time settings or signal set-up, and should be the OOM killer's first choice should it ever come to that.
 * It waits on go until the supervisor has put it in its cgroup, so that nothing it starts is left outside. */
static void child_setup(struct sup *s, struct inst *in, int go)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != s->self)
        _exit(0); /* the supervisor died between fork and prctl */
    for (int sig = 1; sig < NSIG; sig++)
        signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    char b;
    while (read(go, &b, 1) < 0 && errno == EINTR)
        ;
    close(go);
    close(s->fd);
    close(s->sigfd);
    close(s->a->tmpfd);
    close(s->a->dirfd);
    close(s->a->cgparent);
    close(s->a->cgfd);
    if (in->cgfd >= 0)
        close(in->cgfd);
    if (in->dirfd >= 0 && fchdir(in->dirfd) < 0)
        _exit(126);
    struct sched_param sp = { 0 };
    sched_setscheduler(0, SCHED_OTHER, &sp);
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (write(fd, "1000", 4) < 0) { /* not fatal: only a preference */
        }
        close(fd);
    }
    char comm[16];
    snprintf(comm, sizeof(comm), "rtj-%s", in->c.info->name);
    prctl(PR_SET_NAME, comm);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        close(null);
    }
}

static void sample(struct inst *in, uint64_t *cnt, double *cpu)
{
    for (int k = 0; k < LOAD_NCOUNT; k++)
        cnt[k] = atomic_load(&in->c.shared->count[k]);
    clockid_t clk;
    struct timespec ts;
    if (in->pid > 0 && !in->reaped && clock_getcpuclockid(in->pid, &clk) == 0 && clock_gettime(clk, &ts) == 0)
        *cpu = (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__((format(printf, 2, 3))) skipf(struct inst *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->skipbuf, sizeof(in->skipbuf), fmt, ap);
    va_end(ap);
    in->skip = in->skipbuf;
}

static void start_one(struct sup *s, int phase, struct inst *in, int slot, const struct load_use *u, int ndisk)
{
    const struct load_area *a = s->a;
    memset(in, 0, sizeof(*in));
    in->slot = slot;
    in->dirfd = in->cgfd = in->c.dirfd = -1;
    in->c.info = u->info;
    memcpy(in->c.param, u->param, sizeof(in->c.param));
    in->c.arg = u->arg;
    in->tstart = in->t0 = mono_s();
    if (!u->info->run)
        return;
    if (u->info->needs_dir || u->info->needs_disk) {
        if (a->dirfd < 0) {
            in->skip = a->dir_error;
            return;
        }
        char name[sizeof(in->dirname)];
        snprintf(name, sizeof(name), "%d-%s", phase, u->info->name);
        int e = loaddir_make_exact(a->dirfd, name, &in->dirfd);
        if (e < 0) {
            skipf(in, "cannot create a directory in %s: %s", a->tmpdir, strerror(-e));
            return;
        }
        memcpy(in->dirname, name, sizeof(name));
        snprintf(in->dirpath, sizeof(in->dirpath), "%s/%s", a->dirpath, name);
        in->c.dir = in->dirpath;
        in->c.dirfd = in->dirfd;
    }
    if (u->info->needs_disk) {
        /* Never more than half the free space, shared among the disk loads of the phase. */
        struct statvfs v;
        if (fstatvfs(in->dirfd, &v) < 0) {
            skipf(in, "statvfs %s: %s", a->tmpdir, strerror(errno));
            return;
        }
        uint64_t avail = (uint64_t)v.f_bavail * v.f_frsize;
        in->c.disk_bytes = avail / 2 / (uint64_t)ndisk;
        if (in->c.disk_bytes < (1u << 20)) {
            skipf(in, "%s has too little free space (%.1f MB)", a->tmpdir, avail / 1048576.0);
            return;
        }
    }
    if (u->info->unavailable && (in->skip = u->info->unavailable(&in->c, in->skipbuf, sizeof(in->skipbuf))))
        return;
    in->c.shared = mmap(NULL, sizeof(struct load_shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (in->c.shared == MAP_FAILED) {
        in->c.shared = NULL;
        skipf(in, "mmap: %s", strerror(errno));
        return;
    }
    if (a->cgfd >= 0) {
        snprintf(in->cgname, sizeof(in->cgname), "%d-%d-%s", phase, slot, u->info->name);
        if (loadcg_make(a->cgfd, in->cgname, &in->cgfd) < 0)
            in->cgfd = -1; /* this load goes without: its process group and the subreaper still end it */
    }
    int go[2];
    if (pipe2(go, O_CLOEXEC) < 0) {
        skipf(in, "pipe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        skipf(in, "fork: %s", strerror(errno));
        close(go[0]);
        close(go[1]);
        return;
    }
    if (pid == 0) {
        close(go[1]);
        child_setup(s, in, go[0]);
        u->info->run(&in->c);
        _exit(0);
    }
    close(go[0]);
    setpgid(pid, pid); /* also done by the child: whichever runs first, the group exists before any kill */
    in->pid = pid;
    atomic_store(&a->groups->pgid[slot], pid);
    if (in->cgfd >= 0 && loadcg_attach(in->cgfd, pid) < 0) {
        loadcg_remove(a->cgfd, in->cgname, in->cgfd);
        close_fd(&in->cgfd);
    }
    if (write(go[1], "g", 1) < 0) { /* the child then sees end of file, which lets it go as well */
    }
    close(go[1]);
}

static double ru_cpu_s(const struct rusage *ru)
{
    return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 + ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* Reaps every child that has ended, without waiting; a load's own process keeps its status (shell style:
 * 128+signal) and whether it ended before the phase did. The rest are what loads left behind. */
static void reap(struct sup *s, int early)
{
    struct rusage ru;
    int st;
    pid_t r;
    while ((r = wait4(-1, &st, WNOHANG, &ru)) > 0) {
        for (int i = 0; i < s->ninst; i++) {
            struct inst *in = &s->inst[i];
            if (in->pid == r && !in->reaped) {
                in->reaped = 1;
                in->early = early;
                in->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                in->child_cpu_s = ru_cpu_s(&ru);
            }
        }
    }
}

/* sig to every child of ours (all of them are loads or what loads left behind); returns how many there are. */
static int signal_children(struct sup *s, int sig)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)s->self, (int)s->self);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    int n = 0;
    long pid;
    while (fscanf(f, "%ld", &pid) == 1)
        if (pid > 0) {
            kill((pid_t)pid, sig);
            n++;
        }
    fclose(f);
    return n;
}

/* Sends sig to everything of the phase's loads: each cgroup's processes, each process group whose leader is not
 * yet reaped (only then is its number surely still ours), and every child of ours. Returns how many processes or
 * groups are still there. */
static int signal_all(struct sup *s, int sig)
{
    int left = 0;
    for (int i = 0; i < s->ninst; i++) {
        struct inst *in = &s->inst[i];
        if (in->cgfd >= 0) {
            if (loadcg_populated(in->cgfd) == 1) {
                left++;
                if (sig == SIGKILL)
                    loadcg_kill(in->cgfd);
                else
                    loadcg_signal(in->cgfd, sig);
            }
        }
        if (in->pid > 0 && !in->reaped) {
            left++;
            kill(-in->pid, sig);
        }
    }
    return left + signal_children(s, sig);
}

/* Ends every load of the phase and everything they started: SIGTERM and SIGCONT (a command may tidy up), after
 * STOP_GRACE_MS SIGKILL to whatever is left, again every round until nothing is. Never waits on a child: it
 * reaps with WNOHANG every 5 ms, for at most STOP_GRACE_MS + KILL_WAIT_MS. 0, or how many are left. */
static int end_all(struct sup *s)
{
    reap(s, 1); /* those that ended on their own before the phase did */
    signal_all(s, SIGTERM);
    signal_all(s, SIGCONT); /* a stopped load acts on its SIGTERM only once continued (SIGKILL follows anyway) */
    double t0 = mono_s();
    int killed = 0, left = 0;
    for (;;) {
        reap(s, 0);
        double ms = (mono_s() - t0) * 1000;
        if (ms >= STOP_GRACE_MS)
            killed = 1;
        left = signal_all(s, killed ? SIGKILL : 0);
        if (left == 0 || ms >= STOP_GRACE_MS + KILL_WAIT_MS)
            break;
        mono_nap_ms(5);
    }
    reap(s, 0);
    if (left == 0)
        for (int i = 0; i < LOAD_MAX_COMBO; i++)
            atomic_store(&s->a->groups->pgid[i], 0);
    return left;
}

/* Each load's message keeps its end (its reason) when the reply runs short of room: its middle gives way. */
static void append_error(struct sup_reply *r, const char *load, const char *msg)
{
    size_t o = strlen(r->error);
    char piece[1200];
    snprintf(piece, sizeof(piece), "%s%s: %s", o ? "; " : "", load, msg);
    utf8_fit(r->error + o, sizeof(r->error) - o, piece);
}

/* Removes a load's cgroup and directory, once its processes are gone. */
static void remove_inst(struct sup *s, struct inst *in)
{
    if (in->cgfd >= 0) {
        loadcg_remove(s->a->cgfd, in->cgname, in->cgfd);
        close_fd(&in->cgfd);
    }
    if (in->dirfd >= 0) {
        loaddir_remove(s->a->dirfd, in->dirname, in->dirfd);
        close_fd(&in->dirfd);
    }
}

static void stop_phase(struct sup *s, struct sup_reply *r)
{
    double t1 = mono_s();
    uint64_t c1[LOAD_MAX_COMBO][LOAD_NCOUNT];
    double cpu1[LOAD_MAX_COMBO];
    for (int i = 0; i < s->ninst; i++) {
        struct inst *in = &s->inst[i];
        cpu1[i] = in->cpu0;
        if (in->c.shared)
            sample(in, c1[i], &cpu1[i]);
    }
    int left = end_all(s); /* all at once: the phase ends for every load together */
    for (int i = 0; i < s->ninst; i++) {
        struct inst *in = &s->inst[i];
        const struct load_info *li = in->c.info;
        if (in->skip) {
            char msg[340];
            snprintf(msg, sizeof(msg), "skipped: %s", in->skip);
            append_error(r, li->name, msg);
        } else if (in->c.shared) {
            struct load_sample smp = { .wall_s = t1 - in->t0, .cpu_s = cpu1[i] - in->cpu0,
                                       .exit_status = in->reaped ? in->status : -1, .ended_early = in->early,
                                       .child_cpu_s = in->child_cpu_s, .life_s = t1 - in->tstart };
            for (int k = 0; k < LOAD_NCOUNT; k++)
                smp.count[k] = c1[i][k] - in->c0[k];
            if (li->report && r->nmetrics + LOAD_MAX_METRICS <= SUP_MAX_METRICS)
                r->nmetrics += li->report(&in->c, &smp, r->m + r->nmetrics);
            if (atomic_load(&in->c.shared->failed)) {
                in->c.shared->error[sizeof(in->c.shared->error) - 1] = '\0';
                append_error(r, li->name, in->c.shared->error);
            } else if (in->early && !li->takes_arg) {
                char msg[80];
                snprintf(msg, sizeof(msg), "the load process ended early (status %d)", in->status);
                append_error(r, li->name, msg);
            } else if (in->early && in->status != 0) {
                /* A command of the user's that failed: its status and the last line it wrote say why. */
                char msg[700], line[600] = "";
                load_last_line(in->dirfd, "output.log", line, sizeof(line));
                snprintf(msg, sizeof(msg), "the command exited with status %d%s%s", in->status,
                         line[0] ? ": " : "", line);
                append_error(r, li->name, msg);
            }
        }
        if (in->c.shared)
            munmap(in->c.shared, sizeof(struct load_shared));
        in->c.shared = NULL;
    }
    if (left > 0) {
        char msg[120];
        snprintf(msg, sizeof(msg), "%d processes or groups could not be ended within %.1f s", left,
                 (STOP_GRACE_MS + KILL_WAIT_MS) / 1000.0);
        append_error(r, "loads", msg);
    }
    for (int i = 0; i < s->ninst; i++)
        remove_inst(s, &s->inst[i]);
    s->ninst = 0;
    s->phase = -1;
}

static void start_phase(struct sup *s, int phase)
{
    const struct load_phase_spec *ph = &s->spec->phase[phase];
    int ndisk = 0;
    for (int j = 0; j < ph->nuses; j++)
        ndisk += ph->use[j].info->needs_disk;
    s->ninst = ph->nuses;
    s->phase = phase;
    for (int j = 0; j < ph->nuses; j++)
        start_one(s, phase, &s->inst[j], j, &ph->use[j], ndisk ? ndisk : 1);
}

static void measure_phase(struct sup *s)
{
    double t = mono_s();
    for (int i = 0; i < s->ninst; i++) {
        struct inst *in = &s->inst[i];
        in->t0 = t;
        if (in->c.shared)
            sample(in, in->c0, &in->cpu0);
    }
}

/* rtjitter is gone or wants us gone: end everything, remove the run's cgroup and directory (rtjitter made them
 * and will try too; whoever comes second finds nothing), and leave. */
static void __attribute__((noreturn)) finish(struct sup *s)
{
    static struct sup_reply r;
    if (s->phase >= 0)
        stop_phase(s, &r);
    end_all(s);
    struct load_area *a = s->a;
    if (a->cgfd >= 0)
        loadcg_remove(a->cgparent, a->cgname, a->cgfd);
    if (a->dirfd >= 0)
        loaddir_remove(a->tmpfd, a->dirname, a->dirfd);
    _exit(0);
}

static void __attribute__((noreturn)) serve(struct sup *s)
{
    static struct sup_reply r; /* static: about 2.5 KB, kept off the small stack habits of the loads */
    for (;;) {
        struct pollfd p[2] = { { s->fd, POLLIN, 0 }, { s->sigfd, POLLIN, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            finish(s);
        }
        if (p[1].revents) {
            struct signalfd_siginfo si;
            if (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si) && si.ssi_signo == SIGTERM)
                finish(s); /* someone wants us gone; leave nothing behind */
            reap(s, 1);    /* SIGCHLD: no zombie waits for the phase end; a load that ended keeps its status */
        }
        if (!p[0].revents)
            continue;
        struct sup_request q;
        ssize_t n = recv(s->fd, &q, sizeof(q), 0);
        if (n <= 0 || n != sizeof(q) || q.phase < 0 || q.phase >= s->spec->nphases)
            finish(s); /* rtjitter is gone (or mad): clean up after it */
        memset(&r, 0, sizeof(r));
        if (q.op == SUP_START) {
            if (s->phase >= 0)
                stop_phase(s, &r);
            memset(&r, 0, sizeof(r));
            start_phase(s, q.phase);
        } else if (q.op == SUP_MEASURE && s->phase == q.phase) {
            measure_phase(s);
        } else if (q.op == SUP_STOP && s->phase == q.phase) {
            stop_phase(s, &r);
        } else if (q.op == SUP_STOP) {
            r.rc = -ESRCH;
        }
        if (send(s->fd, &r, sizeof(r), MSG_NOSIGNAL) < 0)
            finish(s);
    }
}

int supervisor_spawn(const struct load_spec *spec, struct load_area *area, pid_t *pid, int *fd)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    pid_t parent = getpid();
    pid_t p = fork();
    if (p < 0) {
        int e = -errno;
        close(sv[0]);
        close(sv[1]);
        return e;
    }
    if (p > 0) {
        close(sv[1]);
        *pid = p;
        *fd = sv[0];
        return 0;
    }
    /* The supervisor. Its own process group, so a Ctrl-C or a kill of rtjitter's group does not end it before
     * it has cleaned up; it learns of rtjitter's end from its socket. */
    close(sv[0]);
    setpgid(0, 0);
    prctl(PR_SET_NAME, "rtj-loads");
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    for (int sig = 1; sig < NSIG; sig++)
        signal(sig, SIG_DFL);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_SETMASK, &set, NULL);
    int sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1); /* a caller reading rtjitter's output must not wait for us */
        close(null);
    }
    if (getppid() != parent)
        _exit(0);
    static struct sup s;
    s.spec = spec;
    s.a = area;
    s.fd = sv[1];
    s.sigfd = sfd;
    s.self = getpid();
    s.phase = -1;
    serve(&s);
}
