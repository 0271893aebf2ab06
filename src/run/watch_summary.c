/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`'s summary of the session (watch_summary.h). */
#include "run/watch_summary.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COLUMNS 80

void watch_tally_init(struct watch_tally *t, double t0_s)
{
    memset(t, 0, sizeof(*t));
    t->t0_s = t0_s;
    t->worst_minute = -1;
    for (int i = 0; i < WATCH_TALLY_MINUTES; i++)
        t->min[i].minute = -1;
}

static void minute_done(struct watch_tally *t, int64_t minute, uint64_t n)
{
    if (minute >= 0 && n > t->worst_minute_n) { /* the first of two as bad stays */
        t->worst_minute = minute;
        t->worst_minute_n = n;
    }
}

void watch_tally_size(struct watch_tally *t, unsigned frames, unsigned rate_hz)
{
    t->frames = frames;
    t->rate_hz = rate_hz;
    for (int i = 0; i < t->nsize; i++)
        if (t->size[i].frames == frames && t->size[i].rate_hz == rate_hz)
            return;
    if (t->nsize < WATCH_TALLY_SIZES)
        t->size[t->nsize++] = (typeof(t->size[0])){ frames, rate_hz, 0 };
    else /* one size too many: the last slot sums the sizes past it, said as such (frames 0) */
        t->size[WATCH_TALLY_SIZES - 1].frames = 0;
}

void watch_tally_begun(struct watch_tally *t, int64_t wall_ms)
{
    watch_tally_begun_at(t, wall_ms, 0, 0);
}

void watch_tally_begun_at(struct watch_tally *t, int64_t wall_ms, unsigned frames, unsigned rate_hz)
{
    if (!frames) {
        frames = t->frames;
        rate_hz = t->rate_hz;
    } else if (frames != t->frames || rate_hz != t->rate_hz) { /* a size not told yet: its slot, in force or not */
        unsigned f0 = t->frames, r0 = t->rate_hz;
        watch_tally_size(t, frames, rate_hz);
        t->frames = f0;
        t->rate_hz = r0;
    }
    t->begun++;
    for (int i = 0; i < t->nsize; i++)
        if ((t->size[i].frames == frames && t->size[i].rate_hz == rate_hz) || i == t->nsize - 1) {
            t->size[i].n++;
            break;
        }
    int64_t m = wall_ms / 60000;
    int slot = (int)(m % WATCH_TALLY_MINUTES);
    if (t->min[slot].minute != m) {
        if (t->min[slot].minute > m) { /* a minute older than the ring (out of order by minutes): alone */
            minute_done(t, m, 1);
            return;
        }
        minute_done(t, t->min[slot].minute, t->min[slot].n);
        t->min[slot].minute = m;
        t->min[slot].n = 0;
    }
    t->min[slot].n++;
}

void watch_tally_ended(struct watch_tally *t, uint64_t n, int64_t wall_ms, double length_ms, const char *culprit)
{
    t->ended++;
    if (length_ms > t->longest_ms || t->longest_n == 0) {
        t->longest_ms = length_ms;
        t->longest_wall_ms = wall_ms;
        t->longest_n = n;
    }
    if (!culprit) {
        t->not_known++;
        return;
    }
    watch_tally_culprit(t, culprit);
}

void watch_tally_culprit(struct watch_tally *t, const char *culprit)
{
    for (int i = 0; i < t->ncul; i++)
        if (strcmp(t->cul[i].key, culprit) == 0) {
            t->cul[i].n++;
            return;
        }
    if (t->ncul == WATCH_TALLY_CULPRITS) {
        t->others++;
        return;
    }
    snprintf(t->cul[t->ncul].key, sizeof(t->cul[0].key), "%s", culprit);
    t->cul[t->ncul++].n = 1;
}

/* One line, cut between characters to 80 columns at most (a byte is a column at most), control bytes shown. */
static void say(FILE *f, const char *line)
{
    char fit[COLUMNS + 1], shown[COLUMNS + 1];
    utf8_fit(fit, sizeof(fit), line);
    fprintf(f, "%s\n", term_str(shown, sizeof(shown), fit));
}

static void hms(char *b, size_t n, int64_t wall_ms, const char *fmt)
{
    time_t s = (time_t)(wall_ms / 1000);
    struct tm tm;
    if (!localtime_r(&s, &tm) || !strftime(b, n, fmt, &tm))
        snprintf(b, n, "?");
}

static void length_text(char *b, size_t n, double s)
{
    long t = s > 0 ? (long)s : 0;
    if (t >= 3600)
        snprintf(b, n, "%ld h %02ld min", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(b, n, "%ld min %02ld s", t / 60, t % 60);
    else
        snprintf(b, n, "%ld s", t);
}

void watch_tally_print(const struct watch_tally *t, FILE *f, double now_s)
{
    char line[512], len[32], when[32];
    double secs = t->t0_s > 0 && now_s > t->t0_s ? now_s - t->t0_s : 0;
    length_text(len, sizeof(len), secs);
    if (!t->begun) {
        snprintf(line, sizeof(line), "your session: %s, no xrun", len);
        say(f, line);
        fflush(f);
        return;
    }
    if (secs >= 1)
        snprintf(line, sizeof(line), "your session: %s, %llu xrun%s, %.0f an hour", len,
                 (unsigned long long)t->begun, t->begun == 1 ? "" : "s", (double)t->begun * 3600.0 / secs);
    else
        snprintf(line, sizeof(line), "your session: %s, %llu xrun%s", len, (unsigned long long)t->begun,
                 t->begun == 1 ? "" : "s");
    say(f, line);
    if (t->ended) {
        hms(when, sizeof(when), t->longest_wall_ms, "%H:%M:%S");
        char longest[24]; /* a session whose xruns were all late by microseconds: never "0.0 ms" (event_text) */
        if (t->longest_ms >= 0.05)
            snprintf(longest, sizeof(longest), "%.1f ms", t->longest_ms);
        else
            snprintf(longest, sizeof(longest), "under 0.1 ms");
        snprintf(line, sizeof(line), "  longest: %s, xrun %llu at %s", longest, (unsigned long long)t->longest_n,
                 when);
        say(f, line);
    }
    /* the worst minute: those decided, and those still in the ring */
    int64_t wm = t->worst_minute;
    uint64_t wn = t->worst_minute_n;
    for (int i = 0; i < WATCH_TALLY_MINUTES; i++)
        if (t->min[i].minute >= 0 && (t->min[i].n > wn || (t->min[i].n == wn && t->min[i].minute < wm))) {
            wm = t->min[i].minute;
            wn = t->min[i].n;
        }
    if (wm >= 0) {
        hms(when, sizeof(when), wm * 60000, "%H:%M");
        snprintf(line, sizeof(line), "  worst minute: %s, %llu xrun%s", when, (unsigned long long)wn,
                 wn == 1 ? "" : "s");
        say(f, line);
    }
    if (t->buffer_changes) {
        snprintf(line, sizeof(line), "  buffer: now %u frames @ %u Hz (%.2f ms), after %u change%s", t->frames,
                 t->rate_hz, t->rate_hz ? 1e3 * t->frames / t->rate_hz : 0.0, t->buffer_changes,
                 t->buffer_changes == 1 ? "" : "s");
        say(f, line);
        /* each size's own xruns: a session that failed at 128 frames and ran clean at 256 says so */
        int o = snprintf(line, sizeof(line), "  xruns by buffer:");
        for (int i = 0; i < t->nsize && o < (int)sizeof(line); i++) {
            const typeof(t->size[0]) *z = &t->size[i];
            if (!z->frames)
                o += snprintf(line + o, sizeof(line) - (size_t)o, ", %llu at other sizes", (unsigned long long)z->n);
            else if (z->rate_hz != t->size[0].rate_hz) /* the rate changed too: each size with its rate */
                o += snprintf(line + o, sizeof(line) - (size_t)o, "%s %llu at %u @ %u Hz", i ? "," : "",
                              (unsigned long long)z->n, z->frames, z->rate_hz);
            else
                o += snprintf(line + o, sizeof(line) - (size_t)o, "%s %llu at %u", i ? "," : "",
                              (unsigned long long)z->n, z->frames);
        }
        say(f, line);
    }
    if (!t->ended) {
        fflush(f);
        return;
    }
    if (t->unsought) {
        say(f, "  culprits: not sought (no culprit sampler)");
        fflush(f);
        return;
    }
    /* the top culprits of the events ended so far, by their share of them: the first 3, "not known" among them by
     * its share, and said whatever its rank (a culprit not known is never left out) */
    struct { const char *what; uint64_t n; } e[WATCH_TALLY_CULPRITS + 1];
    int ne = 0;
    for (int i = 0; i < t->ncul; i++)
        e[ne++] = (typeof(e[0])){ t->cul[i].key, t->cul[i].n };
    if (t->not_known)
        e[ne++] = (typeof(e[0])){ "not known", t->not_known };
    for (int i = 1; i < ne; i++) /* by share, the first seen first among equals */
        for (int j = i; j > 0 && e[j].n > e[j - 1].n; j--) {
            typeof(e[0]) x = e[j];
            e[j] = e[j - 1];
            e[j - 1] = x;
        }
    const char *lead = "  top culprits: ";
    for (int i = 0; i < ne; i++) {
        if (i >= 3 && strcmp(e[i].what, "not known") != 0)
            continue;
        snprintf(line, sizeof(line), "%s%.0f %% (%llu) %s", lead, 100.0 * (double)e[i].n / (double)t->ended,
                 (unsigned long long)e[i].n, e[i].what);
        say(f, line);
        lead = "                ";
    }
    fflush(f);
}
