/* SPDX-License-Identifier: GPL-2.0-or-later */
/* load_watch: runs a command with a marker in its environment and watches, from outside, every process that
 * carries the marker (the command's load supervisor, its loads and whatever they start), the way a user's `ps`
 * and `top` would. Prints "key value" lines at the end:
 *   pid N                 the command's process id
 *   status N              the command's exit status (128+signal when killed)
 *   first_load_s X        when a load process (marked, not the command, not the supervisor rtj-loads) first showed
 *   last_load_s X         when one was last seen (relative to the command's start)
 *   max_load_procs N      most load processes seen at once
 *   peak_rss_mb X         highest VmRSS of one process named by -r COMM (0 when none)
 *   peak_threads N        most threads seen in one process named by -r COMM
 *   supervisor_rss_mb X   highest VmRSS of the load supervisor (rtj-loads): what a load inherits at its fork
 *   busy_pct X            share of all CPUs busy (/proc/stat) while load processes existed
 *   comms a,b,c           every process name seen among the load processes
 *   left_after_s X        seconds after the command's end until no marked process was left (-1: some stayed)
 *   left N                marked processes still there at the end of the settle time
 *   supervisor_killed_s X when -K killed the load supervisor (-1: it did not)
 *   loads_gone_after_kill_s X  seconds from that kill until no load process was seen (-1: never, or no kill)
 * usage: load_watch [-i MS] [-k SECS] [-K SECS] [-r COMM] [-s SECS] -- CMD ARGS...
 *   -k SECS  SIGKILL the command after SECS;  -K SECS  SIGKILL its load supervisor (rtj-loads) after SECS;
 *   -s SECS  settle time after its end (default 2) */
#include <dirent.h>
#include "mono_s.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char g_mark[128];

static int has_mark(const char *pid)
{
    char path[300];
    static char buf[1 << 17];
    snprintf(path, sizeof(path), "/proc/%s/environ", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
        if (strcmp(buf + i, g_mark) == 0)
            return 1;
    return 0;
}

static void read_comm(const char *pid, char *out, size_t len)
{
    char path[300];
    snprintf(path, sizeof(path), "/proc/%s/comm", pid);
    out[0] = '\0';
    FILE *f = fopen(path, "re");
    if (f) {
        if (fgets(out, (int)len, f))
            out[strcspn(out, "\n")] = '\0';
        fclose(f);
    }
}

static double rss_mb(const char *pid, int *threads)
{
    char path[300], line[256];
    snprintf(path, sizeof(path), "/proc/%s/status", pid);
    FILE *f = fopen(path, "re");
    double mb = 0;
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "VmRSS:", 6) == 0)
            mb = strtod(line + 6, NULL) / 1024.0;
        if (strncmp(line, "Threads:", 8) == 0)
            *threads = atoi(line + 8);
    }
    if (f)
        fclose(f);
    return mb;
}

static void cpu_times(unsigned long long *busy, unsigned long long *total)
{
    unsigned long long v[10] = { 0 };
    FILE *f = fopen("/proc/stat", "re");
    if (f) {
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7], &v[8], &v[9]) < 4) {
        }
        fclose(f);
    }
    *total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    *busy = *total - v[3] - v[4]; /* idle and iowait are not busy */
}

struct scan {
    int marked, loads, threads;
    double peak_rss, sup_rss;
    pid_t sup;                         /* a load supervisor seen, 0: none */
};

static char g_comms[4096];

static void note_comm(const char *c)
{
    char key[64];
    snprintf(key, sizeof(key), ",%s,", c);
    char padded[4200];
    snprintf(padded, sizeof(padded), ",%s,", g_comms);
    if (strstr(padded, key) || strlen(g_comms) + strlen(c) + 2 >= sizeof(g_comms))
        return;
    if (g_comms[0])
        strcat(g_comms, ",");
    strcat(g_comms, c);
}

static struct scan scan(pid_t cmd, const char *rss_comm)
{
    struct scan s = { 0, 0, 0, 0, 0, 0 };
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid == getpid() || !has_mark(e->d_name))
            continue;
        s.marked++;
        if (pid == cmd)
            continue;
        char comm[64];
        read_comm(e->d_name, comm, sizeof(comm));
        /* The supervisor is not a load; nor is a helper task of the command itself (LeakSanitizer's tracer
         * in a sanitizer build shows as a process of the command's own name). */
        if (strcmp(comm, "rtj-loads") == 0) {
            s.sup = pid;
            int th;
            double r = rss_mb(e->d_name, &th);
            if (r > s.sup_rss)
                s.sup_rss = r;
            continue;
        }
        if (strncmp(comm, "rtjitter", 8) == 0 || !comm[0])
            continue;
        s.loads++;
        note_comm(comm);
        if (rss_comm && strcmp(comm, rss_comm) == 0) {
            int th = 0;
            double r = rss_mb(e->d_name, &th);
            if (r > s.peak_rss)
                s.peak_rss = r;
            if (th > s.threads)
                s.threads = th;
        }
    }
    if (d)
        closedir(d);
    return s;
}

