/* SPDX-License-Identifier: GPL-2.0-or-later */
/* video: a simulated video player: wakes every frame (60 fps) and burns a share of a CPU to "decode" it. */
#include "load.h"
#include <time.h>

enum { P_FPS, P_CPU };

static void run(struct load_child *c)
{
    int64_t frame_ns = (int64_t)(1e9 / c->param[P_FPS]);
    int64_t work_ns = (int64_t)(frame_ns * c->param[P_CPU] / 100.0);
    int64_t next = load_now_ns();
    for (;;) {
        /* Decode this frame: it must be done before the next frame is due, or it is shown late. */
        int64_t deadline = next + frame_ns, cpu0 = load_thread_cpu_ns();
        uint64_t x = 1;
        while (load_thread_cpu_ns() - cpu0 < work_ns && load_now_ns() < deadline)
            for (int i = 0; i < 1000; i++)
            {
                x = x * 6364136223846793005ull + 1;
                __asm__ volatile("" : "+r"(x)); /* keeps the optimiser from folding the loop away */
            }
        int64_t now = load_now_ns();
        load_count(c, 1, 1);
        if (now <= deadline)
            load_count(c, 0, 1);
        /* Frames whose time passed while we were busy or asleep count as shown late (dropped). */
        next = deadline;
        while (next + frame_ns <= now) {
            next += frame_ns;
            load_count(c, 1, 1);
        }
        load_sleep_until_ns(next);
    }
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    if (!s->count[1])
        return 0;
    return load_metric_set(&m[0], "video", "on_time", 100.0 * s->count[0] / s->count[1], "% of frames");
}

const struct load_info load_video = {
    .name = "video",
    .summary = "a simulated video player: wakes every frame and burns a share of a CPU before the next one is due",
    .metric = "video.on_time",
    .unit = "% of frames",
    .example = "video",
    .params = { { "fps", LP_DOUBLE, 60, 1, 500, "fps", "frames per second" },
                { "cpu", LP_DOUBLE, 40, 1, 95, "%", "CPU a frame takes, as a share of the frame time" } },
    .run = run,
    .report = report,
};
