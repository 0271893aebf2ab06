/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter run --soak`: the soak's own figures (stats/soakhist.h: linear 1 µs wake-up bins with an overflow
 * count, maxima per window, per-thread min/avg/max) set up for the collector, and --stop-at-us (cyclictest's -b,
 * rtla's --on-threshold): the collector marks the first wake-up beyond it, the main thread's wait sees the mark,
 * says which cycle it was, and ends the soak there (exit 1: run.c). Main thread. */
#include "run/run_state.h"
#include "run/run.h"
#include "culprit/culprit_engine.h"
#include "report/report_soak.h"

/* ns since the epoch as ISO 8601 UTC with ms: "2026-12-02T21:03:04.123Z". */
static void iso_time_ns(char *buf, size_t len, int64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
    struct tm tm;
    char secs[32];
    gmtime_r(&ts.tv_sec, &tm);
    strftime(secs, sizeof(secs), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, len, "%s.%03dZ", secs, (int)(ts.tv_nsec / 1000000));
}

int run_soak_init(struct run_state *st)
{
    if (soak_init(&st->soak, st->p->duration_s, soak_window_from_env(), st->p->stop_at_us) < 0)
        return -ENOMEM;
    st->soak_on = 1;
    st->col.soak = &st->soak;
    atomic_init(&st->col.soak_tripped, 0);
    return 0;
}

void run_soak_free(struct run_state *st)
{
    if (!st->soak_on)
        return;
    for (int i = 0; st->results && i < st->nphases; i++) {
        json_decref(st->results[i].soak);
        st->results[i].soak = NULL;
    }
    soak_free(&st->soak);
    st->soak_on = 0;
}

/* CLOCK_REALTIME minus the measurement clock, now. */
static int64_t wall_offset(const struct run_state *st)
{
    struct timespec rt, mc;
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(st->sink.clock, &mc);
    return (rt.tv_sec - mc.tv_sec) * 1000000000LL + (rt.tv_nsec - mc.tv_nsec);
}

/* The culprit snapshot of a --stop-at-us trip (cyclictest's -b, rtla's --on-threshold): on the main thread, within
 * ~100 ms of the cycle (the collector drains every 50 ms, the wait polls every 50 ms), while the sampler's ~30 s of
 * counters (and, with privileges, the trace) still hold the moment, the cycle is noted to the culprit engine as a
 * spike from when it was due to its entry; the run stops, the engine explains it with what it has, and the report
 * places its culprits in soak.stop (run_soak_report). */
static void run_soak_save_culprit_snapshot(struct run_state *st, const struct soak_stats *s)
{
    if (st->culprits)
        culprit_engine_note(st->culprits, CS_SPIKE, 0, s->trip_entry_ns - s->trip_wake_ns, s->trip_entry_ns, -1, 0);
}

int run_soak_tripped(struct run_state *st)
{
    if (!st->soak_on || !atomic_load_explicit(&st->col.soak_tripped, memory_order_acquire))
        return 0;
    if (!st->soak_trip_seen) {
        st->soak_trip_seen = 1;
        const struct soak_stats *s = &st->soak; /* trip_* are written before the flag, never after */
        run_soak_save_culprit_snapshot(st, s);
        char wall[40];
        iso_time_ns(wall, sizeof(wall), s->trip_entry_ns + wall_offset(st));
        run_err("--stop-at-us %g: a wake-up of %.1f %s at %.3f s into the soak (%s, cycle "
                "%llu, thread %u): stopped there\n", st->p->stop_at_us, (double)s->trip_wake_ns / 1000.0, st->us,
                (double)s->trip_at_ns / 1e9, wall, (unsigned long long)s->trip_cycle, s->trip_stream);
    }
    return 1;
}

void run_soak_report(struct run_state *st, int64_t wall_offset_ns)
{
    if (!st->soak_on || st->nphases < 1 || !st->results[0].measured)
        return;
    json_t *o = soak_json(&st->soak, st->p->stop_at_us);
    if (o && st->soak.tripped) {
        char wall[40];
        iso_time_ns(wall, sizeof(wall), st->soak.trip_entry_ns + wall_offset_ns);
        json_object_set_new(json_object_get(o, "stop"), "wall", json_string(wall));
        iso_time_ns(wall, sizeof(wall), st->soak.trip_entry_ns - st->soak.trip_wake_ns + wall_offset_ns);
        json_object_set_new(json_object_get(o, "stop"), "due_wall", json_string(wall)); /* when it was due */
        const struct culprit_results *res = run_culprits_results(st);
        struct culprit c[CULPRITS_MAX];
        int n = res && res->lookup ? res->lookup(res->ctx, CS_SPIKE, 0, st->soak.trip_entry_ns - st->soak.trip_wake_ns,
                                                 c, CULPRITS_MAX) : -1;
        if (n >= 0) /* the snapshot: its ranked culprits ([] when the sampler had nothing for the moment) */
            json_object_set_new(json_object_get(o, "stop"), "culprits", culprit_list_json(c, n));
    }
    st->results[0].soak = o;
}
