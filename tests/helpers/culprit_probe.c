/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit engine on the real /proc, against an injected culprit whose truth this program knows and the
 * engine does not: a SCHED_FIFO "audio" thread (priority 10, pinned to --cpu) wakes every 1 ms and counts a spike
 * when it wakes more than 2 ms late; the main thread (the collector) notes each spike to the engine; a forked child
 * (the culprit: SCHED_FIFO 50 on the same CPU) waits --delay-ms (so that the engine's once-a-second scan has found
 * it), then spins --spin-ms every --every-ms, --count times, and writes each burst's start and end into shared
 * memory. Prints, for tests/integration/culprit_engine.sh:
 *   culprit_pid PID                      (fork's answer: the truth)
 *   burst I T0_S T1_S                    (the child's own clock readings)
 *   spike T_S LATE_MS IN_BURST NCULPRITS KIND PID NAME | EVIDENCE   (what the engine ranked top)
 *   summary {JSON}                       (the engine's "culprits" object)
 * Needs the right to SCHED_FIFO (root, or RLIMIT_RTPRIO >= 50). */
#include "culprit/culprit_engine.h"
#include "rt_pin.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPIKES_MAX 256
#define BURSTS_MAX 64

struct spike {
    int64_t start, end;
    int cpu;
};

static struct spike spikes[SPIKES_MAX];
static atomic_int nspikes;
static atomic_int stop_audio;
static struct culprit_engine *eng;
static int opt_cpu = -1, opt_every = 300, opt_spin = 20, opt_count = 5, opt_delay = 1500;
static double opt_hz = 20;

struct shared {
    int64_t t0[BURSTS_MAX], t1[BURSTS_MAX];
    int n;
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
    struct timespec ts = {t / 1000000000, t % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

static void *audio_main(void *arg)
{
    (void)arg;
    culprit_engine_set_audio(eng, gettid(), 10);
    culprit_engine_audio_cpu(eng, opt_cpu);
    int64_t next = now_ns();
    while (!atomic_load(&stop_audio)) {
        next += 1000000;
        sleep_until(next);
        int64_t t = now_ns();
        if (t - next > 2000000) {
            int i = atomic_load(&nspikes);
            if (i < SPIKES_MAX) {
                spikes[i] = (struct spike){next, t, sched_getcpu()};
                atomic_store(&nspikes, i + 1);
            }
            next = t; /* the missed wake-ups are skipped, as a period is */
        }
    }
    return NULL;
}

static void culprit_child(struct shared *sh)
{
    prctl(PR_SET_NAME, "culprit_spin");
    if (rt_pin(opt_cpu, 50) < 0)
        _exit(2);
    int64_t t = now_ns() + (int64_t)opt_delay * 1000000;
    for (int i = 0; i < opt_count && i < BURSTS_MAX; i++) {
        sleep_until(t);
        int64_t t0 = now_ns(), t1;
        while ((t1 = now_ns()) - t0 < (int64_t)opt_spin * 1000000)
            ;
        sh->t0[i] = t0;
        sh->t1[i] = t1;
        sh->n = i + 1;
        t += (int64_t)opt_every * 1000000;
    }
    /* alive a while after: a task that ends within a sample of its run is not seen (its last CPU time is read at
     * the next tick, from /proc/PID/task/TID/schedstat, gone by then) */
    sleep_until(now_ns() + 300000000);
    _exit(0);
}

static int start_audio(pthread_t *th)
{
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&a, SCHED_FIFO);
    struct sched_param sp = {.sched_priority = 10};
    pthread_attr_setschedparam(&a, &sp);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(opt_cpu, &one);
    pthread_attr_setaffinity_np(&a, sizeof one, &one);
    int rc = pthread_create(th, &a, audio_main, NULL);
    pthread_attr_destroy(&a);
    if (rc)
        fprintf(stderr, "culprit_probe: the SCHED_FIFO audio thread: %s\n", strerror(rc));
    return rc ? -1 : 0;
}

static void print_spike(const struct spike *s, const struct shared *sh, int64_t t0)
{
    struct culprit c[CULPRITS_MAX];
    struct culprit_results r = culprit_engine_results(eng);
    int n = r.lookup(r.ctx, CS_SPIKE, 0, s->start, c, CULPRITS_MAX);
    int in = 0;
    for (int b = 0; b < sh->n; b++)
        in |= s->end >= sh->t0[b] && s->start <= sh->t1[b];
    printf("spike %.3f %.2f %d %d %s %d %s | %s\n", (s->start - t0) / 1e9, (s->end - s->start) / 1e6, in, n,
           n > 0 ? culprit_kind_name(c[0].kind) : "-", n > 0 ? c[0].pid : 0, n > 0 ? c[0].name : "-",
           n > 0 ? c[0].evidence : "-");
    for (int i = 1; i < n; i++)
        printf("  also %s %d %s | %s\n", culprit_kind_name(c[i].kind), c[i].pid, c[i].name, c[i].evidence);
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        int v = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--cpu"))
            opt_cpu = v;
        else if (!strcmp(argv[i], "--every-ms"))
            opt_every = v;
        else if (!strcmp(argv[i], "--spin-ms"))
            opt_spin = v;
        else if (!strcmp(argv[i], "--count"))
            opt_count = v;
        else if (!strcmp(argv[i], "--delay-ms"))
            opt_delay = v;
        else if (!strcmp(argv[i], "--hz"))
            opt_hz = atof(argv[i + 1]);
    }
    if (opt_cpu < 0)
        opt_cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
}

/* The collector: notes each new spike until the child is done and a little after. */
static void collect(pid_t child)
{
    int noted = 0, done = 0;
    int64_t end = 0;
    while (!done || now_ns() < end) {
        int n = atomic_load(&nspikes);
        for (; noted < n; noted++)
            culprit_engine_note(eng, CS_SPIKE, 0, spikes[noted].start, spikes[noted].end, spikes[noted].cpu, 0);
        if (!done && waitpid(child, NULL, WNOHANG) == child) {
            done = 1;
            end = now_ns() + 500000000;
        }
        usleep(10000);
    }
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        return 1;
    memset(sh, 0, sizeof *sh);
    char err[200];
    struct culprit_config cfg = {.clock = CLOCK_MONOTONIC, .hz = opt_hz, .audio_pid = getpid(),
                                 .period_ns = 1000000};
    eng = culprit_engine_start(&cfg, err, sizeof err);
    if (!eng) {
        fprintf(stderr, "culprit_probe: %s\n", err);
        return 1;
    }
    pthread_t th;
    if (start_audio(&th) < 0)
        return 3;
    int64_t t0 = now_ns();
    pid_t child = fork();
    if (child == 0)
        culprit_child(sh);
    printf("culprit_pid %d\n", (int)child);
    collect(child);
    atomic_store(&stop_audio, 1);
    pthread_join(th, NULL);
    culprit_engine_stop(eng);
    for (int b = 0; b < sh->n; b++)
        printf("burst %d %.3f %.3f\n", b, (sh->t0[b] - t0) / 1e9, (sh->t1[b] - t0) / 1e9);
    int n = atomic_load(&nspikes);
    for (int i = 0; i < n; i++)
        print_spike(&spikes[i], sh, t0);
    struct culprit_results r = culprit_engine_results(eng);
    json_t *sum = r.summary(r.ctx);
    char *js = json_dumps(sum, JSON_COMPACT);
    printf("summary %s\n", js ? js : "null");
    free(js);
    json_decref(sum);
    culprit_engine_free(eng);
    return 0;
}
