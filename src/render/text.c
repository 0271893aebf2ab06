/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text rendering of a report document. It opens with the verdict in plain words (what was tested, whether
 * every deadline was met, what to try), then the system identity, then the interbench-style table. */
#include "render/text.h"
#include "verdict/verdict_order.h"
#include "render/compare_text.h"
#include "render/matrix.h"
#include "render/render.h"
#include "render/setting.h"
#include "render/sweep_render.h"
#include "render/headline.h"
#include "render/text_ramp.h"
#include "render/text_noise.h"
#include "render/loopback_render.h"
#include "render/text_table.h"
#include "render/text_culprits.h"
#include "render/textfmt.h"
#include "report/access.h"
#include "util/termtext.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* text wrapped at o's width after `first`, in o's spelling. */
static void say(FILE *f, const struct render_opts *o, const char *first, int indent, const char *text)
{
    char *t = tx_dup(o, text ? text : "");
    tx_wrap(f, first, indent, o->width, t ? t : "");
    free(t);
}

static void verdict_text(FILE *f, const json_t *v, const struct render_opts *o)
{
    const char *lvl = doc_str(v, "level", "?");
    char first[96];
    const char *word = strcmp(lvl, "pass") == 0 ? "PASS" : strcmp(lvl, "warn") == 0 ? "WARN" : "FAIL";
    /* Reports written before profiles existed have no profile name. */
    if (json_string_value(json_object_get(v, "profile")))
        snprintf(first, sizeof(first), "%s (%.60s profile): ", word, doc_str(v, "profile", ""));
    else
        snprintf(first, sizeof(first), "%s: ", word);
    say(f, o, first, 2, doc_str(v, "summary", ""));
    size_t i, n = json_array_size(json_object_get(v, "advice"));
    const json_t *adv;
    /* the first VERDICT_ADVICE_SHOWN (in the one order, by weight), the rest with --wide and in the page */
    json_array_foreach(json_object_get(v, "advice"), i, adv) {
        if (!o->wide && i >= VERDICT_ADVICE_SHOWN) {
            char more[96];
            snprintf(more, sizeof(more), "%zu more piece%s of advice: --wide, or the page (--html).", n - i,
                     n - i == 1 ? "" : "s");
            say(f, o, "  - ", 4, more);
            break;
        }
        if (json_string_value(adv))
            say(f, o, "  - ", 4, json_string_value(adv));
    }
}

static const char *yes_no(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_true(v) ? "yes" : json_is_false(v) ? "no" : "?";
}

/* The lines of the system identity a musician compares between kernels, each wrapped at o's width under
 * its 9-column key. */
static void identity_text(FILE *f, const json_t *sys, const struct render_opts *o)
{
    const json_t *k = json_object_get(sys, "kernel"), *c = json_object_get(sys, "cpu");
    char hz[32] = "?", line[2048];
    if (json_is_integer(json_object_get(k, "hz")))
        snprintf(hz, sizeof(hz), "%.0f", doc_num(k, "hz"));
    snprintf(line, sizeof(line), "%.200s, preempt %.40s%s, HZ %s, NO_HZ %.40s, threadirqs %s, RT throttling %s "
             "(config: %.200s)", doc_str(k, "release", "?"), doc_str(k, "preempt", "?"),
             json_is_true(json_object_get(k, "preempt_dynamic")) ? " (dynamic)" : "", hz, doc_str(k, "nohz", "?"),
             yes_no(k, "threadirqs"), yes_no(json_object_get(k, "rt_throttling"), "enabled"),
             doc_str(k, "config_source", "unknown"));
    say(f, o, "kernel:  ", 9, line);
    if (!json_is_object(c))
        return;
    int n = snprintf(line, sizeof(line), "%.200s, ", doc_str(c, "model", "?"));
    if (json_is_integer(json_object_get(c, "cores")))
        n += snprintf(line + n, sizeof(line) - (size_t)n, "%.0f cores / ", doc_num(c, "cores"));
    if (json_is_number(json_object_get(c, "threads")))
        n += snprintf(line + n, sizeof(line) - (size_t)n, "%.0f threads, ", doc_num(c, "threads"));
    n += snprintf(line + n, sizeof(line) - (size_t)n, "governor %.40s", doc_str(c, "governor", "none"));
    if (json_is_integer(json_object_get(c, "freq_max_mhz")))
        snprintf(line + n, sizeof(line) - (size_t)n, ", %.0f-%.0f MHz", doc_num(c, "freq_min_mhz"),
                 doc_num(c, "freq_max_mhz"));
    say(f, o, "cpu:     ", 9, line);
    size_t i, j;
    const json_t *card, *irq;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    json_array_foreach(json_object_get(json_object_get(sys, "sound"), "cards"), i, card) {
        fprintf(m, "%scard %.0f %.100s", i ? ", " : "", doc_num(card, "index"), doc_str(card, "name", "?"));
        json_array_foreach(json_object_get(card, "irqs"), j, irq) {
            const json_t *th = json_array_get(json_object_get(irq, "threads"), 0);
            fprintf(m, " (irq %.0f %.100s", doc_num(irq, "irq"), doc_str(irq, "actions", ""));
            if (th)
                fprintf(m, ", thread priority %.0f", doc_num(th, "rt_priority"));
            fputc(')', m);
        }
    }
    fclose(m);
    if (i)
        say(f, o, "sound:   ", 9, buf);
    free(buf);
}

