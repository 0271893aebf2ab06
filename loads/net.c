/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net: loopback TCP traffic on 127.0.0.1 between two threads, the network stack's softirq work included. */
#include "load.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { P_BLOCK };

struct net_ctx {
    struct load_child *c;
    struct sockaddr_in addr;
    size_t block;
};

/* Load child, second thread: connects and sends without pause. */
static void *sender(void *arg)
{
    struct net_ctx *n = arg;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&n->addr, sizeof(n->addr)) < 0) {
        load_fail(n->c, "connect to 127.0.0.1: %s", strerror(errno));
        return NULL;
    }
    char *buf = calloc(1, n->block);
    if (!buf) {
        load_fail(n->c, "out of memory");
        return NULL;
    }
    for (;;)
        if (write(fd, buf, n->block) < 0 && errno != EINTR) {
            load_fail(n->c, "send: %s", strerror(errno));
            return NULL;
        }
}

static void run(struct load_child *c)
{
    static struct net_ctx n;
    n.c = c;
    n.block = (size_t)c->param[P_BLOCK] * 1024;
    n.addr.sin_family = AF_INET;
    n.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    n.addr.sin_port = 0; /* any free port */
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t al = sizeof(n.addr);
    if (ls < 0 || bind(ls, (struct sockaddr *)&n.addr, sizeof(n.addr)) < 0 || listen(ls, 1) < 0 ||
        getsockname(ls, (struct sockaddr *)&n.addr, &al) < 0) {
        load_fail(c, "cannot listen on 127.0.0.1: %s", strerror(errno));
        return;
    }
    int e = load_thread(sender, &n);
    if (e < 0) {
        load_fail(c, "cannot start the sending thread (error %d)", -e);
        return;
    }
    int fd = accept(ls, NULL, NULL);
    if (fd < 0) {
        load_fail(c, "accept: %s", strerror(errno));
        return;
    }
    char *buf = malloc(n.block);
    if (!buf) {
        load_fail(c, "out of memory");
        return;
    }
    for (;;) {
        ssize_t r = read(fd, buf, n.block);
        if (r > 0)
            load_count(c, 0, (uint64_t)r);
        else if (r == 0 || errno != EINTR)
            break;
    }
    free(buf);
    if (!atomic_load(&c->shared->failed))
        load_fail(c, "the loopback connection ended");
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    if (s->wall_s <= 0)
        return 0;
    return load_metric_set(&m[0], "net", "throughput", s->count[0] / 1048576.0 / s->wall_s, "MB/s");
}

const struct load_info load_net = {
    .name = "net",
    .summary = "TCP traffic over 127.0.0.1 between two threads (sender and receiver)",
    .metric = "net.throughput",
    .unit = "MB/s",
    .example = "net",
    .params = { { "block", LP_INT, 64, 1, 4096, "KB", "size of each write" } },
    .run = run,
    .report = report,
};
