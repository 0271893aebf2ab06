/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder (see ladder.h). Each depth is an ordinary run; the ladder compares their reports. */
#include "run/ladder.h"
#include "run/run.h"
#include "render/compare_text.h"
#include "render/render.h"
#include "report/access.h"
#include "compare/compare.h"
#include "report/phase_figures.h"
#include "report/doc.h"
#include "verdict/ladder_rule.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define LADDER_MAX 4

/* The worst p99 wake-up over the phases of a report, and the load it was under. */
static double worst_p99(const json_t *doc, const char **load)
{
    double worst = NAN;
    size_t i;
    const json_t *p;
    *load = NULL;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        double v = doc_num(json_object_get(p, "wakeup_us"), "p99");
        if (!isnan(v) && (isnan(worst) || v > worst)) {
            worst = v;
            *load = doc_str(p, "load", "?");
        }
    }
    return worst;
}

static double events_of(const json_t *doc)
{
    double n = 0;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        double e = phasefig_xruns(p);
        if (!isnan(e))
            n += e;
    }
    return n;
}

/* The ladder as data, for every form (the text below, the JSON, the HTML page: render/html_ladder.c): each
 * depth's figures and verdict, what each adds to the one before, and where the trouble starts, by the one rule
 * (verdict/ladder_rule.h) that each depth's verdict followed too. */
static json_t *ladder_json(json_t *const *docs, const char *const *names, size_t n)
{
    json_t *depths = json_array();
    const char *levels[LADDER_MAX];
    double prev = NAN, below_max = NAN;
    size_t below_at = 0;
    for (size_t i = 0; i < n; i++) {
        const char *load;
        double p99 = worst_p99(docs[i], &load);
        const json_t *v = json_object_get(docs[i], "verdict");
        levels[i] = doc_str(v, "level", NULL);
        json_array_append_new(depths, json_pack("{s:s, s:o, s:o, s:o, s:o, s:I, s:o}",
            "depth", names[i], "level", levels[i] ? json_string(levels[i]) : json_null(),
            "wakeup_p99_us", doc_number_json(p99), "worst_load", load ? json_string(load) : json_null(),
            "summary", json_incref(json_object_get(v, "summary") ?: json_null()),
            "xrun_events", (json_int_t)events_of(docs[i]),
            "over_previous_us", doc_number_json(i > 0 && !isnan(prev) && !isnan(p99) ? p99 - prev : NAN)));
        prev = p99;
        double gaps, bk = ladder_below_kernel_us(docs[i], &gaps);
        if (!isnan(bk)) { /* depth zero: the noise probe's gaps below the kernel */
            json_t *d = json_array_get(depths, i);
            json_object_set_new(d, "below_kernel_max_us", json_real(bk));
            json_object_set_new(d, "below_kernel_gaps", json_integer((json_int_t)gaps));
            if (isnan(below_max) || bk > below_max) {
                below_max = bk;
                below_at = i;
            }
        }
    }
    /* The lowest depth whose tail explains the top depth's misses is where to act: gaps below the kernel as long
     * as a period of the top depth, which had xruns, come first (ladder_rule.h). */
    const json_t *top_au = json_object_get(docs[n - 1], "audio");
    double top_period = doc_num(top_au, "period_us");
    int host = !isnan(below_max) && below_at < n - 1 && top_period > 0 && below_max >= top_period &&
               (events_of(docs[n - 1]) > 0 || (levels[n - 1] && strcmp(levels[n - 1], "fail") == 0));
    size_t t = ladder_trouble_start(levels, n);
    char why[900];
    int o = 0;
    /* depths at other periods are not held against each other: a timer at 64 frames misses deadlines a graph at 256
     * never sees (a running server keeps its own size; --period applies to the depths without one) */
    double f0 = doc_num(json_object_get(docs[0], "audio"), "period_frames"),
           r0 = doc_num(json_object_get(docs[0], "audio"), "rate");
    size_t other = 0;
    for (size_t i = 1; i < n && !other; i++) {
        const json_t *au = json_object_get(docs[i], "audio");
        if (doc_num(au, "period_frames") != f0 || doc_num(au, "rate") != r0)
            other = i;
    }
    if (other && !isnan(f0) && !isnan(r0)) {
        const json_t *au = json_object_get(docs[other], "audio");
        snprintf(why, sizeof(why), "No depth is held against another: the %s depth ran at %.0f frames / %.0f Hz, the "
                 "%s depth at %.0f frames / %.0f Hz (a running server keeps its own size). Run the ladder again with "
                 "--period %.0f --rate %.0f, the size the server runs at.", names[0], f0, r0, names[other],
                 doc_num(au, "period_frames"), doc_num(au, "rate"), doc_num(au, "period_frames"),
                 doc_num(au, "rate"));
        return json_pack("{s:o, s:n, s:b, s:s, s:s}", "depths", depths, "trouble_starts_at", "host_first", 0,
                         "conclusion", why, "rule", "depths are held against each other only at one period and "
                         "rate");
    }
    if (host) {
        const json_t *virt = json_object_get(json_object_get(docs[below_at], "audio"), "virtual");
        o = snprintf(why, sizeof(why), "The host or the firmware first, not this kernel: the probe saw gaps of up to "
                     "%.1f ms below the kernel (nothing the kernel counts rose across them), as long as a period at "
                     "the %s depth (%.2f ms), where each is an xrun. %s", below_max / 1000.0, names[n - 1],
                     top_period / 1000.0, json_is_true(virt) ? "This is a virtual machine: its host's scheduling of "
                     "the virtual CPU (the host's own load, halt polling, overcommitted CPUs) is where to act, before "
                     "any kernel option here. " : "On bare metal that is firmware (an SMI, the BIOS's power "
                     "management): look there before any kernel option. ");
        if (o < 0 || (size_t)o >= sizeof(why))
            o = 0;
    }
    if (t == n)
        snprintf(why + o, sizeof(why) - (size_t)o, "No depth shows trouble: the kernel, the driver and the audio server "
                 "all kept up.");
    else if (t == 0 && host)
        snprintf(why + o, sizeof(why) - (size_t)o, "The trouble starts at the shallowest depth measured (%s).",
                 names[0]);
    else if (t == 0)
        snprintf(why + o, sizeof(why) - (size_t)o, "The trouble starts at the shallowest depth measured (%s): it is "
                 "the kernel and the machine, not the audio stack above them.", names[0]);
    else
        snprintf(why + o, sizeof(why) - (size_t)o, "The trouble starts at %s: the depths below it kept up, so look at "
                 "what %s adds (its server, its driver, its settings) before the kernel.", names[t], names[t]);
    return json_pack("{s:o, s:o, s:b, s:s, s:s}", "depths", depths,
                     "trouble_starts_at", t == n ? json_null() : json_string(names[t]), "host_first", host,
                     "conclusion", why,
                     "rule", "the trouble starts at the shallowest depth whose verdict is fail; a depth with only "
                             "clean depths below it is judged without blaming the kernel; the lowest depth whose tail "
                             "explains the top depth's misses is where to act (the noise probe's gaps below the "
                             "kernel as long as a period of the top depth: the host or firmware first)");
}

