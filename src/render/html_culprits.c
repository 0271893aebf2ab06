/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits of a report on its HTML page (html_culprits.h says what is drawn where). Everything comes from the
 * report's JSON; every string of it goes through html_escape(). */
#include "render/html_culprits.h"
#include "render/html.h"
#include "render/culprit_words.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The basis is told by its badge: observed is solid (a source saw it happen), correlated is dashed and italic
 * (counters rose around it): a reader who skims tells the two apart without reading the word. */
const char html_culprits_css[] =
    ".basis{display:inline-block;font-size:.78em;padding:0 .35em;border-radius:3px;margin-right:.35em;"
    "font-weight:600}.basis.observed{background:#1f4e9c;color:#fff;border:1px solid #1f4e9c}"
    ".basis.correlated{background:#fff;color:#444;border:1px dashed #777;font-style:italic;font-weight:normal}\n"
    "table.culprits td.ev{white-space:normal;text-align:left;min-width:16em;max-width:40em}"
    "table.culprits td.c{text-align:left;white-space:normal;min-width:12em}table.culprits td.c b{white-space:nowrap}.kind{display:block;font-size:.8em;"
    "color:#555}table.culprits details ul{margin:.2em 0;padding-left:1.1em}table.culprits details li{margin:.25em 0}"
    "p.small{font-size:.82em;color:#555}td.unex{color:#8a5a00;text-align:left;white-space:normal}\n";

int html_culprits_phase_has(const json_t *phase)
{
    if (json_object_get(phase, "top_culprits") || json_object_get(phase, "spikes"))
        return 1;
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(phase, "events"), i, e)
        if (json_object_get(e, "culprits"))
            return 1;
    return 0;
}

int html_culprits_any(const json_t *doc)
{
    if (json_is_object(json_object_get(doc, "culprits")))
        return 1;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p)
        if (html_culprits_phase_has(p))
            return 1;
    return 0;
}

const json_t *html_culprit_top(const json_t *happening)
{
    const json_t *c = json_array_get(json_object_get(happening, "culprits"), 0);
    return json_is_object(c) ? c : NULL;
}

void html_culprit_label(char *buf, size_t len, const json_t *c)
{
    if (!c) {
        snprintf(buf, len, "%s", "");
        return;
    }
    double pid = doc_num(c, "pid");
    char pids[32] = "";
    if (pid > 0)
        snprintf(pids, sizeof(pids), "pid %.0f, ", pid);
    const char *basis = doc_str(c, "basis", "?");
    snprintf(buf, len, "%.80s (%s%s, %s)", doc_str(c, "name", "?"), pids, culprit_kind_words(doc_str(c, "kind", NULL)),
             strcmp(basis, "none") == 0 ? "nothing seen" : basis);
}

/* The badge alone: what each basis means is said once, under the culprits' summary (html_culprits_sampler), not in a
 * tooltip on each of up to 120 rows a load. */
static void basis_badge(FILE *f, const char *basis)
{
    static const struct { const char *basis, *word; } badges[] = {
        { "observed", "observed" },
        { "none", "nothing seen" },
        /* the last is for any other basis too (a report without one) */
        { "correlated", "correlated" },
    };
    size_t i = 0, last = sizeof(badges) / sizeof(badges[0]) - 1;
    while (i < last && !(basis && !strcmp(basis, badges[i].basis)))
        i++;
    fprintf(f, "<span class=\"basis %s\">%s</span>", badges[i].basis, badges[i].word);
}

/* A culprit's name with its pid and CPU, and its kind beneath. */
static void culprit_name(FILE *f, const json_t *c)
{
    basis_badge(f, doc_str(c, "basis", NULL));
    fputs("<b>", f);
    html_escape(f, doc_str(c, "name", "?"));
    fputs("</b><span class=\"kind\">", f);
    html_escape(f, culprit_kind_words(doc_str(c, "kind", NULL)));
    if (doc_num(c, "pid") > 0)
        fprintf(f, ", pid %.0f", doc_num(c, "pid"));
    if (doc_num(c, "cpu") >= 0)
        fprintf(f, ", CPU %.0f", doc_num(c, "cpu"));
    fputs("</span>", f);
}

