/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A phase's "soak" object: see report_soak.h. */
#include "report/report_soak.h"
#include <math.h>

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
