/* The load supervisor process (see supervisor.h). Single-threaded, so forking from it is safe; a child subreaper,
 * so whatever a load leaves behind comes back to it to be killed and reaped. */
#include "supervisor.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
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

struct inst {
    struct load_child c;
    pid_t pid;                         /* 0: no process (none, skipped, or already reaped) */
    int reaped, status, early;
    double child_cpu_s;
    const char *skip;                  /* why it did not start */
    char skipbuf[256];
    char dir[4200];
    uint64_t c0[LOAD_NCOUNT];
    double cpu0, t0, tstart;
};

struct sup {
    const struct load_spec *spec;
    const char *tmpdir;
    char rundir[4000];                 /* created on first need; removed at exit */
    int fd, sigfd;
    pid_t self;
    int phase;                         /* running phase, or -1 */
    struct inst inst[LOAD_MAX_COMBO];
    int ninst;
};

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

static void rm_tree(const char *path)
{
    if (path[0])
        nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* Runs in the new child, before the load: it must not outlive the supervisor, must not inherit rtjitter's
 * real-time settings or signal set-up, and should be the OOM killer's first choice should it ever come to that. */
static void child_setup(struct sup *s, const char *name)
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
    close(s->fd);
    close(s->sigfd);
    struct sched_param sp = { 0 };
    sched_setscheduler(0, SCHED_OTHER, &sp);
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (write(fd, "1000", 4) < 0) { /* not fatal: only a preference */
        }
        close(fd);
    }
    char comm[16];
    snprintf(comm, sizeof(comm), "rtj-%s", name);
    prctl(PR_SET_NAME, comm);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        close(null);
    }
}

