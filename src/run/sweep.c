/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's loop (sweep.h): per rate, rounds of runs; each run measures one buffer size under the loads whose
 * answer is still open there (one phase per cell), so a size's loads share one client, one server set-up and
 * one report, and a load whose answer is known costs nothing more. Main thread. */
#include "run/sweep.h"
#include "run/sweep_doc.h"
#include "run/signals.h"
#include "render/sweep_render.h"
#include "report/access.h"
#include "report/doc.h"
#include "report/store.h"
#include "sysinfo/sysinfo.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include "util/wrap.h"
#include "verdict/profile.h"
#include "loadspec.h"
#include "rtclock.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sweep_ctx {
    const struct sweep_plan *sp;
    char *rows[SWEEP_MAX_LOADS];   /* the loads, as the user wrote each phase */
    int nrows;
    struct sweep_rules rules;
    json_t *profile;
    enum sweep_state state[SWEEP_MAX_RATES][SWEEP_MAX_LOADS][SWEEP_MAX_SIZES];
    json_t *cell[SWEEP_MAX_RATES][SWEEP_MAX_LOADS][SWEEP_MAX_SIZES];
    const struct backend_session_ops *so; /* the backend's session (backend.h), or NULL: each run opens anew */
    void *spriv;                   /* its private state */
    struct backend_session sess;   /* how the size changes (buffer_change), the server, the session's stop reason */
    const char *stop_reason;       /* set: incomplete */
    char run_why[300];             /* why the last run did not complete */
    int runs;
    int status_on;
    int now_ri, now_size;          /* the run under way (for the status line drawn while it runs) */
    double t0_s;                   /* mono_s() at the sweep's start */
    const int *now_rows;
    struct timespec started;
};

/* 42 -> "0:42", 3725 -> "1:02:05"; time left is rounded up, time gone by down (never "0:00 left" too soon) */
static void clock_text(char *b, size_t n, double s, int up)
{
    long t = s > 0 ? (long)(up ? ceil(s) : floor(s)) : 0;
    if (t >= 3600)
        snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

/* The grid as it fills in: one character per size for each load (? open, * measuring now, S safe, X unsafe, s/x
 * inferred, - not measured), then, while a run is under way (pg), the cell's time and what is left of it and, at
 * most, of the sweep: every cell still open is counted as measured (a pass or a clear fail closes others without
 * a run, so the sweep often ends sooner). stderr, on a terminal. */
static void status_grid(struct sweep_ctx *c, int ri, int now_size, const int *now_rows, const struct run_progress *pg)
{
    if (!c->status_on)
        return;
    const struct sweep_plan *sp = c->sp;
    char grid[400] = "", size[32] = "", cell[160] = "", brief[64] = "";
    size_t n = 0;
    for (int r = 0; r < c->nrows && n + 20 + (size_t)sp->nperiods < sizeof(grid); r++) {
        n += (size_t)snprintf(grid + n, sizeof(grid) - n, " %.12s[", c->rows[r]);
        for (int s = 0; s < sp->nperiods; s++) {
            static const char ch[] = { '?', 'S', 'X', 's', 'x', '-' };
            char k = ch[c->state[ri][r][s]];
            grid[n++] = s == now_size && now_rows[r] ? '*' : k;
        }
        grid[n++] = ']';
        grid[n] = 0;
    }
    if (now_size >= 0)
        snprintf(size, sizeof(size), " (%d frames)", sp->periods[now_size]);
    if (pg) {
        double w = sp->run.warmup_s, d = sp->run.duration_s;
        double cell_el = pg->warming ? pg->part_elapsed_s : w + pg->part_elapsed_s;
        double cell_left = pg->warming ? pg->part_left_s + d : pg->part_left_s;
        int open = 0;
        for (int k = 0; k < sp->nrates; k++)
            for (int r = 0; r < c->nrows; r++)
                for (int s = 0; s < sp->nperiods; s++)
                    open += c->state[k][r][s] == CELL_OPEN && !(k == ri && s == now_size && now_rows[r]);
        char el[24], left[24], all_el[24], all[24];
        clock_text(el, sizeof(el), cell_el, 0);
        clock_text(left, sizeof(left), cell_left, 1);
        clock_text(all_el, sizeof(all_el), mono_s() - c->t0_s, 0);
        clock_text(all, sizeof(all), pg->run_left_s + open * (w + d), 1);
        snprintf(cell, sizeof(cell), "  cell %d/%d %s, %s left; sweep %s, at most %s left", pg->phase + 1,
                 pg->nphases, el, left, all_el, all);
        snprintf(brief, sizeof(brief), "  at most %s left", all);
    }
    /* The whole line where it fits; on a narrower terminal (80 columns: with three loads it is about 110) the
     * grid and the time left, never past the last column (a wrapped line is left behind, not redrawn). */
    char line[700];
    snprintf(line, sizeof(line), "sweep %d Hz, run %d%s:%s%s", sp->rates[ri], c->runs + 1, size, grid, cell);
    int cols = wrap_tty_width(stderr);
    if (cols > 0 && wrap_cols(line) >= cols) {
        snprintf(line, sizeof(line), "run %d%s:%s%s", c->runs + 1, size, grid, brief);
        wrap_cut(line, cols - 1);
    }
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
}

/* run.h's progress: the status line redrawn while a run measures. Main thread. */
static void run_progress_cb(void *arg, const struct run_progress *pg)
{
    struct sweep_ctx *c = arg;
    status_grid(c, c->now_ri, c->now_size, c->now_rows, pg);
}

static void status_clear(struct sweep_ctx *c)
{
    if (c->status_on)
        fprintf(stderr, "\r\033[K");
}

/* The phase of doc for row name, the k-th of its name (a load listed once appears once per run unless the buffer
 * size changed during it, which makes the cell not measured). */
static const json_t *phase_of(const json_t *doc, const char *name, int *count)
{
    const json_t *found = NULL, *p;
    size_t i;
    *count = 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        if (strcmp(doc_str(p, "load", ""), name) == 0) {
            if (!found)
                found = p;
            (*count)++;
        }
    }
    return found;
}

