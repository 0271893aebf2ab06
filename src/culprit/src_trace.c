/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace source (src_trace.h): a private tracefs instance whose binary rings are read as they fill
 * (trace_raw.h; its text pipe where they cannot be) into a stream (trace_stream.h), the audio threads' waits
 * accounted on each explain (trace_class.h), slices kept for the report. The engine's sampler thread calls poll,
 * explain and summary (normal priority); trace_slices_save runs in the caller's thread after the engine stopped. */
#include "culprit/src_trace.h"
#include "culprit/tracefs.h"
#include "culprit/tracefs_parse.h"
#include "culprit/trace_class.h"
#include "culprit/trace_raw.h"
#include "culprit/trace_slices.h"
#include "culprit/trace_stream.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The events enabled, where the kernel has them; the first three are needed. sched_waking is filtered to the audio
 * threads (its filter is set as they are told): the wait begins there, not at sched_wakeup (a remote wake of an
 * idle virtual CPU shows wakeup up to 1.3 ms later). irq_vectors (x86: the tick, IPIs) are what tell a busy CPU
 * from one that was not running. */
static const char *const trace_events[] = {
    "sched/sched_switch", "sched/sched_waking", "irq/irq_handler_entry", "irq/irq_handler_exit",
    "irq/softirq_entry", "irq/softirq_exit", "workqueue/workqueue_execute_start", "workqueue/workqueue_execute_end",
};
#define N_EVENTS (sizeof(trace_events) / sizeof(trace_events[0]))
#define N_NEEDED 3

struct trace_ctx {
    pthread_mutex_t lock;             /* the stream and the pipe: the sampler's poll and explain, and the noise
                                       * probe's classifier asking for its gaps (trace_source_span) */
    struct tracefs tf;
    clockid_t clock;
    const char *clock_name;
    int vectors, pipe_fd;
    struct trace_raw *raw;            /* the binary rings; NULL: the text pipe (pipe_fd) is read instead */
    char raw_why[200];                /* why the rings could not be read */
    unsigned events_on;               /* bit i: trace_events[i] enabled */
    int watch[BD_IGNORE], n_watch;
    struct trace_slices *slices;
    char slice[TRACE_SLICE_MAX];      /* a slice as it is written (slice_take), copied to the ring at its length: a
                                       * malloc of the most shrunk to fit left a free 12 kB between the live blocks
                                       * of the sampler's heap at each slice (a watch's heap was half free) */
    struct trace_stream *ts;
    char *rd;                         /* the pipe's read buffer; a partial line is kept at its start */
    size_t rd_len;
    long long bytes, reads;
    int explains, explained, not_covered, no_wait, short_wait, pipe_error;
    int lost_waits;                   /* of not_covered, those whose wait the rings lost events in (CNW_LOST) */
    int missed_waits;                 /* of not_covered, those whose wait a switch the trace does not hold left not
                                       * known (CNW_MISSED) */
    int64_t drained_ns;               /* when a poll last read the rings (the measurement clock; 0: never) */
    int quiet;                        /* the sampler is quiet (watch): polls leave the rings to the kernel */
    int skipped;                      /* a quiet poll left them: the next read's lost events were overwritten */
    long long quiet_polls, overwritten_quiet; /* polls that left them; events the kernel overwrote meanwhile */
    long long spans, spans_not_covered; /* the noise probe's gaps asked for, and those the trace could not cover */
    int64_t cpu_ns;                   /* the sampler thread's CPU time in this source's reads and accounts */
};

/* ---- the source's methods ---- */

static int64_t thread_cpu_ns(void)
{
    struct timespec t;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec : 0;
}

static void feed_stream(void *ts, const struct tev *ev)
{
    ts_feed(ts, ev);
}

