/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The few tracefs file operations the trace source needs (src_trace.h): find the tracefs mount (mount it, as root,
 * when it is not mounted), make a private instance, write and read its files, freeze it, remove it.
 *
 * Hand-written, not libtracefs's instance API (libtracefs and libtraceevent read the rings, trace_raw.h): the file
 * operations are short, are tested on a fake tracefs tree (tests/unit/test_tracefs.c), and keep the rules of
 * DESIGN.md: opened through the instance's directory descriptor, never following a symlink, deletes by rmdir of the
 * instance only.
 *
 * What is changed, and how it is restored: nothing outside our own instance (instances/rtjitter-PID) is written, so
 * removing the instance at close restores every setting (its clock, events, buffer size and tracing_on go with it).
 * A tracefs we mounted ourselves is mounted on a private directory (/run/rtjitter-tracefs-PID, never the system's
 * /sys/kernel/tracing) and unmounted at close. rtjitter's stop signals (SIGINT, SIGTERM, SIGHUP) end a run through
 * its normal path (src/run/signals.h), which closes the source. After a crash or a SIGKILL, the instance's guard
 * (tracefs_guard.c, a child forked at open that outlives nothing) turns tracing off and removes the instance and
 * the mount within a quarter of a second; when the guard was killed too (a kill of every process), the next open
 * removes every rtjitter-PID instance and every /run/rtjitter-tracefs-PID mount whose PID is dead
 * (tracefs_reap_stale). A PID of another PID namespace (a container) looks dead from here: its instance would be
 * removed too; rtjitter runs in one namespace at a time on a machine, so we accept that and say so. */
#ifndef RTJ_TRACEFS_H
#define RTJ_TRACEFS_H
#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define TRACEFS_RUN_DIR "/run"           /* where a tracefs we mount gets its private mount point */
#define TRACEFS_INSTANCE_PREFIX "rtjitter-"

struct tracefs {
    char root[PATH_MAX];      /* the tracefs mount in use */
    char mounted[PATH_MAX];   /* the mount point we made, "" when tracefs was already mounted */
    char name[64];            /* the instance: rtjitter-PID */
    char inst[PATH_MAX + 96]; /* root/instances/NAME */
    int inst_fd;              /* O_DIRECTORY of the instance, -1 when closed */
    int made;                 /* we made the instance (mkdir): we remove it */
    dev_t inst_dev;           /* the instance we made (its directory's device and inode): a later process of */
    ino_t inst_ino;           /* the same PID never has its own removed */
    pid_t guard_pid;          /* the guard (tracefs_guard.c), 0 when none */
    int guard_fd;             /* the write end of the guard's pipe (valid while guard_pid > 0) */
};

/* The tracefs mount: `given` when not NULL (a fake tree in tests: used as it is), else tracefs from /proc/mounts
 * (/sys/kernel/tracing first), else debugfs's tracing/; else, as root, tracefs mounted on
 * /run/rtjitter-tracefs-PID (t->mounted set). 0, or a negative errno with why in err. Fills t->root. */
int tracefs_locate(struct tracefs *t, const char *given, char *err, size_t errlen);
/* Removes the instances rtjitter-PID under root whose PID is dead, and the mounts /run/rtjitter-tracefs-PID of
 * dead PIDs (only when root is not a fake tree: run_dir NULL skips them). Returns how many were removed. */
int tracefs_reap_stale(const char *root, const char *run_dir);
/* mkdir root/instances/rtjitter-PID and open it. 0 or a negative errno, why in err. */
int tracefs_instance_open(struct tracefs *t, char *err, size_t errlen);
/* The guard of a made instance (tracefs_guard.c): forks a child that, once this process is gone (SIGKILL, a
 * crash), turns the instance's tracing off, removes it and unmounts what we mounted. Called by
 * tracefs_instance_open from the thread that opens (it may end before the process: the guard then asks getppid());
 * stopped and reaped by tracefs_close. 0 or a negative errno (no guard: the next open reaps what is left). */
int tracefs_guard_start(struct tracefs *t);
void tracefs_guard_stop(struct tracefs *t);
/* tracing_on 0, then rmdir instances/name (only the directory of dev/ino when ino is not 0; no symlink followed),
 * waiting up to busy_wait_ms while it is busy (a file in it still open). Async-signal-safe. 0 or a negative errno
 * (-ESTALE: another directory of that name). */
int tracefs_instance_remove(const char *instances, const char *name, dev_t dev, ino_t ino, int busy_wait_ms);
/* Whether the instance has rel (a file or directory; not a symlink). */
int tracefs_has(const struct tracefs *t, const char *rel);
/* Writes val into the instance's file rel (no O_CREAT, no symlink followed). 0 or a negative errno. */
int tracefs_write(const struct tracefs *t, const char *rel, const char *val);
/* Reads the instance's file rel whole (at most max bytes; more is -EFBIG) into a new NUL-terminated buffer. */
int tracefs_read(const struct tracefs *t, const char *rel, char **buf, size_t *len, size_t max);
/* Closes and removes the instance (rmdir, only when we made it), unmounts what we mounted. Idempotent. */
void tracefs_close(struct tracefs *t);
/* trace_clock's name for a clock: "mono" (CLOCK_MONOTONIC), "mono_raw" (CLOCK_MONOTONIC_RAW), NULL otherwise. */
const char *tracefs_clock_name(clockid_t clock);
/* Whether the clock file's text ("[local] global ... mono ...") lists name, and whether it is the selected one. */
int tracefs_clock_listed(const char *text, const char *name, int *selected);

#endif
