/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter diagnose`: where this kernel has the timerlat tracer (tracefs available_tracers), runs `rtla timerlat
 * top -q -d DURATION` as a pass of its own, with `-a THRESHOLD` (auto-analysis) where the installed rtla has it
 * (6.3 and later: its `timerlat top --help` lists -a/--auto; Debian 12's 6.1 does not), prints rtla's summary and
 * ours, and keeps it in --json FILE (rtjitter.diagnose/1, the summary's lines kept). Never during a measurement:
 * rtla's timerlat threads run SCHED_FIFO 95 on every CPU and would disturb it; diagnose is its own command.
 * Where timerlat is missing it says why in one line (Debian's kernels build CONFIG_TIMERLAT_TRACER off; Ubuntu's
 * and Fedora's have it) and exits 4. --tracefs DIR (or RTJ_TRACEFS) points at another tracefs tree (the tests: a
 * fake one, with a stand-in rtla in PATH). */
#include "cli/cmd_diagnose.h"
#include "cli/options.h"
#include "culprit/tracefs.h"
#include "culprit/tracefs_rtla.h"
#include "report/doc.h"
#include "util/termtext.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DIAGNOSE_SCHEMA "rtjitter.diagnose/1"
#define DIAG_NOT_AVAILABLE 4
#define RTLA_OUT_MAX (4u << 20)

struct diag_opts {
    double duration_s;
    int threshold_us;
    const char *tracefs, *json;
};

#define O(f) offsetof(struct diag_opts, f)
static const struct opt_def diag_defs[] = {
    { "duration", OPT_DURATION, O(duration_s), 1, 86400, "TIME", "how long rtla measures (default 30s)", NULL, 'd' },
    { "threshold", OPT_INT, O(threshold_us), 0, 1000000, "US", "stop and analyse at a latency of US microseconds "
      "(rtla -a, where it has it; default 100, 0: no auto-analysis)", NULL, 'a' },
    { "tracefs", OPT_STR, O(tracefs), 0, 0, "DIR", "the tracefs to read (default: the mounted one, or "
      "$RTJ_TRACEFS)", NULL, 0 },
    { "json", OPT_STR, O(json), 0, 0, "FILE", "also write the result as JSON (rtjitter.diagnose/1)", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

const struct cli_command cmd_diagnose_info = {
    .name = "diagnose",
    .fn = cmd_diagnose,
    .summary = "rtla timerlat's summary and auto-analysis, as a separate pass, where the kernel has timerlat",
    .synopsis = "[--duration TIME] [--threshold US] [--tracefs DIR] [--json FILE]",
    .description = "Runs rtla timerlat top (root; the kernel's timerlat tracer) for --duration and prints its\n"
                   "per-CPU timer latency summary; where the installed rtla has the auto-analysis (6.3 and later),\n"
                   "it stops at the first latency of --threshold microseconds and says what caused it (IRQ,\n"
                   "softirq or thread interference, a blocking thread, exit from idle). A pass of its own: never\n"
                   "run it beside a measurement (rtla's threads run SCHED_FIFO 95 on every CPU). Where the kernel\n"
                   "has no timerlat tracer (CONFIG_TIMERLAT_TRACER is off in Debian's kernels, on in Ubuntu's and\n"
                   "Fedora's), or rtla or root is missing, it says so in one line. Exit status 0: no latency reached\n"
                   "the threshold; 1: one did; 2: bad usage; 3: rtla failed; 4: not available on this machine.",
    .positional = NULL,
    .defs = diag_defs,
};

/* Runs argv with stdout and stderr into *out (at most RTLA_OUT_MAX), for at most timeout_s (then TERM, and KILL
 * 5 s later). Returns the wait status, or -errno when it could not run. */
static int run_capture(char *const argv[], double timeout_s, char **out)
{
    int fd[2];
    *out = NULL;
    if (pipe2(fd, O_CLOEXEC) < 0)
        return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return -errno;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int killed = 0;
    for (;;) {
        struct pollfd p = { fd[0], POLLIN, 0 };
        int r = poll(&p, 1, 500);
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
        if (el > timeout_s + 5 * killed && killed < 2) {
            kill(pid, killed ? SIGKILL : SIGTERM); /* our child, by its pid */
            killed++;
        }
        if (r <= 0)
            continue;
        if (buf && n == cap && cap < RTLA_OUT_MAX) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (nb)
                buf = nb, cap *= 2;
        }
        char sink[4096];
        ssize_t k = buf && n < cap ? read(fd[0], buf + n, cap - n) : read(fd[0], sink, sizeof(sink));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (buf && n < cap)
            n += (size_t)k;
    }
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (buf)
        buf[n] = '\0';
    *out = buf;
    return st;
}

/* The root's file `name` (a tracefs text file: its size says nothing, read to EOF). NULL when unreadable. */
static char *read_root_file(const char *root, const char *name)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/%s", root, name);
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *b = malloc(65537);
    ssize_t n = b ? read(fd, b, 65536) : -1;
    close(fd);
    if (n < 0) {
        free(b);
        return NULL;
    }
    b[n] = '\0';
    return b;
}

/* One line into buf, cut at its size. */
static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* Why diagnose cannot run here (one line), or NULL; fills root. */
static const char *unavailable(struct tracefs *tf, const char *given, char *why, size_t len)
{
    char err[512];
    if (tracefs_locate(tf, given, err, sizeof(err)) < 0) {
        say(why, len, "no tracefs to read: %s", err);
        return why;
    }
    char *tracers = read_root_file(tf->root, "available_tracers");
    if (!tracers) {
        say(why, len, "%s/available_tracers cannot be read%s", tf->root, geteuid() ? " (it needs root)" : "");
        return why;
    }
    int has = rtla_tracer_listed(tracers, "timerlat");
    tracers[strcspn(tracers, "\n")] = '\0';
    if (!has) {
        say(why, len, "this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER is off, as in Debian's "
                 "kernels; Ubuntu's and Fedora's have it): its tracers are %s", tracers[0] ? tracers : "none");
        free(tracers);
        return why;
    }
    free(tracers);
    if (geteuid() != 0) {
        say(why, len, "rtla timerlat needs root: sudo rtjitter diagnose");
        return why;
    }
    return NULL;
}

/* rtla's version and whether it has the auto-analysis; -1 when rtla is not installed. */
static int rtla_probe(char *version, size_t len, int *has_auto)
{
    char *out = NULL;
    char *const v[] = { "rtla", "--help", NULL }, *const h[] = { "rtla", "timerlat", "top", "--help", NULL };
    int st = run_capture(v, 10, &out);
    if (st < 0 || (WIFEXITED(st) && WEXITSTATUS(st) == 127)) {
        free(out);
        return -1;
    }
    if (!out || rtla_version(out, version, len) < 0)
        snprintf(version, len, "unknown");
    free(out);
    run_capture(h, 10, &out);
    *has_auto = out && rtla_has_auto(out);
    free(out);
    return 0;
}

/* rtla's output line by line, its tabs expanded (8 columns, as a terminal shows them) and every other control
 * character shown visibly (util/termtext.h). */
static void print_visibly(const char *text)
{
    char line[1024], shown[1024 * TERM_ESC_MAX];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n"), o = 0;
        for (size_t i = 0; i < n && o + 9 < sizeof(line); i++) {
            if (p[i] == '\t')
                do
                    line[o++] = ' ';
                while (o % 8);
            else
                line[o++] = p[i];
        }
        line[o] = '\0';
        printf("%s\n", term_str(shown, sizeof(shown), line));
        p += n + (p[n] == '\n');
    }
}

static void print_summary(const json_t *s, int threshold)
{
    const json_t *all = json_object_get(s, "all"), *c;
    const char *unit = json_string_value(json_object_get(s, "unit"));
    size_t i;
    json_int_t max_irq = -1, max_th = -1;
    int cpu_irq = -1, cpu_th = -1;
    json_array_foreach(json_object_get(s, "cpus"), i, c) {
        json_int_t a = json_integer_value(json_object_get(json_object_get(c, "irq"), "max"));
        json_int_t b = json_integer_value(json_object_get(json_object_get(c, "thread"), "max"));
        int cpu = (int)json_integer_value(json_object_get(c, "cpu"));
        if (a > max_irq)
            max_irq = a, cpu_irq = cpu;
        if (b > max_th)
            max_th = b, cpu_th = cpu;
    }
    if (max_th >= 0)
        printf("timer latency: thread at most %lld %s (CPU %d), IRQ at most %lld %s (CPU %d), on %zu CPUs%s\n",
               (long long)max_th, unit, cpu_th, (long long)max_irq, unit, cpu_irq,
               json_array_size(json_object_get(s, "cpus")), json_is_object(all) ? "" : "");
    const json_t *aa = json_object_get(s, "auto_analysis");
    if (json_is_object(aa)) {
        printf("auto-analysis: CPU %lld reached the %d us threshold; its largest part:", (long long)json_integer_value(
               json_object_get(aa, "cpu")), threshold);
        const json_t *best = NULL, *it;
        json_array_foreach(json_object_get(aa, "items"), i, it)
            if (json_is_real(json_object_get(it, "pct")) && strstr(json_string_value(json_object_get(it, "what")),
                "latency") == NULL && (!best || json_real_value(json_object_get(it, "pct")) >
                json_real_value(json_object_get(best, "pct"))))
                best = it;
        char b[128];
        if (best)
            printf(" %s %.2f us (%.1f %%)", term_str(b, sizeof(b), json_string_value(json_object_get(best, "what"))),
                   json_real_value(json_object_get(best, "us")), json_real_value(json_object_get(best, "pct")));
        const json_t *bt = json_object_get(aa, "blocking_thread");
        if (json_is_object(bt))
            printf("; blocking thread %s (pid %lld)", term_str(b, sizeof(b), json_string_value(json_object_get(bt,
                   "comm"))), (long long)json_integer_value(json_object_get(bt, "pid")));
        printf("\n");
    }
}

static int finish(const char *json, json_t *doc, int rc)
{
    int e;
    if (json && doc && (e = doc_write_json(json, DOC_REPLACE, doc)) < 0) {
        fprintf(stderr, "rtjitter diagnose: cannot write %s: %s\n", json, doc_strerror(e));
        rc = rc ? rc : 3;
    }
    json_decref(doc);
    return rc;
}

int cmd_diagnose(int argc, char **argv, const char *command_line)
{
    struct diag_opts o = { .duration_s = 30, .threshold_us = 100 };
    int np = 0;
    int status;
    if (cli_parse(&cmd_diagnose_info, NULL, &o, argc, argv, NULL, 0, &np, &status))
        return status;
    const char *given = o.tracefs ? o.tracefs : getenv("RTJ_TRACEFS");
    if (given && !given[0])
        given = NULL;
    int e = o.json ? doc_check(o.json, DOC_REPLACE) : 0;
    if (e < 0) {
        fprintf(stderr, "rtjitter diagnose: cannot write %s: %s\n", o.json, doc_strerror(e));
        return 2;
    }
    struct tracefs tf;
    char why[600], err[600];
    if (given && tracefs_locate(&tf, given, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter diagnose: --tracefs: %s\n", err);
        return 2;
    }
    json_t *doc = doc_begin(DIAGNOSE_SCHEMA, 1);
    doc_set_origin(doc, command_line, NULL);
    const char *no = unavailable(&tf, given, why, sizeof(why));
    /* a tracefs mounted here only to read available_tracers has no lasting path: null, and said */
    json_object_set_new(doc, "tracefs", tf.root[0] && !tf.mounted[0] ? json_string(tf.root) : json_null());
    json_object_set_new(doc, "tracefs_mounted_here", json_boolean(tf.mounted[0] != 0));
    tracefs_close(&tf); /* a tracefs mounted only to read available_tracers is unmounted: rtla mounts its own */
    char version[64] = "";
    int has_auto = 0;
    if (!no && rtla_probe(version, sizeof(version), &has_auto) < 0)
        no = "rtla is not installed (Debian and Ubuntu: apt install rtla; Fedora: dnf install rtla)";
    json_object_set_new(doc, "available", json_boolean(!no));
    if (no) {
        printf("rtjitter diagnose: not available: %s\n", no);
        json_object_set_new(doc, "why", json_string(no));
        return finish(o.json, doc, DIAG_NOT_AVAILABLE);
    }
    char dur[32], thr[32];
    snprintf(dur, sizeof(dur), "%.0fs", o.duration_s);
    snprintf(thr, sizeof(thr), "%d", o.threshold_us);
    char *args[10] = { "rtla", "timerlat", "top", "-q", "-d", dur, NULL };
    int use_auto = has_auto && o.threshold_us > 0;
    if (use_auto)
        args[6] = "-a", args[7] = thr, args[8] = NULL;
    json_t *cmd = json_array();
    for (int i = 0; args[i]; i++)
        json_array_append_new(cmd, json_string(args[i]));
    json_object_set_new(doc, "rtla", json_pack("{s:s, s:b, s:o}", "version", version, "auto_analysis", use_auto,
                                               "command", cmd));
    json_object_set_new(doc, "duration_s", json_real(o.duration_s));
    json_object_set_new(doc, "threshold_us", use_auto ? json_integer(o.threshold_us) : json_null());
    printf("rtjitter diagnose: rtla %s timerlat top for %s%s%s (its threads run SCHED_FIFO 95 on every CPU: "
           "measure nothing meanwhile)\n", version, dur, use_auto ? ", auto-analysis at " : "",
           use_auto ? thr : "");
    if (!use_auto)
        printf("rtjitter diagnose: %s\n", has_auto ? "auto-analysis off (--threshold 0)"
               : "this rtla has no auto-analysis (rtla 6.3 and later have it): the summary only");
    fflush(stdout);
    char *out = NULL;
    int st = run_capture(args, o.duration_s + 60, &out);
    json_t *sum = out ? rtla_parse_top(out) : NULL;
    if (out)
        print_visibly(out);
    free(out);
    int code = st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    json_object_set_new(doc, "exit_status", json_integer(code));
    json_object_set_new(doc, "summary", sum ? sum : json_null());
    if (code != 0 || !sum) {
        fprintf(stderr, "rtjitter diagnose: rtla %s\n", code ? "failed (its output is above)"
                : "printed no summary rtjitter could read (its output is above)");
        return finish(o.json, doc, 3);
    }
    print_summary(sum, o.threshold_us);
    return finish(o.json, doc, json_is_true(json_object_get(sum, "stopped")) ? 1 : 0);
}
