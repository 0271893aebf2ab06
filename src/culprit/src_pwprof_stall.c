/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's profiler source: each follower's rows of the profiled cycles turned into stalls, and each stall closed
 * into one observation (src_pwprof_internal.h). A follower's stall spans several profiles (a 20 ms stall at 5.3 ms
 * periods: the cycles it left unfinished, then the one where it finished): per node, one open stall from the first
 * bad profile to the first good one (or a second at most), then one observation. Our own node's cycles go to a ring
 * instead. libpipewire's loop thread only (the queue and the ring under p->mu). */
#include "culprit/src_pwprof_internal.h"
#include <stdio.h>
#include <string.h>


/* Locked by the caller. Bounded: when full, the newest is dropped and counted (poll drains every 50-100 ms). */
static void enqueue(struct pwprof *p, const struct culprit_obs *o)
{
    if (p->qlen == QUEUE_MAX) {
        p->dropped++;
        return;
    }
    p->queue[(p->qhead + p->qlen++) % QUEUE_MAX] = *o;
    p->observations++;
}

/* Locked by the caller. The ring stays in signal order; a cycle profiled twice is stored once. */
static void own_push(struct pwprof *p, const struct pwprof_cycle *c)
{
    if (p->own_n > 0 && p->own_ring[(p->own_n - 1) % OWN_MAX].signal_ns >= c->signal_ns)
        return;
    p->own_ring[p->own_n++ % OWN_MAX] = *c;
    int64_t run = c->finish_ns - c->awake_ns;
    if (run > p->own_max_run_ns)
        p->own_max_run_ns = run;
    if (c->signal_ns > 0 && c->awake_ns - c->signal_ns > p->own_max_wake_ns)
        p->own_max_wake_ns = c->awake_ns - c->signal_ns;
    if (run > c->period_ns)
        p->own_over_period++;
}

void pwprof_stall_close(struct pwprof *p, struct stall *s)
{
    if (s->own) {
        /* our node's long cycle: its finish is the next wake when it spanned cycles (status ST_AWAKE says so) */
        struct pwprof_cycle c = { s->sig0, s->t0, s->t1 > s->t0 ? s->t1 : s->t0, s->period_ns,
                                  s->cycles <= 1 && s->finished ? ST_FINISHED : ST_AWAKE };
        pthread_mutex_lock(&p->mu);
        own_push(p, &c);
        pthread_mutex_unlock(&p->mu);
        s->open = 0;
        return;
    }
    if (s->worst_ns <= s->period_ns) {
        /* Unfinished when profiled, but not for a period: a late wake (beside stress-ng the stall client was seen
         * triggered 1.2 ms without waking), not a client that ran over its cycle. Counted, not named. */
        pthread_mutex_lock(&p->mu);
        p->short_unfinished++;
        pthread_mutex_unlock(&p->mu);
        s->open = 0;
        return;
    }
    struct culprit_obs o;
    memset(&o, 0, sizeof(o));
    o.t0_ns = s->t0;
    o.t1_ns = s->t1 > s->t0 ? s->t1 : s->t0;
    o.began_exactly = 1; /* the node's wake, from the profiler's own clock reading */
    o.kind = CK_CLIENT;
    snprintf(o.name, sizeof(o.name), "%s", s->name);
    o.cpu = -1;
    o.value_ns = s->worst_ns;
    if (s->finished && s->cycles <= 1)
        snprintf(o.evidence, sizeof(o.evidence), "another JACK client did not finish: %s (finish - awake %.1f ms "
                 "of a %.1f ms period, PipeWire's profiler)", s->name, s->worst_ns / 1e6, s->period_ns / 1e6);
    else
        snprintf(o.evidence, sizeof(o.evidence), "another JACK client did not finish: %s (busy %.1f ms from its "
                 "wake to its next%s, of a %.1f ms period: %d cycles unfinished; PipeWire's profiler)", s->name,
                 s->worst_ns / 1e6, s->finished ? "" : " (at least)", s->period_ns / 1e6, s->cycles);
    pthread_mutex_lock(&p->mu);
    enqueue(p, &o);
    pthread_mutex_unlock(&p->mu);
    s->open = 0;
}