/* The culprit cells of an event or a spike: the top one, its evidence, the others folded. */
static void culprit_cells(FILE *f, const json_t *h)
{
    const json_t *cs = json_object_get(h, "culprits"), *top = html_culprit_top(h);
    if (!top) {
        fputs("<td class=\"unex\" colspan=\"3\">", f);
        html_escape(f, json_is_false(json_object_get(h, "explained")) || !cs
                           ? "not explained: the sampler had no data for this moment"
                           : "no culprit listed");
        fputs("</td>", f);
        return;
    }
    fputs("<td class=\"c\">", f);
    culprit_name(f, top);
    fputs("</td><td class=\"ev\">", f);
    html_escape(f, doc_str(top, "evidence", ""));
    fputs("</td><td class=\"c\">", f);
    size_t n = json_array_size(cs), i;
    const json_t *c;
    if (n > 1) {
        fprintf(f, "<details><summary>%zu more</summary><ul>", n - 1);
        json_array_foreach(cs, i, c) {
            if (i == 0)
                continue;
            fputs("<li>", f);
            culprit_name(f, c);
            fputs(" ", f);
            html_escape(f, doc_str(c, "evidence", ""));
            fputs("</li>", f);
        }
        fputs("</ul></details>", f);
    }
    fputs("</td>", f);
}

/* When it happened: the wall clock to the ms (its date in the tooltip) and the seconds into the phase. */
static void when_cell(FILE *f, const json_t *h, double t0)
{
    const char *wall = doc_str(h, "wall", "");
    char shown[16];
    /* "2026-12-02T17:22:36.104Z": the time of day is shown, the whole in the tooltip */
    if (strlen(wall) >= 23 && wall[10] == 'T')
        snprintf(shown, sizeof(shown), "%.12s", wall + 11);
    else
        snprintf(shown, sizeof(shown), "%.15s", wall[0] ? wall : "-");
    fputs("<td class=\"k\" title=\"", f);
    html_escape(f, wall);
    fputs("\">", f);
    html_escape(f, shown);
    fputs("</td><td>", f);
    double t = doc_num(h, "t_s");
    if (!isnan(t) && !isnan(t0))
        fprintf(f, "%.2f s", t - t0);
    else
        fputs("-", f);
    fputs("</td>", f);
}

static double phase_t0(const json_t *p)
{
    const json_t *w = json_array_get(json_object_get(p, "clock_window_s"), 0);
    return json_is_number(w) ? json_number_value(w) : NAN;
}

static void events_table(FILE *f, const json_t *p)
{
    const json_t *ev = json_object_get(p, "events");
    size_t n = json_array_size(ev), i;
    double unlisted = doc_num(p, "events_unlisted");
    if (!n)
        return;
    fprintf(f, "<h3>Xrun events and their culprits</h3>\n<div class=\"wide\"><table class=\"culprits events\">\n"
            "<tr><th>#</th><th class=\"k\">when <small>(UTC, ms)</small></th><th>into the load</th><th>length</th>"
            "<th>cycles</th><th class=\"k\">top culprit</th><th class=\"k\">evidence</th><th class=\"k\">more "
            "culprits</th></tr>\n");
    const json_t *e;
    double t0 = phase_t0(p);
    json_array_foreach(ev, i, e) {
        if (i >= HTML_EVENTS_SHOWN)
            break;
        double num = doc_num(e, "n"); /* its number in the session (issue 34); older reports: its place */
        fprintf(f, "<tr class=\"event\"><td>%.0f</td>", num >= 1 ? num : (double)(i + 1));
        when_cell(f, e, t0);
        double len = doc_num(e, "length_ms");
        if (len < 0.05) /* "0.0 ms" read as no xrun: late by microseconds, or counted by the server alone */
            fputs("<td title=\"its cycle was late by less than 0.05 ms on rtjitter's clock, or not at all: the server "
                  "counted the xrun\">&lt; 0.1 ms</td><td>", f);
        else {
            fputs("<td>", f);
            html_num(f, len, 1);
            fputs(" ms</td><td>", f);
        }
        html_num(f, doc_num(e, "cycles"), 0);
        if (doc_num(e, "skipped") > 0)
            fprintf(f, " <small>(%.0f skipped)</small>", doc_num(e, "skipped"));
        fputs("</td>", f);
        culprit_cells(f, e);
        fputs("</tr>\n", f);
    }
    fputs("</table></div>\n", f);
    double more = (double)(n > HTML_EVENTS_SHOWN ? n - HTML_EVENTS_SHOWN : 0) + (unlisted > 0 ? unlisted : 0);
    if (more > 0 && unlisted > 0) /* the latest and the worst are listed, the rest summed (events_summary) */
        fprintf(f, "<p class=\"more\">and %.0f more event%s, not shown (%.0f summed per minute and culprit in the "
                "report's events_summary).</p>\n", more, more == 1 ? "" : "s", unlisted);
    else if (more > 0)
        fprintf(f, "<p class=\"more\">and %.0f more event%s, not shown.</p>\n", more, more == 1 ? "" : "s");
}

