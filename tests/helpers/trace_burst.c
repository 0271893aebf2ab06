/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source on a real tracefs (tests/integration/culprit_trace.sh), called directly as the engine would:
 *   trace_burst burst CPU MS [TRACEFS|-] [SAVEDIR]: opens the source, runs a SCHED_FIFO 50 thread pinned to CPU
 *       that spins MS ms, timed by its own clock_gettime before and after (the truth: the source never sees it),
 *       and an "audio" thread, SCHED_FIFO 40 on the same CPU, whose timer is due halfway through the burst: it
 *       waits from then to the burst's end. The source follows the audio thread and explains [due, its entry] on
 *       that CPU; prints "burst tid=T ns=N held=H" (H: from the due time to the burst's end, by the burst's own
 *       clock), one "obs ..." line per observation, "instance=... root=... mounted=0|1", the summary JSON, and
 *       closes.
 *   trace_burst hold [TRACEFS|-]: opens, prints "instance=... root=..." and waits to be killed (SIGKILL test).
 *   trace_burst open [TRACEFS|-]: opens and closes (the stale instances of dead PIDs are removed at open).
 * Exit 0; 77 with "SKIP reason" when the source cannot open (no tracefs, no privileges, no tracepoint). */
#include "culprit/src_trace.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct burst { int cpu, ms, prio, tid, err; int64_t start, due, t_a, t_b, entry; atomic_int told; };

static int64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
    struct timespec ts = { (time_t)(t / 1000000000LL), (long)(t % 1000000000LL) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

static int pin_rt(struct burst *b, int prio)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(b->cpu, &set);
    struct sched_param sp = { .sched_priority = prio };
    int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    return e ? e : pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

static void *spin(void *arg)
{
    struct burst *b = arg;
    b->tid = (int)syscall(SYS_gettid);
    if ((b->err = pin_rt(b, 50)))
        return NULL;
    sleep_until(b->start);
    b->t_a = now();
    while (now() - b->t_a < (int64_t)b->ms * 1000000)
        ;
    b->t_b = now();
    return NULL;
}

/* The audio thread: its tid told to the source before its timer is due. */
static void *audio(void *arg)
{
    struct burst *b = arg;
    if (pin_rt(b, 40))
        return NULL;
    atomic_store(&b->told, (int)syscall(SYS_gettid));
    sleep_until(b->due);
    b->entry = now();
    return NULL;
}

static void pin_away(int cpu)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < n; i++)
        if (i != cpu)
            CPU_SET(i, &set);
    if (CPU_COUNT(&set))
        sched_setaffinity(0, sizeof(set), &set);
}

static void print_open(const struct culprit_source *src)
{
    json_t *s = src->summary(src->ctx);
    printf("instance=%s root=%s mounted=%d\n", json_string_value(json_object_get(s, "instance")),
           json_string_value(json_object_get(s, "root")), json_is_true(json_object_get(s, "mounted")));
    fflush(stdout);
    json_decref(s);
}

static int burst(struct culprit_source *src, int cpu, int ms, const char *save)
{
    struct burst b = { .cpu = cpu, .ms = ms };
    const char *wait = getenv("TRACE_BURST_WAIT_MS"); /* let the buffer fill first: the cost of a full one */
    if (wait)
        usleep((useconds_t)atoi(wait) * 1000);
    pin_away(cpu);
    b.start = now() + 50000000LL;
    b.due = b.start + (int64_t)ms * 500000; /* halfway */
    pthread_t th, au;
    pthread_create(&au, NULL, audio, &b);
    while (!atomic_load(&b.told))
        usleep(1000);
    trace_source_ignore_tid(src, atomic_load(&b.told));
    src->poll(src->ctx, now(), NULL, 0);
    pthread_create(&th, NULL, spin, &b);
    pthread_join(th, NULL);
    pthread_join(au, NULL);
    if (b.err) {
        printf("SKIP cannot run a SCHED_FIFO thread on CPU %d: %s\n", cpu, strerror(b.err));
        return 77;
    }
    printf("burst tid=%d ns=%lld held=%lld\n", b.tid, (long long)(b.t_b - b.t_a), (long long)(b.t_b - b.due));
    usleep(20000);
    struct culprit_obs obs[32];
    int64_t e0 = now();
    int n = src->explain(src->ctx, b.due, b.entry, cpu, obs, 32);
    printf("explain_ns=%lld\n", (long long)(now() - e0)); /* the cost of reading the pipe and one account */
    for (int i = 0; i < n; i++)
        printf("obs kind=%s name=%s pid=%d cpu=%d value_ns=%lld evidence=%s\n", culprit_kind_name(obs[i].kind),
               obs[i].name, obs[i].pid, obs[i].cpu, (long long)obs[i].value_ns, obs[i].evidence);
    printf("explained=%d\n", n);
    print_open(src);
    json_t *s = src->summary(src->ctx);
    char *txt = json_dumps(s, JSON_COMPACT);
    printf("summary=%s\n", txt ? txt : "null");
    free(txt);
    json_decref(s);
    struct trace_slices *sl = trace_source_slices(src);
    src->close(src->ctx);
    if (save) {
        char err[256];
        int k = trace_slices_save(sl, save, err, sizeof(err));
        printf("saved=%d%s%s\n", k, k < 0 ? " " : "", k < 0 ? err : "");
    }
    trace_slices_unref(sl);
    return n >= 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int a = !strcmp(argv[1], "burst") ? 4 : 2;
    const char *root = argc > a && strcmp(argv[a], "-") ? argv[a] : NULL;
    struct culprit_source src;
    char err[512];
    if (trace_source_open(root, CLOCK_MONOTONIC, &src, err, sizeof(err)) < 0) {
        printf("SKIP the trace source cannot open: %s\n", err);
        return 77;
    }
    if (!strcmp(argv[1], "burst") && argc > 3)
        return burst(&src, atoi(argv[2]), atoi(argv[3]), argc > 5 ? argv[5] : NULL);
    print_open(&src);
    if (!strcmp(argv[1], "hold"))
        for (;;)
            pause();
    src.close(src.ctx);
    return 0;
}
