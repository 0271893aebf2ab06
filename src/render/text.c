/* Text rendering of a report document. It opens with the verdict in plain words (what was tested, whether
 * every deadline was met, what to try), then the system identity, then the interbench-style table. */
#include "report/report.h"
#include <math.h>
#include <string.h>

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *k, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : dflt;
}

static void cell(FILE *f, int width, double v, int prec)
{
    if (isnan(v))
        fprintf(f, " %*s", width, "-");
    else
        fprintf(f, " %*.*f", width, prec, v);
}

/* Prints text wrapped at `width` columns, the first line after `first`, the others indented by `indent`. */
static void wrap(FILE *f, const char *first, int indent, int width, const char *text)
{
    int col = fprintf(f, "%s", first), at_start = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        int wl = (int)(e - p);
        if (!wl)
            break;
        if (!at_start && col + 1 + wl > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            at_start = 1;
        }
        if (!at_start) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", wl, p);
        col += wl;
        at_start = 0;
        p = e;
    }
    fputc('\n', f);
}

static void verdict_text(FILE *f, const json_t *v)
{
    const char *lvl = str(v, "level", "?");
    char first[96];
    const char *word = strcmp(lvl, "pass") == 0 ? "PASS" : strcmp(lvl, "warn") == 0 ? "WARN" : "FAIL";
    /* Reports written before profiles existed have no profile name. */
    if (json_string_value(json_object_get(v, "profile")))
        snprintf(first, sizeof(first), "%s (%.60s profile): ", word, str(v, "profile", ""));
    else
        snprintf(first, sizeof(first), "%s: ", word);
    wrap(f, first, 2, 110, str(v, "summary", ""));
    size_t i;
    const json_t *adv;
    json_array_foreach(json_object_get(v, "advice"), i, adv)
        if (json_string_value(adv))
            wrap(f, "  - ", 4, 110, json_string_value(adv));
}

static const char *yes_no(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_true(v) ? "yes" : json_is_false(v) ? "no" : "?";
}

/* The lines of the system identity a musician compares between kernels. */
static void identity_text(FILE *f, const json_t *sys)
{
    const json_t *k = json_object_get(sys, "kernel"), *c = json_object_get(sys, "cpu");
    char hz[32] = "?";
    if (json_is_integer(json_object_get(k, "hz")))
        snprintf(hz, sizeof(hz), "%.0f", num(k, "hz"));
    fprintf(f, "kernel:  %s, preempt %s%s, HZ %s, NO_HZ %s, threadirqs %s, RT throttling %s (config: %s)\n",
            str(k, "release", "?"), str(k, "preempt", "?"),
            json_is_true(json_object_get(k, "preempt_dynamic")) ? " (dynamic)" : "", hz, str(k, "nohz", "?"),
            yes_no(k, "threadirqs"), yes_no(json_object_get(k, "rt_throttling"), "enabled"),
            str(k, "config_source", "unknown"));
    if (!json_is_object(c))
        return;
    fprintf(f, "cpu:     %s, ", str(c, "model", "?"));
    if (json_is_integer(json_object_get(c, "cores")))
        fprintf(f, "%.0f cores / ", num(c, "cores"));
    fprintf(f, "%.0f threads, governor %s", num(c, "threads"), str(c, "governor", "none"));
    if (json_is_integer(json_object_get(c, "freq_max_mhz")))
        fprintf(f, ", %.0f-%.0f MHz", num(c, "freq_min_mhz"), num(c, "freq_max_mhz"));
    fputc('\n', f);
    size_t i, j;
    const json_t *card, *irq;
    json_array_foreach(json_object_get(json_object_get(sys, "sound"), "cards"), i, card) {
        fprintf(f, "%s card %.0f %s", i ? "," : "sound:  ", num(card, "index"), str(card, "name", "?"));
        json_array_foreach(json_object_get(card, "irqs"), j, irq) {
            const json_t *th = json_array_get(json_object_get(irq, "threads"), 0);
            fprintf(f, " (irq %.0f %s", num(irq, "irq"), str(irq, "actions", ""));
            if (th)
                fprintf(f, ", thread priority %.0f", num(th, "rt_priority"));
            fputc(')', f);
        }
    }
    if (i)
        fputc('\n', f);
}

