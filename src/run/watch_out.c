/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`'s lines, Waybar's JSON and notify-send (watch_out.h). */
#include "run/watch_out.h"
#include "util/termtext.h"
#include "util/wrap.h"
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void watch_iso8601(int64_t wall_ms, char *out, size_t len)
{
    time_t s = (time_t)(wall_ms / 1000);
    struct tm tm;
    localtime_r(&s, &tm);
    char date[32], zone[8];
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
    strftime(zone, sizeof(zone), "%z", &tm); /* +0100: ISO 8601 writes +01:00 */
    snprintf(out, len, "%s.%03d%.3s:%.2s", date, (int)(wall_ms % 1000), zone, zone + 3);
}

void watch_out_init(struct watch_out *w, FILE *out, enum watch_format format, int notify)
{
    memset(w, 0, sizeof(*w));
    w->out = out;
    w->format = format;
    w->notify = notify;
    w->notify_cmd = "notify-send";
    w->last_length_ms = -1;
    w->width = format == WATCH_TEXT ? wrap_width(out) : 0;
}

/* The narrow form's date line of wall_ms, "2026-12-04 (UTC+01:00)", and its time of day, "21:04:05.123". */
static void day_and_time(int64_t wall_ms, char *day, size_t dlen, char *hms, size_t hlen)
{
    time_t s = (time_t)(wall_ms / 1000);
    struct tm tm;
    localtime_r(&s, &tm);
    char date[16], zone[8], t[32];
    strftime(date, sizeof(date), "%Y-%m-%d", &tm);
    strftime(zone, sizeof(zone), "%z", &tm);
    strftime(t, sizeof(t), "%H:%M:%S", &tm);
    snprintf(day, dlen, "%s (UTC%.3s:%.2s)", date, zone, zone + 3);
    snprintf(hms, hlen, "%s.%03d", t, (int)(wall_ms % 1000));
}

/* s cut to at most cols code points (its visible form: term_str), the last one an ellipsis when cut. */
static void fit_cols(char *s, size_t cap, int cols)
{
    if (cols < 2 || wrap_cols(s) <= cols)
        return;
    int n = 0;
    size_t i = 0;
    while (s[i] && n < cols - 1) { /* cols - 1 characters, then "…" */
        i++;
        while ((s[i] & 0xC0) == 0x80)
            i++;
        n++;
    }
    if (i + 4 <= cap)
        memcpy(s + i, "\xe2\x80\xa6", 4);
    else
        s[i] = '\0';
}

/* Waybar's custom module reads one JSON object a line: text, tooltip, class (its CSS), alt. */
static void waybar_line(struct watch_out *w, const char *state)
{
    char text[64];
    snprintf(text, sizeof(text), "%llu xrun%s", (unsigned long long)w->events, w->events == 1 ? "" : "s");
    json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "text", text, "alt", state, "class", state, "tooltip",
                          w->last_line[0] ? w->last_line : "no xrun since the session began");
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (s)
        fprintf(w->out, "%s\n", s);
    free(s);
    json_decref(o);
    fflush(w->out);
}

void watch_out_begin(struct watch_out *w, const char *what)
{
    snprintf(w->what, sizeof(w->what), "watching %s", what);
    if (w->format == WATCH_WAYBAR) {
        snprintf(w->last_line, sizeof(w->last_line), "watching %s", what);
        waybar_line(w, "ok");
        w->last_line[0] = '\0';
        return;
    }
    char shown[512];
    if (w->format == WATCH_WIDE) {
        fprintf(w->out, "watching %s: one line per xrun as it begins, one with its length and culprit once it ended "
                "(Ctrl-C ends the session and writes its report)\n", term_str(shown, sizeof(shown), what));
        fflush(w->out);
        return;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char hms[48];
    day_and_time((int64_t)now.tv_sec * 1000, w->day, sizeof(w->day), hms, sizeof(hms));
    fprintf(w->out, "watching %s\n", term_str(shown, sizeof(shown), what));
    fprintf(w->out, "local times from %s; a line as each xrun begins and ends\n", w->day);
    fflush(w->out);
}

void watch_out_size(struct watch_out *w, const char *size)
{
    char *c = strrchr(w->what, ',');
    if (c)
        snprintf(c, sizeof(w->what) - (size_t)(c - w->what), ", %s", size);
}

/* notify-send SUMMARY BODY, not waited for; a full table of children is one notification fewer, never a wait. */
static void notify(struct watch_out *w, const char *body)
{
    watch_out_reap(w, 0);
    if (w->nkids == (int)(sizeof(w->kids) / sizeof(w->kids[0])))
        return;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = { (char *)w->notify_cmd, (char *)"--app-name=rtjitter", (char *)"rtjitter: xrun", (char *)body,
                     NULL };
    pid_t pid;
    if (posix_spawnp(&pid, w->notify_cmd, &fa, NULL, argv, environ) == 0)
        w->kids[w->nkids++] = pid;
    posix_spawn_file_actions_destroy(&fa);
}

/* What a line says after its time: "xrun 4 began", "xrun 4: 10.7 ms; CULPRIT" (culprit: the form's own, brief or
 * with its evidence), "xrun 4: 10.7 ms" without a sampler, "xrun 4, found later: CULPRIT". */
static void event_text(char *b, size_t n, const struct watch_event *e, const char *culprit)
{
    unsigned long long num = (unsigned long long)e->n;
    char len[24]; /* under a twentieth of a ms "0.0 ms" read as no xrun at all: its cycle was late by microseconds, or
                   * the server counted it while our cycle was on time */
    if (e->length_ms >= 0.05)
        snprintf(len, sizeof(len), "%.1f ms", e->length_ms);
    else
        snprintf(len, sizeof(len), "under 0.1 ms");
    if (e->late)
        snprintf(b, n, "xrun %llu, found later: %s", num, culprit ? culprit : "");
    else if (e->length_ms < 0)
        snprintf(b, n, "xrun %llu began", num);
    else if (e->unsought)
        snprintf(b, n, "xrun %llu: %s", num, len);
    else
        snprintf(b, n, "xrun %llu: %s; %s", num, len, culprit ? culprit : "culprit not known");
}

/* WATCH_TEXT's line: the date line first when the date (or the zone) changed, then "HH:MM:SS.mmm  TEXT", shown
 * visibly and cut to the width. */
static void narrow_line(struct watch_out *w, int64_t wall_ms, const char *text)
{
    char day[48], hms[48], line[256], shown[256];
    day_and_time(wall_ms, day, sizeof(day), hms, sizeof(hms));
    if (strcmp(day, w->day) != 0) {
        snprintf(w->day, sizeof(w->day), "%s", day);
        fprintf(w->out, "%s\n", day);
    }
    snprintf(line, sizeof(line), "%s  %s", hms, text);
    term_str(shown, sizeof(shown), line);
    fit_cols(shown, sizeof(shown), w->width);
    fprintf(w->out, "%s\n", shown);
    fflush(w->out);
}

void watch_out_event(struct watch_out *w, const struct watch_event *e)
{
    char when[48], text[200], line[256], shown[256];
    watch_iso8601(e->wall_ms, when, sizeof(when));
    if (w->format == WATCH_TEXT) { /* the narrow form, its own line; the wide one below for Waybar and notify-send */
        event_text(text, sizeof(text), e, e->culprit_short);
        narrow_line(w, e->wall_ms, text);
    }
    event_text(text, sizeof(text), e, e->culprit);
    snprintf(line, sizeof(line), "%s  %s", when, text);
    if (e->n > w->events)
        w->events = e->n;
    snprintf(w->latest[w->nlines++ % WATCH_OUT_LATEST], sizeof(w->latest[0]), "%s", line);
    if (w->format == WATCH_WAYBAR) {
        snprintf(w->last_line, sizeof(w->last_line), "%s", line);
        waybar_line(w, e->length_ms < 0 ? "xrun" : "warning");
    } else if (w->format == WATCH_WIDE) {
        fprintf(w->out, "%s\n", term_str(shown, sizeof(shown), line));
        fflush(w->out);
    }
    if (w->notify && e->length_ms >= 0 && !e->late) /* one notification an event, when it ended */
        notify(w, line);
}

void watch_out_note(struct watch_out *w, int64_t wall_ms, const char *text)
{
    char when[48], line[256], shown[256];
    watch_iso8601(wall_ms, when, sizeof(when));
    snprintf(line, sizeof(line), "%s  %s", when, text);
    snprintf(w->latest[w->nlines++ % WATCH_OUT_LATEST], sizeof(w->latest[0]), "%s", line);
    if (w->format == WATCH_WAYBAR) {
        snprintf(w->last_line, sizeof(w->last_line), "%s", line);
        waybar_line(w, "warning");
    } else if (w->format == WATCH_TEXT) {
        narrow_line(w, wall_ms, text);
    } else {
        fprintf(w->out, "%s\n", term_str(shown, sizeof(shown), line));
        fflush(w->out);
    }
}

void watch_out_reap(struct watch_out *w, int final)
{
    for (int i = 0; i < w->nkids;) {
        if (final)
            kill(w->kids[i], SIGTERM);
        pid_t r = waitpid(w->kids[i], NULL, final ? 0 : WNOHANG);
        if (r == w->kids[i] || (r < 0 && errno == ECHILD))
            w->kids[i] = w->kids[--w->nkids];
        else
            i++;
    }
}
