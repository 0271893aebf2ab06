/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Experiment helper (tests/experiments/culprits_kernel.sh): an ordinary task that holds one CPU in the kernel. Pinned
 * to CPU, SCHED_OTHER, N times: map MB MiB of anonymous memory populated (the kernel faults every page in), then
 * unmap it (the kernel frees every page), GAP_S apart; each kernel call is logged as "populate|munmap START END" on
 * CLOCK_MONOTONIC, the clock perf records with -k CLOCK_MONOTONIC.
 *
 * usage: kernel_hold CPU MB N GAP_S */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s CPU MB N GAP_S\n", argv[0]);
        return 2;
    }
    int cpu = atoi(argv[1]), n = atoi(argv[3]);
    size_t len = (size_t)atol(argv[2]) << 20;
    double gap = atof(argv[4]);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) < 0 || len == 0 || n <= 0) {
        perror("kernel_hold");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        double a = now_s();
        char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        double b = now_s();
        if (p == MAP_FAILED) {
            perror("kernel_hold: mmap");
            return 1;
        }
        munmap(p, len);
        double c = now_s();
        printf("populate %.6f %.6f\nmunmap %.6f %.6f\n", a, b, b, c);
        fflush(stdout);
        usleep((useconds_t)(gap * 1e6));
    }
    return 0;
}
