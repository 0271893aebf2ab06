/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rt_sink.h"
#include "dsp.h"
#include "rtclock.h"
#include <sched.h>
#include <unistd.h>

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
    atomic_store_explicit(&s->tid, (int)gettid(), memory_order_relaxed);
    if (s->meter && !s->meter_slot1) {
        int k = atomic_fetch_add_explicit(&s->meter->claimed, 1, memory_order_relaxed);
        if (k < RT_METER_SLOTS) {
            s->meter_slot1 = k + 1;
            atomic_store_explicit(&s->meter->slot[k].tid, (int)gettid(), memory_order_release);
        }
    }
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
    unsigned ppm = s->dsp ? atomic_load_explicit(&s->dsp->share_ppm, memory_order_relaxed) : 0;
    uint32_t units = ppm ? rt_dsp_units(ppm, atomic_load_explicit(&s->dsp->units_per_ns, memory_order_relaxed),
                                        r->nframes, r->rate_hz)
                         : 0;
    r->dsp_req = units;
    r->dsp_done = 0;
    struct rt_meter_slot *m = s->meter_slot1 ? &s->meter->slot[s->meter_slot1 - 1] : NULL;
    uint64_t n_ended = m ? atomic_load_explicit(&m->ended, memory_order_relaxed) : 0;
    if (m) /* seq_cst: the reader's check "begun == ended" must not see this store after the burn's CPU time */
        atomic_store_explicit(&m->begun, n_ended + 1, memory_order_seq_cst);
    if (units) {
        /* A guard band before the deadline: the burn never makes the miss it is there to provoke. A cycle it cuts
         * short has dsp_done < dsp_req: counted apart from missed deadlines. An overrun test (a share above
         * RT_DSP_OVERRUN_PPM) burns its whole share: the miss is what it is for. */
        int64_t stop = ppm > RT_DSP_OVERRUN_PPM ? INT64_MAX : deadline_ns - rt_dsp_guard_ns(r->nframes, r->rate_hz);
        r->dsp_done = dsp_burn(units, stop, s->clock);
        r->flags |= RTREC_DSP;
    }
    if (m) {
        atomic_store_explicit(&m->dsp_units, atomic_load_explicit(&m->dsp_units, memory_order_relaxed) + r->dsp_done,
                              memory_order_relaxed);
        atomic_store_explicit(&m->ended, n_ended + 1, memory_order_release);
    }
    r->xruns = s->xruns ? (uint32_t)atomic_load_explicit(s->xruns, memory_order_acquire) : 0;
    r->t_exit_ns = rt_now_ns(s->clock);
    if (!rt_ring_push(s->ring, r))
        rt_sink_count_lost(s, tag);
    atomic_store_explicit(&s->cycles, seq + 1, memory_order_relaxed);
}

/* RT-safe (runs in the RT thread): arithmetic only. */
uint32_t rt_dsp_units(unsigned share_ppm, double units_per_ns, uint32_t nframes, uint32_t rate_hz)
{
    if (!rate_hz || !(units_per_ns > 0))
        return 0;
    double u = (double)share_ppm * 1e-6 * (double)nframes * 1e9 / (double)rate_hz * units_per_ns + 0.5;
    return u >= 4294967295.0 ? UINT32_MAX : (uint32_t)u;
}

/* RT-safe (runs in the RT thread): arithmetic only. */
int64_t rt_dsp_guard_ns(uint32_t nframes, uint32_t rate_hz)
{
    int64_t period_ns = rate_hz ? (int64_t)nframes * 1000000000LL / rate_hz : 0;
    return period_ns / 32 > 10000 ? period_ns / 32 : 10000;
}

void rt_dsp_set_share(struct rt_dsp_ctl *d, double share)
{
    double ppm = share * 1e6 + 0.5;
    atomic_store_explicit(&d->share_ppm, ppm > 0 ? (ppm < RT_DSP_MAX_PPM ? (unsigned)ppm : RT_DSP_MAX_PPM) : 0u,
                          memory_order_relaxed);
}