static void set_cell(struct sweep_ctx *c, int ri, int r, int s, enum sweep_state st, json_t *cell)
{
    c->state[ri][r][s] = st;
    json_decref(c->cell[ri][r][s]);
    c->cell[ri][r][s] = cell;
}

/* cell, naming the report it came from ("report": its path in the store) when there is one. */
static json_t *with_report(json_t *cell, const char *report_path)
{
    if (cell && report_path[0])
        json_object_set_new(cell, "report", utf8_json_string(report_path));
    return cell;
}

/* The cells of one run, from its report (NULL when none was made), saved in the store at report_path ("" when
 * not saved): each cell it measured names that file. */
static void take_run(struct sweep_ctx *c, int ri, int s, const int *rows, const json_t *doc, int rc,
                     const char *report_path)
{
    const struct sweep_plan *sp = c->sp;
    int rate = sp->rates[ri], frames = sp->periods[s];
    for (int r = 0; r < c->nrows; r++) {
        if (!rows[r])
            continue;
        int n = 0;
        const json_t *ph = doc ? phase_of(doc, c->rows[r], &n) : NULL;
        char why[300];
        /* An interrupted run keeps the cells whose phase it measured to the end (the report says so per phase,
         * "finished"): they were measured as any other, and the document shows them. */
        if (!ph || (rc == 3 && !json_is_true(json_object_get(ph, "finished")))) {
            snprintf(why, sizeof(why), "the run did not complete: %s",
                     doc ? doc_str(doc, "incomplete_reason", "no report") : "no report was made");
            set_cell(c, ri, r, s, CELL_NOT_MEASURED,
                     with_report(sweep_cell_skipped(rate, frames, c->rows[r], CELL_NOT_MEASURED, why), report_path));
            continue;
        }
        double pf = doc_num(ph, "period_frames"), pr = doc_num(ph, "rate");
        if (n != 1 || pf != frames || pr != rate) {
            snprintf(why, sizeof(why), "the size was not in force: the provider ran %.0f frames at %.0f Hz%s%s", pf, pr,
                     n != 1 ? " and the buffer size changed during the phase" : "", c->sess.not_in_force);
            set_cell(c, ri, r, s, CELL_NOT_MEASURED,
                     with_report(sweep_cell_skipped(rate, frames, c->rows[r], CELL_NOT_MEASURED, why), report_path));
            continue;
        }
        enum sweep_state st;
        int clear;
        json_t *cell = with_report(sweep_cell_measured(ph, rate, frames, c->rows[r], &c->rules, &st, &clear),
                                   report_path);
        set_cell(c, ri, r, s, st, cell);
        enum sweep_state before[SWEEP_MAX_SIZES];
        memcpy(before, c->state[ri][r], sizeof(before));
        sweep_infer(c->state[ri][r], (size_t)sp->nperiods, (size_t)s, clear, sp->measure_all);
        for (int k = 0; k < sp->nperiods; k++)
            if (before[k] == CELL_OPEN && c->state[ri][r][k] != CELL_OPEN) {
                snprintf(why, sizeof(why), "not measured: %d frames %s", frames,
                         st == CELL_SAFE ? "passed with margin, so every larger size is taken as safe"
                                         : "failed clearly, so every smaller size is taken as unsafe");
                json_t *sk = sweep_cell_skipped(rate, sp->periods[k], c->rows[r], c->state[ri][r][k], why);
                json_object_set_new(sk, "inferred_from", json_integer(frames));
                set_cell(c, ri, r, k, c->state[ri][r][k], sk);
            }
    }
}

