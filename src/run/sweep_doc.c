/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep document's cells: the figures of one (size, load) out of its phase of a run's report, what zero xruns
 * there prove (the rule of three), and the cells the sweep skipped. Main thread. */
#include "run/sweep_doc.h"
#include "report/access.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *num(double v)
{
    return doc_number_json(v);
}

/* 45000 -> "45,000" */
static void thousands(char *buf, size_t len, double v)
{
    char raw[32];
    snprintf(raw, sizeof(raw), "%.0f", v);
    size_t n = strlen(raw), o = 0;
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0 && raw[i - 1] != '-')
            buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
}

/* 6.67e-5 -> "6.7e-5" (two significant figures, no leading zeros in the exponent) */
static void sci2(char *buf, size_t len, double v)
{
    if (!(v > 0)) {
        snprintf(buf, len, "0");
        return;
    }
    int e = (int)floor(log10(v));
    double m = v / pow(10, e);
    if (m >= 9.95) {
        m /= 10;
        e++;
    }
    if (e >= -2 && e <= 0)
        snprintf(buf, len, "%.2g", v);
    else
        snprintf(buf, len, "%.1fe%d", m, e);
}

void sweep_duration_text(char *buf, size_t len, double s)
{
    if (!(s >= 0))
        snprintf(buf, len, "-");
    else if (s < 1)
        snprintf(buf, len, "%.0f ms", 1000 * s);
    else if (s < 90)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 5400)
        snprintf(buf, len, "%.0f min", s / 60);
    else if (s < 2 * 86400)
        snprintf(buf, len, "%.1f h", s / 3600);
    else
        snprintf(buf, len, "%.1f days", s / 86400);
}

/* What the cell's xrun count proves, and how long to run for a claim ten times stronger. */
static json_t *proof(double events, double cycles, double measured_s)
{
    json_t *o = json_object();
    char text[400], c[32], t[32], b[32], ten[32], every[32];
    json_object_set_new(o, "confidence", json_real(SWEEP_CONFIDENCE));
    json_object_set_new(o, "events", num(events));
    json_object_set_new(o, "cycles", num(cycles));
    if (!(cycles >= 1) || isnan(events)) {
        json_object_set_new(o, "rate_bound_per_cycle", json_null());
        json_object_set_new(o, "text", json_string("no cycle measured: nothing proven"));
        return o;
    }
    thousands(c, sizeof(c), cycles);
    sweep_duration_text(t, sizeof(t), measured_s);
    sweep_duration_text(ten, sizeof(ten), 10 * measured_s);
    if (events > 0) {
        double per_s = measured_s > 0 ? events / measured_s : NAN;
        sweep_duration_text(every, sizeof(every), per_s > 0 ? 1 / per_s : NAN);
        snprintf(text, sizeof(text), "%.0f xrun event%s in %s cycles (%s): about one every %s", events,
                 events == 1 ? "" : "s", c, t, every);
        json_object_set_new(o, "rate_bound_per_cycle", json_null());
        json_object_set_new(o, "observed_rate_per_cycle", json_real(events / cycles));
    } else {
        double p = sweep_zero_bound(cycles, SWEEP_CONFIDENCE);
        double cps = measured_s > 0 ? cycles / measured_s : NAN;
        sci2(b, sizeof(b), p);
        sweep_duration_text(every, sizeof(every), cps > 0 ? 1 / (p * cps) : NAN);
        snprintf(text, sizeof(text), "0 xruns in %s cycles (%s): rate below %s per cycle at %.0f %% confidence "
                 "(fewer than one every %s); %s of measuring would make it 10x stronger", c, t, b,
                 100 * SWEEP_CONFIDENCE, every, ten);
        json_object_set_new(o, "rate_bound_per_cycle", json_real(p));
        json_object_set_new(o, "mean_s_between_xruns_at_least", num(cps > 0 ? 1 / (p * cps) : NAN));
    }
    json_object_set_new(o, "cycles_for_10x", json_real(10 * cycles));
    json_object_set_new(o, "seconds_for_10x", num(10 * measured_s));
    json_object_set_new(o, "text", utf8_json_string(text));
    return o;
}

static json_t *cell_frame(int rate, int frames, const char *load, enum sweep_state st, const char *why)
{
    json_t *c = json_object();
    json_object_set_new(c, "rate", json_integer(rate));
    json_object_set_new(c, "period_frames", json_integer(frames));
    json_object_set_new(c, "period_ms", json_real(1000.0 * frames / rate));
    json_object_set_new(c, "load", utf8_json_string(load));
    json_object_set_new(c, "state", json_string(sweep_state_name(st)));
    json_object_set_new(c, "measured", json_boolean(st == CELL_SAFE || st == CELL_UNSAFE));
    json_object_set_new(c, "why", why ? utf8_json_string(why) : json_null());
    return c;
}

