/* The load supervisor: a process forked from rtjitter before it starts any thread or locks its memory. It forks
 * every load child, ends them, removes their files, and does all of that too when rtjitter dies, even by SIGKILL
 * (it notices the end of its socket). Talks to loadplan.c over a SOCK_SEQPACKET socket, one request, one reply. */
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

/* Forks the supervisor for spec (it keeps its own copy through the fork). Sets *pid and *fd (rtjitter's end,
 * close-on-exec). Returns 0 or -errno. Call it while the process has a single thread. */
int supervisor_spawn(const struct load_spec *spec, const char *tmpdir, pid_t *pid, int *fd);

#endif