/* One run at size index s for the rows marked in rows. Returns run_execute()'s status. */
static int run_size(struct sweep_ctx *c, int ri, int s, const int *rows)
{
    const struct sweep_plan *sp = c->sp;
    char loads[4096];
    size_t o = 0;
    loads[0] = '\0';
    for (int r = 0; r < c->nrows; r++)
        if (rows[r] && o < sizeof(loads))
            o += (size_t)snprintf(loads + o, sizeof(loads) - o, "%s%s", o ? "," : "", c->rows[r]);
    struct run_plan p = sp->run;
    p.loads = loads;
    p.be.rate_hz = sp->rates[ri];
    p.be.period_frames = sp->periods[s];
    p.be.rate_given = p.be.period_given = 1;
    p.quiet = 1;
    p.json = p.html = NULL;
    char why[400];
    if (c->so && c->so->period(c->spriv, &c->sess, &p.be, why, sizeof(why)) < 0) { /* the size is not in force */
        for (int r = 0; r < c->nrows; r++)
            if (rows[r])
                set_cell(c, ri, r, s, CELL_NOT_MEASURED,
                         sweep_cell_skipped(sp->rates[ri], sp->periods[s], c->rows[r], CELL_NOT_MEASURED, why));
        c->runs++;
        return 0;
    }
    json_t *doc = NULL;
    char report_path[4608] = "";
    p.result = &doc;
    p.report_path = report_path;
    p.report_path_len = sizeof(report_path);
    status_grid(c, ri, s, rows, NULL);
    c->now_ri = ri;
    c->now_size = s;
    c->now_rows = rows;
    if (c->status_on) {
        p.progress = run_progress_cb;
        p.progress_arg = c;
    }
    int rc = run_execute(&p);
    c->runs++;
    if (rc == 3)
        snprintf(c->run_why, sizeof(c->run_why), "%s",
                 doc ? doc_str(doc, "incomplete_reason", "a run could not complete") : "a run could not complete");
    if (rc != 2)
        take_run(c, ri, s, rows, doc, rc, report_path);
    json_decref(doc);
    return rc;
}

