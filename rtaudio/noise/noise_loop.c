/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's RT thread (see noise.h): a tight loop of clock reads. */
#include "noise/noise.h"
#include "rtclock.h"
#include <string.h>

/* RT-safe (runs in the RT thread): one gap's length into the tag's totals, and its record into the ring (a full
 * ring drops it and counts it; the totals still hold it). Integer work and one ring push. */
static void noise_gap(struct noise_stream *ns, unsigned tag, int64_t start_ns, int64_t end_ns, uint64_t seq,
                      int16_t cpu, uint16_t stream)
{
    int64_t len = end_ns - start_ns;
    struct noise_tagstat *t = &ns->tag[tag];
    t->noise_ns += len;
    t->gaps++;
    if (len > t->max_ns)
        t->max_ns = len;
    uint64_t us = (uint64_t)len / 1000;
    int k = 0;
    while (us >= 2 && k < NOISE_HBINS - 1) {
        us >>= 1;
        k++;
    }
    t->hist[k]++;
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.seq = seq;
    r.t_entry_ns = start_ns;
    r.t_exit_ns = end_ns;
    r.phase = tag;
    r.cpu = cpu;
    r.stream = stream;
    rt_ring_push(&ns->gaps, &r);
}

/* RT-safe (runs in the RT thread): read the clock, again and again; a gap over the threshold is noise. When the
 * clock passes the next deadline of the timer's grid, the sink gets a cycle whose start is that deadline (its
 * wake-up: how late the loop saw it), and deadlines already behind are skipped and counted as the timer counts
 * them. No allocation, lock, printf, file I/O or system call but the sink's in its first (never measured) cycle;
 * the phase tag is read, and the clock stored for the classifier (ran_ns: the loop was running then, so a stretch
 * before it without a gap in the ring had none), once a period, at the deadline. */
void *noise_thread(void *arg)
{
    struct timer_stream *ts = arg;
    struct timer_backend *b = ts->b;
    struct noise_probe *np = b->noise;
    const uint16_t idx = (uint16_t)(ts - b->streams);
    struct noise_stream *ns = &np->s[idx];
    const uint32_t nframes = b->nframes, rate = b->rate_hz;
    const int64_t thr = np->threshold_ns;
    const unsigned last_tag = np->ntags - 1;
    const int64_t t0 = timer_grid_origin(b);
    if (!t0)
        return NULL;
    uint64_t frames = nframes, seq = 0;
    int64_t deadline = t0 + timer_frames_ns(frames, rate);
    unsigned tag = atomic_load_explicit(ts->sink->phase_tag, memory_order_relaxed);
    if (tag > last_tag)
        tag = last_tag;
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    int64_t prev = rt_now_ns(CLOCK_MONOTONIC), from = prev;
    while (!atomic_load_explicit(&b->stop, memory_order_relaxed)) {
        int64_t t = rt_now_ns(CLOCK_MONOTONIC);
        if (t - prev > thr)
            noise_gap(ns, tag, prev, t, seq++, (int16_t)ts->cpu, idx);
        prev = t;
        if (t < deadline)
            continue;
        atomic_store_explicit(&ns->ran_ns, t, memory_order_release);
        r.t_entry_ns = t;
        r.start_ns = deadline;
        r.flags = RTREC_HAS_START;
        r.frame_pos = frames;
        r.nframes = nframes;
        r.rate_hz = rate;
        rt_sink_cycle(ts->sink, &r, t0 + timer_frames_ns(frames + nframes, rate));
        frames += nframes;
        uint64_t skipped = 0;
        while (t0 + timer_frames_ns(frames, rate) <= r.t_exit_ns) {
            frames += nframes;
            skipped++;
        }
        if (skipped)
            atomic_store_explicit(&ts->skipped,
                                  atomic_load_explicit(&ts->skipped, memory_order_relaxed) + skipped,
                                  memory_order_relaxed);
        deadline = t0 + timer_frames_ns(frames, rate);
        ns->tag[tag].spun_ns += t - from;
        from = t;
        tag = atomic_load_explicit(ts->sink->phase_tag, memory_order_relaxed);
        if (tag > last_tag)
            tag = last_tag;
        prev = rt_now_ns(CLOCK_MONOTONIC); /* the sink's own work is not noise */
    }
    ns->tag[tag].spun_ns += prev - from;
    return NULL;
}