void report_print_text(FILE *f, const json_t *doc)
{
    const json_t *au = json_object_get(doc, "audio");
    const json_t *sys = json_object_get(doc, "system");
    const json_t *v = json_object_get(doc, "verdict");
    size_t i;
    if (json_is_object(v)) {
        verdict_text(f, v);
        fputc('\n', f);
    }
    fprintf(f, "rtjitter %s  %s%s\n", str(json_object_get(doc, "tool"), "version", "?"), str(doc, "started", ""),
            json_is_true(json_object_get(doc, "complete")) ? "" : "  [INCOMPLETE]");
    if (json_string_value(json_object_get(doc, "label")))
        fprintf(f, "label:   %s\n", str(doc, "label", ""));
    identity_text(f, sys);
    fprintf(f, "audio:   %.0f frames @ %.0f Hz = %.3f ms, %s %s, %s server '%s'%s%s\n", num(au, "period_frames"),
            num(au, "rate"), num(au, "period_us") / 1000.0, str(au, "provider", "?"), str(au, "provider_version", ""),
            str(au, "server", "?"), str(au, "server_name", "?"), json_string_value(json_object_get(au, "driver"))
            ? ", driver " : "", str(au, "driver", ""));
    fprintf(f, "thread:  %s", str(au, "sched_policy", "unknown"));
    if (json_is_integer(json_object_get(au, "priority")))
        fprintf(f, " priority %.0f", num(au, "priority"));
    fprintf(f, ", memory %slocked, clock %s\n", json_is_true(json_object_get(au, "mlocked")) ? "" : "NOT ",
            str(au, "clock", "?"));
    if (num(au, "dsp_pct") > 0)
        fprintf(f, "dsp:     %.0f %% of each period burnt in the callback\n", num(au, "dsp_pct"));

    /* The load column is as wide as the longest name up to 24; a longer name gets a line of its own. */
    int lw = 8;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        int n = (int)strlen(str(p, "load", "?")) + (json_integer_value(json_object_get(p, "segments_in_phase")) > 1
                                                         ? 6 : 0);
        if (n > lw)
            lw = n > 24 ? 24 : n;
    }
    fprintf(f, "\n%-*s %24s %8s %8s %8s %24s %8s %8s %7s %7s %9s %7s\n", lw, "Load", "Jitter +/- SD (us)", "p99",
            "p99.9", "Max", "Wakeup +/- SD (us)", "p99", "Max", "%Dline", "%DsCPU", "Xruns r/d", "Dropped");
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *j = json_object_get(p, "jitter_us");
        const json_t *w = json_object_get(p, "wakeup_us");
        char name[320];
        const json_t *segs = json_object_get(p, "segments_in_phase");
        if (json_integer_value(segs) > 1)
            snprintf(name, sizeof(name), "%.300s@%.0f", str(p, "load", "?"), num(p, "period_frames"));
        else
            snprintf(name, sizeof(name), "%.300s", str(p, "load", "?"));
        if ((int)strlen(name) > lw)
            fprintf(f, "%s\n%-*s", name, lw, "");
        else
            fprintf(f, "%-*s", lw, name);
        char ms[40];
        if (json_is_object(j))
            snprintf(ms, sizeof(ms), "%.1f +/- %.1f", num(j, "mean"), num(j, "sd"));
        else
            snprintf(ms, sizeof(ms), "-");
        fprintf(f, " %24s", ms);
        cell(f, 8, num(j, "p99"), 1);
        cell(f, 8, num(j, "p999"), 1);
        cell(f, 8, num(j, "abs_max"), 1);
        if (json_is_object(w))
            snprintf(ms, sizeof(ms), "%.1f +/- %.1f", num(w, "mean"), num(w, "sd"));
        else
            snprintf(ms, sizeof(ms), "-");
        fprintf(f, " %24s", ms);
        cell(f, 8, num(w, "p99"), 1);
        cell(f, 8, num(w, "max"), 1);
        cell(f, 7, num(p, "deadlines_met_pct"), 2);
        cell(f, 7, num(p, "desired_cpu_pct"), 1);
        const json_t *x = json_object_get(p, "xruns");
        char xr[32];
        snprintf(xr, sizeof(xr), "%.0f/%.0f", num(x, "reported"), num(x, "detected"));
        fprintf(f, " %9s %7.0f\n", xr, num(p, "dropped"));
        const json_t *lm;
        size_t li;
        json_array_foreach(json_object_get(p, "load_metrics"), li, lm)
            fprintf(f, "%*s   %s: %.3g %s\n", lw, "", str(lm, "name", "?"), num(lm, "value"), str(lm, "unit", ""));
        if (json_string_value(json_object_get(p, "load_error")))
            fprintf(f, "%*s   load: %s\n", lw, "", str(p, "load_error", ""));
    }
    const json_t *wn;
    json_array_foreach(json_object_get(doc, "warnings"), i, wn)
        fprintf(f, "warning: %s\n", json_string_value(wn) ? json_string_value(wn) : "");
    if (!json_is_true(json_object_get(doc, "complete")))
        fprintf(f, "INCOMPLETE: %s\n", str(doc, "incomplete_reason", "interrupted"));
}
