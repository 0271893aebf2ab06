/* Text rendering of a report document. It opens with the verdict in plain words (what was tested, whether
 * every deadline was met, what to try), then the system identity, then the interbench-style table. */
#include "render/text.h"
#include "report/access.h"
#include <math.h>
#include <string.h>

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
    const char *lvl = doc_str(v, "level", "?");
    char first[96];
    const char *word = strcmp(lvl, "pass") == 0 ? "PASS" : strcmp(lvl, "warn") == 0 ? "WARN" : "FAIL";
    /* Reports written before profiles existed have no profile name. */
    if (json_string_value(json_object_get(v, "profile")))
        snprintf(first, sizeof(first), "%s (%.60s profile): ", word, doc_str(v, "profile", ""));
    else
        snprintf(first, sizeof(first), "%s: ", word);
    wrap(f, first, 2, 110, doc_str(v, "summary", ""));
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
        snprintf(hz, sizeof(hz), "%.0f", doc_num(k, "hz"));
    fprintf(f, "kernel:  %s, preempt %s%s, HZ %s, NO_HZ %s, threadirqs %s, RT throttling %s (config: %s)\n",
            doc_str(k, "release", "?"), doc_str(k, "preempt", "?"),
            json_is_true(json_object_get(k, "preempt_dynamic")) ? " (dynamic)" : "", hz, doc_str(k, "nohz", "?"),
            yes_no(k, "threadirqs"), yes_no(json_object_get(k, "rt_throttling"), "enabled"),
            doc_str(k, "config_source", "unknown"));
    if (!json_is_object(c))
        return;
    fprintf(f, "cpu:     %s, ", doc_str(c, "model", "?"));
    if (json_is_integer(json_object_get(c, "cores")))
        fprintf(f, "%.0f cores / ", doc_num(c, "cores"));
    fprintf(f, "%.0f threads, governor %s", doc_num(c, "threads"), doc_str(c, "governor", "none"));
    if (json_is_integer(json_object_get(c, "freq_max_mhz")))
        fprintf(f, ", %.0f-%.0f MHz", doc_num(c, "freq_min_mhz"), doc_num(c, "freq_max_mhz"));
    fputc('\n', f);
    size_t i, j;
    const json_t *card, *irq;
    json_array_foreach(json_object_get(json_object_get(sys, "sound"), "cards"), i, card) {
        fprintf(f, "%s card %.0f %s", i ? "," : "sound:  ", doc_num(card, "index"), doc_str(card, "name", "?"));
        json_array_foreach(json_object_get(card, "irqs"), j, irq) {
            const json_t *th = json_array_get(json_object_get(irq, "threads"), 0);
            fprintf(f, " (irq %.0f %s", doc_num(irq, "irq"), doc_str(irq, "actions", ""));
            if (th)
                fprintf(f, ", thread priority %.0f", doc_num(th, "rt_priority"));
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
    fprintf(f, "rtjitter %s  %s%s\n", doc_str(json_object_get(doc, "tool"), "version", "?"),
            doc_str(doc, "started", ""), json_is_true(json_object_get(doc, "complete")) ? "" : "  [INCOMPLETE]");
    if (json_string_value(json_object_get(doc, "label")))
        fprintf(f, "label:   %s\n", doc_str(doc, "label", ""));
    identity_text(f, sys);
    fprintf(f, "audio:   %.0f frames @ %.0f Hz = %.3f ms, %s %s, %s server '%s'%s%s\n", doc_num(au, "period_frames"),
            doc_num(au, "rate"), doc_num(au, "period_us") / 1000.0, doc_str(au, "provider", "?"),
            doc_str(au, "provider_version", ""), doc_str(au, "server", "?"), doc_str(au, "server_name", "?"),
            json_string_value(json_object_get(au, "driver")) ? ", driver " : "", doc_str(au, "driver", ""));
    fprintf(f, "thread:  %s", doc_str(au, "sched_policy", "unknown"));
    if (json_is_integer(json_object_get(au, "priority")))
        fprintf(f, " priority %.0f", doc_num(au, "priority"));
    fprintf(f, ", memory %slocked, clock %s\n", json_is_true(json_object_get(au, "mlocked")) ? "" : "NOT ",
            doc_str(au, "clock", "?"));
    if (doc_num(au, "dsp_pct") > 0)
        fprintf(f, "dsp:     %.0f %% of each period burnt in the callback\n", doc_num(au, "dsp_pct"));

    /* The load column is as wide as the longest name up to 24; a longer name gets a line of its own. */
    int lw = 8;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        int n = (int)strlen(doc_str(p, "load", "?")) + (json_integer_value(json_object_get(p, "segments_in_phase")) > 1
                                                         ? 6 : 0);
        if (n > lw)
            lw = n > 24 ? 24 : n;
    }
    fprintf(f, "\n%-*s %24s %8s %8s %8s %24s %8s %8s %7s %7s %9s %7s\n", lw, "Load", "Jitter +/- SD (us)", "p99",
            "p99.9", "Max", "Wakeup +/- SD (us)", "p99", "Max", "%Dline", "%DsCPU", "Xruns r/d", "Dropped");
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *j = json_object_get(p, "jitter_us");
        const json_t *w = json_object_get(p, "wakeup_us");
        char name[PHASE_NAME_LEN];
        phase_display_name(p, name, sizeof(name));
        if ((int)strlen(name) > lw)
            fprintf(f, "%s\n%-*s", name, lw, "");
        else
            fprintf(f, "%-*s", lw, name);
        char ms[40];
        if (json_is_object(j))
            snprintf(ms, sizeof(ms), "%.1f +/- %.1f", doc_num(j, "mean"), doc_num(j, "sd"));
        else
            snprintf(ms, sizeof(ms), "-");
        fprintf(f, " %24s", ms);
        cell(f, 8, doc_num(j, "p99"), 1);
        cell(f, 8, doc_num(j, "p999"), 1);
        cell(f, 8, doc_num(j, "abs_max"), 1);
        if (json_is_object(w))
            snprintf(ms, sizeof(ms), "%.1f +/- %.1f", doc_num(w, "mean"), doc_num(w, "sd"));
        else
            snprintf(ms, sizeof(ms), "-");
        fprintf(f, " %24s", ms);
        cell(f, 8, doc_num(w, "p99"), 1);
        cell(f, 8, doc_num(w, "max"), 1);
        cell(f, 7, doc_num(p, "deadlines_met_pct"), 2);
        cell(f, 7, doc_num(p, "desired_cpu_pct"), 1);
        const json_t *x = json_object_get(p, "xruns");
        char xr[32];
        snprintf(xr, sizeof(xr), "%.0f/%.0f", doc_num(x, "reported"), doc_num(x, "detected"));
        fprintf(f, " %9s %7.0f\n", xr, doc_num(p, "dropped"));
        const json_t *lm;
        size_t li;
        json_array_foreach(json_object_get(p, "load_metrics"), li, lm)
            fprintf(f, "%*s   %s: %.3g %s\n", lw, "", doc_str(lm, "name", "?"), doc_num(lm, "value"),
                    doc_str(lm, "unit", ""));
        if (json_string_value(json_object_get(p, "load_error")))
            fprintf(f, "%*s   load: %s\n", lw, "", doc_str(p, "load_error", ""));
    }
    const json_t *wn;
    json_array_foreach(json_object_get(doc, "warnings"), i, wn)
        fprintf(f, "warning: %s\n", json_string_value(wn) ? json_string_value(wn) : "");
    if (!json_is_true(json_object_get(doc, "complete")))
        fprintf(f, "INCOMPLETE: %s\n", doc_str(doc, "incomplete_reason", "interrupted"));
}
