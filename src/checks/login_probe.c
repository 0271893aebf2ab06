/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where this process's limits came from: the login it belongs to, read from /proc (this machine's, never a root
 * prefix's). Limits are set once, by pam_limits in the PAM session a login program opens (login, sshd, su -,
 * runuser -l, a display manager, systemd's user manager), and inherited from there; so the login's start is the
 * start of the oldest ancestor of this process that runs as its user (the shell login started, sshd's session
 * process, systemd --user for a desktop's terminals), and the program that opened it is that ancestor's parent,
 * which names the PAM service (/etc/pam.d/NAME). The session leader (/proc/self/stat's session id) is recorded
 * too. Main thread. */
#include "checks/checks_internal.h"
#include "util/procstat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct proc_info {
    long pid, ppid, sid, uid;
    double started;          /* seconds since the epoch (recorded in whole seconds, as a file's mtime) */
    char comm[32];
};

/* The boot time in seconds since the epoch, to the clock tick: now (CLOCK_REALTIME) less the time since boot
 * (CLOCK_BOOTTIME, the clock /proc/PID/stat's start time counts on). Not /proc/stat's btime: it is whole seconds,
 * so a process's start came out up to a second early, and a limits file written a second after the test's
 * process started read as "written after this login started" for a login that began after it. */
static double boot_time(void)
{
    struct timespec r1, b, r2;
    if (clock_gettime(CLOCK_REALTIME, &r1) || clock_gettime(CLOCK_BOOTTIME, &b) ||
        clock_gettime(CLOCK_REALTIME, &r2))
        return -1;
    double real = ((double)r1.tv_sec + (double)r2.tv_sec) / 2 + ((double)r1.tv_nsec + (double)r2.tv_nsec) / 2e9;
    return real - ((double)b.tv_sec + (double)b.tv_nsec / 1e9);
}

/* pid's parent, session, real uid, start and name; 0 or -1. */
static int proc_read(long pid, double btime, struct proc_info *pi)
{
    char path[64], buf[1024];
    memset(pi, 0, sizeof(*pi));
    pi->pid = pid;
    struct proc_stat ps;
    if (proc_stat_pid((pid_t)pid, &ps) < 0)
        return -1;
    snprintf(pi->comm, sizeof(pi->comm), "%.31s", ps.comm); /* the kernel's names are 15 bytes */
    pi->ppid = ps.ppid;
    pi->sid = ps.session;
    unsigned long long start = ps.starttime;
    FILE *f;
    long hz = sysconf(_SC_CLK_TCK);
    pi->started = btime >= 0 && hz > 0 ? btime + (double)start / (double)hz : -1;
    snprintf(path, sizeof(path), "/proc/%ld/status", pid);
    pi->uid = -1;
    if ((f = fopen(path, "r"))) {
        while (fgets(buf, sizeof(buf), f))
            if (sscanf(buf, "Uid: %ld", &pi->uid) == 1)
                break;
        fclose(f);
    }
    return 0;
}

/* Whether pid's command line has one of the words that make su, sudo or runuser open a login session. */
static int login_flag(long pid)
{
    char path[64], buf[4096];
    snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    for (size_t i = strlen(buf) + 1; i < n; i += strlen(buf + i) + 1)
        if (!strcmp(buf + i, "-") || !strcmp(buf + i, "-l") || !strcmp(buf + i, "--login") ||
            !strcmp(buf + i, "-i"))
            return 1;
    return 0;
}

/* The PAM service a login opened by `opener` went through (its /etc/pam.d name), or NULL when the opener is no
 * login program. */
static const char *pam_service(const struct proc_info *top, const struct proc_info *opener, int flag)
{
    static const struct { const char *comm, *service, *login_service; } progs[] = {
        { "login", "login", "login" }, { "sshd", "sshd", "sshd" }, { "su", "su", "su-l" },
        { "sudo", "sudo", "sudo-i" }, { "runuser", "runuser", "runuser-l" },
        { "gdm-session-wor", "gdm-password", "gdm-password" }, { "lightdm", "lightdm", "lightdm" },
        { "sddm-helper", "sddm", "sddm" }, { "xrdp-sesman", "xrdp-sesman", "xrdp-sesman" }, { NULL, NULL, NULL },
    };
    if (!strcmp(top->comm, "systemd"))
        return "systemd-user";
    for (size_t i = 0; opener && progs[i].comm; i++)
        if (!strcmp(opener->comm, progs[i].comm))
            return flag ? progs[i].login_service : progs[i].service;
    return NULL;
}

json_t *checks_probe_login(void)
{
    double bt = boot_time();
    struct proc_info self, top, cur, opener;
    if (proc_read(getpid(), bt, &self) < 0)
        return json_null();
    top = self;
    int have_opener = 0;
    for (int steps = 0; steps < 64 && top.ppid > 0; steps++) {
        if (proc_read(top.ppid, bt, &cur) < 0)
            break;
        if (cur.uid != self.uid) {
            opener = cur;
            have_opener = 1;
            break;
        }
        top = cur;
    }
    int flag = have_opener && login_flag(opener.pid);
    const char *service = pam_service(&top, have_opener ? &opener : NULL, flag);
    struct proc_info leader;
    int have_leader = self.sid > 0 && proc_read(self.sid, bt, &leader) == 0;
    return json_pack("{s:I, s:s, s:I, s:o, s:o, s:{s:I, s:o, s:o}}", "pid", (json_int_t)top.pid, "comm", top.comm,
                     "started", (json_int_t)top.started, "opener", have_opener ?
                     json_pack("{s:I, s:s, s:I, s:b}", "pid", (json_int_t)opener.pid, "comm", opener.comm, "uid",
                               (json_int_t)opener.uid, "login_flag", flag) : json_null(),
                     "service", service ? json_string(service) : json_null(), "session", "id", (json_int_t)self.sid,
                     "leader_comm", have_leader ? json_string(leader.comm) : json_null(), "leader_started",
                     have_leader ? json_integer((json_int_t)leader.started) : json_null());
}
