/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run/run_stopped.h"
#include "run/signals.h"
#include <stdio.h>
#include <time.h>

/* The handler reads the clock a moment after the threads are continued (the RT thread, of a higher priority,
 * may run a few cycles first): the gap around a continuation ends at most this long before its time. */
#define CONT_AFTER_GAP_NS 100000000LL

static json_t *wall_ms(int64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
    struct tm tm;
    char secs[32], buf[48];
    gmtime_r(&ts.tv_sec, &tm);
    strftime(secs, sizeof(secs), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, sizeof(buf), "%s.%03dZ", secs, (int)(ts.tv_nsec / 1000000));
    return json_string(buf);
}

/* The kept gap around continuation time t: it began before t and ended at most CONT_AFTER_GAP_NS before it (or
 * after it); the one that ended nearest t. NULL when none. */
static const struct collector_gap *gap_around(const struct collector *c, int64_t t)
{
    const struct collector_gap *best = NULL;
    for (int i = 0; i < c->ngaps; i++) {
        const struct collector_gap *g = &c->gaps[i];
        if (g->before_ns >= t || g->after_ns < t - CONT_AFTER_GAP_NS)
            continue;
        int64_t d = g->after_ns > t ? g->after_ns - t : t - g->after_ns;
        int64_t bd = !best ? 0 : best->after_ns > t ? best->after_ns - t : t - best->after_ns;
        if (!best || d < bd)
            best = g;
    }
    return best;
}

json_t *run_stopped_json(const struct collector *c, const struct load_plan *plan, int64_t wall_off_ns)
{
    int64_t t[RUN_CONT_MAX];
    unsigned n = run_signals_conts(t, RUN_CONT_MAX);
    json_t *stops = json_array();
    double longest = -1, total = 0;
    for (unsigned k = 0; k < n && k < RUN_CONT_MAX; k++) {
        const struct collector_gap *g = gap_around(c, t[k]);
        json_t *o = json_object();
        json_object_set_new(o, "continued", wall_ms(t[k] + wall_off_ns));
        json_object_set_new(o, "t_s", json_real((double)t[k] / 1e9));
        json_object_set_new(o, "gap_s", g ? json_real((double)(g->after_ns - g->before_ns) / 1e9) : json_null());
        if (g) {
            double s = (double)(g->after_ns - g->before_ns) / 1e9;
            total += s;
            if (s > longest)
                longest = s;
            json_object_set_new(o, "load", json_string(load_plan_name(plan, g->phase)));
            json_object_set_new(o, "measuring", json_boolean(g->measuring));
            json_object_set_new(o, "skipped_cycles", json_integer((json_int_t)g->skipped));
            json_object_set_new(o, "xrun_events", json_integer((json_int_t)g->events));
            json_object_set_new(o, "deadlines_missed", json_integer((json_int_t)g->missed));
        }
        json_array_append_new(stops, o);
    }
    return json_pack("{s:I, s:o, s:f, s:o, s:s}", "stopped", (json_int_t)n,
                     "longest_stop_s", longest >= 0 ? json_real(longest) : json_null(), "stopped_s", total,
                     "stops", stops, "method", "SIGCONT observed by rtjitter's main thread; each stop's length is "
                     "the gap between the audio cycles either side of it (at least 0.1 s to be measured)");
}
