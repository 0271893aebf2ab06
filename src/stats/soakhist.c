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
