/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/run/: a run is a plan (backend, settings, loads, durations, outputs) executed phase by phase: the
 * orchestration over a backend and a load plan, the collector thread, signals, the status line, and where the
 * report goes. It may include rtaudio/ (never a backend's folder, jack/, alsa/, timer/: a backend is reached
 * through its ops table, backend.h), loads/, stats/, report/, compare/ (a ladder's comparison), render/, verdict/,
 * checks/, culprit/, loopback/, sysinfo/ and util/; never cli/. Nothing below includes run/: what a lower folder
 * has to say comes back to run as a value, and run prints it (run_err). `run` is a function, so a sweep can run
 * plans in a loop. */
#ifndef RTJ_RUN_H
#define RTJ_RUN_H
#include "backend.h"
#include <jansson.h>

#define RUN_DEFAULT_LOADS "none,burn,write,read,compile,memload,video,x" /* interbench's set, none first */

struct run_progress;
struct watch_feed;
struct run_plan {
    const struct backend_ops *backend;
    struct backend_config be;      /* the backend's settings (rate, period, server...) */
    const char *loads;             /* phases, one load each: a load_plan list */
    const char *tmpdir;            /* where loads may write (NULL: $TMPDIR or /tmp) */
    double duration_s;             /* measuring time of each phase */
    double warmup_s;               /* discarded start of each phase */
    double soak_s;                 /* --soak: one long phase of this length (duration_s is set to it); 0: none */
    double stop_at_us;             /* --stop-at-us: end a soak at its first wake-up beyond this; < 0: not set */
    double dsp_ramp_step_pct;      /* --dsp ramp: the DSP share rises by this % of the period a step; 0: no ramp */
    double dsp_ramp_step_s;        /* and each step lasts this long (a ramp phase measures for the ramp's length) */
    const char *label;             /* kept in the report and the stored name */
    const char *output;            /* store directory (NULL: the default store) */
    const char *json, *html;       /* extra outputs, or NULL */
    const char *record;            /* --record FILE: the whole loopback capture (needs be.loopback) */
    const char *profile;           /* verdict profile; NULL: the default one, advice only (exit 1 only when set) */
    int quiet;                     /* no status line, no table */
    int wide;                      /* text table: every column (--wide) */
    int allow_no_rt;               /* measure even without real-time rights (the report: not a kernel test) */
    int max_xruns;                 /* exit 1 above this; < 0: not set */
    double max_jitter_us;          /* exit 1 above this; < 0: not set */
    double min_deadlines_pct;      /* exit 1 when a phase met fewer deadlines (%); < 0: not set */
    double max_wakeup_p99_us;      /* exit 1 when a phase's wake-up p99 is above this; < 0: not set */
    const char *junit;             /* --junit FILE: the thresholds as JUnit XML, or NULL */
    const char *server_log;        /* --server-log FILE: the JACK server's log, read for the clients that did not
                                    * finish (culprits); NULL: a private server's own, else jackdbus's */
    double spike_us;               /* --spike-us: a wake-up later than this is a spike; 0: half the period */
    int no_culprits;               /* --no-culprits: no sampler, no sources, no culprits in the report */
    int no_trace;                  /* --no-trace: no tracefs instance even with privileges (counters and the
                                    * server's view only: what a normal user gets) */
    struct watch_feed *watch;      /* rtjitter watch: the live feed of events (run/watch.h), or NULL */
    const char *backend_auto;      /* --backend auto: which backend it chose and why (the report's audio.backend_auto),
                                    * or NULL */
    const struct backend_ops *auto_chosen; /* the backend it chose: in a ladder, only that depth's report says why */
    const char *who;               /* the command its own lines start with (NULL: "rtjitter run") */
    int tap;                       /* --tap: TAP 13 on stdout instead of the table */
    const char *command_line;      /* as typed, for the report */
    const json_t *ladder_below;    /* a depth of a ladder (run/ladder.h): the depths measured below it, shallowest
                                    * first, [{depth, level}]; the report keeps them ("ladder") and its verdict
                                    * follows the ladder's rule (verdict/ladder_rule.h). NULL: not in a ladder */
    json_t **result;               /* when not NULL: gets a reference to the report document (NULL when none) */
    char *report_path;             /* when not NULL: gets the path of the report saved in the store ("" when
                                    * none), which the run then does not print: its caller says where it is */
    size_t report_path_len;
    /* When not NULL: called on the main thread about four times a second while the run waits, with how far it is
     * (the sweep draws its own status line from it). */
    void (*progress)(void *arg, const struct run_progress *pr);
    void *progress_arg;
};

/* Where a run is: phase (0-based) of nphases, in its warm-up or its measured part, and the seconds left of that
 * part and of the whole run (every later phase's warm-up and measured part included; a --dsp ramp phase counts
 * all its steps, so the run may end sooner). */
struct run_progress {
    int phase, nphases, warming;
    double part_elapsed_s, part_left_s, run_left_s;
};

/* The defaults of `rtjitter run` (jack, 48 kHz, 64 frames, 10 s phases of interbench's loads). */
void run_plan_defaults(struct run_plan *p);

/* Runs the plan on the main thread. Returns the process exit status: 0 done, 1 a threshold chosen by the user
 * was exceeded, 2 bad input found before measuring (profile, loads), 3 the run could not complete (a report
 * marked incomplete is still written when anything was measured). */
int run_execute(const struct run_plan *p);

/* 1 when a run had to leave a call into the provider behind (a hung server): the process should then leave
 * with fflush + _exit, since the provider library's exit handlers may wait on that call. */
int run_must_exit_fast(void);

/* One line on stderr, after the command the run belongs to ("rtjitter run: ", "rtjitter watch: ": the plan's who,
 * set by run_execute). Main thread, or the run's own threads outside RT code. */
void run_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *run_who(void);

#endif