/* What the rings hold now, fed to the stream in time order (never blocks: they are O_NONBLOCK). -1 when gone. */
static int drain_raw(struct trace_ctx *c)
{
    int64_t cpu0 = thread_cpu_ns();
    struct timespec now;
    clock_gettime(c->clock, &now); /* the trace clock: events written before this call are fed now */
    long r = trace_raw_drain(c->raw, feed_stream, c->ts, (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec,
                             TRACE_PIPE_READ_MAX);
    c->cpu_ns += thread_cpu_ns() - cpu0;
    if (r < 0) {
        c->pipe_error = (int)-r;
        return -1;
    }
    c->bytes += r;
    c->reads += r > 0;
    return 0;
}

/* Whatever the pipe holds now, fed to the stream (never blocks: the pipe is O_NONBLOCK). -1 when it is gone. */
static int drain_now(struct trace_ctx *c)
{
    enum { CHUNK = 1 << 16 };
    if (c->raw)
        return drain_raw(c);
    int64_t cpu0 = thread_cpu_ns();
    size_t total = 0;
    while (total < TRACE_PIPE_READ_MAX) {
        ssize_t r = read(c->pipe_fd, c->rd + c->rd_len, CHUNK - c->rd_len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EAGAIN)
            break;
        if (r < 0) {
            c->pipe_error = errno;
            return -1;
        }
        if (r == 0)
            break;
        total += (size_t)r;
        c->reads++;
        size_t len = c->rd_len + (size_t)r, i = 0;
        while (i < len) {
            const char *nl = memchr(c->rd + i, '\n', len - i);
            if (!nl)
                break;
            size_t n = (size_t)(nl - (c->rd + i));
            ts_feed_line(c->ts, c->rd + i, n);
            i += n + 1;
        }
        /* a line longer than the buffer is no event of ours: dropped */
        c->rd_len = len - i < CHUNK / 2 ? len - i : 0;
        memmove(c->rd, c->rd + i, c->rd_len);
    }
    c->bytes += (long long)total;
    c->cpu_ns += thread_cpu_ns() - cpu0;
    return 0;
}

/* drain_now, counting apart the events the kernel overwrote while quiet polls left the rings (by design: nothing
 * happened then, and the newest seconds the rings hold are what an explanation reads). Under lock. */
static int drain(struct trace_ctx *c)
{
    if (!c->skipped)
        return drain_now(c);
    struct ts_stats s0, s1;
    ts_get_stats(c->ts, &s0);
    int r = drain_now(c);
    ts_get_stats(c->ts, &s1);
    c->overwritten_quiet += s1.lost - s0.lost;
    c->skipped = 0;
    return r;
}

static void trace_quiet(void *vctx, int quiet)
{
    struct trace_ctx *c = vctx;
    c->quiet = quiet; /* the sampler's thread, as poll */
}

static int trace_poll(void *vctx, int64_t now, struct culprit_obs *out, int max)
{
    (void)out, (void)max;
    struct trace_ctx *c = vctx;
    /* the kernel's rings keep what came meanwhile, and an explanation reads them first: polls read them every
     * TRACE_DRAIN_NS or more (every fourth tick at 20 Hz; each tick of a quiet sampler, 4 Hz) */
    if (c->drained_ns && now - c->drained_ns < TRACE_DRAIN_NS)
        return 0;
    if (c->quiet) { /* watch with nothing happening: the kernel's rings keep the newest seconds, read at the next
                     * happening (its first cycle ends the quiet at once) or explain; what they overwrite meanwhile
                     * is counted apart (overwritten_quiet), never a loss in a happening's wait */
        pthread_mutex_lock(&c->lock);
        c->skipped = 1;
        c->quiet_polls++;
        pthread_mutex_unlock(&c->lock);
        return tracefs_has(&c->tf, "trace") ? 0 : -1;
    }
    c->drained_ns = now;
    /* someone removed our instance (or unmounted tracefs): the source is gone */
    if (!tracefs_has(&c->tf, "trace"))
        return -1;
    pthread_mutex_lock(&c->lock);
    int r = drain(c);
    pthread_mutex_unlock(&c->lock);
    return r < 0 ? -1 : 0;
}

/* The segments of the wait's CPU in [t0, t1], one a line, under a header saying what they are. */
static void slice_take(struct trace_ctx *c, int cpu, int64_t t0, int64_t t1, const struct ts_account *a)
{
    char *out = c->slice;
    size_t o = (size_t)snprintf(out, TRACE_SLICE_MAX, "# rtjitter trace slice: CPU %d in [%lld, %lld] ns on "
                                "trace_clock %s, instance %s: the audio threads' %d wait%s, %.3f ms, accounted by "
                                "who held the CPU (segments: start, length, context)\n", cpu, (long long)t0,
                                (long long)t1, c->clock_name, c->tf.inst, a->waits, a->waits == 1 ? "" : "s",
                                a->wait_ns / 1e6);
    if (o >= TRACE_SLICE_MAX)
        o = TRACE_SLICE_MAX - 1;
    size_t head = o;
    o += ts_describe(c->ts, cpu, t0, t1, out + o, TRACE_SLICE_MAX - o);
    trace_slices_put(c->slices, cpu, t0, t1, out, o, head, o + 200 >= TRACE_SLICE_MAX);
}

static int trace_explain(void *vctx, int64_t t0, int64_t t1, int cpu, struct culprit_obs *out, int max)
{
    struct trace_ctx *c = vctx;
    pthread_mutex_lock(&c->lock);
    if (drain(c) < 0) {
        pthread_mutex_unlock(&c->lock);
        return -1;
    }
    int64_t cpu0 = thread_cpu_ns();
    c->explains++;
    struct ts_account a;
    int n = 0;
    int why = CNW_UNSAID;
    if (!ts_explain(c->ts, t0, t1, cpu, &a)) {
        c->no_wait++; /* no wait of an audio thread in it: the trace does not say (the engine says "not known") */
        why = CNW_NO_WAIT;
        a.wait_ns = 0;
        if (ts_lost_in(c->ts, cpu, t0, t1) > 0) { /* its wait may be among the events lost */
            why = CNW_LOST;
            c->lost_waits++;
        }
    } else if (a.unknown_ns * 2 > a.wait_ns || (why = trace_class_unproven(&a)) != CNW_UNSAID) {
        /* most of the wait is before the stream's ring, or lost; or what is not known could hold more than its main
         * holder: a stretch of lost events is never called "nothing on the CPU" */
        if (why == CNW_UNSAID)
            why = trace_class_why(&a);
        c->not_covered++;
        c->lost_waits += why == CNW_LOST;
        c->missed_waits += why == CNW_MISSED;
    } else if (a.wait_ns * 4 < (t1 - t0 < 2000000 ? t1 - t0 : 2000000)) {
        c->short_wait++; /* the audio threads hardly waited: what made it late is elsewhere (not known) */
        why = CNW_SHORT_WAIT;
    } else {
        c->explained++;
        /* a work function read as an address (the binary rings) among its holders: the ones not named yet are,
         * with one read of /proc/kallsyms (~50 ms of the kernel's time), paid only when a kworker held a wait */
        int unnamed = 0;
        for (int i = 0; i < a.nheld; i++)
            unnamed |= strncmp(a.held[i].fn, "0x", 2) == 0;
        if (unnamed && trace_raw_name_fns(c->raw, c->ts) > 0)
            ts_explain(c->ts, t0, t1, cpu, &a);
        n = trace_class_obs(&a, t0, t1, out, max);
        int64_t lead = 500000; /* the slice shows half a millisecond before the wait's window */
        slice_take(c, a.longest_cpu, t0 - lead, t1, &a);
    }
    if (why != CNW_UNSAID && max > 0) { /* no one named: why, for the engine's "not known" */
        memset(&out[0], 0, sizeof(out[0]));
        out[0].kind = CK_NONE;
        out[0].none_why = why;
        out[0].wait_ns = a.wait_ns;
        out[0].t0_ns = t0;
        out[0].t1_ns = t1;
        out[0].cpu = -1;
        n = 1;
    }
    c->cpu_ns += thread_cpu_ns() - cpu0;
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* The main holder of an account as the noise probe's class. The kernel's own record of the gap (its holders) must
 * be half of what the trace covers at least: else the probe was the CPU's current task for most of a gap it did not
 * run in, and the time went below the kernel. */
static void span_class(const struct ts_account *a, struct noise_trace_answer *out)
{
    int64_t covered = a->wait_ns - a->unknown_ns, kernel = 0;
    for (int i = 0; i < a->nheld; i++)
        kernel += a->held[i].ns;
    const struct ts_holder *h = a->nheld ? &a->held[0] : NULL;
    if (!h || h->ctx == TS_NOEVENT || kernel * 2 < covered) {
        out->cls = NOISE_BELOW;
        out->held_ns = h && h->ctx == TS_NOEVENT ? h->ns : covered - kernel;
        return;
    }
    out->held_ns = h->ns;
    out->id = h->id;
    snprintf(out->name, sizeof(out->name), "%s", h->name);
    if (h->ctx == TS_TASK) {
        out->kind = NH_TASK; /* a threaded handler's time is its line's, as trace_class.h folds it */
        out->cls = trace_class_kind(h, -1) == CK_IRQ ? NOISE_IRQ : NOISE_SCHED;
    } else if (h->ctx == TS_IRQ || h->ctx == TS_SOFTIRQ) {
        out->kind = h->ctx == TS_IRQ ? NH_IRQ : NH_SOFTIRQ;
        out->cls = NOISE_IRQ;
    } else { /* idle under a spinning probe: nothing the split can say */
        out->cls = NOISE_UNKNOWN;
    }
}

int trace_source_span(const struct culprit_source *src, int cpu, int tid, int64_t t0_ns, int64_t t1_ns,
                      struct noise_trace_answer *out)
{
    struct trace_ctx *c = src ? src->ctx : NULL;
    memset(out, 0, sizeof(*out));
    out->cls = NOISE_UNKNOWN;
    if (!c)
        return -ENOENT;
    pthread_mutex_lock(&c->lock);
    int64_t cpu0 = thread_cpu_ns();
    int r = drain(c) < 0 ? -ENOENT : 0;
    struct ts_account a;
    if (!r && ts_account_span(c->ts, cpu, tid, t0_ns, t1_ns, &a)) {
        c->spans++;
        if (a.unknown_ns * 2 > a.wait_ns) {
            c->spans_not_covered++;
            r = -ENODATA;
        } else {
            span_class(&a, out);
            r = out->cls == NOISE_UNKNOWN ? -ENODATA : 1;
        }
    }
    c->cpu_ns += thread_cpu_ns() - cpu0;
    pthread_mutex_unlock(&c->lock);
    return r;
}

static json_t *trace_summary(void *vctx)
{
    struct trace_ctx *c = vctx;
    pthread_mutex_lock(&c->lock);
    json_t *ev = json_array(), *sl = json_array();
    for (size_t i = 0; i < N_EVENTS; i++)
        if (c->events_on & (1u << i))
            json_array_append_new(ev, json_string(trace_events[i]));
    if (c->vectors)
        json_array_append_new(ev, json_string("irq_vectors/*_entry,*_exit"));
    int dropped = trace_slices_list(c->slices, sl);
    struct ts_stats st;
    ts_get_stats(c->ts, &st);
    json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:s, s:i, s:o, s:s, s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:f, "
                     "s:i, s:i, s:o}",
                     "name", "tracefs", "root", c->tf.root, "instance", c->tf.name, "mounted", c->tf.mounted[0] != 0,
                     "clock", c->clock_name, "buffer_size_kb", TRACE_BUFFER_KB, "events", ev, "read", c->raw ? "trace_pipe_raw" : "trace_pipe",
                     "explains", c->explains, "explained", c->explained, "no_wait", c->no_wait, "not_covered",
                     c->not_covered, "events_read", (json_int_t)st.events, "lost_events", (json_int_t)st.lost,
                     "waits", (json_int_t)st.waits, "bytes_read", (json_int_t)c->bytes, "out_of_order",
                     (json_int_t)st.late_events, "cpu_s", c->cpu_ns / 1e9, "segments_per_cpu", st.segs_per_cpu,
                     "slices_dropped", dropped, "slices", sl);
    if (o) /* task identities made, and time not known because a task's identity was reused before it was read */
        json_object_update_new(o, json_pack("{s:I, s:I, s:I}", "identities", (json_int_t)st.identities,
                                            "identities_stale", (json_int_t)st.stale, "switches_missed",
                                            (json_int_t)st.switch_missed));
    if (o) /* the audio threads hardly waited (under a quarter of its lateness, at most 2 ms): not known */
        json_object_set_new(o, "short_wait", json_integer(c->short_wait));
    long long lost = 0, lost_stats = 0;
    if (c->raw)
        trace_raw_lost(c->raw, &lost, &lost_stats);
    if (o && c->quiet_polls) /* watch: polls that left the rings while all was quiet, and what the kernel overwrote */
        json_object_update_new(o, json_pack("{s:I, s:I}", "quiet_polls", (json_int_t)c->quiet_polls,
                                            "overwritten_quiet", (json_int_t)c->overwritten_quiet));
    if (o && c->lost_waits) /* of not_covered: the rings lost events in their wait (a warning of the report) */
        json_object_set_new(o, "lost_waits", json_integer(c->lost_waits));
    if (o && c->missed_waits) /* of not_covered: a switch the kernel emitted no event for left their wait not known */
        json_object_set_new(o, "missed_waits", json_integer(c->missed_waits));
    if (o && lost_stats) /* of lost_events, counted from the rings' stats files (a sub-buffer had no room to say) */
        json_object_set_new(o, "lost_from_stats", json_integer(lost_stats));
    if (o && !c->raw && c->raw_why[0]) /* the text instead of the binary rings: why */
        json_object_set_new(o, "read_why", json_string(c->raw_why));
    if (o && c->spans) /* the noise probe's gaps accounted (issue 38) */
        json_object_set_new(o, "noise_gaps", json_pack("{s:I, s:I}", "accounted", (json_int_t)c->spans,
                                                       "not_covered", (json_int_t)c->spans_not_covered));
    pthread_mutex_unlock(&c->lock);
    return o;
}

static void trace_close(void *vctx)
{
    struct trace_ctx *c = vctx;
    if (!c)
        return;
    if (c->pipe_fd >= 0)
        close(c->pipe_fd);
    trace_raw_close(c->raw); /* before the instance's removal: an open ring keeps it busy */
    tracefs_close(&c->tf);
    trace_slices_unref(c->slices);
    ts_free(c->ts);
    free(c->rd);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* ---- open ---- */

/* A kernel thread: PF_KTHREAD in /proc/PID/stat's flags (the ninth field), else by its name. */
static int kthread_probe(int pid, const char *comm)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ts_kthread_by_name(comm) ? 1 : -1;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    unsigned long flags = 0;
    /* after the comm: state ppid pgrp session tty_nr tpgid flags */
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
        return -1;
    return (flags & 0x00200000UL) ? 1 : 0;
}

/* The binary rings of the events enabled (trace_raw.h); else why not, and the text pipe is read. */
static int open_raw(struct trace_ctx *c)
{
    char names[N_EVENTS + 2 * 16][64];
    const char *list[N_EVENTS + 2 * 16];
    int n = 0;
    for (size_t i = 0; i < N_EVENTS; i++)
        if (c->events_on & (1u << i))
            snprintf(names[n++], sizeof(names[0]), "%s", trace_events[i]);
    for (const struct tev_vector *v = tev_vectors; v->event && n + 2 <= (int)(sizeof(names) / sizeof(names[0]));
         v++)
        for (int x = 0; x < 2; x++) {
            char rel[96];
            snprintf(rel, sizeof(rel), "events/irq_vectors/%s_%s/enable", v->event, x ? "exit" : "entry");
            if (tracefs_has(&c->tf, rel))
                snprintf(names[n++], sizeof(names[0]), "irq_vectors/%s_%s", v->event, x ? "exit" : "entry");
        }
    for (int i = 0; i < n; i++)
        list[i] = names[i];
    return trace_raw_open(&c->tf, list, n, &c->raw, c->raw_why, sizeof(c->raw_why));
}

static int start(struct trace_ctx *c, char *err, size_t errlen)
{
    int e = tracefs_write(&c->tf, "tracing_on", "1");
    if (e < 0)
        snprintf(err, errlen, "%s/tracing_on: %s", c->tf.inst, strerror(-e));
    return e;
}

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
    /* no waking is traced until an audio thread is told (trace_source_ignore_tid sets the filter) */
    if (c->events_on & 2u)
        tracefs_write(&c->tf, "events/sched/sched_waking/filter", "pid == 0");
    if (open_raw(c) == 0)
        return start(c, err, errlen);
    c->pipe_fd = openat(c->tf.inst_fd, "trace_pipe", O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (c->pipe_fd < 0) {
        e = -errno;
        snprintf(err, errlen, "%s/trace_pipe: %s", c->tf.inst, strerror(errno));
        return e;
    }
    return start(c, err, errlen);
}

int trace_source_open(const char *tracefs_root, clockid_t clock, struct culprit_source *out, char *err,
                      size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct trace_ctx *c = calloc(1, sizeof(*c));
    if (!c || !(c->slices = trace_slices_new())) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    pthread_mutex_init(&c->lock, NULL);
    c->tf.inst_fd = -1;
    c->pipe_fd = -1;
    c->clock = clock;
    if (!(c->ts = ts_new(0)) || !(c->rd = malloc(1 << 16))) {
        trace_close(c);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    ts_set_kthread_probe(c->ts, kthread_probe);
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
    *out = (struct culprit_source){ .name = "tracefs", .ctx = c, .poll = trace_poll, .explain = trace_explain, .quiet = trace_quiet,
                                    .summary = trace_summary, .close = trace_close };
    return 0;
}

static void watch(struct culprit_source *src, int tid, int any_cpu)
{
    struct trace_ctx *c = src->ctx;
    if (!c || tid <= 0 || ts_watched(c->ts, tid) || c->n_watch >= BD_IGNORE || ts_watch(c->ts, tid, any_cpu) < 0)
        return;
    c->watch[c->n_watch++] = tid;
    char filter[BD_IGNORE * 24] = "";
    size_t o = 0;
    for (int i = 0; i < c->n_watch; i++)
        o += (size_t)snprintf(filter + o, sizeof(filter) - o, "%spid == %d", i ? " || " : "", c->watch[i]);
    if (c->events_on & 2u)
        tracefs_write(&c->tf, "events/sched/sched_waking/filter", filter);
}

void trace_source_ignore_tid(struct culprit_source *src, int tid)
{
    watch(src, tid, 0);
}

void trace_source_server_tid(struct culprit_source *src, int tid)
{
    watch(src, tid, 1);
}

void trace_source_tick(struct culprit_source *src, int64_t tick_ns)
{
    struct trace_ctx *c = src->ctx;
    if (c && tick_ns > 0)
        ts_set_tick(c->ts, tick_ns);
}

void trace_source_segments(struct culprit_source *src, size_t bytes)
{
    struct trace_ctx *c = src->ctx;
    if (c)
        ts_set_budget(c->ts, bytes);
}

void trace_source_period(struct culprit_source *src, int64_t period_ns)
{
    struct trace_ctx *c = src->ctx;
    if (c)
        ts_set_period(c->ts, period_ns);
}

void trace_source_idle_exit(struct culprit_source *src, int64_t ns)
{
    struct trace_ctx *c = src->ctx;
    if (c)
        ts_set_idle_exit(c->ts, ns);
}

void trace_source_own_timer(struct culprit_source *src, int on)
{
    struct trace_ctx *c = src->ctx;
    if (c)
        ts_set_own_timer(c->ts, on);
}

struct trace_slices *trace_source_slices(struct culprit_source *src)
{
    struct trace_ctx *c = src->ctx;
    return trace_slices_ref(c->slices);
}
