/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compile: a real compiler run. rtjitter writes a small C source tree under --tmpdir and builds it with `cc` in
 * parallel jobs, again and again (interbench only emulated this). */
#include "load.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { P_JOBS, P_UNITS };
#define UNIT_FUNCS 8 /* measured: 0.17-0.3 s of cc -O2 per unit on the 2-core test VM, busy with other tests */

/* Runs in the supervisor: a missing compiler is a reason to skip, not a failure. */
static const char *unavailable(const struct load_child *c, char *buf, size_t len)
{
    (void)c;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char dir[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof(dir), "%.*s/cc", (int)n, n ? p : ".");
        if (access(dir, X_OK) == 0)
            return NULL;
        p += n + (p[n] == ':');
    }
    snprintf(buf, len, "no C compiler: no cc in PATH (install build-essential)");
    return buf;
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -ENOSPC;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* One translation unit with enough branches and loops to keep the optimiser busy for a fraction of a second.
 * Made in memory and written with write(2), so that a full disk is told by its errno ("No space left on
 * device"), not by a stream's error flag. */
static int write_unit(int dirfd, int u)
{
    char *text = NULL, name[32];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -ENOMEM;
    fprintf(f, "#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n");
    for (int k = 0; k < UNIT_FUNCS; k++) {
        fprintf(f, "static int f%d(int *a, int n)\n{\n    int s = %d;\n    for (int i = 0; i < n; i++) {\n"
                   "        switch ((a[i] + %d) & 7) {\n", k, u * 131 + k, k);
        for (int c = 0; c < 8; c++)
            fprintf(f, "        case %d: s += a[i] * %d - (s >> %d); a[i] ^= s; break;\n", c, k + c + 3, c + 1);
        fprintf(f, "        }\n        for (int j = i; j < n && j < i + %d; j++)\n            s += a[j] %% %d;\n"
                   "    }\n    return s;\n}\n", 4 + k % 5, 7 + k);
    }
    fprintf(f, "int unit%d(int *a, int n)\n{\n    int s = 0;\n", u);
    for (int k = 0; k < UNIT_FUNCS; k++)
        fprintf(f, "    s += f%d(a, n);\n", k);
    fprintf(f, "    return s;\n}\n");
    if (fclose(f) != 0) {
        free(text);
        return -ENOMEM;
    }
    snprintf(name, sizeof(name), "u%d.c", u);
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    int e = fd < 0 ? -errno : write_all(fd, text, len);
    if (fd >= 0 && close(fd) < 0 && e == 0)
        e = -errno;
    free(text);
    return e;
}

/* A compiler job: its stderr goes to a memory file of its own, not to the disk, so that its last words survive a
 * full disk. Runs in the load's working directory, its private directory (set by the supervisor). */
static pid_t spawn_cc(int u, int log, pid_t self)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* A compiler must not outlive its load: if the load process dies, so does it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != self)
        _exit(1);
    /* The compiler's own temporary files (cc's .s between cc1 and as) go into the load's directory, which the
     * supervisor removes, not into /tmp, where a killed cc leaves them behind. Relative: "." is the directory
     * itself, whatever happens to its name. */
    setenv("TMPDIR", ".", 1);
    dup2(log, 2);
    char src[32], obj[32];
    snprintf(src, sizeof(src), "u%d.c", u);
    snprintf(obj, sizeof(obj), "u%d.o", u);
    execlp("cc", "cc", "-O2", "-c", src, "-o", obj, (char *)NULL);
    _exit(127);
}

#define MAX_JOBS 257

static void run(struct load_child *c)
{
    static struct { pid_t pid; int log; } job[MAX_JOBS]; /* static: the load's stack is small */
    int jobs = c->param[P_JOBS] > 0 ? (int)c->param[P_JOBS] : load_online_cpus() + 1;
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    int units = (int)c->param[P_UNITS];
    for (int u = 0; u < units; u++) {
        int e = write_unit(c->dirfd, u);
        if (e < 0) {
            load_fail(c, "cannot write the sources in %s: %s", c->dir, strerror(-e));
            return;
        }
    }
    for (int j = 0; j < jobs; j++) {
        job[j].pid = 0;
        job[j].log = memfd_create("cc-stderr", MFD_CLOEXEC);
        if (job[j].log < 0) {
            load_fail(c, "memfd_create: %s", strerror(errno));
            return;
        }
    }
    pid_t self = getpid();
    int next = 0;
    for (;;) {
        for (int j = 0; j < jobs; j++) {
            if (job[j].pid)
                continue;
            if ((job[j].pid = spawn_cc(next, job[j].log, self)) < 0) {
                load_fail(c, "fork: %s", strerror(errno));
                return;
            }
            next = (next + 1) % units;
        }
        int st;
        pid_t r = waitpid(-1, &st, 0);
        int j = 0;
        while (j < jobs && job[j].pid != r)
            j++;
        if (r < 0 || j == jobs)
            continue;
        job[j].pid = 0;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            load_count(c, 0, 1);
            /* Forget a good job's warnings: the memory file holds one job's output at a time. */
            if (ftruncate(job[j].log, 0) < 0 || lseek(job[j].log, 0, SEEK_SET) < 0) { /* a memory file: never */
            }
            continue;
        }
        char why[200] = "";
        load_last_line_fd(job[j].log, why, sizeof(why));
        if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
            load_fail(c, "cannot run cc");
        else
            load_fail(c, "%scc failed (status %d)%s%s", strstr(why, "No space left") ? "the disk filled up: " : "",
                      WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), why[0] ? ": " : "", why);
        return;
    }
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    if (s->wall_s <= 0)
        return 0;
    return load_metric_set(&m[0], "compile", "units", s->count[0] * 60.0 / s->wall_s, "units/min");
}

const struct load_info load_compile = {
    .name = "compile",
    .summary = "writes a C source tree under --tmpdir and builds it with cc -O2 in parallel jobs, again and again",
    .metric = "compile.units",
    .unit = "units/min",
    .bounds = "a few hundred KB of sources and objects in a private directory, removed at the phase end",
    .example = "compile:units=4",
    .params = { { "jobs", LP_INT, 0, 0, 256, "", "parallel compilers; 0: online CPUs + 1" },
                { "units", LP_INT, 24, 1, 1000, "", "source files in the tree" } },
    .needs_dir = 1,
    .unavailable = unavailable,
    .run = run,
    .report = report,
};
