/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits' places in a report (report_culprits.h). The engine's culprits reach the document through
 * culprit_list_json() only (culprit_json.c: one writer of a culprit); the top culprits are counted from the
 * document's own lists, so that they can never say what the events do not. */
#include "report/report_culprits.h"
#include "report/access.h"
#include "util/utf8.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void report_wall(char *buf, size_t len, int64_t ns, int64_t wall_off_ns)
{
    int64_t w = ns + wall_off_ns;
    struct timespec ts = { .tv_sec = (time_t)(w / 1000000000LL), .tv_nsec = (long)(w % 1000000000LL) };
    struct tm tm;
    char secs[24];
    buf[0] = '\0';
    if (gmtime_r(&ts.tv_sec, &tm) && strftime(secs, sizeof(secs), "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(buf, len, "%s.%03dZ", secs, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* A task's comm, a device's name, a client's name are bytes from outside, and an evidence line cut by the engine's
 * snprintf may end inside a character: culprit_json() (json_pack) would return NULL for either, and the culprit
 * would vanish from the list. Each field becomes valid UTF-8 in place (U+FFFD for a bad byte), kept within its
 * buffer. */
static void culprit_utf8(char *field, size_t cap)
{
    if (utf8_valid(field))
        return;
    char *t = utf8_sanitize(field);
    if (t)
        utf8_fit(field, cap, t);
    else
        utf8_trim(field);
    free(t);
}

void report_place_culprits(json_t *o, const struct culprit_results *c, enum culprit_subject subj, int phase,
                           int64_t start_ns)
{
    if (!c)
        return;
    struct culprit found[CULPRITS_MAX];
    int n = c->lookup ? c->lookup(c->ctx, subj, phase, start_ns, found, CULPRITS_MAX) : -1;
    if (n > CULPRITS_MAX)
        n = CULPRITS_MAX;
    for (int i = 0; i < n; i++) {
        culprit_utf8(found[i].name, sizeof(found[i].name));
        culprit_utf8(found[i].evidence, sizeof(found[i].evidence));
    }
    /* 0: the engine had no data for it; -1: it was never noted (a happening beyond what the engine keeps) */
    json_object_set_new(o, "explained", json_boolean(n > 0));
    json_object_set_new(o, "culprits", n > 0 ? culprit_list_json(found, n) : json_array());
}

static int spike_cmp_t(const void *a, const void *b)
{
    const struct wake_spike *x = *(const struct wake_spike *const *)a, *y = *(const struct wake_spike *const *)b;
    return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

json_t *report_spikes_json(const struct segment *s, int64_t wall_off_ns, const struct culprit_results *c,
                           int phase)
{
    json_t *a = json_array();
    /* listed in time order: the segment keeps its worst in no order (phase.h) */
    const struct wake_spike *by_t[SEGMENT_SPIKES_MAX];
    size_t n = s ? s->nspikes : 0;
    n = n > SEGMENT_SPIKES_MAX ? SEGMENT_SPIKES_MAX : n;
    for (size_t i = 0; i < n; i++)
        by_t[i] = &s->spikes[i];
    qsort(by_t, n, sizeof(by_t[0]), spike_cmp_t);
    for (size_t i = 0; i < n; i++) {
        const struct wake_spike *k = by_t[i];
        char wall[40];
        report_wall(wall, sizeof(wall), k->t_ns, wall_off_ns);
        json_t *o = json_pack("{s:f, s:s, s:f, s:f, s:o}", "t_s", (double)k->t_ns / 1e9, "wall", wall,
                              "wakeup_us", (double)k->wakeup_ns / 1e3, "callback_us", (double)k->callback_ns / 1e3,
                              "cpu", k->cpu >= 0 ? json_integer(k->cpu) : json_null());
        report_place_culprits(o, c, CS_SPIKE, phase, k->t_ns);
        json_array_append_new(a, o);
    }
    return a;
}

/* One (kind, name) of a phase's culprits, counted. */
struct tally {
    const char *kind, *name, *evidence;
    double evidence_size;             /* the length of the happening its evidence is from (the longest) */
    unsigned bases;                   /* 1 << each enum culprit_basis it was given */
    long long events, spikes, first;  /* happenings it was among the culprits of; those it ranked first in */
    size_t order;                     /* when it was first seen: the last tie-break, so the order is stable */
};

static int by_rank(const void *pa, const void *pb)
{
    const struct tally *a = pa, *b = pb;
    if (a->events != b->events)
        return a->events > b->events ? -1 : 1;
    if (a->spikes != b->spikes)
        return a->spikes > b->spikes ? -1 : 1;
    if (a->first != b->first)
        return a->first > b->first ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Counts the culprits of each happening of list (events or spikes) into t[0..*n), growing it. -1: no memory. */
static int count_list(const json_t *list, int is_event, struct tally **t, size_t *n, size_t *cap)
{
    size_t i, j;
    const json_t *h, *c;
    json_array_foreach(list, i, h) {
        json_array_foreach(json_object_get(h, "culprits"), j, c) {
            const char *kind = json_string_value(json_object_get(c, "kind"));
            const char *name = json_string_value(json_object_get(c, "name"));
            if (!kind || !name)
                continue;
            size_t k = 0;
            while (k < *n && (strcmp((*t)[k].kind, kind) || strcmp((*t)[k].name, name)))
                k++;
            /* a (kind, name) twice in one list counts once for it */
            int again = 0;
            for (size_t q = 0; q < j; q++) {
                const json_t *pc = json_array_get(json_object_get(h, "culprits"), q);
                again |= !strcmp(kind, json_string_value(json_object_get(pc, "kind")) ?: "") &&
                         !strcmp(name, json_string_value(json_object_get(pc, "name")) ?: "");
            }
            if (again)
                continue;
            if (k == *n) {
                if (*n == *cap) {
                    size_t nc = *cap ? *cap * 2 : 16;
                    struct tally *g = realloc(*t, nc * sizeof(*g));
                    if (!g)
                        return -1;
                    *t = g;
                    *cap = nc;
                }
                (*t)[k] = (struct tally){ .kind = kind, .name = name, .order = k,
                                          .evidence = json_string_value(json_object_get(c, "evidence")) };
                (*n)++;
            }
            struct tally *e = &(*t)[k];
            /* its evidence is from its longest event (else longest spike): a 40 us wait says less of an xrun than
             * the 9 ms one beside it */
            double size = is_event ? doc_num(h, "length_ms") * 1000.0 : doc_num(h, "wakeup_us");
            const char *ev = json_string_value(json_object_get(c, "evidence"));
            if (ev && (is_event || !e->events) && size > e->evidence_size) {
                e->evidence = ev;
                e->evidence_size = size;
            }
            e->bases |= 1u << culprit_basis_parse(json_string_value(json_object_get(c, "basis")));
            if (is_event)
                e->events++;
            else
                e->spikes++;
            e->first += j == 0;
        }
    }
    return 0;
}

/* The basis of a (kind, name) over its happenings: observed when any saw it, else correlated when counters rose
 * around any, else none (it was only ever "not known" with nothing seen). */
static enum culprit_basis top_basis(unsigned bases)
{
    return bases & (1u << CB_OBSERVED) ? CB_OBSERVED : bases & (1u << CB_CORRELATED) ? CB_CORRELATED
           : bases & (1u << CB_NONE)   ? CB_NONE : CB_CORRELATED;
}

json_t *report_top_culprits(const json_t *events, const json_t *spikes)
{
    struct tally *t = NULL;
    size_t n = 0, cap = 0;
    json_t *a = json_array();
    /* events first: a culprit's evidence is its longest event's line when it had one, else its longest spike's */
    if (count_list(events, 1, &t, &n, &cap) < 0 || count_list(spikes, 0, &t, &n, &cap) < 0) {
        free(t);
        return a;
    }
    if (n)
        qsort(t, n, sizeof(*t), by_rank);
    for (size_t i = 0; i < n && i < TOP_CULPRITS_MAX; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:I, s:I, s:s?}", "kind", t[i].kind, "name", t[i].name,
                                           "basis", culprit_basis_name(top_basis(t[i].bases)),
                                           "events", (json_int_t)t[i].events, "spikes", (json_int_t)t[i].spikes,
                                           "evidence", t[i].evidence));
    free(t);
    return a;
}