static const char *make_rundir(struct sup *s, char *buf, size_t len)
{
    if (s->rundir[0])
        return NULL;
    snprintf(s->rundir, sizeof(s->rundir), "%s/rtjitter-loads.XXXXXX", s->tmpdir);
    if (!mkdtemp(s->rundir)) {
        snprintf(buf, len, "cannot create a directory in %s: %s", s->tmpdir, strerror(errno));
        s->rundir[0] = '\0';
        return buf;
    }
    return NULL;
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

static void start_one(struct sup *s, int phase, struct inst *in, const struct load_use *u, int ndisk)
{
    memset(in, 0, sizeof(*in));
    in->c.info = u->info;
    memcpy(in->c.param, u->param, sizeof(in->c.param));
    in->c.arg = u->arg;
    in->tstart = in->t0 = mono_s();
    if (!u->info->run)
        return;
    if (u->info->needs_dir || u->info->needs_disk) {
        if ((in->skip = make_rundir(s, in->skipbuf, sizeof(in->skipbuf))))
            return;
        snprintf(in->dir, sizeof(in->dir), "%s/%d-%s", s->rundir, phase, u->info->name);
        if (mkdir(in->dir, 0700) < 0) {
            snprintf(in->skipbuf, sizeof(in->skipbuf), "cannot create a directory in %s: %s", s->tmpdir,
                     strerror(errno));
            in->skip = in->skipbuf;
            in->dir[0] = '\0';
            return;
        }
        in->c.dir = in->dir;
    }
    if (u->info->needs_disk) {
        /* Never more than half the free space, shared among the disk loads of the phase. */
        struct statvfs v;
        if (statvfs(in->dir, &v) < 0) {
            snprintf(in->skipbuf, sizeof(in->skipbuf), "statvfs %s: %s", s->tmpdir, strerror(errno));
            in->skip = in->skipbuf;
            return;
        }
        uint64_t avail = (uint64_t)v.f_bavail * v.f_frsize;
        in->c.disk_bytes = avail / 2 / (uint64_t)ndisk;
        if (in->c.disk_bytes < (1u << 20)) {
            snprintf(in->skipbuf, sizeof(in->skipbuf), "%s has too little free space (%.1f MB)", s->tmpdir,
                     avail / 1048576.0);
            in->skip = in->skipbuf;
            return;
        }
    }
    if (u->info->unavailable && (in->skip = u->info->unavailable(&in->c, in->skipbuf, sizeof(in->skipbuf))))
        return;
    in->c.shared = mmap(NULL, sizeof(struct load_shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (in->c.shared == MAP_FAILED) {
        in->c.shared = NULL;
        snprintf(in->skipbuf, sizeof(in->skipbuf), "mmap: %s", strerror(errno));
        in->skip = in->skipbuf;
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(in->skipbuf, sizeof(in->skipbuf), "fork: %s", strerror(errno));
        in->skip = in->skipbuf;
        munmap(in->c.shared, sizeof(struct load_shared));
        in->c.shared = NULL;
        return;
    }
    if (pid == 0) {
        child_setup(s, u->info->name);
        u->info->run(&in->c);
        _exit(0);
    }
    setpgid(pid, pid); /* also done by the child: whichever runs first, the group exists before any kill */
    in->pid = pid;
}

static double ru_cpu_s(const struct rusage *ru)
{
    return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 + ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* Did the load end on its own before the phase did? Then keep its status (shell style: 128+signal). */
static void reap_early(struct inst *in)
{
    struct rusage ru;
    int st;
    if (in->pid > 0 && !in->reaped && wait4(in->pid, &st, WNOHANG, &ru) == in->pid) {
        in->reaped = 1;
        in->early = 1;
        in->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        in->child_cpu_s = ru_cpu_s(&ru);
    }
}

/* Ends a load's whole process group (SIGTERM already sent); returns once the leader is reaped and the group is
 * empty. */
static void end_group(struct inst *in)
{
    if (in->pid <= 0)
        return;
    struct rusage ru;
    int st;
    for (int waited = 0; !in->reaped; waited += 10) {
        pid_t r = wait4(in->pid, &st, waited >= STOP_GRACE_MS ? 0 : WNOHANG, &ru);
        if (r == in->pid || (r < 0 && errno == ECHILD)) {
            in->reaped = 1;
            in->status = -1;
            if (r == in->pid) {
                in->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                in->child_cpu_s = ru_cpu_s(&ru);
            }
            break;
        }
        if (waited == STOP_GRACE_MS)
            kill(-in->pid, SIGKILL);
        else if (waited < STOP_GRACE_MS)
            nap_ms(10);
    }
    /* Whatever is left of the group (compilers, hackbench workers) comes back to us as we are a subreaper: kill
     * it, and reap it until the group is empty. */
    kill(-in->pid, SIGKILL);
    for (int i = 0; i < 200; i++) {
        while (waitpid(-in->pid, &st, WNOHANG) > 0)
            ;
        if (kill(-in->pid, 0) < 0 && errno == ESRCH)
            break;
        nap_ms(5);
    }
}

/* Last resort at exit: kill every remaining descendant that came back to us, whatever group it moved to. */
static void kill_all_children(struct sup *s)
{
    for (int round = 0; round < 20; round++) {
        char path[64], buf[4096];
        snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)s->self, (int)s->self);
        int fd = open(path, O_RDONLY | O_CLOEXEC), any = 0;
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
        if (fd >= 0)
            close(fd);
        if (n > 0) {
            buf[n] = '\0';
            for (char *p = buf, *e; *p; p = e) {
                long pid = strtol(p, &e, 10);
                if (e == p)
                    break;
                if (pid > 0) {
                    kill((pid_t)pid, SIGKILL);
                    any = 1;
                }
            }
        }
        int st;
        while (waitpid(-1, &st, any ? 0 : WNOHANG) > 0)
            ;
        if (!any)
            break;
    }
}


static void append_error(struct sup_reply *r, const char *load, const char *msg)
{
    size_t o = strlen(r->error);
    snprintf(r->error + o, sizeof(r->error) - o, "%s%s: %s", o ? "; " : "", load, msg);
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
    for (int i = 0; i < s->ninst; i++)
        reap_early(&s->inst[i]);
    for (int i = 0; i < s->ninst; i++) /* all groups at once: the phase ends for every load together */
        if (s->inst[i].pid > 0)
            kill(-s->inst[i].pid, SIGTERM);
    for (int i = 0; i < s->ninst; i++)
        end_group(&s->inst[i]);
    for (int i = 0; i < s->ninst; i++) {
        struct inst *in = &s->inst[i];
        const struct load_info *li = in->c.info;
        if (in->skip) {
            char msg[300];
            snprintf(msg, sizeof(msg), "skipped: %s", in->skip);
            append_error(r, li->name, msg);
        } else if (in->c.shared) {
            struct load_sample smp = { .wall_s = t1 - in->t0, .cpu_s = cpu1[i] - in->cpu0,
                                       .exit_status = in->status, .ended_early = in->early,
                                       .child_cpu_s = in->child_cpu_s,
                                       .life_s = t1 - in->tstart };
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
                char msg[300], line[200] = "";
                load_last_line(in->dir, "output.log", line, sizeof(line));
                snprintf(msg, sizeof(msg), "the command exited with status %d%s%s", in->status,
                         line[0] ? ": " : "", line);
                append_error(r, li->name, msg);
            }
            munmap(in->c.shared, sizeof(struct load_shared));
            in->c.shared = NULL;
        }
        rm_tree(in->dir);
    }
    s->ninst = 0;
    s->phase = -1;
    /* Between phases no process of ours should live: whatever escaped its group (a daemonising command) and came
     * back to us as subreaper goes now, not at the end of the run. */
    kill_all_children(s);
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
        start_one(s, phase, &s->inst[j], &ph->use[j], ndisk ? ndisk : 1);
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

static void __attribute__((noreturn)) finish(struct sup *s)
{
    struct sup_reply r;
    if (s->phase >= 0) {
        memset(&r, 0, sizeof(r));
        stop_phase(s, &r);
    }
    kill_all_children(s);
    rm_tree(s->rundir);
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
        if (p[1].revents)
            finish(s); /* SIGTERM: someone wants us gone; leave nothing behind */
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

int supervisor_spawn(const struct load_spec *spec, const char *tmpdir, pid_t *pid, int *fd)
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
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_SETMASK, &term, NULL);
    int sfd = signalfd(-1, &term, SFD_CLOEXEC);
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
    s.tmpdir = tmpdir;
    s.fd = sv[1];
    s.sigfd = sfd;
    s.self = getpid();
    s.phase = -1;
    serve(&s);
}
