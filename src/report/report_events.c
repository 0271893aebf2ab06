/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A segment's xrun events in the report (report_events.h). */
#include "report/report_events.h"
#include "report/report_culprits.h"
#include "util/utf8.h"
#include <stdlib.h>

static double ms(int64_t ns)
{
    return (double)ns / 1e6;
}

json_t *report_events_json(const struct segment *s, int64_t wall_off_ns, const struct culprit_results *cul,
                           int phase)
{
    json_t *a = json_array();
    struct xrun_event *ev = NULL;
    long n = s ? event_keep_list(&s->events, &ev) : 0;
    for (long i = 0; i < n; i++) {
        const struct xrun_event *e = &ev[i];
        char wall[40];
        report_wall(wall, sizeof(wall), e->start_ns, wall_off_ns);
        uint64_t cycles = e->frame1 >= e->frame0 && s->nframes ? (e->frame1 - e->frame0) / s->nframes + 1
                                                               : (uint64_t)e->skipped + 1;
        json_t *o = json_pack("{s:I, s:f, s:s, s:f, s:I, s:I, s:I}", "n", (json_int_t)(e->seq + 1),
                              "t_s", (double)e->start_ns / 1e9,
                              "wall", wall, "length_ms", ms(event_length_ns(e)), "cycles", (json_int_t)cycles,
                              "skipped", (json_int_t)e->skipped, "notifications", (json_int_t)e->notifications);
        /* what the engine was told of it, beside what it found: only when culprits were sought (a soak's 8640
         * events would otherwise grow its report by 300 KB a phase for figures nobody reads) */
        if (cul) {
            json_object_set_new(o, "cpu", e->cpu >= 0 ? json_integer(e->cpu) : json_null());
            json_object_set_new(o, "callback_max_us", json_real((double)e->callback_max_ns / 1e3));
        }
        report_place_culprits(o, cul, CS_EVENT, phase, e->start_ns);
        json_array_append_new(a, o);
    }
    free(ev);
    return a;
}

uint64_t report_events_unlisted(const struct segment *s)
{
    return s ? s->events.summarised + s->events.lost : 0;
}

static void sum_into(json_t *o, const struct event_sum *x)
{
    json_object_set_new(o, "events", json_integer((json_int_t)x->events));
    json_object_set_new(o, "length_ms_sum", json_real(ms(x->length_ns_sum)));
    json_object_set_new(o, "length_ms_max", json_real(ms(x->length_ns_max)));
    json_object_set_new(o, "skipped", json_integer((json_int_t)x->skipped));
    json_object_set_new(o, "notifications", json_integer((json_int_t)x->notifications));
}

json_t *report_events_summary_json(const struct segment *s, int64_t wall_off_ns)
{
    const struct event_keep *k = &s->events;
    json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:i, s:i, s:f}", "total", (json_int_t)k->total, "listed",
                          (json_int_t)(k->nlatest + k->nworst), "summarised", (json_int_t)k->summarised, "lost",
                          (json_int_t)k->lost, "kept_latest", (int)event_keep_latest_max(k), "kept_worst",
                          (int)event_keep_worst_max(k),
                          "bucket_s", (double)k->bucket_ns / 1e9);
    if (!o)
        return json_null();
    json_t *mins = json_array();
    for (size_t i = 0; i < k->nbuckets; i++) {
        if (!k->buckets[i].events)
            continue;
        int64_t t = k->origin_ns + (int64_t)i * k->bucket_ns;
        char wall[40];
        report_wall(wall, sizeof(wall), t, wall_off_ns);
        json_t *b = json_pack("{s:f, s:s, s:f}", "t_s", (double)t / 1e9, "wall", wall, "span_s",
                              (double)k->bucket_ns / 1e9);
        sum_into(b, &k->buckets[i]);
        json_array_append_new(mins, b);
    }
    json_object_set_new(o, "per_minute", mins);
    json_t *cul = json_null();
    if (k->named) {
        cul = json_array();
        for (size_t i = 0; i < k->nculprits; i++) {
            const struct event_sum_culprit *c = &k->culprits[i];
            json_t *b = json_object();
            json_object_set_new(b, "kind", c->kind[0] ? utf8_json_string(c->kind) : json_null());
            json_object_set_new(b, "name", c->kind[0] ? utf8_json_string(c->name) : json_null());
            sum_into(b, &c->sum);
            json_array_append_new(cul, b);
        }
    }
    json_object_set_new(o, "per_culprit", cul);
    if (k->culprits_other.events) { /* culprits past the table's EVENT_SUM_CULPRITS_MAX */
        json_t *b = json_object();
        sum_into(b, &k->culprits_other);
        json_object_set_new(o, "per_culprit_others", b);
    }
    return o;
}
