/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch`: a minimal client (no load, no DSP) beside the musician's own session on the running JACK server
 * (jack2 or PipeWire's JACK; --backend pipewire: a native node of the running PipeWire graph), until Ctrl-C or --duration: one line per xrun event as it begins, one with its
 * length and culprit once it ended (run/watch.h), and the report at the end. It is `run` with one phase of the
 * load "none", never a private server, and a stop by signal as its normal end. */
#include "cli/cmd_watch.h"
#include "cli/backend_opts.h"
#include "cli/command.h"
#include "cli/options.h"
#include "run/run.h"
#include "run/signals.h"
#include "run/watch.h"
#include "render/render.h"
#include "verdict/profile.h"
#include "verdict/verdict.h"
#include "util/termtext.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* "Until Ctrl-C": a phase this long never ends by itself. */
#define WATCH_FOREVER_S (366.0 * 86400.0)

struct watch_opts {
    struct run_plan plan;
    const char *format;            /* --format text|waybar */
    int wide;                      /* --wide: ISO 8601 times and each culprit's evidence, however long the line */
    int exit_with_server;          /* --exit-with-server: end when the server goes, instead of waiting for it */
    const char *backend;           /* --backend jack|pipewire */
    int notify;
    double duration_s;             /* 0: until stopped */
};

#define O(f) offsetof(struct watch_opts, f)
#define P(f) offsetof(struct watch_opts, plan.f)
static const char *const watch_formats[] = { "text", "waybar", NULL };
static const char *const watch_backends[] = { "jack", "pipewire", "auto", NULL };
static const struct opt_def watch_defs[] = {
    { "backend", OPT_STR, O(backend), 0, 0, "NAME", "jack (default: a JACK client, PipeWire's JACK too), "
      "pipewire (a node of the running PipeWire graph, natively) or auto (pipewire when a PipeWire answers, jack "
      "when a jackd does)", watch_backends, 'b' },
    { "server", OPT_STR, P(be.server), 0, 0, "NAME", "the JACK server to watch (default: the running one; never "
      "starts one); with --backend pipewire, PipeWire's socket", NULL, 's' },
    { "server-log", OPT_STR, P(server_log), 0, 0, "FILE", "jackd's log (its stderr, a regular file), read for the "
      "client that did not finish (jackdbus's ~/.log/jack/jackdbus.log is found by itself)", NULL, 0 },
    { "duration", OPT_DURATION, O(duration_s), 1, 30 * 86400.0, "TIME", "watch this long (default: until Ctrl-C "
      "or SIGTERM); a number is seconds, or give a unit: 90s, 45m, 3h", NULL, 'D' },
    { "format", OPT_STR, O(format), 0, 0, "FORM", "text (default: one line per event) or waybar (one JSON line per "
      "change, as Waybar's custom modules read)", watch_formats, 0 },
    { "wide", OPT_FLAG, O(wide), 0, 0, "", "text: ISO 8601 times and each culprit's evidence, however long the "
      "line (default: lines within the terminal's width, 80 columns off a terminal)", NULL, 0 },
    { "notify", OPT_FLAG, O(notify), 0, 0, "", "a desktop notification per event (notify-send, when installed)",
      NULL, 0 },
    { "exit-with-server", OPT_FLAG, O(exit_with_server), 0, 0, "", "end the session when the server goes away "
      "(default: save its report so far, wait for a server of that name (PipeWire: that socket) to come back and "
      "watch it again)", NULL, 0 },
    { "json", OPT_STR, P(json), 0, 0, "FILE", "also write the session's report as JSON to FILE", NULL, 0 },
    { "html", OPT_STR, P(html), 0, 0, "FILE", "also write the session's timeline with its events and culprits as "
      "HTML", NULL, 0 },
    { "output", OPT_STR, P(output), 0, 0, "DIR", "report store directory (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL, 0 },
    { "allow-no-rt", OPT_FLAG, P(allow_no_rt), 0, 0, "", "watch even without real-time scheduling (our client "
      "may then be late itself: its own lateness is named as such)", NULL, 0 },
    { "label", OPT_STR, P(label), 0, 0, "TEXT", "a name for this session, kept in the report (default: watch)",
      NULL, 0 },
    { "no-trace", OPT_FLAG, P(no_trace), 0, 0, "", "with privileges, still no kernel trace: culprits from counters "
      "and the server's log only (cheaper; as a normal user gets them)", NULL, 0 },
    { "no-culprits", OPT_FLAG, P(no_culprits), 0, 0, "", "no culprit sampler at all: every xrun is still logged, "
      "without its culprit (cheapest)", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O
#undef P

const struct cli_command cmd_watch_info = {
    .name = "watch",
    .fn = cmd_watch,
    .summary = "every xrun of a real session, its time and culprit, until Ctrl-C",
    .synopsis = "[OPTIONS]",
    .description = "Runs a minimal client (no load, no DSP) beside your own session on the running JACK server\n"
                   "(jack2 or PipeWire's JACK), or with --backend pipewire a node of the running PipeWire graph\n"
                   "(under PipeWire every node's unfinished cycle counts, read from PipeWire's profiler),\n"
                   "and logs every xrun as it happens: when it began (ISO 8601, ms),\n"
                   "how long it lasted, and its culprit. Ctrl-C (or SIGTERM, or --duration) ends the session and\n"
                   "writes its report. At the end, and on SIGUSR1, it sums up your session: its length, xruns,\n"
                   "the longest, the worst minute and the top culprits. Never starts a server; when the server\n"
                   "stops, it says so and its report is incomplete (exit 3).",
    .positional = NULL,
    .defs = watch_defs,
};

/* --server-log must be a regular file (jackd's stderr redirected to it): its source reads it by offset, as it grows.
 * Opened without blocking (a FIFO's open would wait for a writer for good) and refused with one line when it is
 * anything else: a FIFO, a device (/dev/zero would never end), a directory. */
static int check_server_log(const char *path)
{
    char shown[512];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "rtjitter watch: --server-log: cannot read %s: %s\n", term_str(shown, sizeof(shown), path),
                strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "rtjitter watch: --server-log: %s is %s, not a regular file: give the file jackd's stderr "
                "goes to\n", term_str(shown, sizeof(shown), path),
                S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
                : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file");
        return -1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The session's report across the server's lives: each life's report (saved in the store on its own, as it ends)
 * gives its phase, numbered by "life", to one document, the last life's otherwise (its end, its system, whether it
 * completed) with the first life's start and every life's warnings; the verdict is judged again over all of them.
 * --json FILE is rewritten with it after each life from the second on: the whole session, not the last life only. */
static void session_add(json_t **session, json_t *doc, int life, const char *profile_name)
{
    if (!doc)
        return;
    json_t *phases = json_array(), *warnings = json_array();
    size_t i;
    json_t *ph;
    json_array_foreach(*session ? json_object_get(*session, "phases") : NULL, i, ph)
        json_array_append(phases, ph);
    json_array_foreach(*session ? json_object_get(*session, "warnings") : NULL, i, ph)
        json_array_append(warnings, ph);
    json_array_foreach(json_object_get(doc, "phases"), i, ph) {
        json_t *c = json_copy(ph);
        json_object_set_new(c, "life", json_integer(life));
        json_array_append_new(phases, c);
    }
    json_array_foreach(json_object_get(doc, "warnings"), i, ph) {
        if (!json_is_string(ph)) {
            json_array_append(warnings, ph);
            continue;
        }
        char w[1024];
        snprintf(w, sizeof(w), "the server's life %d: %s", life, json_string_value(ph));
        json_array_append_new(warnings, json_string(w));
    }
    json_t *next = json_copy(doc);
    if (*session && json_object_get(*session, "started"))
        json_object_set(next, "started", json_object_get(*session, "started"));
    json_object_set_new(next, "phases", phases);
    json_object_set_new(next, "warnings", warnings);
    json_object_set_new(next, "lives", json_integer(life));
    json_decref(*session);
    *session = next;
    json_t *prof = NULL;
    char err[256];
    if (life >= 2 && profile_load(profile_name ? profile_name : PROFILE_DEFAULT, &prof, err, sizeof(err)) == 0)
        verdict_report(next, prof, profile_name != NULL, -1, -1);
    json_decref(prof);
}

/* The session, one run a life of the server (issue 34 item 4): when it goes away (killed, stopped: not hung, not a
 * signal), its report so far is saved (incomplete: run_execute said so) and watch waits for a server of that name to
 * answer again, then watches it, numbering on and summing the session across its lives; --duration counts them all.
 * Returns the last life's exit code (3: the server went and did not come back before the end). */
static int watch_lives(struct watch_opts *o, struct watch_feed *feed)
{
    const char *name = o->plan.be.server;
    char who[160]; /* "JACK server 'studio'", "the default JACK server", "PipeWire 'pipewire-0'" */
    if (strcmp(o->plan.backend->name, "pipewire") == 0) /* its socket, in the same runtime dir */
        snprintf(who, sizeof(who), "%s%s%s", name ? "PipeWire '" : "the default PipeWire", name ? name : "",
                 name ? "'" : "");
    else
        snprintf(who, sizeof(who), "%s%s%s", name ? "JACK server '" : "the default JACK server", name ? name : "",
                 name ? "'" : "");
    double t0 = now_s(), total = o->plan.duration_s;
    json_t *session = NULL;
    int life = 0, rc = 0;
    for (;;) {
        json_t *doc = NULL;
        o->plan.result = &doc;
        rc = run_execute(&o->plan);
        session_add(&session, doc, ++life, o->plan.profile);
        json_decref(doc);
        if (life >= 2 && o->plan.json && session &&
            render_report_file(renderer_find("json"), o->plan.json, session) < 0) {
            fprintf(stderr, "rtjitter watch: cannot write %s with the session's %d lives (it holds the last one's "
                    "report)\n", o->plan.json, life);
            if (rc == 0)
                rc = 3;
        }
        if (!feed->server_gone || o->exit_with_server || run_must_exit_fast() || run_signals_reason() ||
            !o->plan.backend->server_answers)
            goto out;
        fprintf(stderr, "rtjitter watch: waiting for %s to come back (Ctrl-C ends the session; "
                "--exit-with-server ends it here)\n", who);
        fflush(stderr);
        for (;;) {
            if (run_signals_reason() || now_s() - t0 >= total)
                goto out;
            int up = o->plan.backend->server_answers(name, 1000);
            if (up == -ETIMEDOUT) /* it hangs: a call is left behind in its thread, and no new one can be trusted */
                goto out;
            if (up == 1)
                break;
            run_signals_wait_ms(1000);
        }
        o->plan.duration_s = total - (now_s() - t0);
        if (o->plan.duration_s < 1)
            goto out;
        fprintf(stderr, "rtjitter watch: %s is back: watching it again\n", who);
        fflush(stderr);
    }
out:
    json_decref(session);
    return rc;
}

int cmd_watch(int argc, char **argv, const char *command_line)
{
    struct watch_opts o;
    memset(&o, 0, sizeof(o));
    run_plan_defaults(&o.plan);
    int np = 0;
    int status;
    if (cli_parse(&cmd_watch_info, NULL, &o, argc, argv, NULL, 0, &np, &status))
        return status;
    enum watch_format fmt = WATCH_TEXT;
    if (o.format && strcmp(o.format, "waybar") == 0)
        fmt = WATCH_WAYBAR;
    else if (o.format && strcmp(o.format, "text") != 0) {
        fprintf(stderr, "rtjitter watch: --format: '%.40s' is neither text nor waybar\n", o.format);
        return 2;
    }
    if (o.plan.server_log && check_server_log(o.plan.server_log) < 0)
        return 2;
    if (o.backend && !strcmp(o.backend, "auto")) {
        int rc = 0;
        if (!(o.plan.backend = backend_opts_auto("rtjitter watch", o.plan.be.server, &o.plan.backend_auto, &rc)))
            return rc;
    } else
        o.plan.backend = backend_find(o.backend ? o.backend : "jack");
    o.plan.loads = "none";
    o.plan.warmup_s = 0.2;
    o.plan.duration_s = o.duration_s > 0 ? o.duration_s : WATCH_FOREVER_S;
    o.plan.quiet = 1; /* no status line, no table: the event lines are the output */
    o.plan.be.no_private_server = 1;
    if (!o.plan.label)
        o.plan.label = "watch";
    o.plan.command_line = command_line;
    o.plan.who = "rtjitter watch";
    struct watch_feed feed;
    if (o.wide && fmt == WATCH_TEXT)
        fmt = WATCH_WIDE;
    watch_feed_init(&feed, stdout, fmt, o.notify);
    o.plan.watch = &feed;
    feed.page = o.plan.html; /* a live page while watching, the session's report page at its end */
    run_signals_want_usr1(); /* the session's summary on SIGUSR1 */
    int rc = watch_lives(&o, &feed);
    watch_feed_destroy(&feed);
    return rc;
}
