/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Issue 32 item 5's measurement: what reading the kernel's trace costs as text (the instance's trace_pipe, parsed by
 * rtjitter's own tev_parse, as src/culprit/src_trace.c did before trace_raw.c, and does where the rings cannot be
 * read) against the binary ring read through Debian's
 * libtracefs/libtraceevent (tracefs_iterate_raw_events on trace_pipe_raw, each event's fields read with
 * tep_read_number_field into the same struct tev). One private instance with the culprit trace's events, a load of
 * pipe ping-pong between two processes (scheduler events on every CPU), rounds of SECS seconds alternating the two
 * readers (text, binary, text, binary ...), each reading every 50 ms as the sampler does; the reading thread's CPU
 * time (CLOCK_THREAD_CPUTIME_ID) per event. Root only. Prints figures, checks nothing.
 * usage: tracebin [SECS [ROUNDS]] (built and run by tests/bench.d/tracebin.sh) */
#include "culprit/trace_raw.h"
#include "culprit/tracefs_parse.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

static const char *const events[][2] = {
    { "sched", "sched_switch" },        { "sched", "sched_waking" },       { "irq", "irq_handler_entry" },
    { "irq", "irq_handler_exit" },      { "irq", "softirq_entry" },        { "irq", "softirq_exit" },
    { "workqueue", "workqueue_execute_start" }, { "workqueue", "workqueue_execute_end" },
    { "irq_vectors", "local_timer_entry" }, { "irq_vectors", "local_timer_exit" },
    { "irq_vectors", "reschedule_entry" }, { "irq_vectors", "reschedule_exit" },
};
#define NEV (sizeof(events) / sizeof(events[0]))

static int64_t cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* the binary side: each event type's fields, found once */
struct bin_ev {
    int id;
    enum tev_type type;
    struct tep_format_field *f[6];
};

struct bin_ctx {
    struct bin_ev ev[NEV];
    long long n;
    unsigned long long sink;
};

static int on_record(struct tep_event *event, struct tep_record *rec, int cpu, void *vctx)
{
    struct bin_ctx *c = vctx;
    struct tev t;
    memset(&t, 0, sizeof(t));
    t.t_ns = (int64_t)rec->ts;
    t.cpu = cpu;
    for (size_t i = 0; i < NEV; i++) {
        if (c->ev[i].id != event->id)
            continue;
        t.type = c->ev[i].type;
        unsigned long long v;
        for (int k = 0; k < 6; k++)
            if (c->ev[i].f[k] && tep_read_number_field(c->ev[i].f[k], rec->data, &v) == 0)
                c->sink += v;
        if (c->ev[i].type == TEV_SWITCH) { /* the task names: strings at their offsets */
            struct tep_format_field *nc = tep_find_field(event, "next_comm");
            if (nc)
                snprintf(t.name, sizeof(t.name), "%.*s", nc->size, (const char *)rec->data + nc->offset);
        }
        break;
    }
    c->n++;
    c->sink += (unsigned long long)t.t_ns + (unsigned long long)t.name[0];
    return 0;
}

static void bin_setup(struct tep_handle *tep, struct bin_ctx *c)
{
    static const char *const fields[][6] = {
        { "prev_pid", "prev_prio", "prev_state", "next_pid", "next_prio", NULL }, { "pid", "prio", "target_cpu" },
        { "irq" }, { "irq", "ret" }, { "vec" }, { "vec" }, { "function" }, { "function" }, { "vector" }, { "vector" },
        { "vector" }, { "vector" },
    };
    static const enum tev_type types[] = { TEV_SWITCH, TEV_WAKING, TEV_IRQ_ENTRY, TEV_IRQ_EXIT, TEV_SOFTIRQ_ENTRY,
                                           TEV_SOFTIRQ_EXIT, TEV_WQ_START, TEV_WQ_END, TEV_IRQ_ENTRY, TEV_IRQ_EXIT,
                                           TEV_IRQ_ENTRY, TEV_IRQ_EXIT };
    memset(c, 0, sizeof(*c));
    for (size_t i = 0; i < NEV; i++) {
        struct tep_event *e = tep_find_event_by_name(tep, events[i][0], events[i][1]);
        c->ev[i].id = e ? e->id : -1;
        c->ev[i].type = types[i];
        for (int k = 0; e && k < 6 && fields[i][k]; k++)
            c->ev[i].f[k] = tep_find_field(e, fields[i][k]);
    }
}

/* the load: two processes bouncing a byte through two pipes, on no CPU in particular */
static pid_t load_start(void)
{
    int a[2], b[2];
    if (pipe(a) || pipe(b))
        return -1;
    pid_t p = fork();
    if (p == 0) {
        setpgid(0, 0); /* a group of its own: killed as one */
        pid_t q = fork();
        char x = 0;
        if (q == 0) {
            for (;;) {
                if (read(a[0], &x, 1) != 1 || write(b[1], &x, 1) != 1)
                    _exit(0);
            }
        }
        for (;;) {
            if (write(a[1], &x, 1) != 1 || read(b[0], &x, 1) != 1)
                _exit(0);
            usleep(20); /* a few tens of thousands of switches a second, not a storm */
        }
    }
    close(a[0]), close(a[1]), close(b[0]), close(b[1]);
    return p;
}

