/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: an injected culprit for the culprits tests (issue 24), a softirq storm on loopback networking only,
 * bounded in time. Pinned to SEND_CPU (an ordinary thread), it sends small UDP datagrams to its own socket on
 * 127.0.0.1 as fast as sendmmsg() lets it, for BURST_MS every EVERY_MS, COUNT times, after DELAY_MS, and never
 * reads them: each one is received (and dropped at the full socket) by the kernel's NET_RX softirq, on the CPU that
 * lo's packet steering names (queues/rx-0/rps_cpus, which the test sets), in interrupt context there. It prints each
 * burst's start and end on CLOCK_MONOTONIC in seconds ("spin START END"), as measured by itself, and at the end
 * how many it sent ("# sent N"): the truth a test judges rtjitter's culprits with. Nothing leaves the machine.
 *
 * usage: udp_flood SEND_CPU BURST_MS EVERY_MS COUNT DELAY_MS [PRIO]
 * PRIO: send as SCHED_FIFO PRIO (root), so that a busy SEND_CPU (stress-ng beside the test) does not starve the storm;
 * a burst spins at most 5 s, under the kernel's real-time throttling. */
#include <arpa/inet.h>
#include "mono_s.h"
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s SEND_CPU BURST_MS EVERY_MS COUNT DELAY_MS [PRIO]\n", argv[0]);
        return 2;
    }
    int cpu = atoi(argv[1]), count = atoi(argv[4]);
    double burst = atof(argv[2]) / 1e3, every = atof(argv[3]) / 1e3, delay = atof(argv[5]) / 1e3;
    if (burst <= 0 || burst > 5 || every < burst || count < 1 || count > 100) {
        fprintf(stderr, "udp_flood: bursts of at most 5 s, at most 100 of them\n");
        return 2;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0) {
        perror("udp_flood: sched_setaffinity");
        return 1;
    }
    if (argc == 7) {
        struct sched_param sp = { .sched_priority = atoi(argv[6]) };
        if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
            perror("udp_flood: sched_setscheduler");
            return 1;
        }
    }
    int rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof a;
    if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof a) < 0 ||
        getsockname(rx, (struct sockaddr *)&a, &alen) < 0 || connect(tx, (struct sockaddr *)&a, sizeof a) < 0) {
        perror("udp_flood: socket");
        return 1;
    }
    static char payload[32];
    struct iovec iov = { payload, sizeof payload };
    struct mmsghdr m[BATCH];
    memset(m, 0, sizeof m);
    for (int i = 0; i < BATCH; i++) {
        m[i].msg_hdr.msg_iov = &iov;
        m[i].msg_hdr.msg_iovlen = 1;
    }
    unsigned long long sent = 0;
    double t0 = now_s() + delay;
    for (int i = 0; i < count; i++) {
        sleep_until(t0 + i * every);
        double s = now_s(), e;
        while ((e = now_s()) - s < burst) {
            int n = sendmmsg(tx, m, BATCH, 0);
            if (n > 0)
                sent += (unsigned)n;
            else if (n < 0 && errno != EAGAIN && errno != ENOBUFS && errno != ECONNREFUSED && errno != EINTR) {
                perror("udp_flood: sendmmsg");
                return 1;
            }
        }
        printf("spin %.6f %.6f\n", s, e);
        fflush(stdout);
    }
    printf("# sent %llu\n", sent);
    close(tx);
    close(rx);
    return 0;
}