/* Every size of rate ri, in rounds: each round measures the smallest size some open row wants next. */
static int sweep_rate(struct sweep_ctx *c, int ri)
{
    const struct sweep_plan *sp = c->sp;
    for (;;) {
        if ((c->stop_reason = run_signals_reason()))
            return 3;
        int want[SWEEP_MAX_LOADS], best = -1;
        for (int r = 0; r < c->nrows; r++) {
            want[r] = sweep_next_probe(c->state[ri][r], (size_t)sp->nperiods);
            if (want[r] >= 0 && (best < 0 || want[r] < best))
                best = want[r];
        }
        if (best < 0)
            return 0;
        int rows[SWEEP_MAX_LOADS];
        for (int r = 0; r < c->nrows; r++)
            rows[r] = want[r] == best;
        int rc = run_size(c, ri, best, rows);
        if (rc == 2)
            return 2;
        if (rc == 3) {
            c->stop_reason = run_signals_reason() ? run_signals_reason() : c->run_why;
            return 3;
        }
    }
}

static json_t *iso_now(void)
{
    struct timespec ts;
    struct tm tm;
    char buf[40];
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_string(buf);
}

static json_t *size_json(int frames, int rate)
{
    if (frames <= 0)
        return json_null();
    return json_pack("{s:i, s:f}", "frames", frames, "ms", 1000.0 * frames / rate);
}

/* The answer per rate: the smallest safe size per load and under every load. */
static json_t *answers(struct sweep_ctx *c)
{
    const struct sweep_plan *sp = c->sp;
    json_t *a = json_array();
    for (int ri = 0; ri < sp->nrates; ri++) {
        int rate = sp->rates[ri];
        json_t *per = json_array();
        enum sweep_state flat[SWEEP_MAX_LOADS * SWEEP_MAX_SIZES];
        for (int r = 0; r < c->nrows; r++) {
            int k = sweep_smallest_safe(c->state[ri][r], (size_t)sp->nperiods);
            json_t *e = json_object();
            json_object_set_new(e, "load", utf8_json_string(c->rows[r]));
            json_object_set_new(e, "smallest_safe", size_json(k >= 0 ? sp->periods[k] : 0, rate));
            json_array_append_new(per, e);
            memcpy(flat + r * sp->nperiods, c->state[ri][r], sizeof(enum sweep_state) * (size_t)sp->nperiods);
        }
        int all = sweep_smallest_overall(flat, (size_t)c->nrows, (size_t)sp->nperiods);
        json_array_append_new(a, json_pack("{s:i, s:o, s:o}", "rate", rate, "per_load", per, "overall",
                                           size_json(all >= 0 ? sp->periods[all] : 0, rate)));
    }
    return a;
}

