/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lock-free single-producer/single-consumer ring of struct rt_record.
 * Producer: the RT thread (rt_ring_push). Consumer: the collector thread (rt_ring_pop).
 * A full ring never blocks: the record is dropped and `dropped` counts it. */
#ifndef RTJ_RING_H
#define RTJ_RING_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "record.h"

struct rt_ring {
    struct rt_record *slots;      /* capacity slots, allocated, zeroed and locked before the first cycle */
    size_t capacity;              /* power of two */
    size_t mask;
    _Alignas(64) atomic_size_t head;     /* next slot to write; written by the producer only */
    _Alignas(64) atomic_size_t tail;     /* next slot to read; written by the consumer only */
    _Alignas(64) atomic_uint_fast64_t dropped; /* records lost to a full ring; written by the producer only */
};

/* Non-RT. capacity is rounded up to a power of two. Returns 0 or -errno. */
int rt_ring_init(struct rt_ring *r, size_t capacity);
void rt_ring_free(struct rt_ring *r);

/* RT-safe (runs in the RT thread): no allocation, no lock, no syscall. Returns 1 if stored, 0 if dropped. */
static inline int rt_ring_push(struct rt_ring *r, const struct rt_record *rec)
{
    size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (head - tail >= r->capacity) {
        atomic_store_explicit(&r->dropped,
                              atomic_load_explicit(&r->dropped, memory_order_relaxed) + 1,
                              memory_order_release);
        return 0;
    }
    r->slots[head & r->mask] = *rec;
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
    return 1;
}

/* Producer side, not RT: a producer that forwards records from other rings (the timer backend's relay) adds
 * the records those rings lost, so that `dropped` still counts every record lost on the way. */
static inline void rt_ring_add_dropped(struct rt_ring *r, uint64_t n)
{
    atomic_store_explicit(&r->dropped, atomic_load_explicit(&r->dropped, memory_order_relaxed) + n,
                          memory_order_release);
}

/* Consumer side (collector thread). Copies up to max records into out; returns how many. */
size_t rt_ring_pop(struct rt_ring *r, struct rt_record *out, size_t max);
uint64_t rt_ring_dropped(const struct rt_ring *r);
size_t rt_ring_fill(const struct rt_ring *r);

#endif
