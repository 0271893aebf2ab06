/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's waits (run_state.h): a phase's warm-up and measured part, and each step of a --dsp ramp, wait here
 * (run_wait_phase), watching why the run must stop (a signal, a lost provider, a hung one, the collector, the
 * loads) and drawing the status line; and its warnings (run_warn). Below run.c, run_dsp.c and run_report.c, which
 * call them. Main thread. */
#include "run/run_state.h"
#include "run/run_spill.h"
#include "util/termtext.h"
#include "util/wrap.h"

#define RUN_HUNG_S 2.0          /* no cycle for this long: the provider hung */
#define RUN_HUNG_TEXT "2 s"

/* Why must the run stop now? NULL while it may go on. */
static const char *stop_reason(struct run_state *st)
{
    const char *why = run_signals_reason();
    if (why)
        return why;
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    if (bs.lost) {
        st->provider_lost = 1;
        return bs.lost;
    }
    if (atomic_load(&st->col.error))
        return "out of memory in the collector";
    if (!load_plan_alive(st->plan, st->load_why, sizeof(st->load_why))) {
        load_plan_abort(st->plan); /* its loads and files go now, from here */
        return st->load_why;
    }
    /* A provider that stops running cycles without a word (a SIGSTOPped or wedged server) stops the run too. */
    uint64_t cycles = atomic_load(&st->sink.cycles);
    double now = mono_s();
    unsigned conts = run_signals_conts(NULL, 0);
    if (conts != st->conts_seen) { /* rtjitter itself was stopped: the cycles stopped with it, not the server */
        st->conts_seen = conts;
        st->last_cycle_s = now;
    }
    if (cycles != st->last_cycles || st->last_cycle_s == 0) {
        st->last_cycles = cycles;
        st->last_cycle_s = now;
    } else if (now - st->last_cycle_s > RUN_HUNG_S) {
        return "no audio cycle for " RUN_HUNG_TEXT ": the server hung or stopped";
    }
    return NULL;
}

