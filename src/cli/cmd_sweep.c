/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter sweep`: the command line made into a sweep plan (src/run/sweep.h), then sweep_execute(). The options
 * are the sweep's own table plus every registered backend's params table (cli/backend_opts.h), as `run` has. */
#include "cli/cmd_sweep.h"
#include "cli/backend_opts.h"
#include "cli/options.h"
#include "run/sweep.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sweep_opts {
    struct sweep_plan sp;
    const char *backend, *periods, *rates;
};

#define O(f) offsetof(struct sweep_opts, f)
#define S(f) offsetof(struct sweep_opts, sp.f)
#define P(f) offsetof(struct sweep_opts, sp.run.f)
static const struct opt_def sweep_defs[] = {
    { "periods", OPT_STR, O(periods), 0, 0, "LIST", "buffer sizes to try, frames (default " SWEEP_DEFAULT_PERIODS
      ")", NULL, 0 },
    { "rates", OPT_STR, O(rates), 0, 0, "LIST", "sample rates, Hz (default 48000)", NULL, 0 },
    { "loads", OPT_STR, P(loads), 0, 0, "LIST", "one row of the grid per load (default " SWEEP_DEFAULT_LOADS "; see "
      "rtjitter loads)", NULL, 0 },
    { "duration", OPT_DURATION, P(duration_s), 0.5, 86400, "TIME", "measuring time of each cell (default 20s; "
      "a number is seconds, or give a unit: 500ms, 2s, 1.5m, 1h)", NULL, 'D' },
    { "warmup", OPT_DURATION, P(warmup_s), 0, 60, "TIME", "discarded start of each cell (default 1s)", NULL, 0 },
    { "backend", OPT_STR, O(backend), 0, 0, "NAME", "what measures the cycles: jack (default), alsa, timer, or auto "
      "(pipewire when a PipeWire answers, jack when a jackd does)", NULL, 0 },
    { "stop-after-fail", OPT_INT, S(stop_after_fail), 0, 1000000, "N", "a size with N xrun events and missed "
      "deadlines or more fails clearly: smaller sizes of that load are not measured (default 3; 0: never)", NULL, 0 },
    { "pass-margin", OPT_DOUBLE, S(pass_margin_pct), 0, 100, "PCT", "a safe size whose margin kept by 99.9 % of "
      "cycles is PCT % of the period or more passes with margin: larger sizes of that load are not measured "
      "(default twice the profile's margin)", NULL, 0 },
    { "measure-all", OPT_FLAG, S(measure_all), 0, 0, "", "measure every cell: skip nothing", NULL, 0 },
    { "dsp", OPT_DOUBLE, P(be.dsp_pct), 0, 95, "PCT", "burn this share of each period in the callback (default 0)",
      NULL, 0 },
    { "profile", OPT_STR, P(profile), 0, 0, "NAME", "what safe means: the profile's xrun, deadline and margin "
      "thresholds (studio, the default, or live, or a profile file)", NULL, 0 },
    { "tmpdir", OPT_STR, P(tmpdir), 0, 0, "DIR", "where loads may write their files (default $TMPDIR or /tmp)",
      NULL, 0 },
    { "label", OPT_STR, P(label), 0, 0, "TEXT", "a name for this sweep, kept in its document and its runs' reports",
      NULL, 0 },
    { "output", OPT_STR, P(output), 0, 0, "DIR", "store directory: each size's report under DIR, the sweep under "
      "DIR/sweeps (default $XDG_DATA_HOME/rtjitter/reports and .../sweeps)", NULL, 0 },
    { "json", OPT_STR, S(json), 0, 0, "FILE", "also write the sweep document to FILE", NULL, 0 },
    { "html", OPT_STR, S(html), 0, 0, "FILE", "also write the sweep as a self-contained HTML page", NULL, 0 },
    { "allow-no-rt", OPT_FLAG, P(allow_no_rt), 0, 0, "", "measure even without real-time scheduling or locked memory "
      "(not a kernel test)", NULL, 0 },
    { "quiet", OPT_FLAG, P(quiet), 0, 0, "", "no status line, no grid: only errors and the document's path", NULL,
      'q' },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O
#undef S
#undef P

static size_t sweep_sections(struct opt_section *out, size_t max)
{
    return backend_opts_sections(out, max, sweep_defs);
}

const struct cli_command cmd_sweep_info = {
    .name = "sweep",
    .fn = cmd_sweep,
    .summary = "which buffer size is safe: a grid of buffer sizes x loads",
    .synopsis = "[--periods LIST] [--rates LIST] [--loads LIST] [--duration TIME] [--json F] [--html F] [OPTIONS]",
    .description = "Measures each buffer size under each load (one phase per cell) and says which is the smallest\n"
                   "safe buffer per load and under every load, in frames and ms. Safe comes from the profile: no\n"
                   "xrun, no missed deadline, and 99.9 % of cycles keep the profile's margin. Each cell says how\n"
                   "long it was measured and what zero xruns there prove (rule of three). A size that passes with\n"
                   "margin skips the larger ones of its load, one that fails clearly the smaller ones. On JACK the\n"
                   "sweep starts its own private server and changes its size with jack_set_buffer_size (or, with\n"
                   "--server NAME --set-buffer-size, that server's); under pw-jack it sets PipeWire's quantum\n"
                   "(clock.force-quantum: the whole graph runs at it while the sweep lasts) and sets it back after,\n"
                   "or at the next start if the sweep was killed; timer and ALSA take the size directly.\n"
                   "Exit status: 0 done, 1 no size is safe under every load, 2 bad input, 3 incomplete.",
    .positional = NULL,
    .sections = sweep_sections,
};

int cmd_sweep(int argc, char **argv, const char *command_line)
{
    struct sweep_opts o;
    memset(&o, 0, sizeof(o));
    run_plan_defaults(&o.sp.run);
    o.sp.run.loads = SWEEP_DEFAULT_LOADS;
    o.sp.run.duration_s = 20;
    o.sp.stop_after_fail = 3;
    o.sp.pass_margin_pct = -1;
    struct backend_config defaults = o.sp.run.be;
    struct opt_def *defs = backend_opts_table(sweep_defs, offsetof(struct sweep_opts, sp.run.be));
    if (!defs) {
        fprintf(stderr, "rtjitter sweep: out of memory\n");
        return 3;
    }
    int np = 0;
    int status, done = cli_parse(&cmd_sweep_info, defs, &o, argc, argv, NULL, 0, &np, &status);
    free(defs);
    if (done)
        return status;
    if (o.backend && strcmp(o.backend, "list") == 0) {
        backend_opts_list(stdout);
        return 0;
    }
    if (o.backend && !strcmp(o.backend, "auto")) {
        int rc = 0;
        if (!(o.sp.run.backend = backend_opts_auto("rtjitter sweep", o.sp.run.be.server, &o.sp.run.backend_auto, &rc)))
            return rc;
    } else if (o.backend) {
        o.sp.run.backend = backend_find(o.backend);
        if (!o.sp.run.backend) {
            fprintf(stderr, "rtjitter sweep: --backend: '%s' is not one of:", o.backend);
            for (size_t i = 0; rtj_backends[i]; i++)
                fprintf(stderr, " %s", rtj_backends[i]->name);
            fprintf(stderr, " (or auto, list)\n");
            return 2;
        }
    }
    char err[256];
    int n;
    if (sweep_parse_list(o.periods ? o.periods : SWEEP_DEFAULT_PERIODS, 16, 8192, o.sp.periods, SWEEP_MAX_SIZES, 1,
                         &n, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter sweep: --periods: %s\n", err);
        return 2;
    }
    o.sp.nperiods = n;
    if (sweep_parse_list(o.rates ? o.rates : "48000", 8000, 384000, o.sp.rates, SWEEP_MAX_RATES, 0, &n, err,
                         sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter sweep: --rates: %s\n", err);
        return 2;
    }
    o.sp.nrates = n;
    const struct backend_ops *be[1] = { o.sp.run.backend };
    const char *stray = backend_opts_foreign(&o.sp.run.be, &defaults, be, 1);
    if (stray) {
        fprintf(stderr, "rtjitter sweep: --%s is not an option of --backend %s (see rtjitter sweep --help)\n", stray,
                be[0]->name);
        return 2;
    }
    if (o.sp.run.be.loopback) { /* the backend's option, but a sweep has no loopback analyzer: never ignored */
        fprintf(stderr, "rtjitter sweep: --loopback is for rtjitter run (a sweep measures timing only)\n");
        return 2;
    }
    o.sp.run.command_line = command_line;
    return sweep_execute(&o.sp);
}
