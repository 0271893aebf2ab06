/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source (src_trace.h): a private tracefs instance opened, frozen and read on each explain, its
 * breakdown turned into observed culprits, its slices kept for the report. The engine's sampler thread calls
 * poll, explain and summary (normal priority); trace_slices_save runs in the caller's thread after the engine
 * stopped. */
#include "culprit/src_trace.h"
#include "culprit/tracefs.h"
#include "culprit/tracefs_parse.h"
#include "culprit/tracefs_obs.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct slice {
    int seq, cpu, lines, truncated;
    int64_t t0_ns, t1_ns;
    char *text;
    size_t len;
};

struct trace_slices {
    pthread_mutex_t lock;
    atomic_int refs;
    int taken, kept;                  /* slices made, and how many of them the ring holds */
    struct slice s[TRACE_SLICES_MAX]; /* a ring: slice k at s[k % TRACE_SLICES_MAX] */
};

/* The events enabled, where the kernel has them; the first three are needed. */
static const char *const trace_events[] = {
    "sched/sched_switch", "irq/irq_handler_entry", "irq/irq_handler_exit", "sched/sched_wakeup",
    "irq/softirq_entry", "irq/softirq_exit", "power/cpu_idle",
};
#define N_EVENTS (sizeof(trace_events) / sizeof(trace_events[0]))
#define N_NEEDED 3

struct trace_ctx {
    struct tracefs tf;
    clockid_t clock;
    const char *clock_name;
    int snapshot, osnoise, vectors;
    unsigned events_on;               /* bit i: trace_events[i] enabled */
    int ignore[BD_IGNORE], n_ignore;
    struct trace_slices *slices;
    int explains, lost, partial, idle_exits;
    int skipped;                   /* explains answered from nothing: a read was less than TRACE_READ_GAP_NS ago */
    int64_t irq_ns, softirq_ns, thread_ns, rt_ns;
    struct trace_breakdown bd;        /* scratch: large, kept off the sampler's stack */
    /* The last dump, reused for the next window that ended before it was frozen (events come in bursts; reading a
     * full 1 MB buffer is ~4 MB of text and ~0.2 s here): its text, CPU (-1: all) and freeze time. */
    char *dump;
    size_t dump_len;
    int dump_cpu, dumps;
    int64_t dump_frozen_ns;
};

static int64_t now_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- slices ---- */

static struct trace_slices *slices_new(void)
{
    struct trace_slices *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->refs, 1);
    return s;
}

void trace_slices_unref(struct trace_slices *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    for (int i = 0; i < TRACE_SLICES_MAX; i++)
        free(s->s[i].text);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static void slice_name(char *buf, size_t len, const struct slice *sl)
{
    if (sl->cpu >= 0)
        snprintf(buf, len, "trace-%02d-cpu%d.txt", sl->seq, sl->cpu);
    else
        snprintf(buf, len, "trace-%02d-all.txt", sl->seq);
}

/* The lines of text (the CPU's, or all) in [t0, t1], under a header saying what they are. */
static void slice_take(struct trace_ctx *c, const char *text, size_t len, int cpu, int64_t t0, int64_t t1)
{
    struct trace_slices *s = c->slices;
    char *out = malloc(TRACE_SLICE_MAX + 1);
    if (!out)
        return;
    int lines = 0, truncated = 0;
    size_t o = (size_t)snprintf(out, TRACE_SLICE_MAX, "# rtjitter trace slice: [%lld, %lld] ns on trace_clock %s, "
                                "CPU %d, instance %s\n", (long long)t0, (long long)t1, c->clock_name, cpu,
                                c->tf.inst);
    struct tev ev;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        if (tev_parse(text + i, n, &ev) && (cpu < 0 || ev.cpu == cpu) &&
            (ev.type == TEV_LOST || (ev.t_ns >= t0 && ev.t_ns <= t1))) {
            if (o + n + 1 > TRACE_SLICE_MAX) {
                truncated = 1;
                break;
            }
            memcpy(out + o, text + i, n);
            o += n;
            out[o++] = '\n';
            lines++;
        }
        i += n + 1;
    }
    out[o] = '\0';
    char *fit = realloc(out, o + 1); /* the ring holds what was taken, not 16 x 256 KB */
    if (fit)
        out = fit;
    pthread_mutex_lock(&s->lock);
    struct slice *sl = &s->s[s->taken % TRACE_SLICES_MAX];
    free(sl->text);
    *sl = (struct slice){ .seq = ++s->taken, .cpu = cpu, .lines = lines, .truncated = truncated, .t0_ns = t0,
                          .t1_ns = t1, .text = out, .len = o };
    if (s->kept < TRACE_SLICES_MAX)
        s->kept++;
    pthread_mutex_unlock(&s->lock);
}

