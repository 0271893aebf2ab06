/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x: interbench's X server: bursts of CPU that sweep from 0 to 100 % of a CPU and back, the way a desktop
 * redrawing windows uses it. */
#include "load.h"
#include <time.h>

enum { P_SLICE, P_STEPS };

static void run(struct load_child *c)
{
    int64_t slice_ns = (int64_t)(c->param[P_SLICE] * 1e6);
    int steps = (int)c->param[P_STEPS];
    int64_t next = load_now_ns();
    for (unsigned k = 0;; k++) {
        /* Duty cycle goes 0, 1/steps, ..., 1, then back down, one step per slice. */
        unsigned pos = k % (2u * (unsigned)steps);
        double duty = (pos <= (unsigned)steps ? pos : 2u * (unsigned)steps - pos) / (double)steps;
        int64_t want = (int64_t)(duty * slice_ns), deadline = next + slice_ns, cpu0 = load_thread_cpu_ns();
        uint64_t x = 1;
        while (load_thread_cpu_ns() - cpu0 < want && load_now_ns() < deadline)
            for (int i = 0; i < 1000; i++)
            {
                x = x * 6364136223846793005ull + 1;
                __asm__ volatile("" : "+r"(x)); /* keeps the optimiser from folding the loop away */
            }
        int64_t got = load_thread_cpu_ns() - cpu0;
        load_count(c, 0, (uint64_t)(got < want ? got : want));
        load_count(c, 1, (uint64_t)want);
        next = deadline;
        int64_t now = load_now_ns();
        if (next < now)
            next = now; /* a late slice is not made up for: its shortfall is the measurement */
        load_sleep_until_ns(next);
    }
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    if (!s->count[1])
        return 0;
    return load_metric_set(&m[0], "x", "desired_cpu", 100.0 * s->count[0] / s->count[1], "% of desired CPU");
}

const struct load_info load_x = {
    .name = "x",
    .summary = "interbench's X: one thread whose CPU bursts sweep from 0 to 100 % of a CPU and back",
    .metric = "x.desired_cpu",
    .unit = "% of desired CPU",
    .example = "x",
    .params = { { "slice", LP_DOUBLE, 10, 1, 1000, "ms", "length of one burst slot" },
                { "steps", LP_INT, 10, 1, 1000, "", "slots from 0 to 100 %" } },
    .run = run,
    .report = report,
};
