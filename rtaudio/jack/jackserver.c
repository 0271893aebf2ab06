/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jack/jackserver.h"
#include "rtclock.h"
#include "jack/jack_client.h"
#include "util/jackreg.h"
#include "util/procstat.h"
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define START_WAIT_MS 20000 /* how long a private jackd may take to accept clients */


/* jackd's start-up banner and chatter: never the reason it died. */
static int banner_line(const char *l)
{
    static const char *const starts[] = {
        "jackdmp ", "jackd ", "Copyright", "This is free software", "under certain conditions",
        "JACK server starting", "self-connect-mode", "no message buffer", "Display ", "Acquire audio card",
        "creating alsa driver", "configuring for", NULL,
    };
    for (int i = 0; starts[i]; i++)
        if (strncmp(l, starts[i], strlen(starts[i])) == 0)
            return 1;
    return strstr(l, "comes with ABSOLUTELY NO WARRANTY") != NULL;
}

/* A line that says what went wrong. */
static int error_line(const char *l)
{
    return strcasestr(l, "fail") || strcasestr(l, "error") || strcasestr(l, "cannot") || strcasestr(l, "can't") ||
           strcasestr(l, "too many") || strcasestr(l, "unknown") || strcasestr(l, "not a master") ||
           strcasestr(l, "no such") || strcasestr(l, "denied") || strcasestr(l, "invalid");
}

/* A wrapper that only says that it failed ("Failed to open server"): a more specific line is preferred. */
static int generic_line(const char *l)
{
    return strcasestr(l, "failed to open server") || strcasestr(l, "failed to start server") ||
           strcasestr(l, "JackServer::Open failed") || strcasestr(l, "JackServer::Start");
}

void jackserver_reason(const char *text, char *out, size_t outlen)
{
    /* first specific error line; else the first error line; else the last meaningful line; else the last line of
     * a library's log (PipeWire's "[W][time] ..." lines, when pw-jack made jackd load PipeWire's libjackserver) */
    char specific[256] = "", anyerr[256] = "", last[256] = "", lastlog[256] = "";
    out[0] = '\0';
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), p);
        p = nl ? nl + 1 : NULL;
        /* trim */
        size_t n = strlen(line);
        while (n && (line[n - 1] == ' ' || line[n - 1] == '\r' || line[n - 1] == '\t'))
            line[--n] = '\0';
        const char *l = line;
        while (*l == ' ' || *l == '\t')
            l++;
        if (!*l || banner_line(l))
            continue;
        if (l[0] == '[' && l[1] && strchr("EWIDT", l[1]) && l[2] == ']') {
            /* the message after the source location: "[W][time] mod | [ file: line func()] message" */
            const char *m = strrchr(l, ']');
            snprintf(lastlog, sizeof(lastlog), "%s", m[1] ? m + 1 + strspn(m + 1, " ") : l);
            continue;
        }
        snprintf(last, sizeof(last), "%s", l);
        if (error_line(l)) {
            if (!anyerr[0])
                snprintf(anyerr, sizeof(anyerr), "%s", l);
            if (!specific[0] && !generic_line(l))
                snprintf(specific, sizeof(specific), "%s", l);
        }
    }
    const char *pick = specific[0] ? specific : anyerr[0] ? anyerr : last[0] ? last : lastlog;
    snprintf(out, outlen, "%s", pick);
}

/* The server's reason for dying, from its log (jackserver_reason). */
static void last_log_line(const char *path, char *out, size_t outlen)
{
    char text[16384];
    out[0] = '\0';
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, text, sizeof(text) - 1);
    close(fd);
    if (n <= 0)
        return;
    text[n] = '\0';
    jackserver_reason(text, out, outlen);
}

/* The pid in "rtjitter-PID" at p (followed by '_', '.', '-' (rtjitter-PID-RANDOM-server, rtjitter-PID-RANDOM-sweep,
 * rtjitter-PID-server of an older rtjitter) or the end), or 0. */
static pid_t our_pid_at(const char *p)
{
    if (strncmp(p, "rtjitter-", 9) != 0)
        return 0;
    char *end;
    long v = strtol(p + 9, &end, 10);
    if (end == p + 9 || v <= 0 || v > 4194304 || (*end && *end != '_' && *end != '.' && *end != '-'))
        return 0;
    return (pid_t)v;
}