static json_t *build_doc(struct sweep_ctx *c)
{
    const struct sweep_plan *sp = c->sp;
    json_t *doc = doc_begin(SWEEP_SCHEMA, 1);
    struct tm tm;
    char buf[40];
    gmtime_r(&c->started.tv_sec, &tm);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_object_set_new(doc, "complete", json_boolean(!c->stop_reason));
    json_object_set_new(doc, "incomplete_reason", c->stop_reason ? utf8_json_string(c->stop_reason) : json_null());
    json_object_set_new(doc, "label", sp->run.label ? utf8_json_string(sp->run.label) : json_null());
    json_object_set_new(doc, "started", json_string(buf));
    json_object_set_new(doc, "finished", iso_now());
    json_t *sys = sysinfo_collect("");
    doc_set_origin(doc, sp->run.command_line, sys);
    json_decref(sys);
    json_t *audio = json_object();
    json_object_set_new(audio, "backend", json_string(sp->run.backend->name));
    if (sp->run.backend_auto)
        json_object_set_new(audio, "backend_auto", utf8_json_string(sp->run.backend_auto));
    json_object_set_new(audio, "server", c->sess.server ? utf8_json_string(c->sess.server) : json_null());
    json_object_set_new(audio, "device", sp->run.be.device ? utf8_json_string(sp->run.be.device) : json_null());
    json_object_set_new(audio, "buffer_change", json_string(c->sess.buffer_change));
    if (c->so && c->so->describe)
        c->so->describe(c->spriv, audio);
    json_object_set_new(audio, "dsp_pct", json_real(sp->run.be.dsp_pct));
    json_object_set_new(doc, "audio", audio);
    json_t *prof = json_object();
    json_object_set_new(prof, "name", json_string(doc_str(c->profile, "name", "?")));
    json_object_set_new(prof, "max_xruns", json_real(c->rules.max_xruns));
    json_object_set_new(prof, "max_deadlines_missed", json_real(c->rules.max_missed));
    json_object_set_new(prof, "warn_margin_pct", json_real(c->rules.warn_margin_pct));
    json_object_set_new(doc, "profile", prof);
    json_object_set_new(doc, "rules", json_pack("{s:s, s:f, s:i, s:b, s:f}", "safe",
        "no more xrun events and missed deadlines than the profile allows, and a margin kept by 99.9 % of cycles of "
        "at least the profile's warn_margin_pct of the period", "pass_margin_pct", c->rules.pass_margin_pct,
        "stop_after_fail", c->rules.stop_after_fail, "measure_all", sp->measure_all, "confidence", SWEEP_CONFIDENCE));
    json_t *rates = json_array(), *periods = json_array(), *loads = json_array(), *cells = json_array();
    for (int ri = 0; ri < sp->nrates; ri++)
        json_array_append_new(rates, json_integer(sp->rates[ri]));
    for (int s = 0; s < sp->nperiods; s++)
        json_array_append_new(periods, json_integer(sp->periods[s]));
    for (int r = 0; r < c->nrows; r++)
        json_array_append_new(loads, utf8_json_string(c->rows[r]));
    for (int ri = 0; ri < sp->nrates; ri++)
        for (int r = 0; r < c->nrows; r++)
            for (int s = 0; s < sp->nperiods; s++) {
                json_t *cell = c->cell[ri][r][s];
                if (!cell)
                    cell = sweep_cell_skipped(sp->rates[ri], sp->periods[s], c->rows[r], CELL_OPEN,
                                              c->stop_reason ? "not measured: the sweep stopped first" : NULL);
                else
                    json_incref(cell);
                json_array_append_new(cells, cell);
            }
    json_object_set_new(doc, "rates", rates);
    json_object_set_new(doc, "periods", periods);
    json_object_set_new(doc, "loads", loads);
    json_object_set_new(doc, "duration_s", json_real(sp->run.duration_s));
    json_object_set_new(doc, "warmup_s", json_real(sp->run.warmup_s));
    json_object_set_new(doc, "runs", json_integer(c->runs));
    json_object_set_new(doc, "cells", cells);
    json_object_set_new(doc, "smallest_safe", answers(c));
    return doc;
}

/* The store's sweeps live beside its reports (STORE/../sweeps, or DIR/sweeps with --output DIR), so that
 * `rtjitter compare`, which reads every report of the store, never meets a sweep. */
static int sweeps_dir(const char *output, char *buf, size_t len)
{
    char store[4096];
    int e = store_dir(output, store, sizeof(store));
    if (e < 0)
        return e;
    if (!output) {
        char *slash = strrchr(store, '/');
        if (slash)
            *slash = '\0';
    }
    if ((size_t)snprintf(buf, len, "%s/sweeps", store) >= len)
        return -ENAMETOOLONG;
    return 0;
}

