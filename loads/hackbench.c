/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hackbench: scheduler messaging, as in rt-tests' hackbench: groups of sender and receiver processes, every sender
 * of a group writing small messages to every receiver of its group, over socket pairs or pipes. */
#include "load.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

enum { P_GROUPS, P_FDS, P_PIPE, P_SIZE };
#define MAX_FDS 40
#define MAX_SIZE 4096 /* the size parameter's bound: the senders' and receivers' buffers */

static pid_t worker(pid_t self)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the load process */
        if (getppid() != self)
            _exit(0);
    }
    return pid;
}

static void receive(struct load_child *c, int fd, size_t size)
{
    char buf[MAX_SIZE];
    if (size > sizeof(buf))
        size = sizeof(buf);
    for (;;) {
        /* One message per read, as hackbench's receivers do: each message is a wake-up, which is the point. */
        ssize_t n = read(fd, buf, size);
        if (n > 0)
            load_count(c, 0, (uint64_t)n);
        else if (n == 0 || errno != EINTR)
            _exit(0);
    }
}

static void send_all(const int *wfd, int n, size_t size)
{
    char msg[MAX_SIZE];
    memset(msg, 'h', sizeof(msg));
    if (size > sizeof(msg))
        size = sizeof(msg);
    for (;;)
        for (int i = 0; i < n; i++)
            for (size_t done = 0; done < size;) {
                ssize_t w = write(wfd[i], msg + done, size - done);
                if (w > 0)
                    done += (size_t)w;
                else if (w < 0 && errno != EINTR)
                    _exit(0);
            }
}

static void run(struct load_child *c)
{
    int groups = (int)c->param[P_GROUPS], fds = (int)c->param[P_FDS], use_pipe = c->param[P_PIPE] != 0;
    size_t size = (size_t)c->param[P_SIZE];
    pid_t self = getpid();
    for (int g = 0; g < groups; g++) {
        int rfd[MAX_FDS], wfd[MAX_FDS];
        for (int i = 0; i < fds; i++) {
            int p[2];
            int e = use_pipe ? pipe(p) : socketpair(AF_UNIX, SOCK_STREAM, 0, p);
            if (e < 0) {
                load_fail(c, "%s: %s", use_pipe ? "pipe" : "socketpair", strerror(errno));
                return;
            }
            rfd[i] = p[0];
            wfd[i] = p[1];
        }
        for (int i = 0; i < 2 * fds; i++) {
            pid_t pid = worker(self);
            if (pid < 0) {
                load_fail(c, "fork: %s", strerror(errno));
                return;
            }
            if (pid == 0) {
                if (i < fds)
                    receive(c, rfd[i], size);
                send_all(wfd, fds, size);
            }
        }
        for (int i = 0; i < fds; i++) { /* the workers hold them now */
            close(rfd[i]);
            close(wfd[i]);
        }
    }
    for (;;)
        pause(); /* the supervisor ends the whole group */
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    if (s->wall_s <= 0)
        return 0;
    return load_metric_set(&m[0], "hackbench", "messages", s->count[0] / c->param[P_SIZE] / s->wall_s, "msg/s");
}

const struct load_info load_hackbench = {
    .name = "hackbench",
    .summary = "scheduler messaging: groups of sender and receiver processes exchanging small messages, as "
               "rt-tests' hackbench (2 groups x 10 x 10 by default)",
    .metric = "hackbench.messages",
    .unit = "msg/s",
    .bounds = "groups x fds x 2 processes, at most 3,200",
    .example = "hackbench:groups=1:fds=4",
    .params = { { "groups", LP_INT, 2, 1, 40, "", "groups of fds senders and fds receivers" },
                { "fds", LP_INT, 10, 1, MAX_FDS, "", "senders and receivers per group" },
                { "pipe", LP_INT, 0, 0, 1, "", "1: pipes; 0: Unix socket pairs (hackbench's default)" },
                { "size", LP_INT, 100, 1, MAX_SIZE, "bytes", "message size" } },
    .run = run,
    .report = report,
};
