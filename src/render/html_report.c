/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML page of one report: the verdict in plain words and the system identity first, then the results
 * table, per load a latency histogram and a timeline, and the full identity and audio set-up at the end. */
#include "render/html.h"
#include "render/html_culprits.h"
#include "render/html_noise.h"
#include "render/headline.h"
#include "render/matrix.h"
#include "render/render.h"
#include "render/setting.h"
#include "render/sweep_render.h"
#include "render/loopback_render.h"
#include "render/svg.h"
#include "render/svg_ramp.h"
#include "render/svg_soak.h"
#include "report/access.h"
#include "report/rhist.h"
#include "report/phase_figures.h"
#include "util/numfmt.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void kv_row(const char *key, const char *value, void *arg)
{
    FILE *f = arg;
    fputs("<tr><td class=\"k\">", f);
    html_escape(f, key);
    fputs("</td><td class=\"v\">", f);
    html_escape(f, value);
    fputs("</td></tr>\n", f);
}

static void kv_table(FILE *f, const json_t *o)
{
    fputs("<table>\n", f);
    if (json_is_object(o))
        flatten_json(o, "", 0, kv_row, f);
    fputs("</table>\n", f);
}

static const char *level_class(const char *level)
{
    if (level && !strcmp(level, "pass"))
        return "pass";
    if (level && !strcmp(level, "warn"))
        return "warn";
    if (level && !strcmp(level, "fail"))
        return "fail";
    return "";
}

static void identity_line(FILE *f, const json_t *doc)
{
    const json_t *sys = json_object_get(doc, "system");
    const json_t *k = json_object_get(sys, "kernel"), *cpu = json_object_get(sys, "cpu");
    const json_t *au = json_object_get(doc, "audio");
    char buf[512];
    fputs("<p><b>Kernel</b> ", f);
    html_escape(f, doc_str(k, "release", "unknown"));
    static const char *const kkeys[] = { "preempt", "hz" };
    for (size_t i = 0; i < 2; i++) {
        const json_t *v = json_object_get(k, kkeys[i]);
        if (!v || json_is_object(v) || json_is_array(v))
            continue;
        fputs(", ", f);
        html_escape(f, kkeys[i]);
        fputc(' ', f);
        if (json_is_string(v))
            html_escape(f, json_string_value(v));
        else if (json_is_number(v))
            fprintf(f, "%g", json_number_value(v));
    }
    const char *model = doc_str(cpu, "model", NULL);
    if (model) {
        fputs(" · <b>CPU</b> ", f);
        html_escape(f, model);
    }
    if (doc_str(sys, "hostname", NULL)) {
        fputs(" · <b>host</b> ", f);
        html_escape(f, doc_str(sys, "hostname", NULL));
    }
    render_setting(buf, sizeof(buf), au, 1);
    fputs("<br><b>Audio</b> ", f);
    html_escape(f, buf);
    fputs(", ", f);
    html_escape(f, doc_str(au, "provider", "?"));
    if (doc_str(au, "provider_version", NULL)) {
        fputc(' ', f);
        html_escape(f, doc_str(au, "provider_version", NULL));
    }
    fputs(", ", f);
    if (doc_str(au, "server", NULL)) { /* the timer and ALSA backends have none */
        html_escape(f, doc_str(au, "server", NULL));
        fputs(" server, ", f);
    }
    html_escape(f, json_is_true(json_object_get(au, "realtime")) ? "real-time scheduling" :
                "NOT real-time scheduling");
    if (*render_dsp_share(buf, sizeof(buf), doc)) {
        fputs("<br><b>DSP</b> ", f);
        html_escape(f, buf);
    }
    fputs("</p>\n", f);
}

/* The limits a cell is judged by: the report's thresholds (what the verdict used), else its profile's; any xrun
 * and any missed deadline when a report carries neither (the studio default). */
struct limits {
    double max_xruns, max_missed, max_jitter_us, warn_jitter_pct;
    const char *profile;
};

