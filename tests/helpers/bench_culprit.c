/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench: the culprit sampler's cost. usage: bench_culprit SECONDS [PROC_ROOT SYS_ROOT]
 * Prints the CPU time of one tick (ticks driven back to back on this thread, CLOCK_THREAD_CPUTIME_ID, 200 of
 * them) and what that makes at 20 Hz, and of the task scan (once a second); then runs the real sampler thread at
 * 20 Hz for SECONDS with this process noted as the audio one (CPU 0) and prints the summary's own cost (the thread's CPU time over the wall time). */
#include "culprit/engine_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int64_t thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 10;
    struct culprit_config cfg = {.clock = CLOCK_MONOTONIC, .hz = 20, .audio_pid = getpid(), .period_ns = 1000000,
                                 .proc_root = argc > 3 ? argv[2] : NULL, .sys_root = argc > 3 ? argv[3] : NULL};
    char err[200];
    struct culprit_engine *e = ce_create(&cfg, err, sizeof err);
    if (!e) {
        fprintf(stderr, "bench_culprit: %s\n", err);
        return 1;
    }
    culprit_engine_set_audio(e, gettid(), 0);
    culprit_engine_audio_cpu(e, 0);
    int n = 200;
    ce_tick(e, ce_now(e)); /* primes, scans the tasks */
    int64_t c0 = thread_ns();
    for (int i = 0; i < n; i++)
        ce_tick(e, ce_now(e));
    double per = (thread_ns() - c0) / 1e3 / n;
    printf("one tick: %.0f us of CPU (mean of %d, %d interrupt lines, %d RT tasks followed) = %.2f %% of a CPU at "
           "20 Hz\n", per, n, e->nlines, e->ntasks, per * 20 / 1e4);
    uint64_t all[CE_CPUS_MAX / 64] = {1}; /* CPU 0, as noted */
    c0 = thread_ns();
    for (int i = 0; i < 5; i++)
        ce_rt_rescan(e, all);
    double scan = (thread_ns() - c0) / 1e3 / 5;
    printf("the real-time task scan (once a second): %.0f us of CPU = %.2f %% of a CPU\n", scan, scan / 1e4);
    culprit_engine_free(e);
    e = culprit_engine_start(&cfg, err, sizeof err);
    if (!e)
        return 1;
    culprit_engine_set_audio(e, gettid(), 0);
    culprit_engine_audio_cpu(e, 0);
    usleep((useconds_t)(secs * 1e6));
    culprit_engine_stop(e);
    struct culprit_results r = culprit_engine_results(e);
    json_t *s = r.summary(r.ctx);
    json_t *cost = json_object_get(s, "cost");
    printf("sampler thread at 20 Hz for %.0f s: %.3f s of CPU = %.2f %% of a CPU\n", secs,
           json_real_value(json_object_get(cost, "cpu_s")), json_real_value(json_object_get(cost, "cpu_pct")));
    json_decref(s);
    culprit_engine_free(e);
    return 0;
}
