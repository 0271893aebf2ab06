/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "capring.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

static size_t pow2_at_least(double x, size_t min)
{
    size_t n = 1;
    while ((double)n < x || n < min)
        n <<= 1;
    return n;
}

int cap_ring_init(struct cap_ring *r, unsigned rate_hz, unsigned period_frames, double seconds)
{
    memset(r, 0, sizeof(*r));
    if (!rate_hz || !period_frames || seconds <= 0 || seconds > 60)
        return -EINVAL;
    r->nsamples = pow2_at_least((double)rate_hz * seconds, 2 * CAP_MAX_FRAMES);
    r->nchunks = pow2_at_least((double)rate_hz / period_frames * seconds, 64);
    r->samples = calloc(r->nsamples, sizeof(*r->samples));
    r->chunks = calloc(r->nchunks, sizeof(*r->chunks));
    if (!r->samples || !r->chunks) {
        cap_ring_free(r);
        return -ENOMEM;
    }
    /* Touched now (calloc may hand back untouched zero pages) and locked: no page fault in the RT thread. */
    memset(r->samples, 0, r->nsamples * sizeof(*r->samples));
    memset(r->chunks, 0, r->nchunks * sizeof(*r->chunks));
    (void)mlock(r->samples, r->nsamples * sizeof(*r->samples));
    (void)mlock(r->chunks, r->nchunks * sizeof(*r->chunks));
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    atomic_init(&r->stail, 0);
    atomic_init(&r->lost_frames, 0);
    return 0;
}

void cap_ring_free(struct cap_ring *r)
{
    if (r->samples) {
        munlock(r->samples, r->nsamples * sizeof(*r->samples));
        free(r->samples);
    }
    if (r->chunks) {
        munlock(r->chunks, r->nchunks * sizeof(*r->chunks));
        free(r->chunks);
    }
    r->samples = NULL;
    r->chunks = NULL;
}

size_t cap_ring_bytes(const struct cap_ring *r)
{
    return r->nsamples * sizeof(*r->samples) + r->nchunks * sizeof(*r->chunks);
}

int cap_ring_pop(struct cap_ring *r, struct cap_chunk *c, float *out)
{
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (tail == head)
        return 0;
    *c = r->chunks[tail & (r->nchunks - 1)];
    size_t mask = r->nsamples - 1, at = (size_t)(c->sample_off & mask);
    size_t first = r->nsamples - at < c->n ? r->nsamples - at : c->n;
    memcpy(out, r->samples + at, first * sizeof(float));
    memcpy(out + first, r->samples, (c->n - first) * sizeof(float));
    atomic_store_explicit(&r->stail, c->sample_off + c->n, memory_order_release);
    atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
    return 1;
}

uint64_t cap_ring_lost(const struct cap_ring *r)
{
    return atomic_load_explicit(&r->lost_frames, memory_order_acquire);
}