static void read_limits(const json_t *doc, struct limits *L)
{
    const json_t *th = json_object_get(doc, "thresholds"), *pr = json_object_get(doc, "profile");
    L->max_xruns = doc_num(th, "max_xruns");
    if (isnan(L->max_xruns))
        L->max_xruns = doc_num(pr, "max_xruns");
    if (isnan(L->max_xruns))
        L->max_xruns = 0;
    L->max_missed = doc_num(th, "max_deadlines_missed");
    if (isnan(L->max_missed))
        L->max_missed = doc_num(pr, "max_deadlines_missed");
    if (isnan(L->max_missed))
        L->max_missed = 0;
    L->max_jitter_us = doc_num(th, "max_jitter_us");
    L->warn_jitter_pct = doc_num(pr, "warn_jitter_pct");
    L->profile = doc_str(pr, "name", doc_str(th, "profile", NULL));
}

/* A cell: v with one decimal, and when period_us is given, its share of the period beneath. */
static void us_cell(FILE *f, const char *cls, const char *why, double v, double period_us)
{
    fprintf(f, "<td%s%s%s", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    if (why) {
        fputs(" title=\"", f);
        html_escape(f, why);
        fputc('"', f);
    }
    fputc('>', f);
    html_num(f, v, 1);
    if (period_us > 0 && !isnan(v)) {
        double pc = 100 * v / period_us;
        if (pc > 0 && pc < 0.5)
            fputs("<span class=\"pct\">&lt;1 %</span>", f);
        else
            fprintf(f, "<span class=\"pct\">%.0f %%</span>", pc);
    }
    fputs("</td>", f);
}

static void mean_sd_cell(FILE *f, const json_t *m)
{
    fputs("<td>", f);
    html_num(f, doc_num(m, "mean"), 1);
    fputs(" ± ", f);
    html_num(f, doc_num(m, "sd"), 1);
    fputs("</td>", f);
}

static void phases_table(FILE *f, const json_t *doc, const struct limits *L)
{
    fputs("<div class=\"wide\"><table class=\"results\">\n<tr><th class=\"k\" rowspan=\"2\">Load</th>"
          "<th colspan=\"4\" class=\"grp\">|jitter|, µs (and % of the period)</th>"
          "<th colspan=\"4\" class=\"grp\">wakeup, µs (and % of the period)</th>"
          "<th rowspan=\"2\">deadlines<br>met %</th><th rowspan=\"2\">xrun events<small>reported /<br>detected</small></th>"
          "<th rowspan=\"2\">skipped<small>cycles</small></th><th rowspan=\"2\">cycles</th>"
          "<th class=\"k\" rowspan=\"2\">what the load did</th></tr>\n"
          "<tr><th>p99</th><th>max</th><th>p99.9</th><th>mean ± SD</th><th>p99</th><th>max</th><th>p99.9</th>"
          "<th>mean ± SD</th></tr>\n", f);
    size_t i;
    const json_t *p;
    char why[256];
    int any_ramp = 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        char name[PHASE_NAME_LEN];
        doc_phase_name(p, name, sizeof(name));
        const json_t *j = json_object_get(p, "jitter_us"), *w = json_object_get(p, "wakeup_us");
        const json_t *x = json_object_get(p, "xruns");
        double per = phasefig_period_us(doc, p);
        fputs("<tr><td class=\"k\">", f);
        html_escape(f, name);
        fputs("</td>", f);
        us_cell(f, NULL, NULL, phasefig_quantile(p, "jitter", 1, 0.99), per);
        /* |jitter| max against the profile: a FAIL limit in µs, a WARN share of the period. */
        double jm = doc_num(j, "abs_max");
        const char *jc = NULL;
        why[0] = '\0';
        if (!isnan(L->max_jitter_us) && jm > L->max_jitter_us) {
            jc = "bad";
            snprintf(why, sizeof(why), "over the limit of %.1f µs", L->max_jitter_us);
        } else if (!isnan(L->warn_jitter_pct) && per > 0 && 100 * jm / per > L->warn_jitter_pct) {
            jc = "warnc";
            snprintf(why, sizeof(why), "over %g %% of the period, where the %.60s profile warns", L->warn_jitter_pct,
                     L->profile ? L->profile : "");
        }
        us_cell(f, jc, jc ? why : NULL, jm, per);
        us_cell(f, NULL, NULL, phasefig_quantile(p, "jitter", 1, 0.999), 0);
        mean_sd_cell(f, j);
        us_cell(f, NULL, NULL, phasefig_quantile(p, "wakeup", 0, 0.99), per);
        us_cell(f, NULL, NULL, doc_num(w, "max"), per);
        us_cell(f, NULL, NULL, phasefig_quantile(p, "wakeup", 0, 0.999), 0);
        mean_sd_cell(f, w);
        /* A --dsp ramp overloads the callback on purpose at its top: those misses are its measure, not a fault. */
        int ramp = json_is_object(json_object_get(p, "dsp_ramp"));
        const char *bad = ramp ? " class=\"rampc\" title=\"the ramp's own overload, not held against the kernel\""
                               : " class=\"bad\"";
        double missed = doc_num(p, "deadlines_missed");
        char met[32];
        pct_met(met, sizeof(met), doc_num(p, "deadlines_met_pct"));
        if (missed > L->max_missed && ramp)
            fprintf(f, "<td%s>%s</td>", bad, met);
        else if (missed > L->max_missed)
            fprintf(f, "<td class=\"bad\" title=\"%.0f deadlines missed\">%s</td>", missed, met);
        else
            fprintf(f, "<td>%s</td>", met);
        double xr = phasefig_xruns(p);
        fprintf(f, "<td%s>", xr > L->max_xruns ? bad : "");
        html_num(f, xr, 0);
        fputs(" <small>", f);
        html_num(f, doc_num(x, "reported"), 0);
        fputs(" / ", f);
        html_num(f, doc_num(x, "detected"), 0);
        fputs("</small>", f);
        fprintf(f, "</td><td%s>", doc_num(x, "skipped_cycles") > 0 ? bad : "");
        any_ramp |= ramp;
        html_num(f, doc_num(x, "skipped_cycles"), 0);
        fputs("</td><td>", f);
        html_num(f, doc_num(p, "cycles"), 0);
        fputs("</td><td class=\"k figs\">", f);
        size_t li;
        const json_t *lm;
        json_array_foreach(json_object_get(p, "load_metrics"), li, lm) {
            char val[96];
            num_human_unit(val, sizeof(val), doc_num(lm, "value"), "");
            fputs("<div>", f);
            html_escape(f, doc_str(lm, "name", NULL));
            fputs(" <span class=\"nw\"><b>", f);
            html_escape(f, val);
            fputs("</b> ", f);
            html_escape(f, doc_str(lm, "unit", NULL));
            fputs("</span></div>", f);
        }
        if (doc_str(p, "load_error", NULL)) {
            fputs("<div class=\"warning\">", f);
            html_escape(f, doc_str(p, "load_error", NULL));
            fputs("</div>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n<p class=\"note\"><span class=\"bad\">Red</span>: over the ", f);
    html_escape(f, L->profile ? L->profile : "default");
    fprintf(f, " profile's limits (xruns above %.0f, missed deadlines above %.0f", L->max_xruns, L->max_missed);
    if (!isnan(L->max_jitter_us))
        fprintf(f, ", |jitter| above %.1f µs", L->max_jitter_us);
    fputs("; skipped cycles are lost audio)", f);
    if (!isnan(L->warn_jitter_pct))
        fprintf(f, "; <span class=\"warnc\">amber</span>: |jitter| max above %g %% of the period, where it "
                "warns", L->warn_jitter_pct);
    if (any_ramp)
        fputs("; <span class=\"rampc\">grey</span>: misses of a --dsp ramp phase, which overloads the callback on "
              "purpose to find the headroom (not held against the kernel)", f);
    fputs(". p99: all but the worst 1 % of cycles were at or below it.</p>\n", f);
}

/* The axes every plot of the page shares: one latency range, one count range, one timeline range. */
static void page_axes(const json_t *doc, struct page_axes *a)
{
    svg_axes_init(a);
    size_t i, nh = 0, np = json_array_size(json_object_get(doc, "phases"));
    const json_t *p;
    struct rhist *hs = calloc(2 * (np ? np : 1), sizeof(*hs));
    const struct rhist **ptrs = calloc(2 * (np ? np : 1), sizeof(*ptrs));
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *h = json_object_get(p, "histograms");
        for (int m = 0; hs && ptrs && m < 2; m++)
            if (rhist_from_json(json_object_get(h, m ? "jitter" : "wakeup"), m, &hs[nh]) == 0) {
                svg_axes_add_hist(a, &hs[nh]);
                ptrs[nh] = &hs[nh];
                nh++;
            }
        svg_axes_add_period(a, phasefig_period_us(doc, p));
        svg_axes_add_timeline(a, json_object_get(p, "timeline"), doc_num(p, "measured_s"));
    }
    svg_axes_finish(a, ptrs, nh);
    for (i = 0; i < nh; i++)
        rhist_free(&hs[i]);
    free(hs);
    free(ptrs);
}

static void phase_plots(FILE *f, const json_t *doc, const json_t *p, const struct page_axes *axes)
{
    char name[PHASE_NAME_LEN], cap[256];
    doc_phase_name(p, name, sizeof(name));
    double per = phasefig_period_us(doc, p);
    char pers[48];
    dur_human(pers, sizeof(pers), per, "µs");
    fputs("<h2>Load: ", f);
    html_escape(f, name);
    fputs("</h2>\n", f);
    struct rhist hw, hj;
    const json_t *hs = json_object_get(p, "histograms");
    if (rhist_from_json(json_object_get(hs, "wakeup"), 0, &hw) == 0) {
        if (rhist_from_json(json_object_get(hs, "jitter"), 1, &hj) == 0) {
            struct series s[2] = { { "wakeup latency", &hw, "#2ca02c" }, { "|period jitter|", &hj, "#1f77b4" } };
            double below = 0;
            snprintf(cap, sizeof(cap), "How late each cycle was, under %.*s", utf8_prefix(name, 100), name);
            fputs("<figure>\n", f);
            svg_histogram(f, cap, s, 2, axes, per, &below);
            fprintf(f, "<figcaption><b>How to read this:</b> each bar counts the cycles that started this late "
                    "(wakeup, green) or whose period was this far off its nominal length (|jitter|, blue). "
                    "Everything left of the dashed line (the period, %s) left the cycle time to do its work; a bar "
                    "at or right of it is a cycle that came a whole period late, which is where clicks and "
                    "dropouts come from. The count axis is logarithmic, so a single late cycle still shows as a "
                    "small bar.", pers);
            if (below > 0)
                fprintf(f, " %.0f cycle%s below %s (or exactly on time) %s counted in the leftmost bar.", below,
                        below == 1 ? "" : "s", axes->lat.lo < 1 ? "10 ns" : "1 µs", below == 1 ? "is" : "are");
            fputs("</figcaption>\n</figure>\n", f);
            rhist_free(&hj);
        }
        rhist_free(&hw);
    }
    const json_t *ramp = json_object_get(p, "dsp_ramp");
    if (json_is_object(ramp)) {
        snprintf(cap, sizeof(cap), "DSP headroom: margin against DSP load, under %.*s", utf8_prefix(name, 100), name);
        fputs("<figure>\n", f);
        svg_ramp(f, cap, ramp, per);
        fprintf(f, "<figcaption><b>How to read this:</b> the callback burnt a rising share of the period (x), "
                "step by step; each point is one step. Red solid: the smallest margin any cycle of the step left "
                "before its deadline; blue dashed: the margin 99 %% of its cycles kept. Where the lines fall to "
                "the guard band (1/32 of the period, %s) the work no longer fits: the orange line is the first "
                "cycle whose work was cut short or missed its deadline, the violet one the step where 1 %% of "
                "cycles did. Red points: steps with such cycles.</figcaption>\n</figure>\n", pers);
    }
    snprintf(cap, sizeof(cap), "Second by second, under %.*s", utf8_prefix(name, 100), name);
    fputs("<figure>\n", f);
    double fr = doc_num(p, "period_frames"), rate = doc_num(p, "rate");
    int culprits = html_culprits_phase_has(p);
    svg_timeline(f, cap, json_object_get(p, "timeline"), axes, per, doc_num(p, "measured_s"),
                 fr > 0 && rate > 0 ? rate / fr : NAN, culprits ? p : NULL);
    fprintf(f, "<figcaption><b>How to read this:</b> each step is one second of the phase. Solid lines: the worst "
            "cycle of that second; dashed: its p99 (all but the worst 1 %% of cycles). The dashed black line is "
            "the period (%s): a solid line that reaches it is a cycle that came a whole period late. Red marks: "
            "seconds with xruns or missed deadlines. The scale is logarithmic, so one long spike does not flatten "
            "the rest; a grey end is the part of the last second the phase did not run.%s</figcaption>\n</figure>\n",
            pers, culprits ? " Purple diamonds: xrun events; orange circles: spikes, at their wake-up; hover one for "
            "its top culprit (the tables below list them)." : "");
    html_culprits_phase(f, p);
}

void html_report(FILE *f, const json_t *doc)
{
    const json_t *k = json_object_get(json_object_get(doc, "system"), "kernel");
    char title[512];
    const char *label = doc_str(doc, "label", NULL);
    snprintf(title, sizeof(title), "rtjitter report: %.200s%s%.200s%s", doc_str(k, "release", "?"),
             label ? " (" : "", label ? label : "", label ? ")" : "");
    html_page_start_css(f, title, html_culprits_any(doc) ? html_culprits_css : NULL);
    const json_t *v = json_object_get(doc, "verdict");
    const char *level = doc_str(v, "level", NULL);
    char headline[1024];
    /* One title: the answer (the headline) is the page's heading; what the page is, a small line above it. */
    fprintf(f, "<header class=\"verdict %s\">\n<p class=\"kicker\" style=\"margin:0;color:#555\">",
            level_class(level));
    html_escape(f, title);
    fputs("</p>\n<h1 class=\"headline\" style=\"font-size:1.5em;margin:.2em 0 .4em\">", f);
    html_escape(f, headline_report(doc, headline, sizeof(headline)));
    fputs("</h1>\n<p class=\"summary\"><span class=\"level\">", f);
    html_escape(f, level ? (!strcmp(level, "pass") ? "PASS" : !strcmp(level, "warn") ? "WARN"
                            : !strcmp(level, "fail") ? "FAIL" : level) : "NO VERDICT");
    fputs("</span> ", f);
    html_escape(f, doc_str(v, "summary", "This report carries no verdict."));
    fputs("</p>\n", f);
    html_strings_list(f, json_object_get(v, "advice"), "advice");
    if (!json_is_true(json_object_get(doc, "complete"))) {
        fputs("<p class=\"warning\"><b>Incomplete run:</b> ", f);
        html_escape(f, doc_str(doc, "incomplete_reason", "interrupted"));
        fputs("</p>\n", f);
    }
    identity_line(f, doc);
    fputs("<p>Started ", f);
    html_escape(f, doc_str(doc, "started", NULL));
    fputs(", finished ", f);
    html_escape(f, doc_str(doc, "finished", NULL));
    fputs(". Command: <code>", f);
    html_escape(f, doc_str(doc, "command", NULL));
    fputs("</code></p>\n</header>\n", f);
    if (json_array_size(json_object_get(doc, "warnings"))) {
        fputs("<h2>Warnings</h2>\n", f);
        html_strings_list(f, json_object_get(doc, "warnings"), "warning");
    }
    fputs("<h2>Results per load</h2>\n", f);
    struct limits L;
    read_limits(doc, &L);
    phases_table(f, doc, &L);
    html_culprits_summary(f, doc);
    struct page_axes axes;
    page_axes(doc, &axes);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p)
        phase_plots(f, doc, p, &axes);
    html_soak(f, doc); /* --soak: its line and maxima per window (svg_soak.h) */
    html_noise(f, doc); /* --backend noise: its figures per CPU (html_noise.h) */
    loopback_html(f, doc);
    fputs("<h2>System identity</h2>\n", f);
    kv_table(f, json_object_get(doc, "system"));
    fputs("<h2>Audio set-up</h2>\n", f);
    kv_table(f, json_object_get(doc, "audio"));
    html_page_end(f, doc_str(json_object_get(doc, "tool"), "version", NULL));
}

static int html_report_page(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    html_report(f, doc);
    return 0;
}

static int html_compare_page(FILE *f, const json_t *cmp, json_t *const *docs, size_t n,
                             const struct render_opts *o)
{
    (void)o;
    html_compare(f, cmp, docs, n);
    return 0;
}

static int html_sweep_page(FILE *f, const json_t *doc, const struct render_opts *o)
{
    (void)o;
    return html_sweep_body(f, (void *)doc);
}

static int html_matrix_page(FILE *f, const json_t *m, const struct render_opts *o)
{
    (void)o;
    return matrix_html(f, m);
}

/* Its entry in the table of forms (render.c): a report page (above), a comparison's (html_compare.c), a sweep's
 * (sweep_html.c) and a fleet matrix's (matrix.c). */
const struct renderer render_form_html = {
    .name = "html", .ext = "html", .summary = "one self-contained page with SVG plots (no script, no network)",
    .report = html_report_page, .compare = html_compare_page, .sweep = html_sweep_page, .matrix = html_matrix_page,
};
