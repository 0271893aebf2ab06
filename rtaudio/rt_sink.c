/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rt_sink.h"
#include "dsp.h"
#include "rtclock.h"
#include <sched.h>

/* Not measured: runs in the RT thread before its first cycle (a backend's thread-init hook, or the first cycle).
 * Touches 32 KiB of stack, so that no cycle takes a page fault on it (mlockall(MCL_ONFAULT) then keeps it). Kept out
 * of line so that no cycle's frame reserves the array. */
__attribute__((noinline, cold)) void rt_sink_touch_stack(void)
{
    volatile char stack_touch[32 * 1024];
    for (size_t i = 0; i < sizeof(stack_touch); i += 256)
        stack_touch[i] = 0;
}

/* RT-safe (runs in the RT thread), first cycle only: see rt_sink.h. */
__attribute__((noinline, cold)) static void first_cycle(struct rt_sink *s)
{
    if (!atomic_load_explicit(&s->stack_touched, memory_order_relaxed))
        rt_sink_touch_stack();
    struct sched_param sp;
    int pol = sched_getscheduler(0);
#ifdef SCHED_RESET_ON_FORK
    if (pol > 0)
        pol &= ~SCHED_RESET_ON_FORK; /* PipeWire sets it on its data threads */
#endif
    atomic_store_explicit(&s->sched_policy, pol, memory_order_relaxed);
    atomic_store_explicit(&s->sched_priority, sched_getparam(0, &sp) == 0 ? sp.sched_priority : -1,
                          memory_order_relaxed);
    atomic_store_explicit(&s->sched_known, 1, memory_order_release);
}

/* RT-safe (runs in the RT thread). */
void rt_sink_cycle(struct rt_sink *s, struct rt_record *r, int64_t deadline_ns)
{
    if (__builtin_expect(!atomic_load_explicit(&s->sched_known, memory_order_relaxed), 0))
        first_cycle(s);
    unsigned tag = atomic_load_explicit(s->phase_tag, memory_order_acquire);
    uint64_t seq = atomic_load_explicit(&s->cycles, memory_order_relaxed);
    r->seq = seq;
    r->phase = tag >> 1;
    if (tag & 1u)
        r->flags |= RTREC_MEASURING;
    r->cpu = (int16_t)sched_getcpu(); /* vDSO getcpu / rseq: no system call */
    r->stream = s->stream;
    uint32_t units = atomic_load_explicit(&s->dsp_units, memory_order_relaxed);
    r->dsp_req = units;
    r->dsp_done = 0;
    if (units) {
        /* A guard band before the deadline: the burn never makes the miss it is there to provoke. */
        r->dsp_done = dsp_burn(units, deadline_ns - (int64_t)atomic_load_explicit(&s->dsp_guard_ns,
                                                                                  memory_order_relaxed), s->clock);
        r->flags |= RTREC_DSP;
    }
    r->xruns = s->xruns ? (uint32_t)atomic_load_explicit(s->xruns, memory_order_acquire) : 0;
    r->t_exit_ns = rt_now_ns(s->clock);
    rt_ring_push(s->ring, r);
    atomic_store_explicit(&s->cycles, seq + 1, memory_order_relaxed);
}

void rt_sink_set_dsp(struct rt_sink *s, double share, double units_per_ns, unsigned nframes, unsigned rate_hz)
{
    double period_ns = rate_hz ? (double)nframes * 1e9 / rate_hz : 0.0;
    double units = share * period_ns * units_per_ns;
    double guard = period_ns / 32 > 10000 ? period_ns / 32 : 10000;
    atomic_store_explicit(&s->dsp_guard_ns, (unsigned)guard, memory_order_relaxed);
    atomic_store_explicit(&s->dsp_units, units > 0 ? (unsigned)(units + 0.5) : 0u, memory_order_relaxed);
}