static void spikes_table(FILE *f, const json_t *p)
{
    const json_t *sp = json_object_get(p, "spikes");
    size_t n = json_array_size(sp), i;
    double unlisted = doc_num(p, "spikes_unlisted"), thr = doc_num(p, "spike_threshold_us");
    if (!json_is_array(sp))
        return;
    fputs("<h3>Spikes and their culprits</h3>\n", f);
    if (!n && !(unlisted > 0)) {
        fputs("<p>No cycle woke up later than ", f);
        html_num(f, thr, 0);
        fputs(" µs.</p>\n", f);
        return;
    }
    fputs("<p class=\"note\">Cycles that woke up later than ", f);
    html_num(f, thr, 0);
    fputs(" µs (the spike threshold).</p>\n<div class=\"wide\"><table class=\"culprits spikes\">\n"
          "<tr><th>#</th><th class=\"k\">when <small>(UTC, ms)</small></th><th>into the load</th><th>wake-up</th>"
          "<th>callback</th><th>CPU</th><th class=\"k\">top culprit</th><th class=\"k\">evidence</th>"
          "<th class=\"k\">more culprits</th></tr>\n", f);
    const json_t *s;
    double t0 = phase_t0(p);
    json_array_foreach(sp, i, s) {
        if (i >= HTML_SPIKES_SHOWN)
            break;
        fprintf(f, "<tr class=\"spike\"><td>%zu</td>", i + 1);
        when_cell(f, s, t0);
        fputs("<td>", f);
        html_num(f, doc_num(s, "wakeup_us"), 0);
        fputs(" µs</td><td>", f);
        html_num(f, doc_num(s, "callback_us"), 0);
        fputs(" µs</td><td>", f);
        html_num(f, doc_num(s, "cpu"), 0);
        fputs("</td>", f);
        culprit_cells(f, s);
        fputs("</tr>\n", f);
    }
    fputs("</table></div>\n", f);
    double more = (double)(n > HTML_SPIKES_SHOWN ? n - HTML_SPIKES_SHOWN : 0) + (unlisted > 0 ? unlisted : 0);
    if (more > 0) {
        fprintf(f, "<p class=\"more\">and %.0f more spike%s", more, more == 1 ? "" : "s");
        if (n > HTML_SPIKES_SHOWN)
            fprintf(f, " (%zu more on the timeline above", n - HTML_SPIKES_SHOWN);
        if (unlisted > 0)
            fprintf(f, "%s%.0f less late than the report's %zu, counted only", n > HTML_SPIKES_SHOWN ? "; " : " (",
                    unlisted, n);
        fputs(").</p>\n", f);
    }
}

void html_culprits_phase(FILE *f, const json_t *phase)
{
    if (!html_culprits_phase_has(phase))
        return;
    events_table(f, phase);
    spikes_table(f, phase);
}

