/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's binary ring into events (trace_raw.h). The sampler thread only. */
#include "culprit/trace_raw.h"
#include "culprit/trace_ksym.h"
#include "culprit/trace_stream.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <kbuffer.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#define RAW_EVENTS 32      /* event types decoded (the trace source enables 8 and x86's vectors, 18 at most) */
#define RAW_COMMS 4096     /* pids whose comm is remembered (direct-mapped by pid) */

/* How an event type becomes a struct tev: its type, and its fields in the order decode() reads them. */
enum { F_MAX = 7 };
static const struct raw_kind {
    const char *name;
    enum tev_type type;
    const char *fields[F_MAX];
} kinds[] = {
    { "sched_switch", TEV_SWITCH,
      { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" } },
    { "sched_waking", TEV_WAKING, { "comm", "pid", "prio", "target_cpu" } },
    { "sched_wakeup", TEV_WAKEUP, { "comm", "pid", "prio", "target_cpu" } },
    { "irq_handler_entry", TEV_IRQ_ENTRY, { "irq", "name" } },
    { "irq_handler_exit", TEV_IRQ_EXIT, { "irq" } },
    { "softirq_entry", TEV_SOFTIRQ_ENTRY, { "vec" } },
    { "softirq_exit", TEV_SOFTIRQ_EXIT, { "vec" } },
    { "workqueue_execute_start", TEV_WQ_START, { "function" } },
    { "workqueue_execute_end", TEV_WQ_END, { NULL } },
};

struct raw_event {
    int id;
    const struct raw_kind *kind;      /* NULL: an x86 vector (irq_vectors:NAME_entry/_exit) */
    const struct tev_vector *vec;
    enum tev_type type;
    struct tep_format_field *f[F_MAX];
};

struct raw_cpu {
    int cpu, fd, dry;                 /* dry: nothing more to read in this drain */
    struct tracefs_cpu *tcpu;
    struct kbuffer *kbuf;
    void *page;
    int loaded;                       /* the kbuffer holds a sub-buffer with events left */
    int first;                        /* its next event is the sub-buffer's first: lost events come before it */
    long long missed;                 /* lost before that first event (-1: the kernel had no room to count them) */
    long long lost;                   /* counted for this CPU: its stats file's overrun when last read */
};

struct trace_raw {
    const struct tracefs *tf;
    struct tep_handle *tep;
    int long_size, subbuf;
    int pid_at;                       /* common_pid's offset in a record (4 on every kernel since 2.6.31) */
    struct raw_event ev[RAW_EVENTS];
    int nev;
    uint8_t by_id[65536];             /* event id -> index + 1 into ev (0: not ours) */
    struct raw_cpu *cpu;
    int ncpu;
    struct { int pid; char comm[16]; } comm[RAW_COMMS];
    struct ksym_names fns;            /* the work functions' names (trace_ksym.h) */
    long long lost, lost_stats;
};

__attribute__((format(printf, 3, 4))) static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
}

/* ---- opening ---- */

static int parse_format(struct trace_raw *r, const char *event)
{
    char rel[128], sys[64];
    const char *slash = strchr(event, '/');
    if (!slash || (size_t)(slash - event) >= sizeof(sys) || r->nev >= RAW_EVENTS)
        return -EINVAL;
    snprintf(sys, sizeof(sys), "%.*s", (int)(slash - event), event);
    const char *name = slash + 1;
    const struct raw_kind *kind = NULL;
    const struct tev_vector *vec = NULL;
    enum tev_type type = TEV_OTHER;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcmp(name, kinds[i].name))
            kind = &kinds[i], type = kinds[i].type;
    for (const struct tev_vector *v = tev_vectors; !kind && !vec && v->event; v++) {
        size_t k = strlen(v->event);
        if (strncmp(name, v->event, k))
            continue;
        if (!strcmp(name + k, "_entry"))
            vec = v, type = TEV_IRQ_ENTRY;
        else if (!strcmp(name + k, "_exit"))
            vec = v, type = TEV_IRQ_EXIT;
    }
    if (!kind && !vec)
        return 0; /* not an event this reader decodes */
    snprintf(rel, sizeof(rel), "events/%s/format", event);
    char *buf;
    size_t len;
    int e = tracefs_read(r->tf, rel, &buf, &len, 1 << 16);
    if (e < 0)
        return e;
    struct tep_event *te = NULL;
    if (tep_parse_event(r->tep, buf, len, sys) != 0 || !(te = tep_find_event_by_name(r->tep, sys, name)) ||
        te->id <= 0 || te->id > 65535) {
        free(buf);
        return -EPROTO;
    }
    free(buf);
    struct tep_format_field *cp = tep_find_common_field(te, "common_pid");
    if (!cp || cp->size != 4 || (r->nev && cp->offset != r->pid_at))
        return -EPROTO;
    r->pid_at = cp->offset;
    struct raw_event *re = &r->ev[r->nev];
    *re = (struct raw_event){ .id = te->id, .kind = kind, .vec = vec, .type = type };
    for (int k = 0; kind && k < F_MAX && kind->fields[k]; k++)
        if (!(re->f[k] = tep_find_field(te, kind->fields[k])))
            return -EPROTO; /* a field we read is not in this kernel's format */
    r->by_id[te->id] = (uint8_t)(++r->nev);
    return 0;
}

