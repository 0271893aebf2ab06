/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ring.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int rt_ring_init(struct rt_ring *r, size_t capacity)
{
    size_t cap = 1;
    if (capacity == 0 || capacity > ((size_t)1 << 30))
        return -EINVAL;
    while (cap < capacity)
        cap <<= 1;
    r->slots = calloc(cap, sizeof(*r->slots));
    if (!r->slots)
        return -ENOMEM;
    /* Touch every page now (calloc may hand back untouched zero pages): a page fault in the RT thread
     * would be a delay we caused ourselves. mlock is best effort; mlockall() usually covers it. */
    memset(r->slots, 0, cap * sizeof(*r->slots));
    (void)mlock(r->slots, cap * sizeof(*r->slots));
    r->capacity = cap;
    r->mask = cap - 1;
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    atomic_init(&r->dropped, 0);
    return 0;
}

void rt_ring_free(struct rt_ring *r)
{
    if (r->slots) {
        munlock(r->slots, r->capacity * sizeof(*r->slots));
        free(r->slots);
    }
    r->slots = NULL;
}

size_t rt_ring_pop(struct rt_ring *r, struct rt_record *out, size_t max)
{
    size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    size_t n = head - tail;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        out[i] = r->slots[(tail + i) & r->mask];
    atomic_store_explicit(&r->tail, tail + n, memory_order_release);
    return n;
}

uint64_t rt_ring_dropped(const struct rt_ring *r)
{
    return atomic_load_explicit(&r->dropped, memory_order_acquire);
}

size_t rt_ring_fill(const struct rt_ring *r)
{
    return atomic_load_explicit(&r->head, memory_order_acquire) -
           atomic_load_explicit(&r->tail, memory_order_acquire);
}