int trace_slices_save(struct trace_slices *s, const char *dir, char *err, size_t errlen)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -errno;
    }
    int n = 0, e = 0;
    pthread_mutex_lock(&s->lock);
    for (int k = s->taken - s->kept; k < s->taken && !e; k++) {
        const struct slice *sl = &s->s[k % TRACE_SLICES_MAX];
        char name[64];
        slice_name(name, sizeof(name), sl);
        int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, sl->text, sl->len) != (ssize_t)sl->len) {
            e = -errno;
            snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
        } else {
            n++;
        }
        if (fd >= 0 && close(fd) < 0 && !e)
            e = -errno;
    }
    pthread_mutex_unlock(&s->lock);
    close(dfd);
    return e ? e : n;
}

/* ---- the source's methods ---- */

static int trace_poll(void *vctx, int64_t now, struct culprit_obs *out, int max)
{
    (void)now, (void)out, (void)max;
    struct trace_ctx *c = vctx;
    /* someone removed our instance (or unmounted tracefs): the source is gone */
    return tracefs_has(&c->tf, "trace") ? 0 : -1;
}

/* The CPU's trace (or all of it), frozen: snapshot where the instance has one, else tracing_on=0 until read. */
static int freeze_read(struct trace_ctx *c, int cpu, char **text, size_t *len)
{
    char rel[64];
    const char *file = c->snapshot ? "snapshot" : "trace";
    if (cpu >= 0)
        snprintf(rel, sizeof(rel), "per_cpu/cpu%d/%s", cpu, file);
    else
        snprintf(rel, sizeof(rel), "%s", file);
    int e;
    if (c->snapshot) {
        e = tracefs_write(&c->tf, "snapshot", "1");
        return e ? e : tracefs_read(&c->tf, rel, text, len, TRACE_READ_MAX);
    }
    if ((e = tracefs_write(&c->tf, "tracing_on", "0")) < 0)
        return e;
    e = tracefs_read(&c->tf, rel, text, len, TRACE_READ_MAX);
    int r = tracefs_write(&c->tf, "tracing_on", "1");
    return e ? e : r;
}

static void account(struct trace_ctx *c, const struct trace_breakdown *b)
{
    c->irq_ns += b->irq_ns;
    c->softirq_ns += b->softirq_ns;
    c->thread_ns += b->thread_ns;
    c->idle_exits += b->idle_exits;
    c->lost += b->lost;
    for (int i = 0; i < b->n_task; i++)
        if (b->task[i].prio >= 0 && b->task[i].prio < 100)
            c->rt_ns += b->task[i].ns;
    if (!b->first_ns || b->first_ns > b->t0_ns)
        c->partial++;
}