static int open_cpus(struct trace_raw *r, char *err, size_t errlen)
{
    int dfd = openat(r->tf->inst_fd, "per_cpu", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        int e = -errno;
        fail(err, errlen, "%s/per_cpu: %s", r->tf->inst, strerror(-e));
        return e;
    }
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return -ENOMEM;
    }
    int e = 0, cap = 0;
    struct dirent *de;
    while (!e && (de = readdir(d))) {
        int n;
        char tail;
        if (sscanf(de->d_name, "cpu%d%c", &n, &tail) != 1 || n < 0)
            continue;
        if (r->ncpu == cap) {
            cap = cap ? cap * 2 : 16;
            struct raw_cpu *nc = realloc(r->cpu, (size_t)cap * sizeof(*nc));
            if (!nc) {
                e = -ENOMEM;
                break;
            }
            r->cpu = nc;
        }
        struct raw_cpu *c = &r->cpu[r->ncpu];
        *c = (struct raw_cpu){ .cpu = n, .fd = -1 };
        char rel[64];
        snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", n);
        c->fd = openat(r->tf->inst_fd, rel, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (c->fd < 0) {
            e = -errno;
            fail(err, errlen, "%s/%s: %s", r->tf->inst, rel, strerror(-e));
            break;
        }
        r->ncpu++;
        if (!(c->tcpu = tracefs_cpu_alloc_fd(c->fd, r->subbuf, true)) || !(c->kbuf = tep_kbuffer(r->tep)) ||
            !(c->page = calloc(1, (size_t)r->subbuf)))
            e = -ENOMEM;
    }
    closedir(d);
    if (!e && !r->ncpu) {
        fail(err, errlen, "%s/per_cpu: no CPU's ring", r->tf->inst);
        e = -ENOENT;
    }
    return e;
}

int trace_raw_open(const struct tracefs *t, const char *const *events, int nevents, struct trace_raw **out, char *err,
                   size_t errlen)
{
    *out = NULL;
    struct trace_raw *r = calloc(1, sizeof(*r));
    if (!r || !(r->tep = tep_alloc())) {
        free(r);
        fail(err, errlen, "out of memory");
        return -ENOMEM;
    }
    r->tf = t;
    for (int i = 0; i < RAW_COMMS; i++)
        r->comm[i].pid = -1;
    /* the live kernel's own byte order and word size (the commit field's, in the sub-buffer's header) */
    enum tep_endian host = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;
    tep_set_file_bigendian(r->tep, host);
    tep_set_local_bigendian(r->tep, host);
    char *hp;
    size_t len;
    int e = tracefs_read(t, "events/header_page", &hp, &len, 1 << 16);
    if (e < 0) {
        fail(err, errlen, "%s/events/header_page: %s", t->inst, strerror(-e));
        trace_raw_close(r);
        return e;
    }
    e = tep_parse_header_page(r->tep, hp, len, (int)sizeof(long)) == 0 ? 0 : -EPROTO;
    free(hp);
    r->long_size = tep_get_header_page_size(r->tep);
    r->subbuf = tep_get_sub_buffer_size(r->tep);
    if (e || (r->long_size != 4 && r->long_size != 8) || r->subbuf < 64 || r->subbuf > (1 << 20)) {
        fail(err, errlen, "%s/events/header_page: not a sub-buffer header this reader knows", t->inst);
        trace_raw_close(r);
        return -EPROTO;
    }
    tep_set_long_size(r->tep, r->long_size);
    for (int i = 0; i < nevents; i++)
        if ((e = parse_format(r, events[i])) < 0) {
            fail(err, errlen, "the format of the tracepoint %s cannot be read: %s", events[i], strerror(-e));
            trace_raw_close(r);
            return e;
        }
    if ((e = open_cpus(r, err, errlen)) < 0) {
        trace_raw_close(r);
        return e;
    }
    *out = r;
    return 0;
}