/* 1 when name names a server or client "rtjitter-PID" whose process is gone. */
static int names_dead_rtjitter(const char *name)
{
    for (const char *p = name; (p = strstr(p, "rtjitter-")); p++) {
        if (p != name && p[-1] != '_' && p[-1] != '.')
            continue;
        pid_t pid = our_pid_at(p);
        if (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)
            return 1;
    }
    return 0;
}

/* What an earlier rtjitter that was SIGKILLed left behind: its private server's log directory in the temp dir,
 * and the semaphores and shared memory jack2 keeps in /dev/shm for a server or client named rtjitter-PID. Only
 * names rtjitter makes, whose PID is dead, owned by this user; removed through directory descriptors, never
 * following a symlink. */
static void clean_stale(const char *tmp)
{
    DIR *d = opendir("/dev/shm");
    struct dirent *de;
    char uidp[32];
    snprintf(uidp, sizeof(uidp), "jack_sem.%u_", (unsigned)getuid());
    if (d) {
        while ((de = readdir(d))) {
            const char *n = de->d_name;
            int sem = strncmp(n, uidp, strlen(uidp)) == 0, sock = strncmp(n, "jack_rtjitter-", 14) == 0;
            struct stat st;
            /* a semaphore is a file; a server's socket (jack_NAME_UID_0), left by a killed jackd, a socket */
            if ((sem || sock) && names_dead_rtjitter(n) && fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                (S_ISREG(st.st_mode) || (sock && S_ISSOCK(st.st_mode))) && st.st_uid == getuid())
                unlinkat(dirfd(d), n, 0);
        }
        closedir(d);
    }
    if (!(d = opendir(tmp)))
        return;
    while ((de = readdir(d))) {
        struct stat st;
        if (!names_dead_rtjitter(de->d_name) || !strstr(de->d_name, ".jackd") ||
            fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != getuid())
            continue;
        int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        unlinkat(fd, "jackd.log", 0);
        close(fd);
        unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

static pid_t spawn_jackd(const char *const *argv, int out_fd);
void jackserver_stop(struct private_server *s);

/* When jack2's registry has no free slot: one line in err saying what holds them and the command that frees the
 * dead ones (util/jackreg.h), and 1; else 0. */
static int registry_full(char *err, size_t errlen)
{
    struct jackreg r;
    if (jackreg_read("", &r) < 0 || r.held < JACKREG_SLOTS)
        return 0;
    char cmd[640];
    jackreg_free_command(&r, (int)getuid(), cmd, sizeof(cmd));
    if (r.dead && cmd[0] &&
        snprintf(err, errlen, "jack2's registry of servers is full (%d of %d slots, %d held by dead servers; "
                 "`rtjitter check` names them), so no jackd can start; free the dead ones with: %s", r.held,
                 JACKREG_SLOTS, r.dead, cmd) >= (int)errlen)
        snprintf(err, errlen, "jack2's registry of servers is full (%d of %d slots, %d held by dead servers), so no "
                 "jackd can start: `rtjitter check` names them and gives the command that frees them", r.held,
                 JACKREG_SLOTS, r.dead); /* never a command cut short */
    else if (!r.dead || !cmd[0]) {
        char who[400];
        jackreg_describe(&r, who, sizeof(who));
        snprintf(err, errlen, "jack2's registry of servers is full, so no jackd can start: %s; %s", who,
                 r.dead ? "the dead ones are freed when a server of the same name starts and stops"
                        : "stop one of these servers (by its pid)");
    }
    return 1;
}

/* The private directory of the server's log: TMP/rtjitter-PID.jackd.XXXXXX, 0700. */
static int make_log_dir(struct private_server *s, const char *tmp, char *err, size_t errlen)
{
    char dir[sizeof(s->log_dir)];
    if (snprintf(dir, sizeof(dir), "%s/%s.jackd.XXXXXX", tmp, s->name) >= (int)sizeof(dir)) {
        snprintf(err, errlen, "temp dir name too long: %s", tmp);
        return -ENAMETOOLONG;
    }
    if (!mkdtemp(dir)) {
        int e = errno;
        snprintf(err, errlen, "cannot create a private directory in %s: %s", tmp, strerror(e));
        return -e;
    }
    snprintf(s->log_dir, sizeof(s->log_dir), "%s", dir);
    snprintf(s->log_path, sizeof(s->log_path), "%s/jackd.log", dir);
    return 0;
}

static void remove_log(struct private_server *s)
{
    if (!s->log_dir[0])
        return;
    int fd = open(s->log_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        unlinkat(fd, "jackd.log", 0);
        close(fd);
    }
    rmdir(s->log_dir);
    s->log_dir[0] = '\0';
}

/* fork + exec jackd with stdout and stderr on out_fd (-1: inherited). The server gets SIGTERM when rtjitter dies,
 * even by SIGKILL: then jackd removes its entry from the registry. Returns the pid or -errno. */
static pid_t spawn_jackd(const char *const *argv, int out_fd)
{
    pid_t ppid = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return -errno;
    if (pid == 0) {
        /* Die with rtjitter, even when it is killed with SIGKILL. SIGTERM, not SIGKILL: jackd then removes its
         * entry from JACK's shared-memory registry, which holds only 8 servers and keeps dead ones. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != ppid)
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setpgid(0, 0); /* a Ctrl-C at the terminal goes to rtjitter, which stops the server in order */
        if (out_fd >= 0) {
            dup2(out_fd, 1);
            dup2(out_fd, 2);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        execvp("jackd", (char *const *)argv);
        fprintf(stderr, "cannot run jackd: %s\n", strerror(errno));
        _exit(127);
    }
    return pid;
}

int jackserver_start(struct private_server *s, const char *device, int rate_hz, int period_frames,
                     int nperiods, int priority, char *err, size_t errlen)
{
    /* Not "rtjitter-PID" alone: jack2 refuses a second client of this process (the --loopback internal loop
     * client, status 0x11) on a server named like the first client. */
    return jackserver_start_named(s, "server", device, rate_hz, period_frames, nperiods, priority, err, errlen);
}

int jackserver_start_named(struct private_server *s, const char *suffix, const char *device, int rate_hz,
                           int period_frames, int nperiods, int priority, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    /* A random part: jack2 makes its semaphores and socket in the world-writable /dev/shm under the server's name,
     * and a user who plants a file or directory there first makes a root jackd fail ("can't check in named futex
     * ... Invalid argument"). rtjitter-PID alone was guessable. */
    uint32_t rnd;
    if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
        int e = errno;
        snprintf(err, errlen, "cannot draw a random name for the private jackd: %s", strerror(e));
        return -e;
    }
    snprintf(s->name, sizeof(s->name), "rtjitter-%d-%08x%s%s", (int)getpid(), (unsigned)rnd, suffix ? "-" : "",
             suffix ? suffix : "");
    snprintf(s->driver, sizeof(s->driver), "%s", device ? "alsa" : "dummy");
    snprintf(s->device, sizeof(s->device), "%s", device ? device : "");
    s->rate_hz = rate_hz;
    s->period_frames = period_frames;
    s->nperiods = nperiods;
    s->priority = priority;
    const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    clean_stale(tmp);
    jackreg_reclaim(NULL); /* the slots of dead rtjitter servers (a SIGKILL, a crash) */
    if (registry_full(err, errlen))
        return -EUSERS;
    int le = make_log_dir(s, tmp, err, errlen);
    if (le < 0)
        return le;

    char rate[16], period[16], np[16], prio[16];
    snprintf(rate, sizeof(rate), "%d", rate_hz);
    snprintf(period, sizeof(period), "%d", period_frames);
    snprintf(np, sizeof(np), "%d", nperiods);
    snprintf(prio, sizeof(prio), "%d", priority);
    const char *argv[24];
    int a = 0;
    argv[a++] = "jackd";
    argv[a++] = "-n";
    argv[a++] = s->name;
    argv[a++] = "-R";
    argv[a++] = "-P";
    argv[a++] = prio;
    argv[a++] = "-d";
    argv[a++] = s->driver;
    if (device) {
        argv[a++] = "-d";
        argv[a++] = device;
        argv[a++] = "-n";
        argv[a++] = np;
    }
    argv[a++] = "-r";
    argv[a++] = rate;
    argv[a++] = "-p";
    argv[a++] = period;
    argv[a] = NULL;

    int fd = open(s->log_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create %s: %s", s->log_path, strerror(e));
        remove_log(s);
        return -e;
    }
    pid_t pid = spawn_jackd(argv, fd);
    if (pid < 0) {
        close(fd);
        snprintf(err, errlen, "fork: %s", strerror(-pid));
        remove_log(s);
        return pid;
    }
    close(fd);
    s->pid = pid;
    int64_t stop_seen = 0; /* when a stop signal was first seen pending */
    /* 20 s: beside a busy test suite (servers starting at once, the registry's lock) a start took more than 5 s,
     * and once (ci37, jack_slots, seven tests beside it) more than 10 s; a stop signal does not wait for it (below) */
    for (int64_t until = mono_ns() + START_WAIT_MS * 1000000LL; mono_ns() < until;) {
        if (!jackserver_alive(s)) {
            char last[256];
            last_log_line(s->log_path, last, sizeof(last));
            remove_log(s);
            if (registry_full(err, errlen)) /* "Too many servers already active": what holds them */
                return -EUSERS;
            snprintf(err, errlen, "private jackd (%s driver) exited at start: %s", s->driver,
                     last[0] ? last : "it printed nothing but its banner");
            return -ECHILD;
        }
        /* A probe waits on the server without a deadline: one that was stopped (SIGSTOP) or hangs as it starts
         * held rtjitter here for good, deaf to Ctrl-C (seen beside a busy suite). */
        int up = rtj_jack_server_answers(s->name, 500);
        if (up == 1)
            return 0;
        /* Stop signals are blocked and wait for the run's loop (src/run/signals.c), which writes the report marked
         * incomplete once the server is up: a server that is merely slow (a busy machine) is waited for. One that
         * will not come up, stopped (SIGSTOP, its state in /proc) or not answering a probe, would hold the stop for
         * good: a stop already pending ends the start-up then, without a report (nothing was measured). A slow one
         * is given 1 s after the stop came, so that the run still ends within the 2 s it promises (seen: a SIGTERM
         * 2.5 s after the start beside a busy suite, the server not up yet, exit after more than 2 s). */
        sigset_t pend;
        int stop_pending = sigpending(&pend) == 0 &&
            (sigismember(&pend, SIGINT) || sigismember(&pend, SIGTERM) || sigismember(&pend, SIGHUP));
        if (stop_pending && !stop_seen)
            stop_seen = mono_ns();
        if (stop_pending && (up < 0 || proc_stopped(s->pid) || mono_ns() - stop_seen > 1000 * 1000000LL)) {
            snprintf(err, errlen, up < 0 || proc_stopped(s->pid)
                     ? "interrupted while the private jackd, which does not answer, was starting"
                     : "interrupted while the private jackd was starting (not up 1 s after the stop): nothing measured");
            jackserver_stop(s);
            return -EINTR;
        }
        mono_nap_ms(100);
    }
    jackserver_stop(s);
    if (registry_full(err, errlen))
        return -EUSERS;
    snprintf(err, errlen, "private jackd did not accept clients within %d s", START_WAIT_MS / 1000);
    return -ETIMEDOUT;
}

const char *jackserver_log_path(const struct private_server *s)
{
    return s && s->pid > 0 && s->log_dir[0] ? s->log_path : NULL;
}

int jackserver_alive(struct private_server *s)
{
    if (s->pid <= 0)
        return 0;
    int st;
    pid_t r = waitpid(s->pid, &st, WNOHANG);
    if (r == s->pid) {
        s->pid = -s->pid; /* reaped: remember it was there */
        return 0;
    }
    return r == 0;
}

void jackserver_stop(struct private_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        kill(s->pid, SIGCONT); /* a stopped server would keep the SIGTERM pending */
        int st;
        for (int waited = 0; waited < 1000; waited += 20) {
            if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
                s->pid = 0;
                break;
            }
            mono_nap_ms(20);
        }
        if (s->pid > 0) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
        }
    }
    s->pid = 0;
    remove_log(s);
}
