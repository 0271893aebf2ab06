/* SPDX-License-Identifier: GPL-2.0-or-later */
/* burn: one busy thread per online CPU, the plain CPU hog. */
#include "load.h"

enum { P_THREADS };

/* Load child: one of the busy threads. Pure arithmetic, no memory traffic, no syscalls. */
static void *spin(void *arg)
{
    struct load_child *c = arg;
    uint64_t x = 88172645463325252ull;
    for (;;) {
        for (int i = 0; i < 200000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            __asm__ volatile("" : "+r"(x)); /* keeps the optimiser from folding the loop away */
        }
        load_count(c, 0, 1); /* one unit per 200,000 rounds */
    }
    return NULL;
}

static void run(struct load_child *c)
{
    int n = c->param[P_THREADS] > 0 ? (int)c->param[P_THREADS] : load_online_cpus();
    for (int i = 1; i < n; i++) {
        int e = load_thread(spin, c);
        if (e < 0) {
            load_fail(c, "cannot start thread %d of %d (error %d)", i + 1, n, -e);
            break;
        }
    }
    spin(c);
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    if (s->wall_s <= 0)
        return 0;
    int n = load_metric_set(&m[0], "burn", "cpu", 100.0 * s->cpu_s / (s->wall_s * load_online_cpus()),
                            "% of all CPUs");
    n += load_metric_set(&m[n], "burn", "rounds", s->count[0] * 0.2 / s->wall_s, "M rounds/s");
    return n;
}

const struct load_info load_burn = {
    .name = "burn",
    .summary = "one busy thread per online CPU (pure arithmetic, SCHED_OTHER)",
    .metric = "burn.cpu",
    .unit = "% of all CPUs",
    .example = "burn",
    .params = { { "threads", LP_INT, 0, 0, 1024, "", "busy threads; 0: one per online CPU" } },
    .run = run,
    .report = report,
};
