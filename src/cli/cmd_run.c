/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter run`: the command line made into a plan (src/run/run.h), then run_execute(). The options are the
 * run's own table plus every registered backend's params table, so a backend's options come with its entry. */
#include "cli/cmd_run.h"
#include "cli/command.h"
#include "cli/options.h"
#include "run/ladder.h"
#include "run/run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line sets; the plan is made from it. */
struct run_opts {
    struct run_plan plan;
    const char *backend;
};

#define O(f) offsetof(struct run_opts, f)
#define P(f) offsetof(struct run_opts, plan.f)
static const struct opt_def run_defs[] = {
    { "backend", OPT_STR, O(backend), 0, 0, "NAME", "what measures the cycles (default jack; 'list' lists them); "
      "several, shallowest first (timer,alsa,jack): the depth ladder", NULL, 0 },
    { "rate", OPT_INT, P(be.rate_hz), 8000, 384000, "HZ", "sample rate (default 48000; a running server keeps its own, "
      "and the report says so)", NULL, 'r' },
    { "period", OPT_INT, P(be.period_frames), 16, 8192, "FRAMES", "frames per period (default 64; a running server "
      "keeps its own unless --set-buffer-size, and the report says so)", NULL, 'p' },
    { "duration", OPT_DOUBLE, P(duration_s), 0.5, 86400, "SECS", "measuring time of each phase (default 10)", NULL,
      'D' },
    { "warmup", OPT_DOUBLE, P(warmup_s), 0, 60, "SECS", "discarded start of each phase (default 1)", NULL, 0 },
    { "loads", OPT_STR, P(loads), 0, 0, "LIST", "phases, one load each (default " RUN_DEFAULT_LOADS "; see "
      "rtjitter loads)", NULL, 0 },
    { "dsp", OPT_DOUBLE, P(be.dsp_pct), 0, 95, "PCT", "burn this share of each period in the callback (default 0)",
      NULL, 0 },
    { "tmpdir", OPT_STR, P(tmpdir), 0, 0, "DIR", "where loads may write their files (default $TMPDIR or /tmp)",
      NULL, 0 },
    { "label", OPT_STR, P(label), 0, 0, "TEXT", "a name for this run, kept in the report", NULL, 0 },
    { "output", OPT_STR, P(output), 0, 0, "DIR", "report store directory (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL, 0 },
    { "json", OPT_STR, P(json), 0, 0, "FILE", "also write the JSON report to FILE", NULL, 0 },
    { "html", OPT_STR, P(html), 0, 0, "FILE", "also write the report as a self-contained HTML page", NULL, 0 },
    { "max-xruns", OPT_INT, P(max_xruns), 0, 1000000000, "N", "exit 1 when more xruns than N", NULL, 0 },
    { "max-jitter-us", OPT_DOUBLE, P(max_jitter_us), 0, 1e9, "US", "exit 1 when |jitter| exceeds US", NULL, 0 },
    { "profile", OPT_STR, P(profile), 0, 0, "NAME", "judge the run by the thresholds of profile NAME: studio "
      "(default) or live, or a profile file; exit 1 when it fails", NULL, 0 },
    { "record", OPT_STR, P(record), 0, 0, "FILE", "with --loopback: write the whole capture to FILE (FLAC or WAV "
      "by its extension)", NULL, 0 },
    { "wide", OPT_FLAG, P(wide), 0, 0, "", "text table: every column, however wide the terminal", NULL, 0 },
    { "allow-no-rt", OPT_FLAG, P(allow_no_rt), 0, 0, "", "measure even without real-time scheduling or locked memory "
      "(the report says: not a kernel test)", NULL, 0 },
    { "quiet", OPT_FLAG, P(quiet), 0, 0, "", "no status line, no table: only errors and the report path", NULL,
      'q' },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O
#undef P

/* The run's table followed by each backend's params (offsets moved into plan.be); an option two backends share
 * is listed once. Returns a malloc'd table, NULL-terminated. */
static struct opt_def *all_defs(void)
{
    size_t n = opts_count(run_defs);
    for (size_t b = 0; rtj_backends[b]; b++)
        n += opts_count(rtj_backends[b]->params);
    struct opt_def *defs = calloc(n + 1, sizeof(*defs));
    if (!defs)
        return NULL;
    size_t k = 0;
    for (const struct opt_def *d = run_defs; d->name; d++)
        defs[k++] = *d;
    for (size_t b = 0; rtj_backends[b]; b++)
        for (const struct opt_def *d = rtj_backends[b]->params; d->name; d++) {
            int dup = 0;
            for (size_t i = 0; i < k; i++)
                dup |= strcmp(defs[i].name, d->name) == 0;
            if (dup)
                continue;
            defs[k] = *d;
            defs[k++].offset += offsetof(struct run_opts, plan.be);
        }
    return defs;
}

/* The run's own options, then each backend's under its name. */
static size_t run_sections(struct opt_section *out, size_t max)
{
    static char titles[CLI_MAX_SECTIONS][160];
    size_t n = 0;
    if (n < max)
        out[n++] = (struct opt_section){ NULL, run_defs };
    for (size_t b = 0; rtj_backends[b] && n < max && n < CLI_MAX_SECTIONS; b++) {
        snprintf(titles[n], sizeof(titles[n]), "--backend %s: %s", rtj_backends[b]->name, rtj_backends[b]->summary);
        out[n] = (struct opt_section){ titles[n], rtj_backends[b]->params };
        n++;
    }
    return n;
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

static void list_backends(FILE *f)
{
    for (size_t b = 0; rtj_backends[b]; b++) {
        char why[256] = "";
        int bad = rtj_backends[b]->unavailable(why, sizeof(why)) < 0;
        fprintf(f, "%-8s %s%s%s%s\n", rtj_backends[b]->name, rtj_backends[b]->summary, bad ? " (cannot run here: " : "",
                bad ? why : "", bad ? ")" : "");
    }
}

/* Does the chosen backends' params table list an option called name? */
static int listed(const struct backend_ops *const *be, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        for (const struct opt_def *d = be[i]->params; d->name; d++)
            if (!strcmp(d->name, name))
                return 1;
    return 0;
}

/* A backend option that was given (its field differs from the default) although none of the chosen backends takes
 * it: never ignored in silence (--cpus with jack). Its name, or NULL. */
static const char *foreign_option(const struct backend_config *cfg, const struct backend_config *dflt,
                                  const struct backend_ops *const *be, size_t n)
{
    for (size_t b = 0; rtj_backends[b]; b++)
        for (const struct opt_def *d = rtj_backends[b]->params; d->name; d++) {
            const char *f = (const char *)cfg + d->offset, *g = (const char *)dflt + d->offset;
            int given = d->type == OPT_STR      ? *(const char *const *)f != *(const char *const *)g
                        : d->type == OPT_DOUBLE ? *(const double *)f != *(const double *)g
                                                : *(const int *)f != *(const int *)g;
            if (given && !listed(be, n, d->name))
                return d->name;
        }
    return NULL;
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
    int np = 0;
    int pr = opts_parse("run", defs, &o, argc, argv, NULL, 0, &np);
    free(defs);
    if (pr != 0) {
        if (pr == 1)
            cli_help(stdout, &cmd_run_info);
        return pr == 1 ? 0 : 2;
    }
    o.plan.be.rate_given = o.plan.be.rate_hz != 0;
    o.plan.be.period_given = o.plan.be.period_frames != 0;
    if (!o.plan.be.rate_given)
        o.plan.be.rate_hz = defaults.rate_hz;
    if (!o.plan.be.period_given)
        o.plan.be.period_frames = defaults.period_frames;
    if (o.backend && strcmp(o.backend, "list") == 0) {
        list_backends(stdout);
        return 0;
    }
    const struct backend_ops *depths[4];
    size_t ndepths = 0;
    if (o.backend) {
        char list[256];
        snprintf(list, sizeof(list), "%s", o.backend);
        for (char *save = NULL, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
            const struct backend_ops *be = backend_find(b);
            if (!be || ndepths == 4) {
                fprintf(stderr, "rtjitter run: --backend: '%s' is %s:", b, be ? "one too many (4 at most)" : "not one of");
                for (size_t i = 0; !be && rtj_backends[i]; i++)
                    fprintf(stderr, " %s", rtj_backends[i]->name);
                fprintf(stderr, "%s\n", be ? "" : " (or list)");
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
    const char *stray = foreign_option(&o.plan.be, &defaults, depths, ndepths);
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
    if (ndepths > 1)
        return run_ladder(&o.plan, depths, ndepths, o.plan.json, o.plan.html);
    return run_execute(&o.plan);
}
