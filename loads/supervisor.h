/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor: a process forked from rtjitter before it starts any thread or locks its memory. It forks
 * every load child, ends them, removes their files, and does all of that too when rtjitter dies, even by SIGKILL
 * (it notices the end of its socket). Talks to loadplan.c over a SOCK_SEQPACKET socket, one request, one reply.
 * When the supervisor itself dies, rtjitter ends the loads and removes the files through the load_area it keeps. */
#ifndef RTJ_SUPERVISOR_H
#define RTJ_SUPERVISOR_H
#include "loadspec.h"
#include <sys/types.h>

enum sup_op { SUP_START = 1, SUP_MEASURE, SUP_STOP };

struct sup_request {
    int op;
    int phase;
};

#define SUP_MAX_METRICS (LOAD_MAX_COMBO * LOAD_MAX_METRICS)

struct sup_reply {
    int rc;
    int nmetrics;
    struct load_metric m[SUP_MAX_METRICS];
    char error[768];                   /* empty when every load of the phase ran well */
};

/* Process groups of the running loads, on a page shared by rtjitter and the supervisor (one writer: the
 * supervisor). Without a cgroup, it is what rtjitter kills once the supervisor is gone. */
struct load_groups {
    _Atomic int pgid[LOAD_MAX_COMBO];  /* 0: none */
};

/* Made by rtjitter before it forks the supervisor, which inherits it: the loads' directory and cgroup, held
 * open, so that both processes can end the loads and remove their files without walking a path again. */
struct load_area {
    const char *tmpdir;                /* --tmpdir as given: messages only */
    int tmpfd;                         /* --tmpdir, opened once; -1 */
    int dirfd;                         /* our private directory in it; -1 when none (dir_error says why) */
    char dirname[64];                  /* its entry in tmpdir */
    char dirpath[4200];                /* tmpdir/dirname: messages and exec's TMPDIR only, never opened */
    char dir_error[300];
    int cgparent;                      /* rtjitter's own cgroup v2; -1 */
    int cgfd;                          /* the run's cgroup in it, one cgroup per load below; -1: process
                                        * groups and the supervisor as child subreaper instead */
    char cgname[64];
    struct load_groups *groups;        /* MAP_SHARED */
};

/* Forks the supervisor for spec and area (it keeps its own copy of both through the fork). Sets *pid and *fd
 * (rtjitter's end, close-on-exec). Returns 0 or -errno. Call it while the process has a single thread. */
int supervisor_spawn(const struct load_spec *spec, struct load_area *area, pid_t *pid, int *fd);

#endif
