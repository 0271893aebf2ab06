/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's clock settings and the quantum a sweep forces (pw_settings.h). Main thread only: forks pw-metadata,
 * reads and writes the state file; never in the RT thread. */
#include "jack/pw_settings.h"
#include "rtclock.h"
#include "util/procstat.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PW_DEADLINE_MS 2000 /* pw-metadata waits on the PipeWire server: a hung one must not hold us */

/* Runs pw-metadata with args (NULL-terminated, after "pw-metadata"), its stdout into out (NUL-terminated, may be
 * cut) when out is not NULL, within PW_DEADLINE_MS; killed by its pid after that. Its own exit status, or -errno
 * (-ETIMEDOUT, -ENOENT: it could not be run). */
static int pw_metadata(const char *const *args, char *out, size_t outlen)
{
    const char *argv[12];
    int a = 0;
    argv[a++] = "pw-metadata";
    for (int i = 0; args[i] && a < 11; i++)
        argv[a++] = args[i];
    argv[a] = NULL;
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        return -e;
    }
    if (pid == 0) {
        /* the caller may block its stop signals (src/run/signals.c): this child must hear them */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setpgid(0, 0); /* a Ctrl-C at the terminal goes to rtjitter, which ends its work in order (restoring) */
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 2);
        }
        dup2(p[1], 1);
        execvp("pw-metadata", (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    size_t got = 0;
    int timed_out = 0;
    int64_t until = mono_ns() + PW_DEADLINE_MS * 1000000LL;
    for (;;) {
        int64_t left = (until - mono_ns()) / 1000000;
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf = { .fd = p[0], .events = POLLIN };
        int r = poll(&pf, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            timed_out = r == 0;
            break;
        }
        char buf[1024];
        ssize_t n = read(p[0], buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (out && got + 1 < outlen) {
            size_t k = (size_t)n < outlen - 1 - got ? (size_t)n : outlen - 1 - got;
            memcpy(out + got, buf, k);
            got += k;
        }
    }
    close(p[0]);
    if (out && outlen)
        out[got] = '\0';
    int st = 0;
    if (timed_out)
        kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (timed_out)
        return -ETIMEDOUT;
    if (WIFEXITED(st))
        return WEXITSTATUS(st) == 127 ? -ENOENT : WEXITSTATUS(st);
    return -EIO;
}

json_t *pw_settings_read(void)
{
    static const char *const args[] = { "-n", "settings", "0", NULL };
    char text[8192];
    if (pw_metadata(args, text, sizeof(text)) != 0)
        return NULL;
    json_t *o = json_object();
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char key[128], val[128];
        const char *k = strstr(line, "key:'"), *v = strstr(line, "value:'");
        if (!k || !v || sscanf(k, "key:'%127[^']'", key) != 1 || sscanf(v, "value:'%127[^']'", val) != 1)
            continue;
        if (strncmp(key, "clock.", 6) == 0)
            json_object_set_new(o, key, json_string(val));
    }
    if (json_object_size(o) == 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

long pw_settings_int(const json_t *settings, const char *key, long def)
{
    const char *s = json_string_value(json_object_get(settings, key));
    if (!s)
        return def;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return end == s || *end || errno ? def : v;
}

int pw_settings_set(const char *key, long value)
{
    char v[32];
    snprintf(v, sizeof(v), "%ld", value);
    const char *const args[] = { "-n", "settings", "0", key, v, NULL };
    int r = pw_metadata(args, NULL, 0);
    return r > 0 ? -EIO : r;
}

/* ---- the state file ---- */


/* The state directory ($XDG_RUNTIME_DIR/rtjitter, 0700, created) and the file's name for this PipeWire (its socket:
 * $PIPEWIRE_REMOTE or pipewire-0). Returns an fd of the directory (never through a symlink) or -errno (-ENOENT: no
 * XDG_RUNTIME_DIR, or no directory and create is 0). */
static int state_dir(struct pw_force *f, int create, char *err, size_t errlen)
{
    const char *rt = getenv("XDG_RUNTIME_DIR");
    if (!rt || rt[0] != '/') {
        snprintf(err, errlen, "XDG_RUNTIME_DIR is not set: there is no place to keep PipeWire's quantum to restore");
        return -ENOENT;
    }
    if ((size_t)snprintf(f->dir, sizeof(f->dir), "%s/rtjitter", rt) >= sizeof(f->dir)) {
        snprintf(err, errlen, "XDG_RUNTIME_DIR is too long");
        return -ENAMETOOLONG;
    }
    const char *remote = getenv("PIPEWIRE_REMOTE");
    remote = remote && remote[0] ? (strrchr(remote, '/') ? strrchr(remote, '/') + 1 : remote) : "pipewire-0";
    int o = snprintf(f->name, sizeof(f->name), "pipewire-quantum.");
    for (const char *c = remote; *c && o + 1 < (int)sizeof(f->name); c++)
        f->name[o++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                       *c == '-' || *c == '_' ? *c : '_';
    f->name[o] = '\0';
    if (create && mkdir(f->dir, 0700) < 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "cannot create %s: %s", f->dir, strerror(e));
        return -e;
    }
    int fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && !create)
        return -ENOENT;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_uid != getuid() || (st.st_mode & 077)) {
        int e = fd < 0 ? errno : EPERM;
        if (fd >= 0)
            close(fd);
        snprintf(err, errlen, "%s is not a private directory of this user: %s", f->dir, strerror(e));
        return -e;
    }
    return fd;
}

struct state {
    long quantum, rate;
    pid_t pid;
    unsigned long long start;
};

/* Reads the state file name in dfd. 0, -ENOENT (none), or -EINVAL (not one of ours). */
static int state_read(int dfd, const char *name, struct state *s)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    char buf[512];
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -EINVAL;
    buf[n] = '\0';
    int pid = 0;
    if (sscanf(buf, "rtjitter pipewire force\nforce-quantum %ld\nforce-rate %ld\npid %d\nstart %llu", &s->quantum,
               &s->rate, &pid, &s->start) != 4 || pid <= 0)
        return -EINVAL;
    s->pid = pid;
    return 0;
}