void trace_raw_close(struct trace_raw *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->ncpu; i++) {
        struct raw_cpu *c = &r->cpu[i];
        if (c->tcpu)
            tracefs_cpu_free_fd(c->tcpu); /* leaves the fd: ours to close (an open file keeps the instance busy) */
        if (c->fd >= 0)
            close(c->fd);
        kbuffer_free(c->kbuf);
        free(c->page);
    }
    free(r->cpu);
    tep_free(r->tep);
    free(r);
}

void trace_raw_lost(const struct trace_raw *r, long long *lost, long long *from_stats)
{
    *lost = r->lost;
    *from_stats = r->lost_stats;
}

/* ---- decoding ---- */

static int64_t num(const struct tep_format_field *f, const void *data)
{
    unsigned long long v = 0;
    if (!f || tep_read_number_field((struct tep_format_field *)f, data, &v) != 0)
        return -1;
    if (f->flags & TEP_FIELD_IS_SIGNED) /* sign-extend a field narrower than 64 bits */
        switch (f->size) {
        case 1: return (int8_t)v;
        case 2: return (int16_t)v;
        case 4: return (int32_t)v;
        default: return (int64_t)v;
        }
    return (int64_t)v;
}

/* At most n bytes of s, up to its NUL, into out (len > 0) and NUL-terminated: what snprintf("%.*s") does, without
 * parsing a format for each of the trace's tens of thousands of events a second. */
static void copy(char *out, size_t len, const char *s, size_t n)
{
    size_t k = strnlen(s, n < len - 1 ? n : len - 1);
    memcpy(out, s, k);
    out[k] = '\0';
}

/* A string field (a fixed char array, or a dynamic __data_loc/__rel_loc one) into out, within the record's size. */
static void str(const struct tep_format_field *f, const uint8_t *data, int size, char *out, size_t len)
{
    out[0] = '\0';
    if (!f || f->offset < 0 || f->offset + f->size > size)
        return;
    int off = f->offset, n = f->size;
    if (f->flags & TEP_FIELD_IS_DYNAMIC) {
        uint32_t loc;
        memcpy(&loc, data + f->offset, sizeof(loc));
        off = (int)(loc & 0xffff), n = (int)(loc >> 16);
        if (f->flags & TEP_FIELD_IS_RELATIVE)
            off += f->offset + f->size;
        if (off < 0 || off + n > size)
            return;
    }
    copy(out, len, (const char *)data + off, (size_t)n);
}

static void comm_learn(struct trace_raw *r, int pid, const char *comm)
{
    if (pid <= 0 || !comm[0])
        return;
    unsigned h = (unsigned)pid % RAW_COMMS;
    r->comm[h].pid = pid;
    copy(r->comm[h].comm, sizeof(r->comm[h].comm), comm, 15); /* the kernel's TASK_COMM_LEN */
}

/* The comm of the task in an event's header: as the kernel's text prints it from the names it saw at switches. */
static void comm_of(struct trace_raw *r, int pid, char *out, size_t len)
{
    if (pid == 0) {
        copy(out, len, "<idle>", 6);
        return;
    }
    unsigned h = (unsigned)pid % RAW_COMMS;
    if (pid > 0 && r->comm[h].pid == pid) {
        copy(out, len, r->comm[h].comm, sizeof(r->comm[h].comm));
        return;
    }
    /* a task that ran since before the trace began: its name now (once: it is remembered) */
    char path[48], buf[32] = "";
    snprintf(path, sizeof(path), "/proc/%d/comm", pid);
    int fd = pid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n > 0) {
        buf[n] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        comm_learn(r, pid, buf);
    }
    snprintf(out, len, "%s", n > 0 && buf[0] ? buf : "<...>");
}

/* The state letters of sched_switch's prev_state, as its print format makes them: the states below TASK_REPORT_MAX
 * (0x100 since Linux 4.14) by letter, "R" when none, "+" when it was preempted (TASK_REPORT_MAX set). */
