/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter run --soak`: the soak's own figures (stats/soakhist.h: linear 1 µs wake-up bins with an overflow
 * count, maxima per window, per-thread min/avg/max) set up for the collector, and --stop-at-us (cyclictest's -b,
 * rtla's --on-threshold): the collector marks the first wake-up beyond it, the main thread's wait sees the mark,
 * says which cycle it was, and ends the soak there (exit 1: run.c). Main thread. */
#include "run/run_state.h"
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

/* HOOK (issue 25 -> issue 24, the Culprits): the culprit snapshot of a --stop-at-us trip is saved here, on the main
 * thread, within ~100 ms of the cycle (the collector drains every 50 ms, the wait polls every 50 ms), while the
 * sampler's ~30 s of counters still hold the moment. s->trip_entry_ns is the cycle's entry on the measurement
 * clock, s->trip_wake_ns its wake-up, s->trip_stream its RT thread. Nothing is saved yet. */
static void run_soak_save_culprit_snapshot(struct run_state *st, const struct soak_stats *s)
{
    (void)st;
    (void)s;
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
        fprintf(stderr, "rtjitter run: --stop-at-us %g: a wake-up of %.1f %s at %.3f s into the soak (%s, cycle "
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
    }
    st->results[0].soak = o;
}