json_t *sweep_cell_skipped(int rate, int frames, const char *load, enum sweep_state st, const char *why)
{
    return cell_frame(rate, frames, load, st, why);
}

void sweep_figs_of_phase(const json_t *phase, int rate, int frames, struct sweep_figs *f)
{
    const json_t *x = json_object_get(phase, "xruns"), *w = json_object_get(phase, "wakeup_us");
    f->cycles = doc_num(phase, "cycles");
    f->measured_s = doc_num(phase, "measured_s");
    f->period_us = 1e6 * frames / rate;
    f->events = doc_num(x, "events");
    f->missed = doc_num(phase, "deadlines_missed");
    f->met_pct = doc_num(phase, "deadlines_met_pct");
    f->wakeup_p999_us = doc_num(w, "p999");
    f->wakeup_max_us = doc_num(w, "max");
    f->margin_p999_us = sweep_hist_low_quantile(json_object_get(json_object_get(phase, "histograms"), "margin"),
                                                0.001);
    f->margin_min_us = doc_num(json_object_get(phase, "margin_us"), "min");
}

json_t *sweep_cell_measured(const json_t *phase, int rate, int frames, const char *load,
                            const struct sweep_rules *r, enum sweep_state *st, int *clear)
{
    struct sweep_figs f;
    sweep_figs_of_phase(phase, rate, frames, &f);
    int safe = sweep_judge(&f, r, clear);
    *st = safe ? CELL_SAFE : CELL_UNSAFE;
    char why[300];
    double need = r->warn_margin_pct / 100.0 * f.period_us;
    double events = isnan(f.events) ? 0 : f.events, missed = isnan(f.missed) ? 0 : f.missed;
    if (!(f.cycles >= 1))
        snprintf(why, sizeof(why), "no cycle was measured");
    else if (events > r->max_xruns || missed > r->max_missed)
        snprintf(why, sizeof(why), "%.0f xrun event%s and %.0f missed deadline%s (the profile allows %.0f and %.0f)%s",
                 events, events == 1 ? "" : "s", missed, missed == 1 ? "" : "s", r->max_xruns, r->max_missed,
                 *clear && !r->measure_all ? ": failed clearly, smaller sizes skipped" : "");
    else if (!safe && f.margin_p999_us < 0) /* a negative margin is a deadline missed: said so, never "-0 %" */
        snprintf(why, sizeof(why), "no xrun, but the slowest 0.1 %% of cycles ended %.0f µs past their deadline "
                 "(the profile asks for %.0f %% of the period, %.0f µs, kept)", -f.margin_p999_us,
                 r->warn_margin_pct, need);
    else if (!safe)
        snprintf(why, sizeof(why), "no xrun, but 99.9 %% of cycles kept only %.0f µs of margin, under the "
                 "profile's %.0f %% of the period (%.0f µs)", f.margin_p999_us, r->warn_margin_pct, need);
    else
        snprintf(why, sizeof(why), "no xrun, no missed deadline, 99.9 %% of cycles kept %.0f µs of margin (%.0f %% "
                 "of the period; the profile asks %.0f %%)%s", f.margin_p999_us, 100 * f.margin_p999_us / f.period_us,
                 r->warn_margin_pct, *clear && !r->measure_all ? ": passed with margin, larger sizes skipped" : "");
    json_t *c = cell_frame(rate, frames, load, *st, why);
    json_object_set_new(c, "clear", json_boolean(*clear));
    json_object_set_new(c, "measured_s", num(f.measured_s));
    json_object_set_new(c, "cycles", num(f.cycles));
    json_object_set_new(c, "xrun_events", num(f.events));
    const json_t *x = json_object_get(phase, "xruns");
    json_object_set_new(c, "xruns_reported", num(doc_num(x, "reported")));
    json_object_set_new(c, "skipped_cycles", num(doc_num(x, "skipped_cycles")));
    json_object_set_new(c, "deadlines_met_pct", num(f.met_pct));
    json_object_set_new(c, "deadlines_missed", num(f.missed));
    json_object_set_new(c, "wakeup_p999_us", num(f.wakeup_p999_us));
    json_object_set_new(c, "wakeup_max_us", num(f.wakeup_max_us));
    json_object_set_new(c, "margin_p999_us", num(f.margin_p999_us));
    json_object_set_new(c, "margin_p999_pct", num(100 * f.margin_p999_us / f.period_us));
    json_object_set_new(c, "margin_min_us", num(f.margin_min_us));
    json_object_set_new(c, "dropped", num(doc_num(phase, "dropped")));
    json_object_set_new(c, "proof", proof(f.events, f.cycles, f.measured_s));
    return c;
}
