/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run/rt_cpu.h"
#include "rtclock.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GAP_WAIT_NS (30 * 1000000LL) /* how long a reading waits for a thread to be between two cycles */

int rt_cpu_parse_schedstat(const char *text, uint64_t *cpu_ns, uint64_t *delay_ns)
{
    char *end;
    errno = 0;
    unsigned long long c = strtoull(text, &end, 10);
    if (end == text || errno || (*end != ' ' && *end != '\t'))
        return -EINVAL;
    const char *p = end;
    unsigned long long d = strtoull(p, &end, 10);
    if (end == p || errno)
        return -EINVAL;
    *cpu_ns = c;
    *delay_ns = d;
    return 0;
}

static int read_schedstat(int tid, uint64_t *cpu_ns, uint64_t *delay_ns)
{
    char path[64], buf[128];
    snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -EIO;
    buf[n] = '\0';
    return rt_cpu_parse_schedstat(buf, cpu_ns, delay_ns);
}

/* One thread: retried until its begun and ended counts agree, and did not move, around the read. */
static int read_slot(const struct rt_meter_slot *s, int tid, uint64_t *cpu_ns, uint64_t *delay_ns, uint64_t *cycles,
                     uint64_t *units, int *clean)
{
    int64_t give_up = mono_ns() + GAP_WAIT_NS;
    for (;;) {
        uint64_t e0 = atomic_load_explicit(&s->ended, memory_order_acquire);
        uint64_t b0 = atomic_load_explicit(&s->begun, memory_order_seq_cst);
        uint64_t u = atomic_load_explicit(&s->dsp_units, memory_order_relaxed);
        int e = read_schedstat(tid, cpu_ns, delay_ns);
        if (e < 0)
            return e;
        uint64_t b1 = atomic_load_explicit(&s->begun, memory_order_seq_cst);
        uint64_t e1 = atomic_load_explicit(&s->ended, memory_order_acquire);
        *cycles = e0;
        *units = u;
        *clean = b0 == e0 && b1 == e0 && e1 == e0;
        if (*clean || mono_ns() > give_up)
            return 0; /* not clean: off by at most the cycle in progress */
        struct timespec nap = { 0, 20000 };
        nanosleep(&nap, NULL);
    }
}

void rt_cpu_read(const struct rt_meter *m, struct rt_cpu_reading *out)
{
    memset(out, 0, sizeof(*out));
    out->clean = 1;
    int n = m ? atomic_load_explicit(&m->claimed, memory_order_acquire) : 0;
    if (n > RT_METER_SLOTS)
        n = RT_METER_SLOTS;
    for (int i = 0; i < n; i++) {
        const struct rt_meter_slot *s = &m->slot[i];
        int tid = atomic_load_explicit(&s->tid, memory_order_acquire);
        uint64_t c, d, cy, u;
        int clean;
        if (tid <= 0 || read_slot(s, tid, &c, &d, &cy, &u, &clean) < 0)
            continue; /* not published yet, or the thread is gone */
        out->threads++;
        out->clean &= clean;
        out->cpu_ns += c;
        out->delay_ns += d;
        out->cycles += cy;
        out->dsp_units += u;
    }
    out->mono_s = mono_s();
}

int rt_cpu_between(const struct rt_cpu_reading *a, const struct rt_cpu_reading *b, double period_ns,
                   struct rt_cpu_share *out)
{
    memset(out, 0, sizeof(*out));
    if (!a->threads || a->threads != b->threads || b->cycles <= a->cycles || b->cpu_ns < a->cpu_ns ||
        b->delay_ns < a->delay_ns || !(period_ns > 0))
        return -1;
    out->cycles = b->cycles - a->cycles;
    out->dsp_units = b->dsp_units - a->dsp_units;
    out->cpu_s = (double)(b->cpu_ns - a->cpu_ns) / 1e9;
    out->delay_s = (double)(b->delay_ns - a->delay_ns) / 1e9;
    double span_ns = (double)out->cycles * period_ns;
    out->cpu_pct = 100.0 * (double)(b->cpu_ns - a->cpu_ns) / span_ns;
    out->delay_pct = 100.0 * (double)(b->delay_ns - a->delay_ns) / span_ns;
    out->threads = b->threads;
    out->clean = a->clean && b->clean;
    return 0;
}

json_t *rt_cpu_share_json(const struct rt_cpu_share *s, double requested_pct, double mono_t0, double mono_t1)
{
    json_t *o = json_object();
    if (requested_pct >= 0)
        json_object_set_new(o, "requested_pct", json_real(requested_pct));
    json_object_set_new(o, "measured_pct", json_real(s->cpu_pct));
    json_object_set_new(o, "run_delay_pct", json_real(s->delay_pct));
    json_object_set_new(o, "cpu_s", json_real(s->cpu_s));
    json_object_set_new(o, "run_delay_s", json_real(s->delay_s));
    json_object_set_new(o, "cycles", json_integer((json_int_t)s->cycles));
    json_object_set_new(o, "threads", json_integer(s->threads));
    json_object_set_new(o, "mono_window_s", json_pack("[f,f]", mono_t0, mono_t1));
    return o;
}