/* The document to every place asked for. 0, or -errno of the first failure (each said on stderr). */
static int write_outputs(struct sweep_ctx *c, json_t *doc)
{
    const struct sweep_plan *sp = c->sp;
    int rc = 0, e;
    char dir[4200], rel[256], path[4400];
    sysinfo_release("", rel, sizeof(rel));
    if ((e = sweeps_dir(sp->run.output, dir, sizeof(dir))) < 0 ||
        (e = store_save(doc, dir, rel, sp->run.label ? sp->run.label : "sweep", c->started, path, sizeof(path))) < 0) {
        fprintf(stderr, "rtjitter sweep: cannot store the sweep under %s: %s\n", dir, doc_strerror(e));
        rc = e;
    } else if (!sp->run.quiet) {
        printf("sweep: %s\n", path);
    }
    if (sp->json && (e = doc_write_json(sp->json, DOC_REPLACE, doc)) < 0) {
        fprintf(stderr, "rtjitter sweep: cannot write %s: %s\n", sp->json, doc_strerror(e));
        rc = rc ? rc : e;
    }
    if (sp->html && (e = doc_write(sp->html, DOC_REPLACE, html_sweep_body, doc)) < 0) {
        fprintf(stderr, "rtjitter sweep: cannot write %s: %s\n", sp->html, doc_strerror(e));
        rc = rc ? rc : e;
    }
    if (rc < 0) /* nothing measured is lost: the document goes to stderr */
        json_dumpf(doc, stderr, JSON_INDENT(1));
    return rc;
}