/* 42 -> "0:42", 3725 -> "1:02:05" */
static void clock_text(char *b, size_t n, double s)
{
    long t = s > 0 ? (long)ceil(s) : 0;
    if (t >= 3600)
        snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

/* Where the run is (run.h): the part under way from st->part_t0 (the wait's own start and length before any
 * phase: the calibration), then every later phase's warm-up and measured part. */
static void progress_of(const struct run_state *st, int phase, double wait_t0, double secs, int warming,
                        struct run_progress *pg)
{
    const struct run_plan *p = st->p;
    double measure = st->ramps && p->dsp_ramp_step_pct > 0 ? ceil(100.0 / p->dsp_ramp_step_pct) * p->dsp_ramp_step_s
                                                          : p->duration_s;
    double now = mono_s();
    int in_phase = st->part_t0 > 0;
    double part_len = !in_phase ? secs : st->part_warming ? p->warmup_s : measure;
    pg->phase = phase;
    pg->nphases = st->nphases;
    pg->warming = warming;
    pg->part_elapsed_s = now - (in_phase ? st->part_t0 : wait_t0);
    pg->part_left_s = fmax(0, part_len - pg->part_elapsed_s);
    pg->run_left_s = pg->part_left_s + (!in_phase ? p->warmup_s + measure : st->part_warming ? measure : 0) +
                     (st->nphases - 1 - phase) * (p->warmup_s + measure);
}

static void status_line(struct run_state *st, const struct run_progress *pg, double total)
{
    if (!st->status_on)
        return;
    char when[32], left[24];
    if (pg->warming)
        snprintf(when, sizeof(when), "warm-up");
    else
        snprintf(when, sizeof(when), "%.1f/%.0f s", pg->part_elapsed_s, total);
    clock_text(left, sizeof(left), pg->run_left_s);
    /* Measured cycles only, as the report's table counts them (warm-ups never count). On a terminal narrower
     * than the whole line (80 columns: it is about 100), a shorter one, and never past the last column: a line the
     * terminal wrapped is not redrawn by "\r" but left behind, one more line each quarter of a second. */
    unsigned long long cycles = atomic_load(&st->col.st_cycles), rep = atomic_load(&st->col.st_reported),
                       det = atomic_load(&st->col.st_detected), ev = atomic_load(&st->col.st_events);
    double worst_us = (double)atomic_load(&st->col.st_worst_jitter_ns) / 1000.0;
    const char *load = load_plan_name(st->plan, pg->phase);
    char line[320];
    snprintf(line, sizeof(line), "[%d/%d] %-12s %-10s run %s left  cycles %llu  xruns %llu/%llu (%llu events)  "
             "worst jitter %.0f %s", pg->phase + 1, st->nphases, load, when, left, cycles, rep, det, ev, worst_us, st->us);
    int cols = wrap_tty_width(stdout);
    if (cols > 0 && wrap_cols(line) >= cols) {
        snprintf(line, sizeof(line), "[%d/%d] %s %s, run %s left, %llu xrun event%s, worst jitter %.0f %s",
                 pg->phase + 1, st->nphases, load, when, left, ev, ev == 1 ? "" : "s", worst_us, st->us);
        wrap_cut(line, cols - 1);
    }
    printf("\r\033[K%s", line);
    fflush(stdout);
}

/* Wait `secs`, sampling the provider's DSP load into pr when given. Returns 0, or -EINTR when the run must
 * stop. */
int run_wait_phase(struct run_state *st, int phase, double secs, struct phase_result *pr, double t_total)
{
    double t0 = mono_s(), next_status = 0;
    struct backend_status bs = { 0 };
    st->be->status(st->bpriv, &bs);
    unsigned last_frames = bs.period_frames, last_rate = bs.rate_hz;
    while (mono_s() - t0 < secs) {
        if ((st->stop_reason = stop_reason(st)))
            return -EINTR;
        if (pr && run_soak_tripped(st))
            return 0; /* --stop-at-us: the soak ends here, measured (not a stop of the run) */
        run_signals_wait_ms(50);
        run_culprits_audio(st); /* once the audio thread is known */
        run_spill_poll(st);     /* the finished phases' detail written out */
        if (st->watch) {
            watch_feed_poll(st->watch, run_culprits_results(st), 0);
            unsigned u = run_signals_usr1();
            if (u != st->usr1_seen) { /* SIGUSR1: the session so far */
                st->usr1_seen = u;
                watch_feed_summary(st->watch);
            }
        }
        st->be->status(st->bpriv, &bs);
        if (pr) {
            if (bs.dsp_load_pct >= 0) {
                double l = bs.dsp_load_pct;
                pr->cpu_load_mean += (l - pr->cpu_load_mean) / ++pr->cpu_load_samples;
                if (l > pr->cpu_load_max)
                    pr->cpu_load_max = l;
            }
            pr->measured_s = mono_s() - t0;
        }
        if (bs.period_frames != last_frames || bs.rate_hz != last_rate) {
            char w[160];
            snprintf(w, sizeof(w), "buffer changed during phase %s: %u frames @ %u Hz -> %u frames @ %u Hz",
                     load_plan_name(st->plan, phase), last_frames, last_rate, bs.period_frames, bs.rate_hz);
            /* watch says it where the musician reads (issue 33 item 3) from the cycles themselves (PH_BUFFER, in
             * watch_feed_poll), in order with the events: the server's status can show the new size before the
             * collector has told the events of the cycles before it */
            json_array_append_new(st->warnings, utf8_json_string(w));
            last_frames = bs.period_frames;
            last_rate = bs.rate_hz;
        }
        if (mono_s() >= next_status) {
            struct run_progress pg;
            progress_of(st, phase, t0, secs, pr == NULL, &pg);
            status_line(st, &pg, t_total);
            if (st->p->progress)
                st->p->progress(st->p->progress_arg, &pg);
            next_status = mono_s() + 0.25;
        }
    }
    return 0;
}

/* rtjitter watch: what it watches, said once the cycles run. */
void run_watch_begin(struct run_state *st, const struct backend_status *bs)
{
    char what[256];
    watch_feed_clock(st->watch, st->sink.clock);
    snprintf(what, sizeof(what), "%s server %s, %u frames @ %u Hz", bs->server_provider ? bs->server_provider : "JACK",
             bs->server_name && bs->server_name[0] ? bs->server_name : "(default)", bs->period_frames, bs->rate_hz);
    watch_out_begin(&st->watch->out, what);
    watch_feed_size(st->watch, bs->period_frames, bs->rate_hz);
}

void run_warn(struct run_state *st, const char *msg)
{
    json_array_append_new(st->warnings, utf8_json_string(msg));
    char shown[2048]; /* a warning may carry what the system or a server said: shown visibly (util/termtext.h) */
    if (!st->p->quiet)
        fprintf(stderr, "rtjitter: warning: %s\n", term_str(shown, sizeof(shown), msg));
}
