/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`'s live feed (watch.h). */
#include "run/watch.h"
#include <string.h>
#include <time.h>

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void watch_feed_init(struct watch_feed *f, FILE *out, enum watch_format format, int notify)
{
    memset(f, 0, sizeof(*f));
    pthread_mutex_init(&f->mu, NULL);
    watch_out_init(&f->out, out, format, notify);
    watch_tally_init(&f->tally, 0);
    f->summary_to = format == WATCH_WAYBAR ? stderr : out;
}

void watch_feed_note(struct watch_feed *f, enum phase_happening what, int64_t start_ns, int64_t end_ns,
                     unsigned frames, unsigned rate_hz)
{
    if (what == PH_SPIKE || what == PH_SPIKE_DROPPED)
        return;
    pthread_mutex_lock(&f->mu);
    if (f->tail - f->head == WATCH_QUEUE)
        f->dropped++;
    else
        f->q[f->tail++ % WATCH_QUEUE] = (struct watch_note){ what, start_ns, end_ns, frames, rate_hz };
    pthread_mutex_unlock(&f->mu);
}

void watch_feed_clock(struct watch_feed *f, clockid_t clock)
{
    struct timespec rt, mc;
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(clock, &mc);
    f->wall_off_ns = (rt.tv_sec - mc.tv_sec) * 1000000000LL + (rt.tv_nsec - mc.tv_nsec);
    if (f->tally.t0_s == 0) /* the session begins as its first life's cycles run; a server's next life goes on */
        f->tally.t0_s = mono_now();
}

static int64_t wall_ms(const struct watch_feed *f, int64_t t_ns)
{
    return (t_ns + f->wall_off_ns) / 1000000;
}

/* The number given to the event that began at start_ns (0: its beginning was not seen). */
static uint64_t number_of(struct watch_feed *f, int64_t start_ns)
{
    for (int i = 0; i < f->nrecent; i++)
        if (f->recent[i].start_ns == start_ns)
            return f->recent[i].n;
    return 0;
}

static void began(struct watch_feed *f, int64_t start_ns, unsigned frames, unsigned rate_hz)
{
    f->begun++;
    if (f->nrecent == WATCH_PENDING) { /* the oldest number goes: its event closed long ago */
        memmove(f->recent, f->recent + 1, sizeof(f->recent[0]) * (WATCH_PENDING - 1));
        f->nrecent--;
    }
    f->recent[f->nrecent++] = (struct watch_begun){ f->begun, start_ns };
    struct watch_event e = { .n = f->begun, .wall_ms = wall_ms(f, start_ns), .length_ms = -1 };
    watch_tally_begun_at(&f->tally, e.wall_ms, frames, rate_hz);
    watch_out_event(&f->out, &e);
}

/* The line of a closed event: its top culprit, "stall (client, observed)", and its key for the summary, "stall
 * (client)" ("" when the engine says not known); -1 when not known (yet). */
static int culprit_line(const struct culprit_results *res, int64_t start_ns, char *out, size_t len, char *brief,
                        size_t blen, char *key, size_t keylen)
{
    struct culprit c[1];
    if (!res || !res->lookup || res->lookup(res->ctx, CS_EVENT, 0, start_ns, c, 1) < 1)
        return -1;
    if (c[0].kind == CK_NONE) /* the engine's "not known", with why: no kind or basis to give */
        snprintf(brief, blen, "culprit not known");
    else
        snprintf(brief, blen, "culprit: %s (%s, %s)", c[0].name, culprit_kind_name(c[0].kind),
                 culprit_basis_name(c[0].basis));
    snprintf(out, len, "%s: %s", brief, c[0].evidence);
    if (c[0].kind == CK_NONE) /* "not known": summed as such, not as a culprit named "not known (none)" */
        key[0] = '\0';
    else
        snprintf(key, keylen, "%s (%s)", c[0].name, culprit_kind_name(c[0].kind));
    return 0;
}

static void ended(struct watch_feed *f, const struct watch_pending *p, const char *culprit, const char *brief,
                  const char *key)
{
    /* an end before its start (a grid that moved) is length 0, as in the report: never "began" again */
    int64_t len_ns = p->end_ns > p->start_ns ? p->end_ns - p->start_ns : 0;
    struct watch_event e = { .n = p->n, .wall_ms = wall_ms(f, p->start_ns), .length_ms = (double)len_ns / 1e6,
                             .culprit = culprit, .culprit_short = brief, .unsought = f->tally.unsought };
    watch_tally_ended(&f->tally, p->n, e.wall_ms, e.length_ms, key);
    watch_out_event(&f->out, &e);
    if (!culprit && !f->tally.unsought) { /* told without its culprit: still asked for it a while (issue 34 item 3) */
        if (f->nlate == WATCH_LATE) {
            memmove(f->late, f->late + 1, sizeof(f->late[0]) * (WATCH_LATE - 1));
            f->nlate--;
        }
        f->late[f->nlate++] = (struct watch_late){ p->n, p->start_ns, mono_now() };
    }
}

/* The events told ended without a culprit: one found since (the report will hold it) is said in a line of its own
 * and moves in the summary from "not known" to it; the engine's own "not known", or WATCH_LATE_WAIT_S without an
 * answer, ends the asking. At the end (final) each is asked once more, the engine having explained what it had. */
static void late_culprits(struct watch_feed *f, const struct culprit_results *res, double now, int final)
{
    for (int i = 0; i < f->nlate;) {
        char line[CULPRIT_NAME_MAX + CULPRIT_EVIDENCE_MAX + 80], brief[CULPRIT_NAME_MAX + 60], key[WATCH_TALLY_KEY];
        int known = culprit_line(res, f->late[i].start_ns, line, sizeof(line), brief, sizeof(brief), key,
                                 sizeof(key)) == 0;
        if (known && key[0]) {
            struct watch_event e = { .n = f->late[i].n, .wall_ms = wall_ms(f, f->late[i].start_ns), .length_ms = 0,
                                     .culprit = line, .culprit_short = brief, .late = 1 };
            watch_out_event(&f->out, &e);
            if (f->tally.not_known)
                f->tally.not_known--;
            watch_tally_culprit(&f->tally, key);
        }
        if (known || final || now - f->late[i].since_s > WATCH_LATE_WAIT_S) {
            memmove(f->late + i, f->late + i + 1, sizeof(f->late[0]) * (size_t)(f->nlate - i - 1));
            f->nlate--;
        } else {
            i++;
        }
    }
}

void watch_feed_poll(struct watch_feed *f, const struct culprit_results *res, int final)
{
    struct watch_note batch[WATCH_QUEUE];
    unsigned n = 0;
    f->tally.unsought = !res; /* no culprit engine (--no-culprits, or it could not start: the run said why) */
    pthread_mutex_lock(&f->mu);
    while (f->head != f->tail)
        batch[n++] = f->q[f->head++ % WATCH_QUEUE];
    pthread_mutex_unlock(&f->mu);
    for (unsigned i = 0; i < n; i++) {
        if (batch[i].what == PH_EVENT_BEGIN) {
            began(f, batch[i].start_ns, batch[i].frames, batch[i].rate_hz);
            continue;
        }
        if (batch[i].what == PH_BUFFER) { /* said after the events that began before it: the order of the cycles */
            if (batch[i].frames && (batch[i].frames != f->tally.frames || batch[i].rate_hz != f->tally.rate_hz))
                watch_feed_buffer(f, wall_ms(f, batch[i].start_ns), f->tally.frames, f->tally.rate_hz,
                                  batch[i].frames, batch[i].rate_hz);
            continue;
        }
        uint64_t num = number_of(f, batch[i].start_ns);
        if (!num) { /* its beginning was lost to a full queue: it is numbered now */
            began(f, batch[i].start_ns, batch[i].frames, batch[i].rate_hz);
            num = f->begun;
        }
        struct watch_pending p = { num, batch[i].start_ns, batch[i].end_ns, mono_now() };
        if (f->npending == WATCH_PENDING) { /* the oldest is said now, without its culprit */
            ended(f, &f->pending[0], NULL, NULL, NULL);
            memmove(f->pending, f->pending + 1, sizeof(f->pending[0]) * (WATCH_PENDING - 1));
            f->npending--;
        }
        f->pending[f->npending++] = p;
    }
    double now = mono_now();
    for (int i = 0; i < f->npending;) {
        char line[CULPRIT_NAME_MAX + CULPRIT_EVIDENCE_MAX + 80], brief[CULPRIT_NAME_MAX + 60], key[WATCH_TALLY_KEY];
        int known = culprit_line(res, f->pending[i].start_ns, line, sizeof(line), brief, sizeof(brief), key,
                                 sizeof(key)) == 0;
        if (known || !res || final || now - f->pending[i].since_s > WATCH_CULPRIT_WAIT_S) {
            ended(f, &f->pending[i], known ? line : NULL, known ? brief : NULL, known && key[0] ? key : NULL);
            memmove(f->pending + i, f->pending + i + 1, sizeof(f->pending[0]) * (size_t)(f->npending - i - 1));
            f->npending--;
        } else {
            i++;
        }
    }
    if (res)
        late_culprits(f, res, now, final);
    watch_out_reap(&f->out, final);
    if (!final) /* at the end the report page replaces it (run_output.c) */
        watch_page_update(f, now);
}

void watch_feed_buffer(struct watch_feed *f, int64_t at_wall_ms, unsigned frames0, unsigned rate0, unsigned frames1,
                       unsigned rate1)
{
    char text[160];
    if (rate0 == rate1)
        snprintf(text, sizeof(text), "buffer changed: %u -> %u frames @ %u Hz (%.2f ms)", frames0, frames1, rate1,
                 rate1 ? 1e3 * frames1 / rate1 : 0.0);
    else
        snprintf(text, sizeof(text), "buffer changed: %u @ %u -> %u frames @ %u Hz (%.2f ms)", frames0, rate0, frames1,
                 rate1, rate1 ? 1e3 * frames1 / rate1 : 0.0);
    watch_out_note(&f->out, at_wall_ms, text);
    f->tally.buffer_changes++;
    watch_tally_size(&f->tally, frames1, rate1);
    char size[96];
    snprintf(size, sizeof(size), "%u frames @ %u Hz (was %u @ %u)", frames1, rate1, frames0, rate0);
    watch_out_size(&f->out, size);
}

void watch_feed_size(struct watch_feed *f, unsigned frames, unsigned rate_hz)
{
    if (f->tally.frames && (f->tally.frames != frames || f->tally.rate_hz != rate_hz)) { /* a server's next life */
        struct timespec rt;
        clock_gettime(CLOCK_REALTIME, &rt);
        watch_feed_buffer(f, (int64_t)rt.tv_sec * 1000 + rt.tv_nsec / 1000000, f->tally.frames, f->tally.rate_hz,
                          frames, rate_hz);
    } else {
        watch_tally_size(&f->tally, frames, rate_hz);
    }
}

void watch_feed_summary(struct watch_feed *f)
{
    watch_tally_print(&f->tally, f->summary_to, mono_now());
}

void watch_feed_destroy(struct watch_feed *f)
{
    watch_out_reap(&f->out, 1);
    pthread_mutex_destroy(&f->mu);
}
