/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`'s lines, Waybar's JSON and notify-send (watch_out.h). */
#include "run/watch_out.h"
#include "util/termtext.h"
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
    if (w->format == WATCH_WAYBAR) {
        snprintf(w->last_line, sizeof(w->last_line), "watching %s", what);
        waybar_line(w, "ok");
        w->last_line[0] = '\0';
        return;
    }
    char shown[512];
    fprintf(w->out, "watching %s: one line per xrun as it begins, one with its length and culprit once it ended "
            "(Ctrl-C ends the session and writes its report)\n", term_str(shown, sizeof(shown), what));
    fflush(w->out);
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

void watch_out_event(struct watch_out *w, const struct watch_event *e)
{
    char when[48], line[256], shown[256];
    watch_iso8601(e->wall_ms, when, sizeof(when));
    if (e->length_ms < 0)
        snprintf(line, sizeof(line), "%s  xrun %llu began", when, (unsigned long long)e->n);
    else if (e->unsought)
        snprintf(line, sizeof(line), "%s  xrun %llu: %.1f ms", when, (unsigned long long)e->n, e->length_ms);
    else
        snprintf(line, sizeof(line), "%s  xrun %llu: %.1f ms; %s", when, (unsigned long long)e->n, e->length_ms,
                 e->culprit ? e->culprit : "culprit not known");
    if (e->n > w->events)
        w->events = e->n;
    if (w->format == WATCH_WAYBAR) {
        snprintf(w->last_line, sizeof(w->last_line), "%s", line);
        waybar_line(w, e->length_ms < 0 ? "xrun" : "warning");
    } else {
        fprintf(w->out, "%s\n", term_str(shown, sizeof(shown), line));
        fflush(w->out);
    }
    if (w->notify && e->length_ms >= 0)
        notify(w, line);
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
