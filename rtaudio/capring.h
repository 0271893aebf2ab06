/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback's capture ring: what the input port (or the ALSA capture side) received, cycle by cycle, on its way
 * from the RT thread to the non-RT analyzer (src/loopback/). Lock-free single producer (the RT thread,
 * cap_ring_push) and single consumer (the drain thread, cap_ring_pop).
 *
 * Two rings that move together: fixed-size chunk headers (position, seq, entry time, phase tag, frames) and the
 * samples they own, in a float ring of their own, so that memory follows the rate rather than the number of cycles
 * times a worst-case period: at 16 frames / 192 kHz, 1 s is 262144 samples (1 MiB) and 16384 64-byte headers
 * (1 MiB); at 64 frames / 48 kHz, 64 Ki samples (256 KiB) and 1024 headers (64 KiB). A full ring never blocks: the frames
 * are counted as lost (lost_frames), and the next chunk that fits carries where the loss began and how many frames
 * it holds, so that the analyzer is told (lb_lost) and never mistakes a loss for a glitch. */
#ifndef RTJ_CAPRING_H
#define RTJ_CAPRING_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CAP_MAX_FRAMES 4096u /* a chunk holds at most this many frames: a longer cycle is pushed as several */

struct cap_chunk {
    uint64_t pos;          /* frame position of the first sample, on the clock of the output signal */
    uint64_t seq;          /* the cycle's record seq (rt_record.seq) */
    int64_t t_entry_ns;    /* the cycle's entry time, measurement clock */
    uint64_t sample_off;   /* where its samples start in the sample ring (running index) */
    uint64_t lost_pos;     /* frames lost before this chunk (ring full): where the first lost one was */
    uint32_t lost_n;       /* and how many (0: none) */
    uint32_t n;            /* frames of this chunk (<= CAP_MAX_FRAMES) */
    uint32_t phase;        /* phase index */
    uint32_t measuring;    /* past the phase's warm-up */
    uint32_t xruns;        /* the provider's xrun counter in that cycle (rt_record.xruns) */
};

struct cap_ring {
    struct cap_chunk *chunks;  /* nchunks, power of two */
    float *samples;            /* nsamples, power of two */
    size_t nchunks, nsamples;
    /* producer (RT thread) only */
    _Alignas(64) atomic_uint_fast64_t head;      /* chunks published */
    uint64_t shead;                               /* next sample index */
    uint64_t pend_lost_pos;
    uint64_t pend_lost_n;
    atomic_uint_fast64_t lost_frames;             /* frames lost to a full ring, whole run */
    /* consumer (drain thread) only */
    _Alignas(64) atomic_uint_fast64_t tail;      /* chunks consumed */
    atomic_uint_fast64_t stail;                   /* samples consumed */
};

/* Non-RT, before the first cycle: room for `seconds` of capture at rate_hz in cycles of period_frames (at least 64
 * chunks and 8192 samples). Everything allocated, touched and locked here. 0 or -errno. */
int cap_ring_init(struct cap_ring *r, unsigned rate_hz, unsigned period_frames, double seconds);
void cap_ring_free(struct cap_ring *r);
/* Bytes the ring holds (for the report and make bench). */
size_t cap_ring_bytes(const struct cap_ring *r);

/* RT-safe (runs in the RT thread): no allocation, lock or system call; memcpy of n floats at most. Pushes the n
 * samples captured in one cycle (split into chunks of CAP_MAX_FRAMES). Returns the frames lost (0: all stored). */
static inline uint32_t cap_ring_push(struct cap_ring *r, uint64_t pos, uint64_t seq, int64_t t_entry_ns,
                                     unsigned phase, int measuring, uint32_t xruns, const float *in, uint32_t n)
{
    uint32_t lost = 0;
    for (uint32_t off = 0; off < n;) {
        uint32_t k = n - off < CAP_MAX_FRAMES ? n - off : CAP_MAX_FRAMES;
        uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
        uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
        uint64_t stail = atomic_load_explicit(&r->stail, memory_order_acquire);
        if (head - tail >= r->nchunks || r->shead + k - stail > r->nsamples) {
            if (r->pend_lost_n == 0)
                r->pend_lost_pos = pos + off;
            r->pend_lost_n += k;
            atomic_store_explicit(&r->lost_frames, atomic_load_explicit(&r->lost_frames, memory_order_relaxed) + k,
                                  memory_order_release);
            lost += k;
            off += k;
            continue;
        }
        size_t mask = r->nsamples - 1, at = (size_t)(r->shead & mask);
        size_t first = r->nsamples - at < k ? r->nsamples - at : k;
        if (in) {
            memcpy(r->samples + at, in + off, first * sizeof(float));
            memcpy(r->samples, in + off + first, (k - first) * sizeof(float));
        } else { /* no input buffer this cycle: silence, which the analyzer hears as such */
            memset(r->samples + at, 0, first * sizeof(float));
            memset(r->samples, 0, (k - first) * sizeof(float));
        }
        struct cap_chunk *c = &r->chunks[head & (r->nchunks - 1)];
        c->pos = pos + off;
        c->seq = seq;
        c->t_entry_ns = t_entry_ns;
        c->sample_off = r->shead;
        c->lost_pos = r->pend_lost_pos;
        c->lost_n = (uint32_t)(r->pend_lost_n > UINT32_MAX ? UINT32_MAX : r->pend_lost_n);
        c->n = k;
        c->phase = phase;
        c->measuring = (uint32_t)measuring;
        c->xruns = xruns;
        r->pend_lost_n = 0;
        r->shead += k;
        atomic_store_explicit(&r->head, head + 1, memory_order_release);
        off += k;
    }
    return lost;
}

/* Consumer (drain thread): the next chunk into *c and its samples into out (room for CAP_MAX_FRAMES). Returns 1,
 * or 0 when the ring is empty. */
int cap_ring_pop(struct cap_ring *r, struct cap_chunk *c, float *out);
uint64_t cap_ring_lost(const struct cap_ring *r);

#endif
