#include "rt_sink.h"
#include "dsp.h"
#include "rtclock.h"

/* RT-safe (runs in the RT thread). */
void rt_sink_cycle(struct rt_sink *s, struct rt_record *r, int64_t deadline_ns)
{
    unsigned tag = atomic_load_explicit(s->phase_tag, memory_order_acquire);
    r->phase = tag >> 1;
    if (tag & 1u)
        r->flags |= RTREC_MEASURING;
    uint32_t units = atomic_load_explicit(&s->dsp_units, memory_order_relaxed);
    r->dsp_req = units;
    r->dsp_done = 0;
    if (units) {
        r->dsp_done = dsp_burn(units, deadline_ns, s->clock);
        r->flags |= RTREC_DSP;
    }
    r->xruns = s->xruns ? (uint32_t)atomic_load_explicit(s->xruns, memory_order_acquire) : 0;
    r->pad = 0;
    r->t_exit_ns = rt_now_ns(s->clock);
    rt_ring_push(s->ring, r);
    atomic_store_explicit(&s->cycles, atomic_load_explicit(&s->cycles, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}