/* The ladder in words, from its JSON: the p99 wake-up at each depth, what each adds to the one before, and the
 * conclusion. */
static void print_ladder(FILE *f, const json_t *ladder)
{
    fprintf(f, "\nDepth ladder (the same loads at each depth, shallowest first):\n");
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(ladder, "depths"), i, d) {
        double p99 = doc_num(d, "wakeup_p99_us"), add = doc_num(d, "over_previous_us");
        char fig[32];
        if (isnan(p99))
            snprintf(fig, sizeof(fig), "%8s", "unknown");
        else
            snprintf(fig, sizeof(fig), "%8.1f", p99);
        fprintf(f, "  %-6s wake-up p99 %s µs (worst under %s), %3.0f xrun events, verdict %s", doc_str(d, "depth", "?"),
                fig, doc_str(d, "worst_load", "-"), doc_num(d, "xrun_events"), doc_str(d, "level", "?"));
        if (!isnan(add))
            fprintf(f, ": %+.1f µs over %s", add,
                    doc_str(json_array_get(json_object_get(ladder, "depths"), i - 1), "depth", "?"));
        if (json_is_number(json_object_get(d, "below_kernel_max_us")))
            fprintf(f, "; below the kernel: %.0f gaps, the longest %.1f µs", doc_num(d, "below_kernel_gaps"),
                    doc_num(d, "below_kernel_max_us"));
        fputc('\n', f);
    }
    fprintf(f, "%s\n", doc_str(ladder, "conclusion", ""));
}