/* Is the owner of s still the process that wrote it? */
static int owner_alive(const struct state *s)
{
    unsigned long long now = proc_start_ticks(s->pid);
    return now != 0 && now == s->start;
}

int pw_force_recover(int quiet, pid_t *owner)
{
    struct pw_force f;
    char err[256];
    memset(&f, 0, sizeof(f));
    if (owner)
        *owner = 0;
    int dfd = state_dir(&f, 0, err, sizeof(err));
    if (dfd < 0)
        return dfd == -ENOENT ? 0 : dfd;
    struct state s;
    int e = state_read(dfd, f.name, &s);
    if (e < 0) {
        close(dfd);
        return e == -ENOENT ? 0 : e;
    }
    if (owner_alive(&s)) {
        close(dfd);
        if (owner)
            *owner = s.pid;
        return s.pid == getpid() ? 0 : (int)s.pid;
    }
    /* One recoverer only: the file is renamed to a name of this process first (atomic); a second one finds none. */
    char mine[160];
    snprintf(mine, sizeof(mine), "%s.recover.%d", f.name, (int)getpid());
    if (renameat(dfd, f.name, dfd, mine) < 0) {
        close(dfd);
        return errno == ENOENT ? 0 : -errno;
    }
    e = pw_settings_set("clock.force-quantum", s.quantum);
    if (e == 0)
        e = pw_settings_set("clock.force-rate", s.rate);
    if (e < 0) {
        renameat(dfd, mine, dfd, f.name); /* kept for the next start */
        close(dfd);
        if (!quiet)
            fprintf(stderr, "rtjitter: PipeWire: cannot set back the quantum a sweep (pid %d) that died left forced:"
                    " %s; run: pw-metadata -n settings 0 clock.force-quantum %ld\n", (int)s.pid, strerror(-e),
                    s.quantum);
        return e;
    }
    unlinkat(dfd, mine, 0);
    close(dfd);
    if (!quiet)
        fprintf(stderr, "rtjitter: PipeWire: a sweep (pid %d) died while it forced the quantum: set back "
                "clock.force-quantum %ld and clock.force-rate %ld, as they were before it\n", (int)s.pid, s.quantum,
                s.rate);
    return 1;
}

int pw_force_take(struct pw_force *f, int quiet, char *err, size_t errlen)
{
    memset(f, 0, sizeof(*f));
    pid_t owner = 0;
    int e = pw_force_recover(quiet, &owner);
    if (e > 1 || (owner > 0 && owner == getpid())) {
        snprintf(err, errlen, "another rtjitter sweep (pid %d) is changing PipeWire's quantum now", (int)owner);
        return -EBUSY;
    }
    json_t *set = pw_settings_read();
    if (!set) {
        snprintf(err, errlen, "cannot read PipeWire's settings: pw-metadata -n settings 0 gave none within %d s (is "
                 "PipeWire running for this XDG_RUNTIME_DIR, and pw-metadata installed?)", PW_DEADLINE_MS / 1000);
        return -EIO;
    }
    f->old_quantum = pw_settings_int(set, "clock.force-quantum", 0);
    f->old_rate = pw_settings_int(set, "clock.force-rate", 0);
    json_decref(set);
    int dfd = state_dir(f, 1, err, errlen);
    if (dfd < 0)
        return dfd;
    char tmp[192], text[256];
    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", f->name, (int)getpid());
    int n = snprintf(text, sizeof(text), "rtjitter pipewire force\nforce-quantum %ld\nforce-rate %ld\npid %d\n"
                     "start %llu\n", f->old_quantum, f->old_rate, (int)getpid(), proc_start_ticks(getpid()));
    unlinkat(dfd, tmp, 0); /* a leftover of an earlier process of this pid */
    int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, text, (size_t)n) != n || fsync(fd) < 0) {
        e = errno ? errno : EIO;
        if (fd >= 0)
            close(fd);
        unlinkat(dfd, tmp, 0);
        close(dfd);
        snprintf(err, errlen, "cannot write %s/%s: %s", f->dir, tmp, strerror(e));
        return -e;
    }
    close(fd);
    /* link, not rename: it fails when a state file is there, so two sweeps never both own one */
    e = linkat(dfd, tmp, dfd, f->name, 0) < 0 ? errno : 0;
    unlinkat(dfd, tmp, 0);
    close(dfd);
    if (e) {
        snprintf(err, errlen, e == EEXIST ? "another rtjitter sweep is changing PipeWire's quantum now (%s/%s)"
                                          : "cannot write %s/%s", f->dir, f->name);
        return e == EEXIST ? -EBUSY : -e;
    }
    f->held = 1;
    return 0;
}