static void state_letters(int64_t st, char *out, size_t len)
{
    static const char letters[] = "SDTtXZPI";
    size_t o = 0;
    for (int b = 0; b < 8 && o + 1 < len; b++)
        if (st & (1 << b))
            out[o++] = letters[b];
    if (!o && o + 1 < len)
        out[o++] = 'R';
    if ((st & 0x100) && o + 1 < len)
        out[o++] = '+';
    out[o] = '\0';
}

/* One record into ev; 0 when it is not an event of ours. */
static int decode(struct trace_raw *r, int cpu, const uint8_t *data, int size, int64_t t_ns, struct tev *ev)
{
    if (size < r->pid_at + 4)
        return 0;
    uint16_t id;
    memcpy(&id, data, sizeof(id)); /* common_type: the first field of every event */
    int k = r->by_id[id];
    if (!k)
        return 0;
    const struct raw_event *re = &r->ev[k - 1];
    memset(ev, 0, sizeof(*ev));
    ev->next_pid = ev->next_prio = ev->prev_pid = ev->prev_prio = -1;
    ev->t_ns = t_ns;
    ev->cpu = cpu;
    ev->type = re->type;
    int32_t pid;
    memcpy(&pid, data + r->pid_at, sizeof(pid)); /* common_pid: the task in the event's header */
    ev->pid = pid;
    if (re->vec) {
        ev->num = re->vec->num;
        copy(ev->name, sizeof(ev->name), re->vec->line, 8);
    } else {
        char hex[24];
        switch (re->type) {
        case TEV_SWITCH:
            ev->prev_pid = (int)num(re->f[1], data);
            ev->prev_prio = (int)num(re->f[2], data);
            state_letters(num(re->f[3], data), ev->prev_state, sizeof(ev->prev_state));
            str(re->f[4], data, size, ev->name, sizeof(ev->name));
            ev->next_pid = (int)num(re->f[5], data);
            ev->next_prio = (int)num(re->f[6], data);
            comm_learn(r, ev->next_pid, ev->name);
            {
                char prev[TEV_COMM_MAX];
                str(re->f[0], data, size, prev, sizeof(prev));
                comm_learn(r, ev->prev_pid, prev);
            }
            break;
        case TEV_WAKING:
        case TEV_WAKEUP: {
            char woken[TEV_COMM_MAX];
            str(re->f[0], data, size, woken, sizeof(woken));
            ev->num = num(re->f[1], data);
            ev->next_prio = (int)num(re->f[2], data);
            ev->next_pid = (int)num(re->f[3], data);
            comm_learn(r, (int)ev->num, woken);
            break;
        }
        case TEV_IRQ_ENTRY:
            str(re->f[1], data, size, ev->name, sizeof(ev->name));
            /* fall through */
        case TEV_IRQ_EXIT:
        case TEV_SOFTIRQ_ENTRY:
        case TEV_SOFTIRQ_EXIT:
            ev->num = num(re->f[0], data);
            break;
        case TEV_WQ_START:
            copy(ev->fn, sizeof(ev->fn), ksym_name(&r->fns, (uint64_t)num(re->f[0], data), hex, sizeof(hex)), 47);
            break;
        default:
            break;
        }
    }
    comm_of(r, ev->pid, ev->comm, sizeof(ev->comm));
    return 1;
}

/* ---- reading ---- */

static int64_t stats_overrun(struct trace_raw *r, int cpu)
{
    char rel[64], *buf;
    size_t len;
    snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
    if (tracefs_read(r->tf, rel, &buf, &len, 4096) < 0)
        return -1;
    const char *p = strstr(buf, "\noverrun:");
    long long v = -1;
    if (!p || sscanf(p + 9, "%lld", &v) != 1)
        v = -1;
    free(buf);
    return v;
}

static void feed_lost(struct trace_raw *r, trace_raw_feed_fn feed, void *arg, struct raw_cpu *c)
{
    /* The kernel's own count, its stats file's overrun since the instance began, less what this CPU counted: exact
     * in sum however the sub-buffers counted. A sub-buffer's count is what was lost between two of the reader's
     * page swaps, and one without room for it says only that some were: mixing the two counted the losses before a
     * count-less sub-buffer twice over and took them off the next counts (a flooded 7 kB ring: 90,728 lost counted,
     * the kernel's overrun 90,834, the 106 taken from the stats file). The sub-buffer's count serves only when the
     * stats file cannot be read. */
    int64_t ov = stats_overrun(r, c->cpu);
    long long n = ov >= 0 ? (ov > c->lost ? ov - c->lost : 0) : c->missed > 0 ? c->missed : 0;
    if (c->missed < 0)
        r->lost_stats += n; /* the kernel had no room in the sub-buffer to count them */
    c->lost += n;
    r->lost += n;
    struct tev ev = { .type = TEV_LOST, .cpu = c->cpu, .num = n, .next_pid = -1, .next_prio = -1, .prev_pid = -1,
                      .prev_prio = -1 };
    feed(arg, &ev); /* the CPU's context is not known until its next event, as after the text's LOST line */
    c->missed = 0;
}

