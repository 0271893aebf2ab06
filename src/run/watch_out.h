/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `rtjitter watch` says while a session runs (issue 25): one line per xrun event when it starts and its length
 * once it ends, on a terminal or a log; one JSON line per change for Waybar's custom modules (--format waybar); a
 * desktop notification per event through notify-send (--notify). Main thread only: the events come to it from the
 * collector's feed (run/watch.c), never from the RT thread. */
#ifndef RTJ_WATCH_OUT_H
#define RTJ_WATCH_OUT_H
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define WATCH_OUT_LATEST 40

/* WATCH_TEXT: a line a change within the terminal's width (80 columns off a terminal), local times HH:MM:SS.mmm
 * under a date line; WATCH_WIDE (--wide): ISO 8601 times and the culprit's evidence, however long the line. */
enum watch_format { WATCH_TEXT, WATCH_WAYBAR, WATCH_WIDE };

/* One event as watch shows it. */
struct watch_event {
    uint64_t n;                   /* 1-based, in the session */
    int64_t wall_ms;              /* its start on the wall clock (CLOCK_REALTIME), ms since the epoch */
    double length_ms;             /* once it ended; < 0 while it lasts */
    const char *culprit;          /* the top culprit's one line ("culprit: stall (client, observed): EVIDENCE"), or
                                   * NULL while it is not known yet */
    const char *culprit_short;    /* the same without its evidence ("culprit: stall (client, observed)"): the
                                   * narrow form's */
    int unsought;                 /* no culprit sampler (--no-culprits): the line says only the length */
    int late;                     /* the culprit of an event already told ended "not known": a line of its own */
};

struct watch_out {
    FILE *out;                    /* stdout */
    enum watch_format format;
    int notify;                   /* --notify: notify-send per event */
    const char *notify_cmd;       /* "notify-send" (a test's stand-in is found on PATH the same way) */
    pid_t kids[16];               /* notify-send children not yet reaped (never waited for: a stuck desktop must
                                   * not stop the session); killed at the end */
    int nkids;
    uint64_t events;              /* so far, for Waybar's text */
    double last_length_ms;
    char last_line[256];          /* the last event's line, for Waybar's tooltip */
    char what[256];               /* what it watches (watch_out_begin), for the live page */
    char latest[WATCH_OUT_LATEST][256]; /* the latest lines (the wide form), for the live page (watch_page.c) */
    unsigned nlines;              /* lines written in all: latest[(nlines - 1) % WATCH_OUT_LATEST] is the newest */
    int width;                    /* WATCH_TEXT: the columns a line may take (wrap_width) */
    char day[48];                 /* WATCH_TEXT: the date line in force ("2026-12-04 (UTC+01:00)") */
};

/* ISO 8601 local time with milliseconds and the UTC offset: 2026-12-02T21:04:05.123+01:00. */
void watch_iso8601(int64_t wall_ms, char *out, size_t len);
void watch_out_init(struct watch_out *w, FILE *out, enum watch_format format, int notify);
/* The session began (Waybar: the first state); what it watches (server, provider) in one line. */
void watch_out_begin(struct watch_out *w, const char *what);
/* The buffer changed: what it watches says the size in force now (the part after its last ", "), so that the live
 * page's heading never shows the size at start after a change. */
void watch_out_size(struct watch_out *w, const char *size);
/* An event began / ended (length_ms set) / its culprit became known. */
void watch_out_event(struct watch_out *w, const struct watch_event *e);
/* A line about the session itself (the buffer changed), stamped wall_ms, in the form of the event lines. */
void watch_out_note(struct watch_out *w, int64_t wall_ms, const char *text);
/* Reaps finished notify-send children; at the end (final 1) kills the rest. */
void watch_out_reap(struct watch_out *w, int final);

#endif