int pw_force_set(struct pw_force *f, int quantum, int rate, char *err, size_t errlen)
{
    (void)f;
    int e = pw_settings_set("clock.force-quantum", quantum);
    if (e == 0 && rate > 0)
        e = pw_settings_set("clock.force-rate", rate);
    if (e < 0) {
        snprintf(err, errlen, "pw-metadata -n settings 0 clock.force-quantum %d failed: %s", quantum, strerror(-e));
        return e;
    }
    json_t *set = pw_settings_read();
    long q = pw_settings_int(set, "clock.force-quantum", -1), r = pw_settings_int(set, "clock.force-rate", -1);
    json_decref(set);
    if (q != quantum || (rate > 0 && r != rate)) {
        snprintf(err, errlen, "PipeWire's settings read back clock.force-quantum %ld and clock.force-rate %ld, not %d "
                 "and %d", q, r, quantum, rate);
        return -EIO;
    }
    return 0;
}

int pw_force_restore(struct pw_force *f)
{
    if (!f->held)
        return 0;
    int e = pw_settings_set("clock.force-quantum", f->old_quantum);
    if (e == 0)
        e = pw_settings_set("clock.force-rate", f->old_rate);
    if (e < 0)
        return e; /* the state file stays: the next start sets them back */
    int dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd >= 0) {
        unlinkat(dfd, f->name, 0);
        close(dfd);
    }
    f->held = 0;
    return 0;
}

void pw_force_session_check(struct backend_session *s)
{
    s->buffer_change = "pipewire_force_quantum";
    s->not_in_force = " (PipeWire: clock.force-quantum was set, yet the graph ran another size: see "
                      "pw-metadata -n settings 0 and pw-top)";
}

int pw_force_session_begin(struct pw_force *f, struct backend_session *s, char *err, size_t len)
{
    char why[512];
    int e = pw_force_take(f, s->quiet, why, sizeof(why));
    if (e < 0) {
        snprintf(err, len, "PipeWire: %s", why);
        s->why = "PipeWire's quantum could not be taken over";
        return e;
    }
    /* said even with --quiet: every other client of this PipeWire hears it */
    fprintf(stderr, "%s: PipeWire: the whole PipeWire graph (every client of it) runs at each size tried while the "
            "sweep lasts (clock.force-quantum, clock.force-rate); set back after to clock.force-quantum %ld, "
            "clock.force-rate %ld (kept in %s/%s until then)\n", s->who, f->old_quantum, f->old_rate, f->dir, f->name);
    return 0;
}

int pw_force_session_period(struct pw_force *f, const struct backend_config *cfg, char *err, size_t len)
{
    char why[300];
    int e = pw_force_set(f, cfg->period_frames, cfg->rate_hz, why, sizeof(why));
    if (e < 0)
        snprintf(err, len, "PipeWire did not take the size: %s (the command: pw-metadata -n settings 0 "
                 "clock.force-quantum %d)", why, cfg->period_frames);
    return e;
}

void pw_force_session_end(struct pw_force *f, const struct backend_session *s, int *restored)
{
    if (!f->held)
        return;
    /* the main path, after an interrupt too (signals only set a flag): PipeWire chooses again */
    int e = pw_force_restore(f);
    *restored = e < 0 ? e : 1;
    if (e < 0)
        fprintf(stderr, "%s: PipeWire: cannot set the quantum back (%s): the next start of rtjitter does it, or run: "
                "pw-metadata -n settings 0 clock.force-quantum %ld; pw-metadata -n settings 0 clock.force-rate %ld\n",
                s->who, strerror(-e), f->old_quantum, f->old_rate);
    else if (!s->quiet)
        fprintf(stderr, "%s: PipeWire: clock.force-quantum set back to %ld, clock.force-rate to %ld\n", s->who,
                f->old_quantum, f->old_rate);
}

void pw_force_session_describe(const struct pw_force *f, int restored, json_t *audio)
{
    json_object_set_new(audio, "pipewire", json_pack("{s:I, s:I, s:b}", "force_quantum_before",
                        (json_int_t)f->old_quantum, "force_rate_before", (json_int_t)f->old_rate,
                        "restored", restored == 1));
}
