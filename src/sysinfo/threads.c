/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The threads' scheduling, read from /proc: an audio server's real-time threads (sysinfo_server_sched, found by the
 * server a client reaches), one thread's (sysinfo_thread_sched), the interrupt threads' (sysinfo_irq_threads), and
 * the set-up's daemons and audio servers in one walk of /proc (sysinfo_setup_processes, for setup_audio.c). Read
 * through the root prefix where a set-up is read, from this machine's /proc where a run asks. */
#include "sysinfo/sysinfo.h"
#include "sysinfo/sysinfo_internal.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fields 40 (rt_priority) and 41 (policy) of a /proc stat line, after the ")" that closes comm. */
static int stat_sched(const char *stat, int *rtprio, int *policy)
{
    const char *s = strrchr(stat, ')');
    if (!s)
        return -EINVAL;
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof(buf), "%s", s + 1);
    int field = 2;
    *rtprio = *policy = -1;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        field++;
        if (field == 40)
            *rtprio = atoi(t);
        else if (field == 41)
            *policy = atoi(t);
    }
    return *policy >= 0 ? 0 : -EINVAL;
}

static const char *policy_name(int p)
{
    return p == 0 ? "SCHED_OTHER" : p == 1 ? "SCHED_FIFO" : p == 2 ? "SCHED_RR" : p == 3 ? "SCHED_BATCH"
           : p == 5 ? "SCHED_IDLE" : p == 6 ? "SCHED_DEADLINE" : "other";
}

/* {name, pid, threads, rt [{tid, comm, policy, priority}]} of one server process. */
static json_t *server_threads(const char *root, const char *name, const char *pid)
{
    char dir[128];
    snprintf(dir, sizeof(dir), "/proc/%.20s/task", pid);
    char **tasks = sysinfo_list_dir(root, dir);
    json_t *rt = json_array();
    int n = 0;
    for (size_t i = 0; tasks && tasks[i]; i++) {
        char p[PATH_MAX], stat[1024], comm[64];
        int prio, pol;
        snprintf(p, sizeof(p), "%s/%.20s/stat", dir, tasks[i]);
        if (sysinfo_read_text(root, p, stat, sizeof(stat)) < 0 || stat_sched(stat, &prio, &pol) < 0)
            continue;
        n++;
        if (pol != 1 && pol != 2)
            continue;
        snprintf(p, sizeof(p), "%s/%.20s/comm", dir, tasks[i]);
        if (sysinfo_read_text(root, p, comm, sizeof(comm)) < 0)
            snprintf(comm, sizeof(comm), "?");
        json_array_append_new(rt, json_pack("{s:i, s:s, s:s, s:i}", "tid", atoi(tasks[i]), "comm", comm, "policy",
                                            policy_name(pol), "priority", prio));
    }
    sysinfo_free_names(tasks);
    return json_pack("{s:s, s:i, s:i, s:o}", "name", name, "pid", atoi(pid), "threads", n, "rt", rt);
}