/* rtjitter's own reader (src/culprit/trace_raw.c), each event into struct tev as the trace source feeds its stream */
static void on_tev(void *arg, const struct tev *ev)
{
    long long *n = arg;
    *n += ev->type != TEV_LOST;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 5;
    int rounds = argc > 2 ? atoi(argv[2]) : 2;
    if (geteuid() != 0) {
        fprintf(stderr, "tracebin: needs root (a tracefs instance)\n");
        return 2;
    }
    char name[64];
    snprintf(name, sizeof(name), "rtjbench-%d", (int)getpid());
    struct tracefs_instance *in = tracefs_instance_create(name);
    if (!in) {
        fprintf(stderr, "tracebin: no tracefs instance: %s\n", strerror(errno));
        return 2;
    }
    tracefs_instance_file_write(in, "buffer_size_kb", "1024");
    tracefs_instance_file_write(in, "trace_clock", "mono");
    int on = 0;
    for (size_t i = 0; i < NEV; i++)
        on += tracefs_event_enable(in, events[i][0], events[i][1]) == 0;
    struct tep_handle *tep = tracefs_local_events(NULL);
    struct bin_ctx bc;
    bin_setup(tep, &bc);
    pid_t load = load_start();
    printf("trace read as text (trace_pipe, tev_parse) and as binary (trace_pipe_raw, libtracefs %s / "
           "libtraceevent), %d events enabled, a pipe ping-pong load, %d rounds of %.0f s each, read every 50 ms\n",
           "1.6", on, rounds, secs);
    double text_ns = 0, bin_ns = 0, raw_ns = 0;
    long long text_n = 0, bin_n = 0, raw_n = 0;
    char *buf = malloc(1 << 20);
    /* the instance as src/culprit/tracefs.h holds it, for trace_raw_open */
    struct tracefs tf;
    memset(&tf, 0, sizeof(tf));
    snprintf(tf.inst, sizeof(tf.inst), "%s/instances/%s", tracefs_tracing_dir(), name);
    tf.inst_fd = open(tf.inst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *names[NEV];
    char namebuf[NEV][64];
    for (size_t i = 0; i < NEV; i++) {
        snprintf(namebuf[i], sizeof(namebuf[i]), "%s/%s", events[i][0], events[i][1]);
        names[i] = namebuf[i];
    }
    for (int r = 0; r < 3 * rounds && buf; r++) {
        int binary = r % 3 == 1, ours = r % 3 == 2;
        /* empty the ring, then trace afresh */
        tracefs_trace_off(in);
        tracefs_instance_file_write(in, "trace", "");
        tracefs_trace_on(in);
        int64_t end = now_ns() + (int64_t)(secs * 1e9), c0 = cpu_ns();
        long long n = 0;
        int fd = binary || ours ? -1 : tracefs_instance_file_open(in, "trace_pipe", O_RDONLY | O_NONBLOCK);
        struct trace_raw *raw = NULL;
        char err[256];
        if (ours && trace_raw_open(&tf, names, (int)NEV, &raw, err, sizeof(err)) < 0)
            printf("  rtjitter's reader: %s\n", err);
        size_t have = 0;
        while (now_ns() < end) {
            usleep(50000);
            if (ours) {
                if (raw)
                    trace_raw_drain(raw, on_tev, &n, now_ns(), 32u << 20);
                continue;
            }
            if (binary) {
                bc.n = 0;
                tracefs_iterate_raw_events(tep, in, NULL, 0, on_record, &bc);
                n += bc.n;
                continue;
            }
            for (;;) {
                ssize_t k = read(fd, buf + have, (1 << 20) - 1 - have);
                if (k <= 0)
                    break;
                have += (size_t)k;
                size_t i = 0;
                while (i < have) {
                    char *nl = memchr(buf + i, '\n', have - i);
                    if (!nl)
                        break;
                    struct tev ev;
                    n += tev_parse(buf + i, (size_t)(nl - (buf + i)), &ev) == 1;
                    i = (size_t)(nl - buf) + 1;
                }
                memmove(buf, buf + i, have - i);
                have -= i;
            }
        }
        int64_t used = cpu_ns() - c0;
        if (fd >= 0)
            close(fd);
        trace_raw_close(raw);
        printf("  round %d, %-8s: %lld events (%.0f/s), %.3f s of CPU, %.0f ns an event, %.2f %% of one CPU\n",
               r / 3 + 1, ours ? "rtjitter" : binary ? "binary" : "text", n, n / secs, used / 1e9,
               n ? (double)used / (double)n : 0.0, 100.0 * (double)used / (secs * 1e9));
        if (ours)
            raw_ns += (double)used, raw_n += n;
        else if (binary)
            bin_ns += (double)used, bin_n += n;
        else
            text_ns += (double)used, text_n += n;
    }
    printf("tracebin: text %.0f ns an event, binary %.0f ns an event (binary/text %.2f), rtjitter's reader "
           "(src/culprit/trace_raw.c, into struct tev) %.0f ns an event (/text %.2f)\n",
           text_n ? text_ns / (double)text_n : 0.0, bin_n ? bin_ns / (double)bin_n : 0.0,
           text_n && bin_n && text_ns > 0 ? (bin_ns / (double)bin_n) / (text_ns / (double)text_n) : 0.0,
           raw_n ? raw_ns / (double)raw_n : 0.0,
           text_n && raw_n && text_ns > 0 ? (raw_ns / (double)raw_n) / (text_ns / (double)text_n) : 0.0);
    if (tf.inst_fd >= 0)
        close(tf.inst_fd);
    free(buf);
    if (load > 0) {
        kill(-load, SIGKILL);
        kill(load, SIGKILL);
        waitpid(load, NULL, 0);
    }
    tracefs_trace_off(in);
    tracefs_instance_destroy(in);
    tracefs_instance_free(in);
    tep_free(tep);
    return 0;
}