static int trace_explain(void *vctx, int64_t t0, int64_t t1, int cpu, struct culprit_obs *out, int max)
{
    struct trace_ctx *c = vctx;
    char mark[160], *text = NULL;
    size_t len = 0;
    if (!c->dump || t1 >= c->dump_frozen_ns || (c->dump_cpu != cpu && c->dump_cpu != -1)) {
        /* A read costs 0.1-0.4 s of this normal thread (seen here, a full 1 MB buffer at load 15): happenings that
         * come thick (a --dsp ramp, a machine that fails every cycle) are explained from the counters alone
         * between two reads, never a queue of reads that would hold the run's end. */
        if (c->dump && now_ns(c->clock) - c->dump_frozen_ns < TRACE_READ_GAP_NS) {
            c->skipped++;
            return 0;
        }
        snprintf(mark, sizeof(mark), "rtjitter explain [%lld, %lld] cpu %d\n", (long long)t0, (long long)t1, cpu);
        tracefs_write(&c->tf, "trace_marker", mark); /* a landmark in the saved slices; its failure is harmless */
        int64_t frozen = now_ns(c->clock);
        if (freeze_read(c, cpu, &text, &len) < 0)
            return -1;
        free(c->dump);
        c->dump = text, c->dump_len = len, c->dump_cpu = cpu, c->dump_frozen_ns = frozen;
        c->dumps++;
    }
    text = c->dump, len = c->dump_len;
    int64_t frozen = c->dump_frozen_ns;
    c->explains++;
    slice_take(c, text, len, cpu, t0, t1);
    int n = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (int k = cpu >= 0 ? cpu : 0; k <= (cpu >= 0 ? cpu : (int)ncpu - 1) && n < max; k++) {
        memcpy(c->bd.ignore, c->ignore, sizeof(c->ignore));
        c->bd.n_ignore = c->n_ignore;
        trace_breakdown_build(&c->bd, text, len, k, t0, t1, frozen);
        if (!c->bd.first_ns)
            continue;
        account(c, &c->bd);
        n += trace_obs_from_breakdown(&c->bd, out + n, max - n);
    }
    return n;
}

static json_t *trace_summary(void *vctx)
{
    struct trace_ctx *c = vctx;
    json_t *ev = json_array(), *sl = json_array();
    for (size_t i = 0; i < N_EVENTS; i++)
        if (c->events_on & (1u << i))
            json_array_append_new(ev, json_string(trace_events[i]));
    if (c->vectors)
        json_array_append_new(ev, json_string("irq_vectors/*_entry,*_exit"));
    if (c->osnoise)
        json_array_append_new(ev, json_string("osnoise/*"));
    struct trace_slices *s = c->slices;
    pthread_mutex_lock(&s->lock);
    for (int k = s->taken - s->kept; k < s->taken; k++) {
        const struct slice *x = &s->s[k % TRACE_SLICES_MAX];
        char name[64];
        slice_name(name, sizeof(name), x);
        json_array_append_new(sl, json_pack("{s:s, s:I, s:I, s:i, s:i, s:b}", "file", name, "t0_ns",
                                            (json_int_t)x->t0_ns, "t1_ns", (json_int_t)x->t1_ns, "cpu", x->cpu,
                                            "lines", x->lines, "truncated", x->truncated));
    }
    int dropped = s->taken - s->kept;
    pthread_mutex_unlock(&s->lock);
    return json_pack("{s:s, s:s, s:s, s:b, s:s, s:i, s:o, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o}", "name", "tracefs",
                     "root", c->tf.root, "instance", c->tf.name, "mounted", c->tf.mounted[0] != 0, "clock",
                     c->clock_name, "buffer_size_kb", TRACE_BUFFER_KB, "events", ev, "freeze",
                     c->snapshot ? "snapshot" : "tracing_on", "explains", c->explains, "dumps", c->dumps,
                     "lost_events", c->lost, "explains_skipped", c->skipped, "windows_partly_covered", c->partial, "slices_dropped", dropped, "totals",
                     json_pack("{s:I, s:I, s:I, s:I, s:i}", "irq_ns", (json_int_t)c->irq_ns, "softirq_ns",
                               (json_int_t)c->softirq_ns, "thread_ns", (json_int_t)c->thread_ns, "rt_task_ns",
                               (json_int_t)c->rt_ns, "idle_exits", c->idle_exits),
                     "slices", sl);
}

static void trace_close(void *vctx)
{
    struct trace_ctx *c = vctx;
    if (!c)
        return;
    tracefs_close(&c->tf);
    trace_slices_unref(c->slices);
    free(c->dump);
    free(c);
}

/* ---- open ---- */

