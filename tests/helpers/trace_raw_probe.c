/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary trace reader (src/culprit/trace_raw.c) on this machine's real tracefs, for tests/integration/trace_raw.sh:
 *   trace_raw_probe events CPU CYCLES SPIN_MS SLEEP_MS: a private instance (src/culprit/tracefs.c) with sched_switch
 *       and sched_waking (filtered to the hog), read through trace_raw every 50 ms as the sampler does, while a hog
 *       thread named "rtjhog", SCHED_FIFO 50 pinned to CPU, sleeps SLEEP_MS and spins SPIN_MS, CYCLES times, logging
 *       by its own clock (CLOCK_MONOTONIC, the instance's trace clock "mono") the time before each sleep and after
 *       each wake, and its own /proc/thread-self/schedstat (its switch-ins: the third field) before the first cycle
 *       and after the last, each read between two clock reads. Prints the hog's log ("hog ...", "cycle ...", "stat
 *       ..."), then every event the reader fed that names the hog ("ev ..."), and the reader's lost count.
 *   trace_raw_probe lost CPU ROUNDS: the whole trace source (src_trace.c) as the engine opens it, its instance's ring
 *       then cut to a few pages (buffer_size_kb 4, written here into the instance), and ROUNDS round trips of a byte
 *       between two threads pinned to CPU through two pipes (each round trip at least two sched_switch on CPU)
 *       with no read meanwhile: the ring overflows. Then the source reads until nothing is left and prints its
 *       summary, and the kernel's own per_cpu/cpuN/stats (overrun, read events) read here, summed.
 * Exit 0; 77 with "SKIP reason" when tracefs or a SCHED_FIFO thread cannot be had. */
#include "culprit/src_trace.h"
#include "culprit/trace_raw.h"
#include "culprit/tracefs.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pin(int cpu, int prio)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    if (!e && prio > 0) {
        struct sched_param sp = { .sched_priority = prio };
        e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    }
    return e;
}

