/* `rtjitter run`: the command line made into a plan (src/run/run.h), then run_execute(). The options are the
 * run's own table plus every registered backend's params table, so a backend's options come with its entry. */
#include "cli/cmd_run.h"
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
      "several, shallowest first (timer,alsa,jack): the depth ladder", NULL },
    { "rate", OPT_INT, P(be.rate_hz), 8000, 384000, "HZ", "sample rate (default 48000; a running server keeps its own, "
      "and the report says so)", NULL },
    { "period", OPT_INT, P(be.period_frames), 16, 8192, "FRAMES", "frames per period (default 64; a running server "
      "keeps its own unless --set-buffer-size, and the report says so)", NULL },
    { "duration", OPT_DOUBLE, P(duration_s), 0.5, 86400, "SECS", "measuring time of each phase (default 10)", NULL },
    { "warmup", OPT_DOUBLE, P(warmup_s), 0, 60, "SECS", "discarded start of each phase (default 1)", NULL },
    { "loads", OPT_STR, P(loads), 0, 0, "LIST", "phases, one load each (default " RUN_DEFAULT_LOADS "; see "
      "rtjitter loads)", NULL },
    { "dsp", OPT_DOUBLE, P(be.dsp_pct), 0, 95, "PCT", "burn this share of each period in the callback (default 0)",
      NULL },
    { "tmpdir", OPT_STR, P(tmpdir), 0, 0, "DIR", "where loads may write their files (default $TMPDIR or /tmp)",
      NULL },
    { "label", OPT_STR, P(label), 0, 0, "TEXT", "a name for this run, kept in the report", NULL },
    { "output", OPT_STR, P(output), 0, 0, "DIR", "report store directory (default "
      "$XDG_DATA_HOME/rtjitter/reports)", NULL },
    { "json", OPT_STR, P(json), 0, 0, "FILE", "also write the JSON report to FILE", NULL },
    { "html", OPT_STR, P(html), 0, 0, "FILE", "also write the report as a self-contained HTML page", NULL },
    { "max-xruns", OPT_INT, P(max_xruns), 0, 1000000000, "N", "exit 1 when more xruns than N", NULL },
    { "max-jitter-us", OPT_DOUBLE, P(max_jitter_us), 0, 1e9, "US", "exit 1 when |jitter| exceeds US", NULL },
    { "profile", OPT_STR, P(profile), 0, 0, "NAME", "judge the run by the thresholds of profile NAME: studio "
      "(default) or live (data/profiles/); exit 1 when it fails", NULL },
    { "wide", OPT_FLAG, P(wide), 0, 0, "", "text table: every column, however wide the terminal", NULL },
    { "quiet", OPT_FLAG, P(quiet), 0, 0, "", "no status line, no table: only errors and the report path", NULL },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL },
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

static void help(FILE *f)
{
    fprintf(f, "usage: rtjitter run [OPTIONS]\n\n");
    opts_help_list(f, run_defs);
    for (size_t b = 0; rtj_backends[b]; b++) {
        fprintf(f, "\n--backend %s: %s\n", rtj_backends[b]->name, rtj_backends[b]->summary);
        opts_help_list(f, rtj_backends[b]->params);
    }
}

static void list_backends(FILE *f)
{
    for (size_t b = 0; rtj_backends[b]; b++) {
        char why[256] = "";
        int bad = rtj_backends[b]->unavailable(why, sizeof(why)) < 0;
        fprintf(f, "%-8s %s%s%s%s\n", rtj_backends[b]->name, rtj_backends[b]->summary, bad ? " (cannot run here: " : "",
                bad ? why : "", bad ? ")" : "");
    }
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
            help(stdout);
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
    o.plan.command_line = command_line;
    if (ndepths > 1)
        return run_ladder(&o.plan, depths, ndepths, o.plan.json, o.plan.html);
    return run_execute(&o.plan);
}