/* Bad input before anything runs: the loads, the profile, the outputs, the way the size can change. */
static int prepare(struct sweep_ctx *c)
{
    const struct sweep_plan *sp = c->sp;
    char err[512];
    struct load_spec spec;
    memset(&spec, 0, sizeof(spec));
    if (load_spec_parse(sp->run.loads, &spec, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter sweep: --loads: %s\n", err);
        return -EINVAL;
    }
    if (spec.nphases > SWEEP_MAX_LOADS) {
        fprintf(stderr, "rtjitter sweep: --loads: %d phases, %d at most\n", spec.nphases, SWEEP_MAX_LOADS);
        load_spec_free(&spec);
        return -EINVAL;
    }
    for (int i = 0; i < spec.nphases; i++) {
        for (int k = 0; k < c->nrows; k++)
            if (strcmp(c->rows[k], spec.phase[i].name) == 0) {
                fprintf(stderr, "rtjitter sweep: --loads: '%s' is listed twice\n", spec.phase[i].name);
                load_spec_free(&spec);
                return -EINVAL;
            }
        c->rows[c->nrows++] = strdup(spec.phase[i].name);
    }
    load_spec_free(&spec);
    if (profile_load(sp->run.profile ? sp->run.profile : PROFILE_DEFAULT, &c->profile, err, sizeof(err)) < 0) {
        fprintf(stderr, "rtjitter sweep: --profile: %s\n", term_fix(err, sizeof(err))); /* it may quote the file */
        return -EINVAL;
    }
    c->rules.max_xruns = sp->run.max_xruns >= 0 ? sp->run.max_xruns : doc_num(c->profile, "max_xruns");
    c->rules.max_missed = doc_num(c->profile, "max_deadlines_missed");
    c->rules.warn_margin_pct = doc_num(c->profile, "warn_margin_pct");
    if (isnan(c->rules.max_xruns))
        c->rules.max_xruns = 0;
    if (isnan(c->rules.max_missed))
        c->rules.max_missed = 0;
    if (isnan(c->rules.warn_margin_pct))
        c->rules.warn_margin_pct = 0;
    c->rules.pass_margin_pct = sp->pass_margin_pct >= 0 ? sp->pass_margin_pct : 2 * c->rules.warn_margin_pct;
    c->rules.stop_after_fail = sp->stop_after_fail;
    c->rules.measure_all = sp->measure_all;
    const char *outs[2] = { sp->json, sp->html };
    for (int k = 0; k < 2; k++) {
        int e = outs[k] ? doc_check(outs[k], DOC_REPLACE) : 0;
        if (e < 0) {
            fprintf(stderr, "rtjitter sweep: cannot write %s: %s\n", outs[k], doc_strerror(e));
            return -EINVAL;
        }
    }
    char dir[4200], rel[256], where[4400];
    int e = sweeps_dir(sp->run.output, dir, sizeof(dir));
    if (e == 0)
        e = store_check(dir, sysinfo_release("", rel, sizeof(rel)), where, sizeof(where));
    if (e < 0) {
        fprintf(stderr, "rtjitter sweep: cannot store sweeps under %s: %s\n", dir, doc_strerror(e));
        return -EINVAL;
    }
    /* How the size changes from run to run: the backend's session says (backend.h), or each run opens anew. */
    c->sess = (struct backend_session){ .who = "rtjitter sweep", .quiet = sp->run.quiet, .buffer_change = "direct",
                                        .server = sp->run.be.server, .not_in_force = "" };
    c->so = sp->run.backend ? sp->run.backend->session : NULL;
    if (c->so && !(c->spriv = calloc(1, c->so->private_size ? c->so->private_size : 1))) {
        fprintf(stderr, "rtjitter sweep: out of memory\n");
        return -ENOMEM;
    }
    char msg[8192]; /* it may quote --server */
    if (c->so && c->so->check(c->spriv, &c->sess, &sp->run.be, msg, sizeof(msg)) < 0) {
        fprintf(stderr, "rtjitter sweep: %s\n", msg);
        return -EINVAL;
    }
    return 0;
}

int sweep_execute(const struct sweep_plan *sp)
{
    struct sweep_ctx *c = calloc(1, sizeof(*c));
    if (!c) {
        fprintf(stderr, "rtjitter sweep: out of memory\n");
        return 3;
    }
    c->sp = sp;
    clock_gettime(CLOCK_REALTIME, &c->started);
    c->t0_s = mono_s();
    int rc = prepare(c) < 0 ? 2 : 0;
    if (rc == 0) {
        run_signals_setup();
        c->status_on = !sp->run.quiet && isatty(STDERR_FILENO);
        char err[1024];
        if (c->so && c->so->begin(c->spriv, &c->sess, err, sizeof(err)) < 0) {
            fprintf(stderr, "rtjitter sweep: %s\n", err);
            c->stop_reason = c->sess.why;
            rc = 3;
        }
        for (int ri = 0; ri < sp->nrates && rc == 0 && !c->stop_reason; ri++) {
            if (c->so && c->so->rate(c->spriv, &c->sess, sp->rates[ri], sp->periods[0], err, sizeof(err)) < 0) {
                /* a stop asked for while the session started (a private server) is why the sweep stopped (the start
                 * only gave up on it): the document says the signal, as it would a moment later */
                run_signals_wait_ms(0); /* the stop signal the start-up saw pending, taken */
                const char *sig = run_signals_reason();
                fprintf(stderr, "rtjitter sweep: %s\n", err);
                c->stop_reason = sig ? sig : c->sess.why;
                rc = 3;
                break;
            }
            rc = sweep_rate(c, ri);
        }
        status_clear(c);
        if (c->so)
            c->so->end(c->spriv, &c->sess); /* the main path, after an interrupt too (signals only set a flag) */
        if (rc != 2) {
            json_t *doc = build_doc(c);
            if (!sp->run.quiet) {
                struct render_opts ro;
                render_opts_detect(&ro, stdout);
                text_sweep_print(stdout, doc, &ro);
            }
            if (write_outputs(c, doc) < 0)
                rc = 3;
            if (rc == 0) {
                const json_t *a;
                size_t i;
                json_array_foreach(json_object_get(doc, "smallest_safe"), i, a)
                    if (json_is_null(json_object_get(a, "overall")))
                        rc = 1;
            }
            json_decref(doc);
        }
        if (c->stop_reason && !sp->run.quiet)
            fprintf(stderr, "rtjitter: sweep incomplete: %s\n", c->stop_reason);
    }
    for (int ri = 0; ri < SWEEP_MAX_RATES; ri++)
        for (int r = 0; r < SWEEP_MAX_LOADS; r++)
            for (int s = 0; s < SWEEP_MAX_SIZES; s++)
                json_decref(c->cell[ri][r][s]);
    for (int r = 0; r < c->nrows; r++)
        free(c->rows[r]);
    json_decref(c->profile);
    free(c->spriv);
    free(c);
    return rc;
}