static void pin_away(int cpu)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < n; i++)
        if (i != cpu)
            CPU_SET(i, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

/* ---- events: the hog against the reader ---- */

#define CYCLES_MAX 1000
#define EVS_MAX 200000

struct hog {
    int cpu, cycles, spin_ms, sleep_ms, err;
    atomic_int tid, go, done;
    int64_t sleep_ns[CYCLES_MAX], wake_ns[CYCLES_MAX];
    int64_t a[2], b[2];          /* the clock before and after each schedstat read */
    long long pcount[2];
};

static long long switch_ins(void)
{
    FILE *f = fopen("/proc/thread-self/schedstat", "re");
    unsigned long long run, wait, n = 0;
    if (!f || fscanf(f, "%llu %llu %llu", &run, &wait, &n) != 3)
        n = 0;
    if (f)
        fclose(f);
    return (long long)n;
}

static void *hog_main(void *arg)
{
    struct hog *h = arg;
    prctl(PR_SET_NAME, "rtjhog");
    if ((h->err = pin(h->cpu, 50))) {
        atomic_store(&h->tid, -1);
        return NULL;
    }
    atomic_store(&h->tid, (int)syscall(SYS_gettid));
    while (!atomic_load(&h->go))
        usleep(1000);
    h->a[0] = now(), h->pcount[0] = switch_ins(), h->b[0] = now();
    for (int i = 0; i < h->cycles; i++) {
        h->sleep_ns[i] = now();
        struct timespec d = { h->sleep_ms / 1000, (long)(h->sleep_ms % 1000) * 1000000L };
        while (clock_nanosleep(CLOCK_MONOTONIC, 0, &d, &d) == EINTR)
            ;
        h->wake_ns[i] = now();
        while (now() - h->wake_ns[i] < (int64_t)h->spin_ms * 1000000)
            ;
    }
    h->a[1] = now(), h->pcount[1] = switch_ins(), h->b[1] = now();
    atomic_store(&h->done, 1);
    return NULL;
}

struct seen {
    int tid;
    long long n, lost;
    int nev;
    struct tev ev[EVS_MAX];
};

static void on_event(void *arg, const struct tev *ev)
{
    struct seen *s = arg;
    s->n++;
    if (ev->type == TEV_LOST)
        s->lost += ev->num;
    int mine = (ev->type == TEV_SWITCH && (ev->prev_pid == s->tid || ev->next_pid == s->tid)) ||
               (ev->type == TEV_WAKING && ev->num == s->tid);
    if (mine && s->nev < EVS_MAX)
        s->ev[s->nev++] = *ev;
}

static int64_t mono(void)
{
    return now();
}

static int events(int cpu, int cycles, int spin_ms, int sleep_ms)
{
    struct tracefs tf;
    char err[512];
    if (tracefs_locate(&tf, NULL, err, sizeof(err)) < 0 || tracefs_instance_open(&tf, err, sizeof(err)) < 0) {
        printf("SKIP no tracefs instance: %s\n", err);
        return 77;
    }
    static const char *const evs[] = { "sched/sched_switch", "sched/sched_waking" };
    int e = tracefs_write(&tf, "tracing_on", "0");
    e = e ? e : tracefs_write(&tf, "trace_clock", "mono");
    e = e ? e : tracefs_write(&tf, "buffer_size_kb", "1024");
    e = e ? e : tracefs_write(&tf, "events/sched/sched_waking/filter", "pid == 0");
    for (int i = 0; i < 2 && !e; i++) {
        char rel[96];
        snprintf(rel, sizeof(rel), "events/%s/enable", evs[i]);
        e = tracefs_write(&tf, rel, "1");
    }
    struct trace_raw *raw = NULL;
    if (e || trace_raw_open(&tf, evs, 2, &raw, err, sizeof(err)) < 0) {
        printf("SKIP the instance cannot be set up or its rings read: %s\n", e ? strerror(-e) : err);
        tracefs_close(&tf);
        return 77;
    }
    static struct hog h;
    static struct seen s;
    h = (struct hog){ .cpu = cpu, .cycles = cycles < CYCLES_MAX ? cycles : CYCLES_MAX, .spin_ms = spin_ms,
                      .sleep_ms = sleep_ms };
    pin_away(cpu);
    tracefs_write(&tf, "tracing_on", "1");
    pthread_t th;
    pthread_create(&th, NULL, hog_main, &h);
    while (!atomic_load(&h.tid))
        usleep(1000);
    if (atomic_load(&h.tid) < 0) {
        pthread_join(th, NULL);
        printf("SKIP cannot run a SCHED_FIFO thread on CPU %d: %s\n", cpu, strerror(h.err));
        trace_raw_close(raw);
        tracefs_close(&tf);
        return 77;
    }
    s.tid = atomic_load(&h.tid);
    char filter[64];
    snprintf(filter, sizeof(filter), "pid == %d", s.tid);
    tracefs_write(&tf, "events/sched/sched_waking/filter", filter);
    atomic_store(&h.go, 1);
    long bytes = 0;
    int reads = 0;
    while (!atomic_load(&h.done)) { /* as the sampler: every 50 ms, what was written up to now */
        usleep(50000);
        long r = trace_raw_drain(raw, on_event, &s, mono(), 32u << 20);
        bytes += r > 0 ? r : 0;
        reads++;
    }
    pthread_join(th, NULL);
    usleep(20000);
    for (long r = 1; r > 0;) {
        r = trace_raw_drain(raw, on_event, &s, mono(), 32u << 20);
        bytes += r > 0 ? r : 0;
    }
    long long lost, from_stats;
    trace_raw_lost(raw, &lost, &from_stats);
    trace_raw_close(raw);
    tracefs_close(&tf);
    printf("hog tid=%d comm=rtjhog prio=%d cpu=%d cycles=%d spin_ms=%d sleep_ms=%d\n", s.tid, 99 - 50, cpu, h.cycles,
           spin_ms, sleep_ms);
    for (int k = 0; k < 2; k++)
        printf("stat k=%d a=%lld b=%lld switch_ins=%lld\n", k, (long long)h.a[k], (long long)h.b[k], h.pcount[k]);
    for (int i = 0; i < h.cycles; i++)
        printf("cycle i=%d sleep=%lld wake=%lld\n", i, (long long)h.sleep_ns[i], (long long)h.wake_ns[i]);
    for (int i = 0; i < s.nev; i++) {
        const struct tev *v = &s.ev[i];
        if (v->type == TEV_WAKING)
            printf("ev t=%lld cpu=%d type=waking pid=%d comm=%s woken=%lld prio=%d target=%d\n", (long long)v->t_ns,
                   v->cpu, v->pid, v->comm, (long long)v->num, v->next_prio, v->next_pid);
        else
            printf("ev t=%lld cpu=%d type=switch pid=%d comm=%s prev_pid=%d prev_prio=%d prev_state=%s "
                   "next_pid=%d next_comm=%s next_prio=%d\n", (long long)v->t_ns, v->cpu, v->pid, v->comm,
                   v->prev_pid, v->prev_prio, v->prev_state, v->next_pid, v->name, v->next_prio);
    }
    printf("reader events=%lld mine=%d lost=%lld lost_from_stats=%lld bytes=%ld reads=%d\n", s.n, s.nev, lost,
           from_stats, bytes, reads);
    return 0;
}

/* ---- lost: the whole source, its ring overflowed ---- */

struct pong { int cpu, rounds, fd_in, fd_out, leader; long long done; };

static void *pong_main(void *arg)
{
    struct pong *p = arg;
    pin(p->cpu, 0);
    char x = 0;
    for (int i = 0; i < p->rounds; i++) {
        if (p->leader && write(p->fd_out, &x, 1) != 1)
            break;
        if (read(p->fd_in, &x, 1) != 1)
            break;
        if (!p->leader && write(p->fd_out, &x, 1) != 1)
            break;
        p->done++;
    }
    return NULL;
}

static int write_file(const char *path, const char *val)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t w = write(fd, val, strlen(val));
    int e = w == (ssize_t)strlen(val) ? 0 : -EIO;
    close(fd);
    return e;
}