static int setup(struct trace_ctx *c, char *err, size_t errlen)
{
    char *txt = NULL, buf[32];
    size_t len;
    int sel = 0, e;
    if ((e = tracefs_write(&c->tf, "tracing_on", "0")) < 0) {
        snprintf(err, errlen, "%s/tracing_on: %s", c->tf.inst, strerror(-e));
        return e;
    }
    if (tracefs_read(&c->tf, "trace_clock", &txt, &len, 4096) < 0 ||
        !tracefs_clock_listed(txt, c->clock_name, &sel)) {
        free(txt);
        snprintf(err, errlen, "this kernel's trace_clock has no %s (the measurement clock)", c->clock_name);
        return -ENOTSUP;
    }
    free(txt);
    if ((e = tracefs_write(&c->tf, "trace_clock", c->clock_name)) < 0) {
        snprintf(err, errlen, "%s/trace_clock: %s", c->tf.inst, strerror(-e));
        return e;
    }
    snprintf(buf, sizeof(buf), "%d", TRACE_BUFFER_KB);
    if ((e = tracefs_write(&c->tf, "buffer_size_kb", buf)) < 0) {
        snprintf(err, errlen, "%s/buffer_size_kb: %s", c->tf.inst, strerror(-e));
        return e;
    }
    for (size_t i = 0; i < N_EVENTS; i++) {
        char rel[96];
        snprintf(rel, sizeof(rel), "events/%s/enable", trace_events[i]);
        if (tracefs_has(&c->tf, rel) && tracefs_write(&c->tf, rel, "1") == 0)
            c->events_on |= 1u << i;
        else if (i < N_NEEDED) {
            snprintf(err, errlen, "the tracepoint %s is not available in %s", trace_events[i], c->tf.inst);
            return -ENOTSUP;
        }
    }
    for (const struct tev_vector *v = tev_vectors; v->event; v++) { /* x86: LOC, RES, CAL... */
        char rel[96];
        int ok = 1;
        for (int x = 0; x < 2; x++) {
            snprintf(rel, sizeof(rel), "events/irq_vectors/%s_%s/enable", v->event, x ? "exit" : "entry");
            ok = ok && tracefs_has(&c->tf, rel) && tracefs_write(&c->tf, rel, "1") == 0;
        }
        c->vectors += ok;
    }
    c->osnoise = tracefs_has(&c->tf, "events/osnoise/enable") &&
                 tracefs_write(&c->tf, "events/osnoise/enable", "1") == 0;
    c->snapshot = tracefs_has(&c->tf, "snapshot");
    if ((e = tracefs_write(&c->tf, "tracing_on", "1")) < 0) {
        snprintf(err, errlen, "%s/tracing_on: %s", c->tf.inst, strerror(-e));
        return e;
    }
    return 0;
}

int trace_source_open(const char *tracefs_root, clockid_t clock, struct culprit_source *out, char *err,
                      size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct trace_ctx *c = calloc(1, sizeof(*c));
    if (!c || !(c->slices = slices_new())) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    c->tf.inst_fd = -1;
    c->clock = clock;
    if (!(c->clock_name = tracefs_clock_name(clock))) {
        trace_close(c);
        snprintf(err, errlen, "the measurement clock has no trace_clock (mono and mono_raw only)");
        return -EINVAL;
    }
    int e = tracefs_locate(&c->tf, tracefs_root, err, errlen);
    if (!e) {
        tracefs_reap_stale(c->tf.root, NULL); /* instances of dead rtjitter processes (a crash, a SIGKILL) */
        e = tracefs_instance_open(&c->tf, err, errlen);
    }
    if (!e)
        e = setup(c, err, errlen);
    if (e) {
        trace_close(c);
        return e;
    }
    *out = (struct culprit_source){ .name = "tracefs", .ctx = c, .poll = trace_poll, .explain = trace_explain,
                                    .summary = trace_summary, .close = trace_close };
    return 0;
}

void trace_source_ignore_tid(struct culprit_source *src, int tid)
{
    struct trace_ctx *c = src->ctx;
    if (c && c->n_ignore < BD_IGNORE)
        c->ignore[c->n_ignore++] = tid;
}

struct trace_slices *trace_source_slices(struct culprit_source *src)
{
    struct trace_ctx *c = src->ctx;
    atomic_fetch_add(&c->slices->refs, 1);
    return c->slices;
}
