/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guard of a tracefs instance (tracefs.h): a tiny child that outlives nothing. A root run that is SIGKILLed
 * runs no cleanup, and its instance would keep tracing (25 event types, ~28,000 events/s here) until another root
 * run reaped it; the guard removes it, and the tracefs we mounted, as soon as its parent is gone.
 *
 * How it learns of the death, three ways, any one enough: PR_SET_PDEATHSIG (SIGUSR1, which only wakes it; the
 * signal also comes when the *thread* that forked ends, so the guard then asks getppid() whether the process is
 * gone), the end of a pipe whose write end only the parent holds (a child the parent forks without exec holds it
 * too, until it execs or dies), and getppid() every 250 ms.
 *
 * What it holds: nothing the parent needs to exit. Every descriptor is closed but the pipe's read end (stdin,
 * stdout and stderr on /dev/null: a `rtjitter run | tee` ends when rtjitter does), no memory lock (fork does not
 * inherit them), SCHED_OTHER, its own session (a Ctrl-C or a timeout's kill of the run's process group does not
 * reach it: it ends when its parent does). After fork, in a copy of a threaded process, it calls only
 * async-signal-safe functions (system calls): every path is made before the fork. The parent ends it on every
 * normal path (tracefs_close: SIGKILL, then waitpid), after removing the instance itself.
 *
 * Its cost to the audio thread: the fork shares the parent's pages copy-on-write, so the real-time thread's first
 * write to each page it touches faults once (a minor fault, no I/O). Measured on a timer run: 30 minor faults in
 * each real-time thread against 9 without the guard, all within the warm-up (the trace opens as the audio thread
 * becomes known), none after. */
#include "culprit/tracefs.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GUARD_POLL_MS 250
#define GUARD_BUSY_WAIT_MS 2000 /* an instance a dying child of the run still holds open: rmdir says EBUSY */

static void nap_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

int tracefs_instance_remove(const char *instances, const char *name, dev_t dev, ino_t ino, int busy_wait_ms)
{
    int dfd = open(instances, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return -errno;
    struct stat st;
    int e = 0;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        e = -errno;
    else if (!S_ISDIR(st.st_mode) || (ino && (st.st_dev != dev || st.st_ino != ino)))
        e = -ESTALE; /* not the directory we made (a later process of the same PID made its own): not ours */
    if (!e) {
        /* tracing off first: the events stop now, whatever rmdir says */
        int ifd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int on = ifd < 0 ? -1 : openat(ifd, "tracing_on", O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
        if (on >= 0) {
            ssize_t w = write(on, "0", 1);
            (void)w;
            close(on);
        }
        if (ifd >= 0)
            close(ifd);
        for (int waited = 0;; waited += 50) {
            if (unlinkat(dfd, name, AT_REMOVEDIR) == 0) {
                e = 0;
                break;
            }
            e = -errno;
            if (e != -EBUSY || waited >= busy_wait_ms)
                break;
            nap_ms(50);
        }
    }
    close(dfd);
    return e;
}

static void on_wake(int sig)
{
    (void)sig; /* only ends the ppoll */
}

static void close_all_but(int keep)
{
    int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (nul >= 0) {
        for (int fd = 0; fd < 3; fd++)
            if (fd != keep)
                dup2(nul, fd);
    }
    if (keep != 3)
        dup2(keep, 3); /* closes whatever 3 was (perhaps nul, duplicated already) */
    if (close_range(4, ~0U, 0) < 0) {
        struct rlimit rl;
        unsigned max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (unsigned)rl.rlim_cur : 65536;
        for (unsigned fd = 4; fd < max; fd++)
            close((int)fd);
    }
}

/* The guard's whole life (async-signal-safe calls only). */
static void guard_main(const struct tracefs *t, pid_t parent, int rfd, const char *instances)
{
    sigset_t wake, none;
    sigemptyset(&wake);
    sigaddset(&wake, SIGUSR1);
    sigprocmask(SIG_BLOCK, &wake, NULL); /* from here on it wakes only ppoll, below */
    struct sigaction sa = { .sa_handler = on_wake };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    struct sigaction ign = { .sa_handler = SIG_IGN };
    sigemptyset(&ign.sa_mask);
    static const int ignored[] = { SIGINT, SIGQUIT, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGALRM };
    for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
        sigaction(ignored[i], &ign, NULL);
    sigprocmask(SIG_SETMASK, &wake, NULL); /* the parent's blocked stop signals: default again, but ignored */
    sigemptyset(&none);
    prctl(PR_SET_PDEATHSIG, SIGUSR1);
    prctl(PR_SET_NAME, "rtjitter-guard");
    struct sched_param sp = { 0 };
    sched_setscheduler(0, SCHED_OTHER, &sp);
    setsid();
    close_all_but(rfd);
    rfd = 3;
    int watch_pipe = 1;
    while (getppid() == parent) {
        struct pollfd p = { .fd = watch_pipe ? rfd : -1, .events = POLLIN };
        struct timespec ts = { 0, GUARD_POLL_MS * 1000000L };
        int r = ppoll(&p, 1, &ts, &none);
        if (r > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
            char c;
            if (read(rfd, &c, 1) <= 0 && getppid() == parent)
                watch_pipe = 0; /* the parent closed it, living: getppid() and the signal are left */
        }
    }
    tracefs_instance_remove(instances, t->name, t->inst_dev, t->inst_ino, GUARD_BUSY_WAIT_MS);
    if (t->mounted[0]) {
        umount2(t->mounted, UMOUNT_NOFOLLOW | MNT_DETACH);
        rmdir(t->mounted);
    }
    _exit(0);
}

int tracefs_guard_start(struct tracefs *t)
{
    t->guard_pid = 0;
    t->guard_fd = -1;
    char instances[PATH_MAX + 16];
    if (snprintf(instances, sizeof(instances), "%s/instances", t->root) >= (int)sizeof(instances))
        return -ENAMETOOLONG;
    if (!t->made || !t->inst_ino)
        return -EINVAL;
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0)
        return -errno;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = -errno;
        close(pfd[0]);
        close(pfd[1]);
        return e;
    }
    if (pid == 0) {
        close(pfd[1]);
        guard_main(t, parent, pfd[0], instances);
    }
    close(pfd[0]);
    t->guard_pid = pid;
    t->guard_fd = pfd[1];
    return 0;
}

void tracefs_guard_stop(struct tracefs *t)
{
    if (t->guard_pid > 0) {
        kill(t->guard_pid, SIGKILL); /* the parent did the cleanup itself: nothing is left for the guard */
        while (waitpid(t->guard_pid, NULL, 0) < 0 && errno == EINTR)
            ;
        close(t->guard_fd);
    }
    t->guard_pid = 0;
    t->guard_fd = -1;
}