struct stall *pwprof_stall_slot(struct pwprof *p, const struct block *b)
{
    struct stall *free_slot = NULL;
    for (int i = 0; i < NODES_MAX; i++) {
        struct stall *s = &p->nodes[i];
        if (s->id == b->id && s->name[0] && strcmp(s->name, b->name) == 0)
            return s;
        if (!free_slot && !s->open)
            free_slot = s;
    }
    if (free_slot) {
        memset(free_slot, 0, sizeof(*free_slot));
        free_slot->id = b->id;
        snprintf(free_slot->name, sizeof(free_slot->name), "%s", b->name);
    }
    return free_slot;
}

/* One follower of one profiled cycle. now: the driver's latest time in this profile (signal or finish).
 *
 * What PipeWire 0.3.65 shows of a follower stalled 20 ms at 5.3 ms periods (seen, each cycle profiled twice): the
 * stalled cycle awake (status 2) past the driver's next signal; then, each cycle, triggered (1) with an awake a
 * microsecond before its signal (never woken: it is still inside the stalled cycle) and its finish the one before
 * the stall; then the first cycle it woke for again, right after the stall's end (the trigger was waiting for it):
 * awake (2) or finished (3) with that wake, or finished with the awake still a microsecond before its signal (the
 * wake not recorded: then its finish bounds the stall's end). So a stall runs from its awake to that next wake: its
 * own finish is never profiled. A follower that ran long within one cycle shows finished, finish - awake over the
 * period. */
static int woke(const struct block *b)
{
    return b->awake > 0 && b->awake >= b->signal;
}

/* The stall's end from the first row of a cycle after it: that cycle's wake, else its finish. */
static void end_stall(struct pwprof *p, struct stall *s, const struct block *b, int64_t now)
{
    int64_t end = woke(b) && b->awake > s->t0 ? b->awake : b->finish > s->t0 ? b->finish : now;
    s->t1 = end < now ? end : now;
    s->worst_ns = s->t1 - s->t0;
    s->finished = 1;
    pwprof_stall_close(p, s);
}

void pwprof_stall_follower(struct pwprof *p, struct stall *s, const struct block *b, int64_t period_ns, int64_t now,
                           int64_t recv)
{
    if (!s)
        return;
    s->last_seen = recv;
    if (s->open && b->signal != s->sig0 && b->status == ST_AWAKE && woke(b) && b->awake > s->t0)
        end_stall(p, s, b, now); /* woke for a later cycle: the stalled one had returned */
    int busy = (b->status == ST_TRIGGERED || b->status == ST_AWAKE) && b->signal > 0 && now > b->signal &&
               now > b->awake;
    if (busy) {
        if (!s->open) {
            s->open = 1;
            s->finished = 0;
            s->cycles = 0;
            s->t0 = b->status == ST_AWAKE ? b->awake : b->signal;
            s->sig0 = b->signal;
        }
        if (b->signal != s->last_signal)
            s->cycles++;
        s->last_signal = b->signal;
        s->period_ns = period_ns;
        s->t1 = now;
        s->worst_ns = now - s->t0;
        if (s->t1 - s->t0 >= STALL_SPAN_MAX_NS)
            pwprof_stall_close(p, s);
        return;
    }
    if (b->status != ST_FINISHED)
        return;
    if (s->open) {
        if (b->signal != s->sig0 && b->finish > s->t0) /* a row of a cycle after the stall (not one before it) */
            end_stall(p, s, b, now);
    } else if (woke(b) && b->finish - b->awake > period_ns) {
        s->t0 = b->awake;
        s->sig0 = b->signal;
        s->t1 = b->finish;
        s->worst_ns = b->finish - b->awake;
        s->period_ns = period_ns;
        s->cycles = 1;
        s->finished = 1;
        pwprof_stall_close(p, s);
    }
}

void pwprof_stall_own_cycle(struct pwprof *p, const struct block *b, int64_t period_ns)
{
    if (b->status != ST_FINISHED || b->awake <= 0 || b->finish < b->awake || b->awake < b->signal)
        return; /* a finish older than the awake: that cycle has not finished (the stall tracker has it) */
    struct pwprof_cycle c = { b->signal, b->awake, b->finish, period_ns, b->status };
    pthread_mutex_lock(&p->mu);
    own_push(p, &c);
    p->own_id = b->id;
    pthread_mutex_unlock(&p->mu);
}