/* c's next sub-buffer into its kbuffer: 1 with events in it, 0 nothing to read now, or a negative errno. */
static int load(struct trace_raw *r, trace_raw_feed_fn feed, void *arg, struct raw_cpu *c, long *bytes)
{
    for (;;) {
        errno = 0;
        int n = tracefs_cpu_read(c->tcpu, c->page, true);
        if (n < 0)
            return errno == EINTR || errno == EAGAIN ? 0 : -(errno ? errno : EIO);
        if (n <= 16)
            return 0;
        *bytes += n;
        /* the header: a u64 timestamp, then the commit word: the data's length, and whether (and how many) events
         * were lost before this sub-buffer (the kernel's ring_buffer_read_page; kbuffer reads the same bits) */
        const uint8_t *p = c->page;
        uint64_t commit = 0;
        if (r->long_size == 8)
            memcpy(&commit, p + 8, 8);
        else {
            uint32_t c32;
            memcpy(&c32, p + 8, 4);
            commit = c32;
        }
        int data = 8 + r->long_size, size = (int)(commit & ((1u << 27) - 1));
        c->missed = 0;
        if (commit & (1ull << 31)) {
            c->missed = -1;
            if ((commit & (1ull << 30)) && data + size + r->long_size <= r->subbuf) {
                uint64_t m = 0;
                memcpy(&m, p + data + size, (size_t)r->long_size);
                c->missed = (long long)m;
            }
        }
        if (kbuffer_load_subbuffer(c->kbuf, c->page) == 0 && kbuffer_read_event(c->kbuf, NULL)) {
            c->loaded = 1;
            c->first = 1;
            return 1;
        }
        if (c->missed) /* lost events and nothing after them in this one */
            feed_lost(r, feed, arg, c);
    }
}

long trace_raw_drain(struct trace_raw *r, trace_raw_feed_fn feed, void *arg, int64_t horizon_ns, size_t max_bytes)
{
    long bytes = 0;
    for (int i = 0; i < r->ncpu; i++)
        r->cpu[i].dry = 0;
    for (;;) {
        /* the CPU whose next event is the earliest, and the next CPU's time after it */
        struct raw_cpu *best = NULL;
        unsigned long long best_t = 0, second_t = ~0ull;
        for (int i = 0; i < r->ncpu; i++) {
            struct raw_cpu *c = &r->cpu[i];
            if (!c->loaded && !c->dry) {
                if ((size_t)bytes >= max_bytes)
                    return bytes; /* the rest next time, the CPUs still in order */
                int e = load(r, feed, arg, c, &bytes);
                if (e < 0)
                    return e;
                c->dry = e == 0;
            }
            unsigned long long t;
            if (!c->loaded || !kbuffer_read_event(c->kbuf, &t))
                continue;
            if (!best || t < best_t) {
                if (best)
                    second_t = best_t;
                best = c, best_t = t;
            } else if (t < second_t) {
                second_t = t;
            }
        }
        if (!best || best_t > (unsigned long long)horizon_ns)
            return bytes;
        /* its events up to the next CPU's time (and the horizon) go in one run */
        unsigned long long limit = second_t < (unsigned long long)horizon_ns ? second_t : (unsigned long long)horizon_ns;
        unsigned long long t = best_t;
        void *rec = kbuffer_read_event(best->kbuf, &t);
        while (rec && t <= limit) {
            if (best->first && best->missed)
                feed_lost(r, feed, arg, best);
            best->first = 0;
            struct tev ev;
            if (decode(r, best->cpu, rec, kbuffer_event_size(best->kbuf), (int64_t)t, &ev))
                feed(arg, &ev);
            rec = kbuffer_next_event(best->kbuf, &t);
        }
        if (!rec)
            best->loaded = 0;
    }
}

int trace_raw_name_fns(struct trace_raw *r, struct trace_stream *ts)
{
    return r ? ksym_resolve(&r->fns, ts) : 0;
}