/* A NUL-separated /proc file (cmdline, environ) of pid, at most len - 1 bytes; its length, or -1. */
static ssize_t proc_nul_file(const char *pid, const char *what, char *buf, size_t len)
{
    char p[64];
    snprintf(p, sizeof(p), "/proc/%.20s/%s", pid, what);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    ssize_t n;
    while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
        got += (size_t)n;
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

/* The value of KEY= in a NUL-separated list, or NULL. */
static const char *nul_value(const char *buf, ssize_t n, const char *key)
{
    size_t kl = strlen(key);
    for (const char *e = buf; e < buf + n; e += strlen(e) + 1)
        if (strncmp(e, key, kl) == 0 && e[kl] == '=')
            return e + kl + 1;
    return NULL;
}

/* Whether process pid (comm already matched) is the server a client of provider reaches by server_name. */
static int serves(const char *provider, const char *server_name, const char *pid)
{
    char buf[8192];
    ssize_t n;
    if (strncmp(provider, "pipewire", 8) == 0) { /* pipewire-jack, or the native backend's pipewire */
        /* an environment may be long (ARG_MAX): read it whole */
        size_t cap = 1u << 20;
        char *env = malloc(cap);
        if (!env || (n = proc_nul_file(pid, "environ", env, cap)) < 0) {
            free(env);
            return 0;
        }
        const char *mine = getenv("XDG_RUNTIME_DIR"), *its = nul_value(env, n, "XDG_RUNTIME_DIR");
        int same = (!mine && !its) || (mine && its && strcmp(mine, its) == 0);
        free(env);
        return same;
    }
    if ((n = proc_nul_file(pid, "cmdline", buf, sizeof(buf))) < 0)
        return 0;
    const char *name = "default";
    for (const char *a = buf; a < buf + n; a += strlen(a) + 1) {
        const char *next = a + strlen(a) + 1;
        if ((strcmp(a, "-n") == 0 || strcmp(a, "--name") == 0) && next < buf + n)
            name = next;
        else if (strncmp(a, "--name=", 7) == 0)
            name = a + 7;
        else if (strncmp(a, "-n", 2) == 0 && a[2])
            name = a + 2;
        if (strcmp(a, "-d") == 0 || strncmp(a, "-d", 2) == 0 || strcmp(a, "--driver") == 0)
            break; /* the driver's own options follow: its -n is --nperiods */
    }
    return strcmp(name, server_name ? server_name : "default") == 0;
}

json_t *sysinfo_server_sched(const char *provider, const char *server_name, int pid)
{
    char found[24] = "", comm[64] = "";
    if (pid > 0) {
        snprintf(found, sizeof(found), "%d", pid);
        char p[64];
        snprintf(p, sizeof(p), "/proc/%d/comm", pid);
        if (sysinfo_read_text("", p, comm, sizeof(comm)) < 0)
            return NULL;
    } else if (provider) {
        int pw = strncmp(provider, "pipewire", 8) == 0;
        char **pids = sysinfo_list_dir("", "/proc");
        for (size_t i = 0; pids && pids[i] && !found[0]; i++) {
            char p[64], c[64];
            struct stat st;
            snprintf(p, sizeof(p), "/proc/%.20s", pids[i]);
            if (!isdigit((unsigned char)pids[i][0]) || stat(p, &st) < 0 || st.st_uid != getuid())
                continue;
            snprintf(p, sizeof(p), "/proc/%.20s/comm", pids[i]);
            if (sysinfo_read_text("", p, c, sizeof(c)) < 0)
                continue;
            int named = pw ? strcmp(c, "pipewire") == 0 : strcmp(c, "jackd") == 0 || strcmp(c, "jackdbus") == 0;
            if (named && serves(provider, server_name, pids[i])) {
                snprintf(found, sizeof(found), "%s", pids[i]);
                snprintf(comm, sizeof(comm), "%s", c);
            }
        }
        sysinfo_free_names(pids);
    }
    if (!found[0])
        return NULL;
    json_t *o = server_threads("", comm, found);
    if (!o)
        return NULL;
    size_t i;
    const json_t *t, *top = NULL;
    json_array_foreach(json_object_get(o, "rt"), i, t)
        if (!top || json_integer_value(json_object_get(t, "priority")) >
                        json_integer_value(json_object_get(top, "priority")))
            top = t;
    json_object_set_new(o, "realtime", json_boolean(top != NULL));
    json_object_set_new(o, "policy", json_string(top ? json_string_value(json_object_get(top, "policy"))
                                                     : "SCHED_OTHER"));
    json_object_set_new(o, "priority", json_integer(top ? json_integer_value(json_object_get(top, "priority")) : 0));
    /* how it was read: which process, found how, and the file */
    json_object_set_new(o, "found_by", json_string(pid > 0 ? "the pid of the server this run started"
                                                   : provider && strncmp(provider, "pipewire", 8) == 0
                                                       ? "this user's pipewire with this XDG_RUNTIME_DIR"
                                                       : "this user's jackd or jackdbus serving this name (-n)"));
    json_object_set_new(o, "read_from", json_string("/proc/PID/task/*/stat (policy, rt_priority)"));
    return o;
}

json_t *sysinfo_thread_sched(int pid, int tid)
{
    char p[96], stat[1024];
    int prio, pol;
    snprintf(p, sizeof(p), "/proc/%d/task/%d/stat", pid, tid);
    if (tid <= 0 || sysinfo_read_text("", p, stat, sizeof(stat)) < 0 || stat_sched(stat, &prio, &pol) < 0)
        return NULL;
    snprintf(p, sizeof(p), "/proc/self/task/%d/stat", tid);
    return json_pack("{s:i, s:s, s:i, s:s}", "tid", tid, "policy", policy_name(pol), "priority", prio,
                     "read_from", pid == (int)getpid() ? p : "/proc/PID/task/TID/stat");
}

json_t *sysinfo_irq_threads(const char *root)
{
    char **pids = sysinfo_list_dir(root, "/proc");
    if (!pids)
        return NULL;
    int n = 0, top = -1, top_pol = 0, low = -1;
    for (size_t i = 0; pids[i]; i++) {
        char p[96], comm[64], stat[1024];
        int prio, pol;
        if (!isdigit((unsigned char)pids[i][0]))
            continue;
        snprintf(p, sizeof(p), "/proc/%.20s/comm", pids[i]);
        if (sysinfo_read_text(root, p, comm, sizeof(comm)) < 0 || strncmp(comm, "irq/", 4) != 0 ||
            !isdigit((unsigned char)comm[4]))
            continue;
        snprintf(p, sizeof(p), "/proc/%.20s/stat", pids[i]);
        if (sysinfo_read_text(root, p, stat, sizeof(stat)) < 0 || stat_sched(stat, &prio, &pol) < 0)
            continue;
        if (pol != 1 && pol != 2)
            prio = 0; /* a SCHED_OTHER interrupt thread (chrt'ed down) is below any real-time thread */
        n++;
        if (prio > top)
            top = prio, top_pol = pol;
        if (low < 0 || prio < low)
            low = prio;
    }
    sysinfo_free_names(pids);
    return json_pack("{s:i, s:s?, s:o, s:o, s:s}", "count", n, "policy", n ? policy_name(top_pol) : NULL,
                     "priority", n ? json_integer(top) : json_null(), "lowest", n ? json_integer(low) : json_null(),
                     "read_from", "/proc/PID/stat of the kernel threads named irq/N-NAME");
}

int sysinfo_irq_floor(const json_t *irq)
{
    const json_t *low = json_object_get(irq, "lowest");
    if (json_integer_value(json_object_get(irq, "count")) <= 0 || !json_is_integer(low))
        return -1;
    return json_integer_value(low) < 50 ? (int)json_integer_value(low) : 50;
}

/* daemons {name: [pids]} for rtkit and power-profiles-daemon, and audio_servers_rt [...] for jackd, jackdbus
 * and pipewire: one walk of /proc. comm is cut at 15 characters ("power-profiles-"). */
void sysinfo_setup_processes(const char *root, json_t *setup)
{
    static const char *const daemons[][2] = { { "rtkit-daemon", "rtkit-daemon" },
                                              { "power-profiles-", "power-profiles-daemon" } };
    static const char *const servers[] = { "jackd", "jackdbus", "pipewire", NULL };
    json_t *d = json_object(), *srv = json_array();
    for (size_t i = 0; i < sizeof(daemons) / sizeof(daemons[0]); i++)
        json_object_set_new(d, daemons[i][1], json_array());
    char **pids = sysinfo_list_dir(root, "/proc");
    for (size_t i = 0; pids && pids[i]; i++) {
        if (!isdigit((unsigned char)pids[i][0]))
            continue;
        char p[128], comm[64];
        snprintf(p, sizeof(p), "/proc/%.20s/comm", pids[i]);
        if (sysinfo_read_text(root, p, comm, sizeof(comm)) < 0)
            continue;
        for (size_t k = 0; k < sizeof(daemons) / sizeof(daemons[0]); k++)
            if (strcmp(comm, daemons[k][0]) == 0)
                json_array_append_new(json_object_get(d, daemons[k][1]), json_integer(atoi(pids[i])));
        for (const char *const *s = servers; *s; s++)
            if (strcmp(comm, *s) == 0)
                json_array_append_new(srv, server_threads(root, *s, pids[i]));
    }
    json_object_set_new(setup, "proc", json_boolean(pids != NULL));
    sysinfo_free_names(pids);
    json_object_set_new(setup, "daemons", d);
    json_object_set_new(setup, "audio_servers_rt", srv);
}
