/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load interface: one file per load in loads/, each declaring one `const struct load_info`, all collected in
 * load_registry[] (registry.c). Adding a load touches its own file and one line of that table.
 *
 * Every load runs in a child process of the load supervisor (supervisor.c), never inside rtjitter itself: the
 * audio process has locked its memory (mlockall), runs real-time threads, and must not be forked from while they
 * run (a fork would make the RT thread take copy-on-write faults). The supervisor is forked once, before any of
 * that, and forks the loads from there. */
#ifndef RTJ_LOAD_H
#define RTJ_LOAD_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define LOAD_MAX_PARAMS 4
#define LOAD_MAX_METRICS 3
#define LOAD_NCOUNT 4

enum load_param_type { LP_INT, LP_DOUBLE };

struct load_param {
    const char *name;          /* as written in --loads: write:mb=256 */
    enum load_param_type type;
    double def, min, max;      /* default and inclusive bounds, checked at parse time */
    const char *unit;          /* "MB", "%", ... */
    const char *help;          /* one line; what 0 means when it means something special */
};

/* Counters a load child shares with the supervisor (a MAP_SHARED page). Each counter has one writer: the load. */
struct load_shared {
    _Atomic uint64_t count[LOAD_NCOUNT]; /* the load's own work counters; their meaning is the load's */
    _Atomic int failed;                 /* set once, after error[] is written */
    char error[256];
};

/* What the load child gets: its parameters and where it may put files. Lives in the child's own memory. */
struct load_child {
    const struct load_info *info;
    double param[LOAD_MAX_PARAMS];     /* in the order of info->params, defaults filled in */
    const char *arg;                   /* exec:CMD's command, else NULL */
    /* needs_dir loads: a private directory under --tmpdir, open at dirfd and the process's working directory.
     * Make every file in it through dirfd or a relative name, never through dir: that path is for messages and
     * a command's TMPDIR only. Else dirfd is -1 and dir NULL. */
    int dirfd;
    const char *dir;
    uint64_t disk_bytes;               /* needs_disk loads: the most they may occupy (a share of free space) */
    struct load_shared *shared;
};

/* Counter deltas over the measured window, handed to report(). */
struct load_sample {
    uint64_t count[LOAD_NCOUNT];
    double wall_s;                     /* the window's length */
    double cpu_s;                      /* CPU time of the load's main process (all its threads) in the window */
    int exit_status;                   /* the load process's status, shell style (128+signal); -1 unknown */
    int ended_early;                   /* it ended before the phase did */
    double child_cpu_s;                /* CPU time of its reaped descendants (exec) */
    double life_s;                     /* wall time from start to stop */
};

struct load_metric {
    char name[40];                     /* "<load>.<what>", e.g. "write.throughput" */
    double value;
    char unit[24];
};

struct load_info {
    const char *name;
    const char *summary;               /* one line: what it does */
    const char *metric;                /* the primary metric, as in load_metrics (NULL for none) */
    const char *unit;
    const char *bounds;                /* safety bounds in one line, or NULL */
    const char *example;               /* a short spec the tests and the help use, e.g. "write:mb=32" */
    struct load_param params[LOAD_MAX_PARAMS];
    unsigned takes_arg : 1;            /* exec:CMD: the rest of the phase entry is an argument, not parameters */
    unsigned needs_dir : 1;            /* gets a private directory under --tmpdir */
    unsigned needs_disk : 1;           /* its files count against the free-space share */
    unsigned not_in_all : 1;           /* left out of --loads all */
    /* Runs in the supervisor before forking: NULL when the load can run here, else why not (static text or
     * buf). */
    const char *(*unavailable)(const struct load_child *c, char *buf, size_t len);
    /* Runs in the load's child process and never needs to return: the supervisor ends it with SIGTERM, then
     * SIGKILL, to its whole process group. On failure call load_fail() and return. NULL: no process (none). */
    void (*run)(struct load_child *c);
    /* Runs in the supervisor at phase end: turns counter deltas into metrics; returns how many. */
    int (*report)(const struct load_child *c, const struct load_sample *s, struct load_metric *m);
};

extern const struct load_info *const load_registry[];
const struct load_info *load_find(const char *name, size_t len);
int load_param_index(const struct load_info *li, const char *name, size_t len);

/* Load-child helpers (loadutil.c). */
void load_fail(struct load_child *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void load_count(struct load_child *c, int i, uint64_t n);
int load_online_cpus(void);
int64_t load_now_ns(void);
/* Sleep until load_now_ns() reaches t_ns (absolute, so a periodic load does not drift). */
void load_sleep_until_ns(int64_t t_ns);
/* A failed tool's last words from the file name in the directory open at dirfd (load_last_line_fd: from an open
 * file, read from its start): the last line that says "No space left on device" or "Disk quota exceeded" (what
 * the user must act on), else the last non-empty line. out is left as it is when there is none. */
void load_last_line(int dirfd, const char *name, char *out, size_t len);
void load_last_line_fd(int fd, char *out, size_t len);
int64_t load_thread_cpu_ns(void);
/* Memory that may still be taken without pressure: MemAvailable, lowered to the cgroups' headroom (memavail.h). */
int load_mem_available(uint64_t *bytes);
int load_mem_total(uint64_t *bytes);
/* Opens an anonymous file in the directory open at dirfd (O_TMPFILE, else a named file unlinked at once): it
 * vanishes with the process. A descriptor or -errno. */
int load_tmpfile(int dirfd, int flags);
/* Starts a thread with a small stack (loads run few, tiny threads). */
int load_thread(void *(*fn)(void *), void *arg);
/* Fills m; returns 1, for a report's one-liners. */
int load_metric_set(struct load_metric *m, const char *load, const char *what, double value, const char *unit);

#endif
