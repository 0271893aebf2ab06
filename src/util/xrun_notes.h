/* SPDX-License-Identifier: GPL-2.0-or-later */
/* When a provider's xrun notifications came: a ring of their times that the notification callback writes and any
 * other thread reads. jack2 sends one to every client in the same server cycle as each "JackEngine::XRun: client =
 * NAME was not finished" line it logs (JackEngine::CheckXRun), while the line itself reaches the log later, from its
 * message thread (seen: 144-236 ms, more on a busy machine). So a log line is timed only by when it was read, but
 * its stall by the notifications: the culprit engine names a client that did not finish only for a happening beside
 * a notification, never for one 130 ms before the stall that the read-time window's lag still covered (seen in
 * culprits_jack on a fresh machine: two spikes named "stall"). */
#ifndef RTJ_XRUN_NOTES_H
#define RTJ_XRUN_NOTES_H
#include <stdatomic.h>
#include <stdint.h>

#define XRUN_NOTES_MAX 256

struct xrun_notes {
    _Atomic int64_t at_ns[XRUN_NOTES_MAX]; /* on the sink's clock */
    atomic_uint n;                          /* notes written so far: the next goes to slot n % XRUN_NOTES_MAX */
};

/* RT-safe (PipeWire's JACK may call the xrun callback on its data thread): two atomic stores. One writer. */
static inline void xrun_notes_add(struct xrun_notes *x, int64_t t_ns)
{
    unsigned n = atomic_load_explicit(&x->n, memory_order_relaxed);
    atomic_store_explicit(&x->at_ns[n % XRUN_NOTES_MAX], t_ns, memory_order_relaxed);
    atomic_store_explicit(&x->n, n + 1, memory_order_release);
}

/* Whether a note came in [t0_ns, t1_ns]: 1 yes, 0 no, -1 not known (the ring no longer holds that time: older
 * notes were written over). Any thread. */
static inline int xrun_notes_in(const struct xrun_notes *x, int64_t t0_ns, int64_t t1_ns)
{
    unsigned n = atomic_load_explicit(&((struct xrun_notes *)x)->n, memory_order_acquire);
    unsigned kept = n < XRUN_NOTES_MAX ? n : XRUN_NOTES_MAX - 1; /* the oldest slot may be being written */
    int64_t oldest = INT64_MAX;
    for (unsigned i = 1; i <= kept; i++) {
        int64_t t = atomic_load_explicit(&((struct xrun_notes *)x)->at_ns[(n - i) % XRUN_NOTES_MAX],
                                         memory_order_relaxed);
        if (t >= t0_ns && t <= t1_ns)
            return 1;
        if (t < oldest)
            oldest = t;
    }
    return n > kept && oldest > t0_ns ? -1 : 0;
}

#endif