/* The kernel's own counts of the instance's rings, summed over the CPUs. */
static void kernel_stats(const char *inst, long long *overrun, long long *read_events, long long *entries)
{
    *overrun = *read_events = *entries = 0;
    long n = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < n; c++) {
        char p[1200], line[256];
        snprintf(p, sizeof(p), "%s/per_cpu/cpu%ld/stats", inst, c);
        FILE *f = fopen(p, "re");
        while (f && fgets(line, sizeof(line), f)) {
            long long v;
            if (sscanf(line, "overrun: %lld", &v) == 1)
                *overrun += v;
            else if (sscanf(line, "read events: %lld", &v) == 1)
                *read_events += v;
            else if (sscanf(line, "entries: %lld", &v) == 1)
                *entries += v;
        }
        if (f)
            fclose(f);
    }
}

static int lost(int cpu, int rounds)
{
    struct culprit_source src;
    char err[512];
    if (trace_source_open(NULL, CLOCK_MONOTONIC, &src, err, sizeof(err)) < 0) {
        printf("SKIP the trace source cannot open: %s\n", err);
        return 77;
    }
    json_t *s0 = src.summary(src.ctx);
    char inst[1024];
    snprintf(inst, sizeof(inst), "%s/instances/%s", json_string_value(json_object_get(s0, "root")),
             json_string_value(json_object_get(s0, "instance")));
    json_decref(s0);
    char p[1100];
    snprintf(p, sizeof(p), "%s/buffer_size_kb", inst);
    int e = write_file(p, "4");
    if (e < 0) {
        printf("SKIP cannot cut the instance's ring: %s\n", strerror(-e));
        src.close(src.ctx);
        return 77;
    }
    FILE *f = fopen(p, "re");
    int kb = 0;
    if (!f || fscanf(f, "%d", &kb) != 1)
        kb = -1;
    if (f)
        fclose(f);
    src.poll(src.ctx, now(), NULL, 0);
    pin_away(cpu);
    int ab[2], ba[2];
    if (pipe(ab) || pipe(ba))
        return 1;
    struct pong a = { .cpu = cpu, .rounds = rounds, .fd_in = ba[0], .fd_out = ab[1], .leader = 1 };
    struct pong b = { .cpu = cpu, .rounds = rounds, .fd_in = ab[0], .fd_out = ba[1] };
    pthread_t ta, tb;
    pthread_create(&tb, NULL, pong_main, &b);
    pthread_create(&ta, NULL, pong_main, &a);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    usleep(20000);
    snprintf(p, sizeof(p), "%s/tracing_on", inst);
    write_file(p, "0"); /* nothing more is written: the kernel's counts are final once the rings are read */
    /* until the rings are empty: each poll reads what was written before it. The source reads the rings at most
     * every TRACE_DRAIN_NS, so the polls are that far apart: 20 ms apart, a flood over in 60 ms (this VM after a
     * reboot) left all five within 180 ms of the first, and none read anything (bytes_read 0, 145-187 entries left) */
    for (int i = 0; i < 5; i++) {
        usleep((useconds_t)(TRACE_DRAIN_NS / 1000 + 20000));
        src.poll(src.ctx, now(), NULL, 0);
    }
    long long overrun, read_events, entries;
    kernel_stats(inst, &overrun, &read_events, &entries);
    json_t *s = src.summary(src.ctx);
    char *txt = json_dumps(s, JSON_COMPACT);
    printf("ring_kb=%d rounds=%d done=%lld\n", kb, rounds, a.done < b.done ? a.done : b.done);
    printf("kernel overrun=%lld read_events=%lld entries=%lld\n", overrun, read_events, entries);
    printf("source read=%s lost_events=%lld events_read=%lld out_of_order=%lld\n",
           json_string_value(json_object_get(s, "read")), (long long)json_integer_value(json_object_get(s, "lost_events")),
           (long long)json_integer_value(json_object_get(s, "events_read")),
           (long long)json_integer_value(json_object_get(s, "out_of_order")));
    printf("summary=%s\n", txt ? txt : "null");
    free(txt);
    json_decref(s);
    src.close(src.ctx);
    close(ab[0]), close(ab[1]), close(ba[0]), close(ba[1]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 6 && !strcmp(argv[1], "events"))
        return events(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc >= 4 && !strcmp(argv[1], "lost"))
        return lost(atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: trace_raw_probe events CPU CYCLES SPIN_MS SLEEP_MS | lost CPU ROUNDS\n");
    return 2;
}
