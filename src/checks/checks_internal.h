/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/checks only: the one list of the checks the group files define (CHECKS) and the
 * small helpers they write their results with. */
#ifndef RTJ_CHECKS_INTERNAL_H
#define RTJ_CHECKS_INTERNAL_H
#include "checks/checks.h"
#include "util/wrap.h"

/* The one list of checks, in the verdict's order of advice (privileges, the machine, then the boot options: what is
 * quickest to change and to undo first); the checklist prints the same entries by group. Each X(NAME) is the
 * `const struct check check_NAME` of its group's file: privileges.c (the rights a real-time audio thread needs, in
 * force and as configured), kernel.c (the kernel and how it runs), boot.c (isolation, mitigations, the boot
 * loader's set-up in force), irq.c (the sound cards' and USB controllers' interrupts), cpu.c (frequency, SMT, idle
 * states), disks.c (memory and disks), audio.c (the audio stack), power.c (power managers). The declarations here
 * and the table in checks.c are made from it. */
#define CHECKS(X)                                                                                                    \
    /* privileges: the run's own rules say these in a verdict (audio.realtime, audio.mlocked) */                    \
    X(root) X(rtprio) X(memlock) X(sched_fifo) X(limits_files) X(rtkit)                                              \
    /* the machine */                                                                                                \
    X(governor) X(rtirq) X(shared_irq) X(swappiness) X(rt_throttling)                                                \
    /* boot options */                                                                                               \
    X(threadirqs) X(preempt) X(high_res_timers)                                                                      \
    /* the checklist's own */                                                                                        \
    X(boost) X(smt) X(idle_states) X(cpu_dma_latency) X(usb_irq) X(filesystems) X(inotify) X(hz) X(nohz)             \
    X(isolation) X(mitigations) X(timer_migration) X(boot_setup) X(audio_stack) X(server_rt) X(jack_registry)        \
    X(pipewire_clock) X(usb_autosuspend) X(power_profile) X(tlp) X(laptop_mode)

#define CHECK_DECLARE(n) extern const struct check check_##n;
CHECKS(CHECK_DECLARE)

/* login_probe.c: process.login {pid, comm, started, opener {pid, comm, uid, login_flag} or null, service,
 * session {id, leader_comm, leader_started}}: the login this process belongs to, from /proc; null unreadable. */
json_t *checks_probe_login(void);

/* privileges.c: the soft and hard limit of item ("rtprio", "memlock": KiB) the limits files give a login of user
 * (uid, or -1) in groups: a number, LLONG_MAX for unlimited, -2 when no line sets it. */
void privileges_configured(const json_t *setup, const char *item, const char *user, long long uid,
                           const json_t *groups, long long *soft, long long *hard);
/* process.c: a SCHED_FIFO thread at prio, started as JACK starts its real-time threads: 0 or -errno. */
int checks_try_fifo(int prio);
/* login_predict.c: when this process is root, sys's "process" replaced by what a new login of setup.user gets
 * (login_predict.c says how), for `rtjitter check --user NAME` and sudo; how: "--user" or "sudo". 0, -ENOENT
 * (no such user in /etc/passwd), -ENOMEM, or -errno of fork. */
int checks_predict_login(json_t *sys, int fifo_priority, const char *how);
/* login.c: why the limits a file grants (file, for domain: grants, "rtprio 95 and memlock unlimited") to the user
 * are not in force in this login, told apart by the facts (process.login, setup.limits.mtime, setup.pam, the hard
 * limits, setup.container): one state, its facts in why and its one fix. */
void login_explain(const json_t *sys, const char *file, const char *domain, const char *grants, char *why,
                   size_t wl, char *fix, size_t fl);
/* login.c: 1 (with why and fix) when a container's runtime set a hard limit of item below need that this login
 * cannot raise; else 0. */
int login_container(const json_t *sys, const char *item, long long need, char *why, size_t wl, char *fix,
                    size_t fl);
/* login.c: "this login", or "NAME's next login (as PAM gives it)" for a predicted login. */
const char *login_words(const json_t *sys, char *buf, size_t len);

/* snprintf into buf, cut to len (a fix with a quoted value of any length is cut, never overflows). */
void check_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Sets the status and the one-line why. */
void check_say(struct check_result *r, enum check_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void check_fix(struct check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_advise(struct check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_hint(struct check_result *r, const char *hint);

/* Reading the identity: NULL or NAN when the key is missing or not of that type. */
const char *check_str(const json_t *o, const char *key);
double check_num(const json_t *o, const char *key);
/* Whether the array of strings names holds name (a user's groups). */
int check_in_list(const json_t *names, const char *name);
/* sys's "setup" and "process" objects (NULL when absent: a report's identity has neither). */
const json_t *check_setup(const json_t *sys);
const json_t *check_process(const json_t *sys);
/* Whether the package is installed (1), not (0), or unknown (-1: no dpkg status), with its version in *version;
 * a program found in its usual place counts as installed when dpkg says nothing. */
int check_installed(const json_t *sys, const char *package, const char *program, const char **version);

/* The boot options live in one line of /etc/default/grub on Debian and Ubuntu, the systems the fixes name. */
#define GRUB_EDIT "GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run " WRAP_CMD("update-grub") " and reboot"

#endif