int run_ladder(const struct run_plan *plan, const struct backend_ops *const *backends, size_t n, const char *json,
               const char *html)
{
    if (n < 2 || n > LADDER_MAX)
        return 2;
    json_t *docs[LADDER_MAX] = { NULL };
    const char *names[LADDER_MAX];
    int worst = 0;
    size_t got = 0;
    json_t *below = json_array(); /* the depths measured so far: each next depth's verdict knows them */
    if (!below)
        return 3;
    /* A running server keeps its own size, and depths are held against each other only at one size: unless the user
     * chose one (or asked to change the server's), every depth runs at the size of the server the ladder reaches. */
    struct run_plan sized = *plan;
    for (size_t i = 0; i < n && !(plan->be.period_given && plan->be.rate_given) && !plan->be.set_buffer_size; i++) {
        int rate = 0, period = 0;
        if (!backends[i]->server_size)
            continue;
        if (backends[i]->server_size(plan->be.server, 2000, &rate, &period) != 1 || rate <= 0 || period <= 0) {
            if (!plan->quiet) /* not there, not answering, or (PipeWire) running at a size no client is told */
                printf("The %s server's size is not known: the depths run at the size given (--period and --rate).\n",
                       backends[i]->name);
            continue;
        }
        if (!plan->be.rate_given)
            sized.be.rate_hz = rate;
        if (!plan->be.period_given)
            sized.be.period_frames = period;
        if (!plan->quiet)
            printf("The %s server runs at %d frames / %d Hz: every depth runs at %d frames / %d Hz%s.\n",
                   backends[i]->name, period, rate, sized.be.period_frames, sized.be.rate_hz,
                   plan->be.period_given || plan->be.rate_given ? " (and what you chose)" : " (--period and --rate "
                   "choose another for the depths without a server)");
        break;
    }
    for (size_t i = 0; i < n; i++) {
        struct run_plan p = sized;
        p.backend = backends[i];
        p.ladder_below = below;
        p.json = p.html = NULL; /* the ladder writes the comparison; each depth's report is in the store */
        json_t *doc = NULL;
        p.result = &doc;
        if (!plan->quiet)
            printf("\n== depth %zu of %zu: --backend %s\n", i + 1, n, backends[i]->name);
        fflush(stdout);
        int rc = run_execute(&p);
        if (rc == 2) {
            json_decref(doc);
            worst = 2;
            break;
        }
        if (rc > worst)
            worst = rc;
        if (doc) {
            docs[got] = doc;
            names[got++] = backends[i]->name;
            const char *level = doc_str(json_object_get(doc, "verdict"), "level", NULL);
            json_t *b = json_pack("{s:s, s:o}", "depth", backends[i]->name,
                                  "level", level ? json_string(level) : json_null());
            double bk = ladder_below_kernel_us(doc, NULL);
            if (!isnan(bk)) { /* depth zero: what the depths above judge their misses against */
                const json_t *virt = json_object_get(json_object_get(doc, "audio"), "virtual");
                json_object_set_new(b, "below_kernel_max_us", json_real(bk));
                json_object_set_new(b, "virtual", virt ? json_incref((json_t *)virt) : json_null());
            }
            json_array_append_new(below, b);
        }
        if (rc == 3 && !doc)
            break;
    }
    if (got >= 2) {
        /* The columns are the depths: "timer depth", "jack depth" (every report is of the same kernel). */
        char titles[LADDER_MAX][64];
        const char *tp[LADDER_MAX];
        for (size_t i = 0; i < got; i++) {
            snprintf(titles[i], sizeof(titles[i]), "%s depth", names[i]);
            tp[i] = titles[i];
        }
        json_t *cmp = compare_build_titled(docs, names, tp, got);
        json_t *ladder = cmp ? ladder_json(docs, names, got) : NULL;
        if (cmp && (!ladder || json_object_set_new(cmp, "ladder", ladder) < 0)) {
            json_decref(cmp);
            cmp = NULL;
        }
        if (!cmp) {
            run_err("the ladder's comparison could not be built (out of memory)\n");
            if (worst < 3)
                worst = 3;
        }
        if (cmp) {
            if (!plan->quiet) {
                struct render_opts ro;
                render_opts_detect(&ro, stdout);
                compare_print_text_opts(stdout, cmp, &ro);
                print_ladder(stdout, json_object_get(cmp, "ladder"));
            }
            const struct { const char *form, *path; } outs[] = { { "json", json }, { "html", html } };
            for (size_t k = 0; k < 2; k++) {
                int e = outs[k].path ? render_compare_file(renderer_find(outs[k].form), outs[k].path, cmp, docs, got)
                                     : 0;
                if (e < 0) {
                    run_err("cannot write %s: %s\n", outs[k].path, doc_strerror(e));
                    if (worst < 3)
                        worst = 3;
                }
            }
            json_decref(cmp);
        }
    }
    for (size_t i = 0; i < got; i++)
        json_decref(docs[i]);
    json_decref(below);
    return worst;
}
