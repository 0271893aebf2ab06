/* The HTML page of one report: the verdict in plain words and the system identity first, then the results
 * table, per load a latency histogram and a timeline, and the full identity and audio set-up at the end. */
#include "render/html.h"
#include "render/svg.h"
#include "report/access.h"
#include "report/compare_stats.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
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
    snprintf(buf, sizeof(buf), "%.0f frames @ %.0f Hz = %.3f ms", doc_num(au, "period_frames"), doc_num(au, "rate"),
             doc_num(au, "period_us") / 1000.0);
    fputs("<br><b>Audio</b> ", f);
    html_escape(f, buf);
    fputs(", ", f);
    html_escape(f, doc_str(au, "provider", "?"));
    fputc(' ', f);
    html_escape(f, doc_str(au, "provider_version", NULL));
    fputs(", ", f);
    html_escape(f, doc_str(au, "server", NULL));
    fputs(" server, ", f);
    html_escape(f, json_is_true(json_object_get(au, "realtime")) ? "real-time scheduling" :
                "NOT real-time scheduling");
    fputs("</p>\n", f);
}

static void phases_table(FILE *f, const json_t *doc)
{
    fputs("<div class=\"wide\"><table>\n<tr><th class=\"k\">Load</th><th>Jitter mean ± SD (µs)</th><th>p99</th><th>p99.9</th>"
          "<th>|max|</th><th>Wakeup mean ± SD (µs)</th><th>p99</th><th>p99.9</th><th>max</th><th>Deadlines met "
          "%</th><th>Xruns reported / detected</th><th>Cycles</th><th class=\"k\">Throughput</th></tr>\n", f);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        char name[PHASE_NAME_LEN];
        phase_display_name(p, name, sizeof(name));
        const json_t *j = json_object_get(p, "jitter_us"), *w = json_object_get(p, "wakeup_us");
        const json_t *x = json_object_get(p, "xruns");
        fputs("<tr><td class=\"k\">", f);
        html_escape(f, name);
        fputs("</td><td>", f);
        html_num(f, doc_num(j, "mean"), 1);
        fputs(" ± ", f);
        html_num(f, doc_num(j, "sd"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(j, "p99"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(j, "p999"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(j, "abs_max"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(w, "mean"), 1);
        fputs(" ± ", f);
        html_num(f, doc_num(w, "sd"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(w, "p99"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(w, "p999"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(w, "max"), 1);
        fputs("</td><td>", f);
        html_num(f, doc_num(p, "deadlines_met_pct"), 3);
        fputs("</td><td>", f);
        html_num(f, doc_num(x, "reported"), 0);
        fputs(" / ", f);
        html_num(f, doc_num(x, "detected"), 0);
        fputs("</td><td>", f);
        html_num(f, doc_num(p, "cycles"), 0);
        fputs("</td><td class=\"v\">", f);
        size_t li;
        const json_t *lm;
        json_array_foreach(json_object_get(p, "load_metrics"), li, lm) {
            if (li)
                fputs("<br>", f);
            html_escape(f, doc_str(lm, "name", NULL));
            fputs(": ", f);
            fprintf(f, "%.4g ", doc_num(lm, "value"));
            html_escape(f, doc_str(lm, "unit", NULL));
        }
        if (doc_str(p, "load_error", NULL)) {
            fputs("<span class=\"warning\">", f);
            html_escape(f, doc_str(p, "load_error", NULL));
            fputs("</span>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
}

void html_report(FILE *f, const json_t *doc)
{
    const json_t *k = json_object_get(json_object_get(doc, "system"), "kernel");
    char title[512];
    const char *label = doc_str(doc, "label", NULL);
    snprintf(title, sizeof(title), "rtjitter report: %.200s%s%.200s%s", doc_str(k, "release", "?"),
             label ? " (" : "", label ? label : "", label ? ")" : "");
    html_page_start(f, title);
    const json_t *v = json_object_get(doc, "verdict");
    const char *level = doc_str(v, "level", NULL);
    fprintf(f, "<header class=\"verdict %s\">\n<h1>", level_class(level));
    html_escape(f, title);
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
    phases_table(f, doc);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        char name[PHASE_NAME_LEN], cap[256];
        phase_display_name(p, name, sizeof(name));
        fputs("<h2>Load: ", f);
        html_escape(f, name);
        fputs("</h2>\n", f);
        struct rhist hw, hj;
        const json_t *hs = json_object_get(p, "histograms");
        if (rhist_from_json(json_object_get(hs, "wakeup"), 0, &hw) == 0) {
            if (rhist_from_json(json_object_get(hs, "jitter"), 1, &hj) == 0) {
                struct series s[2] = { { "wakeup latency", &hw }, { "|period jitter|", &hj } };
                snprintf(cap, sizeof(cap), "Latency histogram under %.*s", utf8_prefix(name, 100), name);
                fputs("<figure>\n", f);
                svg_histogram(f, cap, "µs (log scale)", s, 2);
                fputs("<figcaption>Cycles per latency bucket; the count axis is logarithmic, so a single late "
                      "cycle still shows.</figcaption>\n</figure>\n", f);
                rhist_free(&hj);
            }
            rhist_free(&hw);
        }
        snprintf(cap, sizeof(cap), "Per-second maximum and p99 under %.*s", utf8_prefix(name, 100),
                 name);
        fputs("<figure>\n", f);
        svg_timeline(f, cap, json_object_get(p, "timeline"));
        fputs("<figcaption>Solid: the worst cycle of each second; dashed: its p99. Red marks: seconds with xruns "
              "or missed deadlines.</figcaption>\n</figure>\n", f);
    }
    fputs("<h2>System identity</h2>\n", f);
    kv_table(f, json_object_get(doc, "system"));
    fputs("<h2>Audio set-up</h2>\n", f);
    kv_table(f, json_object_get(doc, "audio"));
    html_page_end(f, doc_str(json_object_get(doc, "tool"), "version", NULL));
}
