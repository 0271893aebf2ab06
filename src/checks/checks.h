/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/checks: the studio set-up checklist, one const table of checks that judge the system alone, never a
 * measured run. Each check reads one JSON object: the system identity of a report (src/sysinfo), and for
 * `rtjitter check` also "setup" (sysinfo_setup: limits files, boot loader, USB, audio stack, power...) and
 * "process" (this process's limits in force and a SCHED_FIFO try, probed by process.c: the one thing that
 * cannot come from a root prefix, so tests inject it). It gives OK, WARN, FAIL or SKIP with a one-line why that
 * names the value it read, and for WARN or FAIL the exact fix (a command or the file to edit); the checks the
 * verdict uses also give the plain words for a musician. The verdict (src/verdict) runs the table on a report's
 * identity after a poor run and takes its system advice from it; `rtjitter check` runs all of it.
 *
 * checks.c holds the table and the runner; privileges.c, kernel.c, boot.c, cpu.c, disks.c, irq.c, audio.c and
 * power.c the checks of each group, one const struct check each (checks_internal.h). A new check is one
 * function with its struct, and one table entry; tests/unit/test_checks.c loops over the table on every fixture
 * tree, so it is tested without anyone remembering.
 *
 * May include libc, jansson, util/ and sysinfo/ only: never report/, run/, render/ or verdict/, which build on it.
 * Main thread only; nothing here is real-time safe. */
#ifndef RTJ_CHECKS_H
#define RTJ_CHECKS_H
#include <jansson.h>
#include <stddef.h>

/* OK < WARN < FAIL in severity; SKIP means the check could not judge (what it reads is unknown). */
enum check_status { CHECK_SKIP, CHECK_OK, CHECK_WARN, CHECK_FAIL };

/* When a finding can cost a run its audio: the verdict passes a finding on only after such a run, since a
 * run that kept time needs no tuning. */
enum check_matters {
    CHECK_MATTERS_POOR_TIMING,    /* any run that failed or left little margin before the deadline */
    CHECK_MATTERS_FAILURE,        /* a run over the profile's FAIL thresholds (xruns, missed deadlines) */
    CHECK_MATTERS_HEAVY_CALLBACK, /* a failed run whose callback was heavy (--dsp, or work not done in time) */
    CHECK_MATTERS_CHECKLIST,      /* never in a verdict: the checklist's alone (what a report does not record) */
};

/* The groups `rtjitter check` prints, in this order. */
enum check_group { CHECK_PRIVILEGES, CHECK_KERNEL, CHECK_CPU, CHECK_MEMORY, CHECK_IRQS, CHECK_AUDIO, CHECK_POWER,
                   CHECK_NGROUPS };

struct check_result;

struct check {
    const char *id;             /* stable: the verdict's advice_ids use it */
    const char *title;          /* what is checked, in a few words */
    enum check_group group;
    const char *reads;          /* the identity key it judges, and the system file behind it */
    enum check_status level;    /* the worst status it can give (OK: it only reports a value) */
    enum check_matters matters;
    /* Judges the identity sys (an object; any key in it may be missing or null, and then the status is SKIP
     * with the reason). Fills r->status and r->why; for WARN and FAIL also r->fix, and when the verdict uses
     * the check (matters is not CHECKLIST) r->advice, and r->hint when it has a few words for the verdict's
     * "Try ...". Cannot fail: it only reads sys. */
    void (*eval)(const json_t *sys, struct check_result *r);
};

struct check_result {
    const struct check *check;
    enum check_status status;
    char why[640];              /* one line, with the value read (a login's state takes 400 and more) */
    char fix[640];              /* the exact fix; empty for OK and SKIP */
    char advice[600];           /* for the verdict: why it matters and what to do; empty for OK and SKIP */
    char hint[96];              /* for the verdict's "Try ..."; may be empty */
};

/* The table, in the order the verdict advises: the privileges first (never in a verdict: the run's own rules
 * say that), then the machine (governor, interrupts, sysctls), then the boot options; the checklist's own
 * checks within their groups. */
size_t checks_count(void);
const struct check *checks_get(size_t i);

/* Runs one check on the identity sys (NULL is judged as an empty identity: every check SKIPs). */
void check_run(const struct check *c, const json_t *sys, struct check_result *r);
/* Runs the table, in order, into out[0 .. min(max, checks_count()) - 1] and returns that count. system is
 * what to judge; when it is NULL the identity and setup are collected from the tree under root ("" for this
 * machine; no user, no process probe: see checks_collect), and when both are NULL every check SKIPs. Returns
 * -ENOMEM when collecting fails. */
int checks_run(const json_t *system, const char *root, struct check_result *out, size_t max);

/* "ok", "warn", "fail", "skip". */
const char *check_status_name(enum check_status s);
/* "Privileges", "Kernel", "CPU", "Memory and disks", "IRQs", "Audio stack", "Power". */
const char *check_group_name(enum check_group g);
/* The results as a JSON array [{id, group, title, reads, level, status, why, fix}], fix null for OK and SKIP;
 * NULL when out of memory. */
json_t *checks_json(const struct check_result *r, size_t n);

/* What `rtjitter check` judges: the identity, "setup" and (probe) "process" of the machine under root. */
struct checks_env {
    const char *root;            /* "" for this machine; a tree of the same layout otherwise */
    const char *user;            /* whose groups and limits; NULL: this process's user (for root under sudo,
                                  * SUDO_USER's) */
    const char *home;            /* that user's home (PipeWire's user config); NULL: from the password database */
    const char *const *paths;    /* where recordings go, NULL-terminated (filesystem checks), or NULL */
    int probe;                   /* probe this process: its limits in force, a SCHED_FIFO thread */
    int fifo_priority;           /* the priority the SCHED_FIFO try asks for (80 when 0) */
};
/* A new object {identity..., setup {...}, process {...} (with probe)}; NULL when out of memory. */
json_t *checks_collect(const struct checks_env *env);
/* process {uid, euid, gid, user, judged_user, home, groups [], cap_sys_nice, cap_ipc_lock, cap_sys_resource,
 * rtprio {soft, hard}, memlock {soft, hard} (bytes; "unlimited"), sched_fifo {priority, ok, error},
 * cpu_dma_latency {writable, error}, login {...} (login_probe.c: the login it belongs to)}: this process, as it
 * runs now (process.c). root is only where /dev/cpu_dma_latency is looked for. checks_collect() adds
 * other_user when another user is judged by someone who is not root (the in-force checks then SKIP), and as root
 * for another user replaces the whole object by that user's next login, predicted (login {predicted, how,
 * service, pam_limits, setrlimit_error}, predicted_by {user, euid}: login_predict.c). */
json_t *checks_probe_process(const char *root, int fifo_priority);

/* The priority a real-time audio thread needs the limits to allow, and the memory that must be lockable: the
 * priority rtjitter starts a JACK server at and advises (RTJ_AUDIO_PRIORITY); RLIMIT_MEMLOCK as jackd2's audio.conf (unlimited) or
 * 95-pipewire.conf (4 GiB) set it, at least 256 MiB. */
#define CHECK_RTPRIO_NEED 70 /* RTJ_AUDIO_PRIORITY (checks/privileges.h): one figure everywhere */
/* Idle states slower than this to leave (µs) are "deep" for audio: the check's warning and fix, and the verdict's
 * idle trap advice, disable them with one figure (cpupower idle-set -D). */
#define CHECK_IDLE_EXIT_MAX_US 100
#define CHECK_MEMLOCK_NEED_KIB (256 * 1024)

#endif
