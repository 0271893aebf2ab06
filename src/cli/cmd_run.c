/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter run`: the command line made into a plan (src/run/run.h), then run_execute(). The options are the
 * run's own table plus every registered backend's params table, so a backend's options come with its entry. */
#include "cli/cmd_run.h"
#include "cli/backend_opts.h"
#include "cli/command.h"
#include "cli/options.h"
#include "run/ladder.h"
#include "run/ramp_driver.h"
#include "run/run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line sets; the plan is made from it. */
struct run_opts {
    struct run_plan plan;
    const char *backend;
    const char *dsp;               /* --dsp PCT or ramp[:STEP[:SECS]] */
};

#define O(f) offsetof(struct run_opts, f)
#define P(f) offsetof(struct run_opts, plan.f)
static const struct opt_def run_defs[] = {
    { "backend", OPT_STR, O(backend), 0, 0, "NAME", "what measures the cycles (default jack; 'list' lists them; "
      "auto: pipewire when a PipeWire answers, jack when a jackd does); several, shallowest first "
      "(timer,alsa,jack): the depth ladder", NULL, 0 },
    { "rate", OPT_INT, P(be.rate_hz), 8000, 384000, "HZ", "sample rate (default 48000; a running server keeps its own, "
      "and the report says so)", NULL, 'r' },
    { "period", OPT_INT, P(be.period_frames), 16, 8192, "FRAMES", "frames per period (default 64; a running server "
      "keeps its own unless --set-buffer-size, and the report says so)", NULL, 'p' },
    { "duration", OPT_DURATION, P(duration_s), 0.5, 86400, "TIME", "measuring time of each phase (default 10s; "
      "a number is seconds, or give a unit: 500ms, 2s, 1.5m, 1h)", NULL, 'D' },
    { "soak", OPT_DURATION, P(soak_s), 0.5, 604800, "TIME", "one long phase instead of the loads' phases: no load, or "
      "the one of --loads, measured for TIME (up to 7 days: 24h, 7d as 168h); adds 1 µs wake-up bins up to 10 ms with "
      "an overflow count, maxima per 5 minutes and a verdict on the maximum", NULL, 0 },
    { "stop-at-us", OPT_DOUBLE, P(stop_at_us), 1, 1e9, "US", "with --soak: end the run at the first wake-up beyond "
      "US (cyclictest -b), say that cycle's time and value, and exit 1", NULL, 0 },
    { "warmup", OPT_DURATION, P(warmup_s), 0, 60, "TIME", "discarded start of each phase (default 1s)", NULL, 0 },
    { "loads", OPT_STR, P(loads), 0, 0, "LIST", "phases, one load each (default " RUN_DEFAULT_LOADS "; see "
      "rtjitter loads)", NULL, 0 },
    { "dsp", OPT_STR, O(dsp), 0, 0, "PCT|ramp[:STEP[:SECS]]", "burn this share of each period in the callback "
      "(default 0; 96-120: an overrun test, no guard band); ramp: the DSP headroom, the share rising by STEP % (default 2) every SECS (default 1) from 0 to "
      "100 % in each phase, until 1 % of a step's cycles fail (a measurement: no thresholds)", NULL, 0 },
    { "tmpdir", OPT_STR, P(tmpdir), 0, 0, "DIR", "where loads may write their files (default $TMPDIR or /tmp)",
      NULL, 0 },
    { "label", OPT_STR, P(label), 0, 0, "TEXT", "a name for this run, kept in the report", NULL, 0 },
    { "output", OPT_STR, P(output), 0, 0, "DIR", "report store directory (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL, 0 },
    { "json", OPT_STR, P(json), 0, 0, "FILE", "also write the JSON report to FILE", NULL, 0 },
    { "html", OPT_STR, P(html), 0, 0, "FILE", "also write the report as a self-contained HTML page", NULL, 0 },
    { "max-xruns", OPT_INT, P(max_xruns), 0, 1000000000, "N", "exit 1 when a phase has more xrun events than N",
      NULL, 0 },
    { "max-jitter-us", OPT_DOUBLE, P(max_jitter_us), 0, 1e9, "US", "exit 1 when a phase's |jitter| exceeds US",
      NULL, 0 },
    { "min-deadlines-pct", OPT_DOUBLE, P(min_deadlines_pct), 0, 100, "P", "exit 1 when a phase met fewer than P % "
      "of its deadlines", NULL, 0 },
    { "max-wakeup-p99-us", OPT_DOUBLE, P(max_wakeup_p99_us), 0, 1e9, "US", "exit 1 when a phase's wake-up p99 "
      "exceeds US", NULL, 0 },
    { "junit", OPT_STR, P(junit), 0, 0, "FILE", "also write the thresholds, per phase, as JUnit XML to FILE", NULL,
      0 },
    { "tap", OPT_FLAG, P(tap), 0, 0, "", "print the thresholds, per phase, as TAP version 13 instead of the table",
      NULL, 0 },
    { "profile", OPT_STR, P(profile), 0, 0, "NAME", "judge the run by the thresholds of profile NAME: studio "
      "(default) or live, or a profile file; exit 1 when it fails", NULL, 0 },
    { "record", OPT_STR, P(record), 0, 0, "FILE", "with --loopback: write the whole capture to FILE (FLAC or WAV "
      "by its extension); a run stopped early keeps it as FILE.partial-<time>.EXT, never over FILE", NULL, 0 },
    { "server-log", OPT_STR, P(server_log), 0, 0, "FILE", "the JACK server's log (jackd's stderr), read for the "
      "clients that did not finish in time, each xrun's culprit (default: a private server's own log, else "
      "jackdbus's ~/.log/jack/jackdbus.log)", NULL, 0 },
    { "spike-us", OPT_DOUBLE, P(spike_us), 1, 1e7, "US", "a cycle that wakes later than US is a spike, listed and "
      "explained with its culprits (default: half the period)", NULL, 0 },
    { "no-culprits", OPT_FLAG, P(no_culprits), 0, 0, "", "no culprit sampler (the normal-priority thread that reads "
      "/proc 20 times a second): events and spikes are listed without their culprits", NULL, 0 },
    { "no-trace", OPT_FLAG, P(no_trace), 0, 0, "", "with privileges, still no kernel trace of each glitch: its "
      "culprits from counters and the server's view only, as a normal user gets them", NULL, 0 },
    { "wide", OPT_FLAG, P(wide), 0, 0, "", "text table: every column, however wide the terminal", NULL, 0 },
    { "dma-latency", OPT_FLAG, P(be.dma_latency), 0, 0, "", "hold /dev/cpu_dma_latency at 0 while measuring, so the "
      "CPUs stay out of deep idle states (the timer backend does by default; root's only on most systems)", NULL,
      0 },
    { "allow-no-rt", OPT_FLAG, P(allow_no_rt), 0, 0, "", "measure even without real-time scheduling or locked memory "
      "(the report says: not a kernel test)", NULL, 0 },
    { "quiet", OPT_FLAG, P(quiet), 0, 0, "", "no status line, no table: only errors and the report path", NULL,
      'q' },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O
#undef P

/* The run's table followed by each backend's params (offsets moved into plan.be). */
static struct opt_def *all_defs(void)
{
    return backend_opts_table(run_defs, offsetof(struct run_opts, plan.be));
}

/* The run's own options, then each backend's under its name. */
static size_t run_sections(struct opt_section *out, size_t max)
{
    return backend_opts_sections(out, max, run_defs);
}

const struct cli_command cmd_run_info = {
    .name = "run",
    .fn = cmd_run,
    .summary = "measure audio cycles on JACK, phase by phase, under each load",
    .synopsis = "[OPTIONS]",
    .description = "Measures every audio cycle of a real-time client (period jitter, wake-up latency, callback time,\n"
                   "margin, xruns) while the machine is put under one load after another, and writes a report\n"
                   "that names the kernel it ran on. With no JACK server running, a private one is started (dummy\n"
                   "driver, or ALSA with --device) at --rate, --period and --nperiods, and stopped at the end.",
    .positional = NULL,
    .sections = run_sections,
};

/* --soak is one phase of its own length: --duration, several loads, a DSP ramp or a ladder contradict it; and
 * --stop-at-us is a soak's. Fills in the defaults --soak left (duration, loads). Returns 0 or -1 (one line said). */
static int soak_check(struct run_plan *p, const char *backend)
{
    const char *clash = NULL;
    if (p->soak_s > 0) {
        clash = p->duration_s > 0 ? "--duration (the soak's TIME is its duration)"
                : p->loads && strchr(p->loads, ',') ? "several loads in --loads (a soak is one phase: give one load)"
                : p->dsp_ramp_step_pct > 0 ? "--dsp ramp (a ramp is its own measurement)"
                : backend && strchr(backend, ',') ? "a ladder of backends (give one --backend)" : NULL;
        if (clash) {
            fprintf(stderr, "rtjitter run: --soak cannot take %s\n", clash);
            return -1;
        }
        p->duration_s = p->soak_s;
        if (!p->loads)
            p->loads = "none";
    } else if (p->stop_at_us >= 0) {
        fprintf(stderr, "rtjitter run: --stop-at-us ends a soak: give --soak TIME too\n");
        return -1;
    }
    if (p->duration_s <= 0)
        p->duration_s = 10;
    if (!p->loads)
        p->loads = RUN_DEFAULT_LOADS;
    return 0;
}

int cmd_run(int argc, char **argv, const char *command_line)
{
    struct run_opts o;
    memset(&o, 0, sizeof(o));
    run_plan_defaults(&o.plan);
    struct backend_config defaults = o.plan.be;
    o.plan.be.rate_hz = 0; /* 0 after parsing: not given, the default applies */
    o.plan.be.period_frames = 0;
    struct opt_def *defs = all_defs();
    if (!defs) {
        fprintf(stderr, "rtjitter run: out of memory\n");
        return 3;
    }
    o.plan.duration_s = 0; /* 0 after parsing: not given (--soak refuses it) */
    o.plan.loads = NULL;
    int np = 0;
    int status, done = cli_parse(&cmd_run_info, defs, &o, argc, argv, NULL, 0, &np, &status);
    free(defs);
    if (done)
        return status;
    if (o.dsp) {
        char err[160];
        if (rampdrv_parse_dsp(o.dsp, &o.plan.be.dsp_pct, &o.plan.dsp_ramp_step_pct, &o.plan.dsp_ramp_step_s, err,
                           sizeof(err)) < 0) {
            fprintf(stderr, "rtjitter run: %s\n", err);
            return 2;
        }
    }
    /* A ramp overloads the callback on purpose: its missed deadlines and cut-short cycles are its measurement
     * (the headroom), not the kernel's failure, so no threshold can judge it. Refused rather than ignored: a
     * packaging test must not pass because its limits were silently dropped. */
    const char *limit = o.plan.max_xruns >= 0 ? "max-xruns" : o.plan.max_jitter_us >= 0 ? "max-jitter-us"
                        : o.plan.min_deadlines_pct >= 0 ? "min-deadlines-pct"
                        : o.plan.max_wakeup_p99_us >= 0 ? "max-wakeup-p99-us" : o.plan.profile ? "profile" : NULL;
    if (o.plan.dsp_ramp_step_pct > 0 && limit) {
        fprintf(stderr, "rtjitter run: --%s cannot judge --dsp ramp (the ramp misses deadlines on purpose to "
                "measure the headroom): test thresholds with --dsp PCT or none\n", limit);
        return 2;
    }
    if (soak_check(&o.plan, o.backend) < 0)
        return 2;
    if (o.plan.be.dma_latency && o.plan.be.no_dma_latency) {
        fprintf(stderr, "rtjitter run: --dma-latency and --no-dma-latency contradict each other: give one\n");
        return 2;
    }
    o.plan.be.rate_given = o.plan.be.rate_hz != 0;
    o.plan.be.period_given = o.plan.be.period_frames != 0;
    if (!o.plan.be.rate_given)
        o.plan.be.rate_hz = defaults.rate_hz;
    if (!o.plan.be.period_given)
        o.plan.be.period_frames = defaults.period_frames;
    if (o.backend && strcmp(o.backend, "list") == 0) {
        backend_opts_list(stdout);
        return 0;
    }
    const struct backend_ops *depths[4];
    size_t ndepths = 0;
    if (o.backend) {
        char list[256];
        snprintf(list, sizeof(list), "%s", o.backend);
        for (char *save = NULL, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
            const struct backend_ops *be = backend_find(b);
            if (!strcmp(b, "auto") && ndepths < 4) {
                int rc = 0;
                if (!(be = backend_opts_auto("rtjitter run", o.plan.be.server, &o.plan.backend_auto, &rc)))
                    return rc;
                o.plan.auto_chosen = be;
            }
            if (!be || ndepths == 4) {
                fprintf(stderr, "rtjitter run: --backend: '%s' is %s:", b, be ? "one too many (4 at most)" : "not one of");
                for (size_t i = 0; !be && rtj_backends[i]; i++)
                    fprintf(stderr, " %s", rtj_backends[i]->name);
                fprintf(stderr, "%s\n", be ? "" : " (or auto, list)");
                return 2;
            }
            depths[ndepths++] = be;
        }
        if (ndepths == 0) {
            fprintf(stderr, "rtjitter run: --backend: the list is empty\n");
            return 2;
        }
        o.plan.backend = depths[0];
    }
    if (ndepths == 0)
        depths[ndepths++] = o.plan.backend;
    const char *stray = backend_opts_foreign(&o.plan.be, &defaults, depths, ndepths);
    if (stray) {
        fprintf(stderr, "rtjitter run: --%s is not an option of --backend %s (see rtjitter run --help)\n", stray,
                o.backend ? o.backend : depths[0]->name);
        return 2;
    }
    if (o.plan.record && !o.plan.be.loopback) {
        fprintf(stderr, "rtjitter run: --record needs --loopback (it records what the loopback captures)\n");
        return 2;
    }
    if (o.plan.be.loopback && ndepths > 1) {
        fprintf(stderr, "rtjitter run: --loopback measures one backend, not a ladder of %zu\n", ndepths);
        return 2;
    }
    o.plan.command_line = command_line;
    if (ndepths > 1 && (o.plan.junit || o.plan.tap)) {
        fprintf(stderr, "rtjitter run: --%s judges one run: give one --backend, not a ladder\n",
                o.plan.junit ? "junit" : "tap");
        return 2;
    }
    if (ndepths > 1)
        return run_ladder(&o.plan, depths, ndepths, o.plan.json, o.plan.html);
    return run_execute(&o.plan);
}