/* One load's top culprits: who, how it was known, in how many events and spikes, the first evidence line. */
static void top_table(FILE *f, const json_t *p)
{
    char name[PHASE_NAME_LEN];
    doc_phase_name(p, name, sizeof(name));
    const json_t *top = json_object_get(p, "top_culprits");
    fputs("<h3>Under ", f);
    html_escape(f, name);
    fputs("</h3>\n", f);
    if (!json_array_size(top)) {
        fputs("<p>No culprit: ", f);
        html_escape(f, json_array_size(json_object_get(p, "events")) || json_array_size(json_object_get(p, "spikes"))
                           ? "nothing was named for its events and spikes."
                           : "no xrun event and no spike to explain.");
        fputs("</p>\n", f);
        return;
    }
    fputs("<div class=\"wide\"><table class=\"culprits top\">\n<tr><th class=\"k\">culprit</th><th>events</th>"
          "<th>spikes</th><th class=\"k\">evidence <small>(the first time)</small></th></tr>\n", f);
    size_t i;
    const json_t *c;
    json_array_foreach(top, i, c) {
        fputs("<tr class=\"top\"><td class=\"c\">", f);
        culprit_name(f, c);
        fputs("</td><td>", f);
        html_num(f, doc_num(c, "events"), 0);
        fputs("</td><td>", f);
        html_num(f, doc_num(c, "spikes"), 0);
        fputs("</td><td class=\"ev\">", f);
        html_escape(f, doc_str(c, "evidence", ""));
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
}

static void periodicity(FILE *f, const json_t *per)
{
    size_t i;
    const json_t *x;
    json_array_foreach(per, i, x) {
        fputs("<p class=\"periodic\"><b>Periodic:</b> every ", f);
        html_num(f, doc_num(x, "period_s"), 1);
        fputs(" s (", f);
        html_num(f, doc_num(x, "count"), 0);
        fputs(" times, within ", f);
        html_num(f, doc_num(x, "spread_s"), 2);
        fputs(" s)", f);
        if (doc_str(x, "what", NULL)) {
            fputs(": ", f);
            html_escape(f, doc_str(x, "what", NULL));
        }
        fputs("</p>\n", f);
    }
}

/* The sampler's rate, window, history and sources, and what it cost: small print, but there. */
static void sampler_note(FILE *f, const json_t *cu)
{
    const json_t *s = json_object_get(cu, "sampler"), *cost = json_object_get(cu, "cost");
    fputs("<p class=\"small sampler\">Counters sampled at ", f);
    html_num(f, doc_num(s, "hz"), 0);
    fputs(" Hz (", f);
    html_num(f, doc_num(s, "window_ms"), 0);
    fputs(" ms windows: no figure is finer than that), ", f);
    html_num(f, doc_num(s, "history_s"), 0);
    fputs(" s of history", f);
    size_t i;
    const json_t *src;
    json_array_foreach(json_object_get(s, "sources"), i, src) {
        fputs(i ? ", " : "; sources: ", f);
        html_escape(f, doc_str(src, "name", "?"));
        fputs(" (", f);
        html_escape(f, doc_str(src, "state", "?"));
        if (doc_str(src, "why", NULL)) {
            fputs(": ", f);
            html_escape(f, doc_str(src, "why", NULL));
        }
        fputs(")", f);
    }
    fputs(". The sampler cost ", f);
    html_num(f, doc_num(cost, "cpu_s"), 2);
    fputs(" s of CPU time (", f);
    html_num(f, doc_num(cost, "cpu_pct"), 2);
    fputs(" % of one CPU).", f);
    if (json_is_object(json_object_get(cu, "trace")))
        fputs(" A kernel trace was taken: its evidence is marked observed.", f);
    fputs(" <span class=\"basis observed\">observed</span>: a source saw it happen (the server's log, the profiler, a "
          "trace, our own callback); <span class=\"basis correlated\">correlated</span>: counters rose around it "
          "against their baseline, a likely cause; <span class=\"basis none\">nothing seen</span>: no wait of the "
          "audio threads in the trace, and no source named a cause.</p>\n", f);
}

void html_culprits_summary(FILE *f, const json_t *doc)
{
    if (!html_culprits_any(doc))
        return;
    fputs("<h2>Culprits: why it glitched</h2>\n", f);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p)
        if (json_object_get(p, "top_culprits"))
            top_table(f, p);
    const json_t *cu = json_object_get(doc, "culprits");
    periodicity(f, json_object_get(cu, "periodicity"));
    if (json_is_object(cu))
        sampler_note(f, cu);
}