int main(int argc, char **argv)
{
    int interval_ms = 50;
    double kill_after = -1, kill_sup_after = -1, sup_killed_at = -1, loads_gone = -1, settle = 2;
    const char *rss_comm = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (i + 1 >= argc)
            break;
        if (!strcmp(argv[i], "-i"))
            interval_ms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-k"))
            kill_after = atof(argv[++i]);
        else if (!strcmp(argv[i], "-K"))
            kill_sup_after = atof(argv[++i]);
        else if (!strcmp(argv[i], "-r"))
            rss_comm = argv[++i];
        else if (!strcmp(argv[i], "-s"))
            settle = atof(argv[++i]);
    }
    if (i >= argc - 1) {
        fprintf(stderr, "usage: load_watch [-i MS] [-k SECS] [-K SECS] [-r COMM] [-s SECS] -- CMD ARGS...\n");
        return 2;
    }
    char val[64];
    snprintf(val, sizeof(val), "watch-%d", (int)getpid());
    setenv("RTJ_TEST_MARK", val, 1);
    snprintf(g_mark, sizeof(g_mark), "RTJ_TEST_MARK=%s", val);
    double t0 = now_s();
    pid_t cmd = fork();
    if (cmd == 0) {
        execvp(argv[i + 1], argv + i + 1);
        _exit(127);
    }
    double first = -1, last = -1, peak = 0, sup_peak = 0;
    int maxp = 0, st = 0, killed = 0, maxth = 0;
    unsigned long long busy_sum = 0, total_sum = 0, b0, t0c;
    cpu_times(&b0, &t0c);
    struct timespec nap = { 0, (long)interval_ms * 1000000L };
    for (;;) {
        pid_t r = waitpid(cmd, &st, WNOHANG);
        double t = now_s() - t0;
        if (r == cmd)
            break;
        if (kill_after >= 0 && !killed && t >= kill_after) {
            kill(cmd, SIGKILL);
            killed = 1;
        }
        struct scan s = scan(cmd, rss_comm);
        if (kill_sup_after >= 0 && sup_killed_at < 0 && t >= kill_sup_after && s.sup > 0) {
            kill(s.sup, SIGKILL);
            sup_killed_at = t;
        }
        if (sup_killed_at >= 0 && loads_gone < 0 && s.loads == 0)
            loads_gone = t - sup_killed_at;
        unsigned long long b1, t1c;
        cpu_times(&b1, &t1c);
        if (s.loads > 0) {
            if (first < 0)
                first = t;
            last = t;
            busy_sum += b1 - b0;
            total_sum += t1c - t0c;
        }
        b0 = b1;
        t0c = t1c;
        if (s.loads > maxp)
            maxp = s.loads;
        if (s.peak_rss > peak)
            peak = s.peak_rss;
        if (s.threads > maxth)
            maxth = s.threads;
        if (s.sup_rss > sup_peak)
            sup_peak = s.sup_rss;
        nanosleep(&nap, NULL);
    }
    double end = now_s() - t0, gone = -1;
    struct scan s;
    for (;;) {
        s = scan(cmd, NULL);
        double t = now_s() - t0;
        if (sup_killed_at >= 0 && loads_gone < 0 && s.loads == 0)
            loads_gone = t - sup_killed_at;
        if (s.marked == 0) {
            gone = t - end;
            break;
        }
        if (t - end > settle)
            break;
        nanosleep(&nap, NULL);
    }
    printf("pid %d\n", (int)cmd);
    printf("status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    printf("end_s %.3f\n", end);
    printf("first_load_s %.3f\n", first);
    printf("last_load_s %.3f\n", last);
    printf("max_load_procs %d\n", maxp);
    printf("peak_rss_mb %.1f\n", peak);
    printf("peak_threads %d\n", maxth);
    printf("supervisor_rss_mb %.1f\n", sup_peak);
    printf("busy_pct %.1f\n", total_sum ? 100.0 * (double)busy_sum / (double)total_sum : 0.0);
    printf("comms %s\n", g_comms[0] ? g_comms : "-");
    printf("left_after_s %.3f\n", gone);
    printf("left %d\n", s.marked);
    printf("supervisor_killed_s %.3f\n", sup_killed_at);
    printf("loads_gone_after_kill_s %.3f\n", loads_gone);
    return 0;
}
