/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's linear wake-up histogram, maxima per window and per-thread figures: see soakhist.h. */
#include "stats/soakhist.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double soak_window_from_env(void)
{
    const char *e = getenv("RTJ_SOAK_WINDOW_S");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (!*end && v >= 1 && v <= 86400)
            return (double)v;
    }
    return SOAK_WINDOW_S;
}

int soak_init(struct soak_stats *s, double duration_s, double window_s, double stop_us)
{
    memset(s, 0, sizeof(*s));
    if (!(window_s >= 1))
        window_s = SOAK_WINDOW_S;
    if (!(duration_s > 0))
        duration_s = window_s;
    double n = ceil(duration_s / window_s - 1e-9);
    if (n > SOAK_WINDOWS_MAX) {
        window_s = ceil(duration_s / SOAK_WINDOWS_MAX);
        n = ceil(duration_s / window_s - 1e-9);
    }
    s->nwin = n < 1 ? 1 : (size_t)n;
    s->window_ns = (int64_t)llround(window_s * 1e9);
    s->bins = calloc(SOAK_RANGE_US, sizeof(*s->bins));
    s->win = calloc(s->nwin, sizeof(*s->win));
    s->streams = calloc(SOAK_STREAMS, sizeof(*s->streams));
    if (!s->bins || !s->win || !s->streams) {
        soak_free(s);
        return -ENOMEM;
    }
    for (size_t i = 0; i < s->nwin; i++)
        s->win[i].max_ns = -1;
    for (size_t i = 0; i < SOAK_STREAMS; i++) {
        s->streams[i].max_ns = -1;
        s->streams[i].cpu = -1;
    }
    s->max_ns = -1;
    s->stop_ns = stop_us >= 0 ? (int64_t)llround(stop_us * 1000.0) : -1;
    return 0;
}

void soak_free(struct soak_stats *s)
{
    free(s->bins);
    free(s->win);
    free(s->streams);
    s->bins = NULL;
    s->win = NULL;
    s->streams = NULL;
}

int soak_add(struct soak_stats *s, int64_t wake_ns, int64_t entry_ns, unsigned stream, int cpu)
{
    if (!s->bins)
        return 0;
    if (wake_ns < 0)
        wake_ns = 0; /* the phase reports none earlier than its resolution: a few ns early is the first bin */
    if (!s->have_t0) {
        s->have_t0 = 1;
        s->t0_ns = entry_ns;
    }
    int64_t at = entry_ns - s->t0_ns;
    if (at < 0)
        at = 0;
    s->count++;
    int64_t bin = wake_ns / 1000;
    int over = bin >= SOAK_RANGE_US;
    if (over)
        s->overflow++;
    else
        s->bins[bin]++;
    if (wake_ns > s->max_ns) {
        s->max_ns = wake_ns;
        s->max_at_ns = at;
    }
    /* Cycles past the planned end (the main thread's wait ends a few ms late) belong to the last window. */
    size_t w = (size_t)(at / s->window_ns);
    if (w >= s->nwin)
        w = s->nwin - 1;
    struct soak_window *sw = &s->win[w];
    sw->cycles++;
    sw->overflow += (uint64_t)over;
    if (wake_ns > sw->max_ns) {
        sw->max_ns = wake_ns;
        sw->at_ns = at;
    }
    if (w + 1 > s->nwin_used)
        s->nwin_used = w + 1;
    struct soak_stream *st = &s->streams[stream < SOAK_STREAMS ? stream : SOAK_STREAMS - 1];
    if (!st->cycles || wake_ns < st->min_ns)
        st->min_ns = wake_ns;
    if (wake_ns > st->max_ns)
        st->max_ns = wake_ns;
    st->sum_ns += (double)wake_ns;
    st->cycles++;
    st->cpu = cpu;
    if (s->stop_ns >= 0 && !s->tripped && wake_ns > s->stop_ns) {
        s->tripped = 1;
        s->trip_wake_ns = wake_ns;
        s->trip_entry_ns = entry_ns;
        s->trip_at_ns = at;
        s->trip_cycle = s->count;
        s->trip_stream = stream;
        return 1;
    }
    return 0;
}

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

json_t *soak_json(const struct soak_stats *s, double stop_us)
{
    if (!s || !s->bins)
        return NULL;
    json_t *bins = json_array(), *wins = json_array(), *thr = json_array();
    for (int b = 0; b < SOAK_RANGE_US; b++)
        if (s->bins[b])
            json_array_append_new(bins, json_pack("[i,I]", b, (json_int_t)s->bins[b]));
    for (size_t i = 0; i < s->nwin_used; i++) {
        const struct soak_window *w = &s->win[i];
        json_array_append_new(wins, json_pack("{s:o, s:o, s:I, s:I}",
            "max_us", w->max_ns >= 0 ? json_real(us(w->max_ns)) : json_null(),
            "at_s", w->max_ns >= 0 ? json_real(round((double)w->at_ns / 1e6) / 1e3) : json_null(),
            "cycles", (json_int_t)w->cycles, "overflow", (json_int_t)w->overflow));
    }
    for (unsigned t = 0; t < SOAK_STREAMS; t++) {
        const struct soak_stream *st = &s->streams[t];
        if (!st->cycles)
            continue;
        json_array_append_new(thr, json_pack("{s:i, s:o, s:I, s:f, s:f, s:f}", "thread", (int)t,
            "cpu", st->cpu >= 0 ? json_integer(st->cpu) : json_null(), "cycles", (json_int_t)st->cycles,
            "min_us", us(st->min_ns), "avg_us", st->sum_ns / (double)st->cycles / 1000.0, "max_us", us(st->max_ns)));
    }
    json_t *o = json_pack("{s:i, s:i, s:I, s:I, s:o, s:o, s:o, s:f, s:I, s:o, s:o}",
        "bin_us", 1, "range_us", SOAK_RANGE_US, "count", (json_int_t)s->count, "overflow", (json_int_t)s->overflow,
        "max_us", s->max_ns >= 0 ? json_real(us(s->max_ns)) : json_null(),
        "max_at_s", s->max_ns >= 0 ? json_real(round((double)s->max_at_ns / 1e6) / 1e3) : json_null(),
        "bins", bins, "window_s", (double)s->window_ns / 1e9, "windows_planned", (json_int_t)s->nwin,
        "windows", wins, "threads", thr);
    /* the first cycle's entry on the measurement clock: at_s + t0_clock_s is a time on that clock */
    json_object_set_new(o, "t0_clock_s", s->have_t0 ? json_real((double)s->t0_ns / 1e9) : json_null());
    if (stop_us >= 0) {
        json_t *stop = json_pack("{s:f, s:b}", "stop_at_us", stop_us, "tripped", s->tripped);
        if (s->tripped) {
            json_object_set_new(stop, "wakeup_us", json_real(us(s->trip_wake_ns)));
            json_object_set_new(stop, "at_s", json_real(round((double)s->trip_at_ns / 1e6) / 1e3));
            json_object_set_new(stop, "cycle", json_integer((json_int_t)s->trip_cycle));
            json_object_set_new(stop, "thread", json_integer((json_int_t)s->trip_stream));
            json_object_set_new(stop, "entry_clock_s", json_real((double)s->trip_entry_ns / 1e9));
        }
        json_object_set_new(o, "stop", stop);
    }
    return o;
}