static void report_text(FILE *f, const json_t *doc, const struct render_opts *given)
{
    struct render_opts o = render_opts_or_default(given);
    const json_t *au = json_object_get(doc, "audio");
    const json_t *sys = json_object_get(doc, "system");
    const json_t *v = json_object_get(doc, "verdict");
    size_t i;
    char line[1024];
    /* the answer first, in words; the verdict under it says why */
    say(f, &o, "", 0, headline_report(doc, line, sizeof(line)));
    fputc('\n', f);
    if (json_is_object(v)) {
        verdict_text(f, v, &o);
        fputc('\n', f);
    }
    snprintf(line, sizeof(line), "%.40s  %.40s%s", doc_str(json_object_get(doc, "tool"), "version", "?"),
             doc_str(doc, "started", ""), json_is_true(json_object_get(doc, "complete")) ? "" : "  [INCOMPLETE]");
    say(f, &o, "rtjitter ", 9, line);
    if (json_string_value(json_object_get(doc, "label")))
        say(f, &o, "label:   ", 9, doc_str(doc, "label", ""));
    identity_text(f, sys, &o);
    /* "jack2 1.9.21, private server 'rtjitter-1234', driver dummy"; a backend without a server (timer, ALSA) has
     * no server part, and an unknown version no empty gap. */
    char setting[128];
    int an = snprintf(line, sizeof(line), "%s, %.60s", render_setting(setting, sizeof(setting), au, 1),
                      doc_str(au, "provider", "?"));
    if (json_string_value(json_object_get(au, "provider_version")))
        an += snprintf(line + an, sizeof(line) - (size_t)an, " %.60s", doc_str(au, "provider_version", ""));
    if (json_string_value(json_object_get(au, "server")) || json_string_value(json_object_get(au, "server_name")))
        an += snprintf(line + an, sizeof(line) - (size_t)an, ", %.40s server '%.200s'", doc_str(au, "server", "?"),
                       doc_str(au, "server_name", "?"));
    if (json_string_value(json_object_get(au, "driver")))
        snprintf(line + an, sizeof(line) - (size_t)an, ", driver %.100s", doc_str(au, "driver", ""));
    say(f, &o, "audio:   ", 9, line);
    if (json_string_value(json_object_get(au, "backend_auto")))
        say(f, &o, "backend: ", 9, doc_str(au, "backend_auto", ""));
    int n = snprintf(line, sizeof(line), "%.40s", doc_str(au, "sched_policy", "unknown"));
    if (json_is_integer(json_object_get(au, "priority")))
        n += snprintf(line + n, sizeof(line) - (size_t)n, " priority %.0f", doc_num(au, "priority"));
    const json_t *irq = json_object_get(au, "irq_threads"), *ss = json_object_get(au, "server_sched");
    if (json_is_object(ss) && json_string_value(json_object_get(ss, "policy")))
        n += snprintf(line + n, sizeof(line) - (size_t)n, " (server %.20s %.0f)", doc_str(ss, "policy", "?"),
                      doc_num(ss, "priority"));
    if (json_is_true(json_object_get(au, "below_irq_threads")) && json_is_object(irq))
        n += snprintf(line + n, sizeof(line) - (size_t)n, ", BELOW the interrupt threads (%.20s %.0f)",
                      doc_str(irq, "policy", "?"), doc_num(irq, "priority"));
    snprintf(line + n, sizeof(line) - (size_t)n, ", memory %slocked, clock %.60s",
             json_is_true(json_object_get(au, "mlocked")) ? "" : "NOT ", doc_str(au, "clock", "?"));
    say(f, &o, "thread:  ", 9, line);
    if (doc_num(au, "dsp_pct") > 0)
        say(f, &o, "dsp:     ", 9, render_dsp_share(line, sizeof(line), doc));
    text_ramp(f, doc, &o);
    fputc('\n', f);
    text_phase_table(f, doc, &o);
    text_noise(f, doc, &o); /* nothing but for --backend noise */
    text_culprits(f, doc, &o); /* nothing without culprits */
    if (json_is_object(json_object_get(doc, "loopback"))) {
        fputc('\n', f);
        loopback_text(f, doc, &o);
    }
    const json_t *wn;
    json_array_foreach(json_object_get(doc, "warnings"), i, wn)
        say(f, &o, "warning: ", 9, json_string_value(wn) ? json_string_value(wn) : "");
    if (!json_is_true(json_object_get(doc, "complete")))
        say(f, &o, "INCOMPLETE: ", 12, doc_str(doc, "incomplete_reason", "interrupted"));
}

/* The entry of the text form: every string the document holds (a label, a hostname, a warning, a load's error,
 * a file's name) is shown visibly (util/termtext.h) before it reaches a terminal; the layout below measures the
 * visible form. */
void text_print_report_opts(FILE *f, const json_t *doc, const struct render_opts *given)
{
    json_t *safe = term_safe_json(doc);
    if (!safe) {
        fputs("rtjitter: out of memory\n", f);
        return;
    }
    report_text(f, safe, given);
    json_decref(safe);
}

void text_print_report(FILE *f, const json_t *doc)
{
    struct render_opts o;
    render_opts_detect(&o, f);
    text_print_report_opts(f, doc, &o);
}

static int text_report(FILE *f, const json_t *doc, const struct render_opts *o)
{
    text_print_report_opts(f, doc, o);
    return 0;
}

static int text_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n, const struct render_opts *o)
{
    (void)docs;
    (void)n;
    compare_print_text_opts(f, cmp, o);
    return 0;
}

/* Its entry in the table of forms (render.c): a report (above), a comparison (compare_text.c), a sweep
 * (sweep_text.c) and a fleet's matrix (matrix.c). */
const struct renderer render_form_text = {
    .name = "text", .ext = "txt", .summary = "the verdict, the system identity and an interbench-style table",
    .report = text_report, .compare = text_compare, .sweep = text_sweep_print, .matrix = matrix_text,
};
