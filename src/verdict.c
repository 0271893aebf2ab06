/* The verdict: plain words from the phases of a report document. */
#include "report.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static double sub(const json_t *o, const char *k1, const char *k2)
{
    return num(json_object_get(o, k1), k2);
}

int report_verdict(json_t *doc, int64_t max_xruns, double max_jitter_us)
{
    const json_t *audio = json_object_get(doc, "audio");
    const json_t *phases = json_object_get(doc, "phases");
    double period_us = num(audio, "period_us");
    long long frames = (long long)num(audio, "period_frames");
    double rate = num(audio, "rate");
    long long xr_total = 0, missed_total = 0, dropped_total = 0;
    const char *worst = NULL;
    double worst_jit = -1;
    long long worst_bad = -1;
    const char *bad_load = NULL;
    size_t i;
    json_t *p;
    json_array_foreach(phases, i, p) {
        long long rep = (long long)sub(p, "xruns", "reported");
        long long det = (long long)sub(p, "xruns", "detected");
        long long xr = rep > det ? rep : det;
        double dm = num(p, "deadlines_missed");
        long long missed = isnan(dm) ? 0 : (long long)dm;
        double jit = sub(p, "jitter_us", "abs_max");
        xr_total += xr;
        missed_total += missed;
        dropped_total += (long long)num(p, "dropped");
        const char *load = json_string_value(json_object_get(p, "load"));
        if (xr + missed > worst_bad) {
            worst_bad = xr + missed;
            bad_load = load;
        }
        if (!isnan(jit) && jit > worst_jit) {
            worst_jit = jit;
            worst = load;
        }
    }
    int complete = json_is_true(json_object_get(doc, "complete"));
    int rt = json_is_true(json_object_get(audio, "realtime"));
    char summary[1024];
    const char *level;
    json_t *advice = json_array();
    if (json_array_size(phases) == 0) {
        level = "fail";
        snprintf(summary, sizeof(summary), "Nothing was measured%s.", complete ? "" : ": the run was interrupted");
    } else if (xr_total == 0 && missed_total == 0) {
        level = rt && dropped_total == 0 && complete ? "pass" : "warn";
        snprintf(summary, sizeof(summary),
                 "At %lld frames / %.0f Hz (%.2f ms) every deadline was met in every phase, with no xruns. "
                 "Worst jitter %.0f us under %s.",
                 frames, rate, period_us / 1000.0, worst_jit, worst ? worst : "?");
    } else {
        level = "fail";
        snprintf(summary, sizeof(summary),
                 "At %lld frames / %.0f Hz (%.2f ms): %lld xrun%s and %lld missed deadline%s; worst under %s.",
                 frames, rate, period_us / 1000.0, xr_total, xr_total == 1 ? "" : "s", missed_total,
                 missed_total == 1 ? "" : "s", bad_load ? bad_load : "?");
        json_array_append_new(advice, json_string("Try a larger buffer (twice the frames), the threadirqs kernel "
                                                  "option with rtirq, or a lowlatency kernel."));
    }
    if (!rt)
        json_array_append_new(advice, json_string("The audio thread did not run with real-time scheduling: "
                                                  "add your user to the audio group (jackd2 asks to set this up) "
                                                  "or run the server with -R."));
    if (dropped_total)
        json_array_append_new(advice, json_string("Some records were dropped (the collector fell behind): "
                                                  "the statistics miss those cycles."));
    if (!complete)
        json_array_append_new(advice, json_string("The run did not complete: the figures cover only the part "
                                                  "that ran."));
    int exceeded = 0;
    json_t *th = json_object();
    if (max_xruns >= 0) {
        json_object_set_new(th, "max_xruns", json_integer(max_xruns));
        exceeded |= xr_total > max_xruns;
    }
    if (max_jitter_us >= 0) {
        json_object_set_new(th, "max_jitter_us", json_real(max_jitter_us));
        exceeded |= worst_jit > max_jitter_us;
    }
    json_object_set_new(th, "exceeded", json_boolean(exceeded));
    json_object_set_new(doc, "thresholds", th);
    json_object_set_new(doc, "verdict", json_pack("{s:s, s:s, s:o}", "level", level, "summary", summary,
                                                  "advice", advice));
    return exceeded;
}
