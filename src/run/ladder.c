/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder (see ladder.h). Each depth is an ordinary run; the ladder compares their reports. */
#include "run/ladder.h"
#include "render/compare_text.h"
#include "render/render.h"
#include "report/access.h"
#include "report/compare.h"
#include "report/compare_verdict.h"
#include "report/doc.h"
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
        double e = compare_xruns(p);
        if (!isnan(e))
            n += e;
    }
    return n;
}

/* What the depths say in words: the p99 wake-up at each depth, what each adds to the one before, and the first
 * depth whose verdict is not OK. */
static void print_ladder(FILE *f, json_t *const *docs, const char *const *names, size_t n)
{
    fprintf(f, "\nDepth ladder (the same loads at each depth, shallowest first):\n");
    double prev = NAN;
    const char *trouble = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *load;
        double p99 = worst_p99(docs[i], &load);
        const json_t *v = json_object_get(docs[i], "verdict");
        const char *level = doc_str(v, "level", "?");
        fprintf(f, "  %-6s wake-up p99 %8.1f µs (worst under %s), %3.0f xrun events, verdict %s", names[i], p99,
                load ? load : "-", events_of(docs[i]), level);
        if (i > 0 && !isnan(prev) && !isnan(p99))
            fprintf(f, ": %+.1f µs over %s", p99 - prev, names[i - 1]);
        fputc('\n', f);
        if (!trouble && strcmp(level, "fail") == 0)
            trouble = names[i];
        prev = p99;
    }
    if (!trouble)
        fprintf(f, "No depth shows trouble: the kernel, the driver and the audio server all kept up.\n");
    else if (trouble == names[0])
        fprintf(f, "The trouble starts at the shallowest depth measured (%s): it is the kernel and the machine, not "
                   "the audio stack above them.\n", trouble);
    else
        fprintf(f, "The trouble starts at %s: the depths below it kept up, so look at what %s adds (its server, "
                   "its driver, its settings) before the kernel.\n", trouble, trouble);
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
    for (size_t i = 0; i < n; i++) {
        struct run_plan p = *plan;
        p.backend = backends[i];
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
        }
        if (rc == 3 && !doc)
            break;
    }
    if (got >= 2) {
        json_t *cmp = compare_build(docs, names, got);
        if (cmp) {
            if (!plan->quiet) {
                struct render_opts ro;
                render_opts_detect(&ro, stdout);
                compare_print_text_opts(stdout, cmp, &ro);
                print_ladder(stdout, docs, names, got);
            }
            const struct { const char *form, *path; } outs[] = { { "json", json }, { "html", html } };
            for (size_t k = 0; k < 2; k++) {
                int e = outs[k].path ? render_compare_file(renderer_find(outs[k].form), outs[k].path, cmp, docs, got)
                                     : 0;
                if (e < 0) {
                    fprintf(stderr, "rtjitter run: cannot write %s: %s\n", outs[k].path, doc_strerror(e));
                    if (worst < 3)
                        worst = 3;
                }
            }
            json_decref(cmp);
        }
    }
    for (size_t i = 0; i < got; i++)
        json_decref(docs[i]);
    return worst;
}
