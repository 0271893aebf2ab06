/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict's advice from the culprits (culprit/culprit.h, REPORT SCHEMA: phases[].top_culprits, each event's and
 * spike's culprits): what the run saw explain its xruns, named before any setting. A culprit process (a real-time
 * task on the audio CPU, a thread a trace saw, another client of the graph, our own DSP) is what to stop or fix
 * first: no kernel option helps while it runs there. An interrupt or softirq leads to the interrupts' priorities
 * (rtirq, threadirqs) and affinity; steal to the host of a virtual machine. Each rule names the culprit that
 * explains the most events of any load (then spikes), with its evidence. verdict_order.c places them: the processes
 * and steal with what the run saw, the interrupts with the server's settings, all before the kernel's options.
 * Main thread, after the measurement. */
#include "verdict/verdict_internal.h"
#include "verdict/verdict_text.h"
#include "report/access.h"
#include <stdio.h>
#include <string.h>

/* The culprit a rule names: its top_culprits entry, its load, its detail (the first event's or spike's own culprit
 * object: pid, cpu, irq), and what it explains of that load. */
struct pick {
    const json_t *top, *phase, *detail;
    long long events, spikes;
    size_t nev, nsp;
};

static int trouble(const struct vctx *v)
{
    return v->failing > 0 || v->timing_warn;
}

static int kind_in(const char *kind, const char *const *kinds)
{
    for (; kind && *kinds; kinds++)
        if (strcmp(kind, *kinds) == 0)
            return 1;
    return 0;
}

/* The first culprit object of (kind, name) among list's happenings' culprits. */
static const json_t *detail_in(const json_t *list, const char *kind, const char *name)
{
    size_t i, j;
    const json_t *h, *c;
    json_array_foreach(list, i, h) json_array_foreach(json_object_get(h, "culprits"), j, c) {
        const char *k = doc_str(c, "kind", ""), *n = doc_str(c, "name", "");
        if (strcmp(k, kind) == 0 && strcmp(n, name) == 0)
            return c;
    }
    return NULL;
}

/* How many of list's happenings ranked (kind, name) first. */
static long long ranked_first(const json_t *list, const char *kind, const char *name)
{
    size_t i;
    const json_t *h;
    long long n = 0;
    json_array_foreach(list, i, h) {
        const json_t *c = json_array_get(json_object_get(h, "culprits"), 0);
        n += c && strcmp(doc_str(c, "kind", ""), kind) == 0 && strcmp(doc_str(c, "name", ""), name) == 0;
    }
    return n;
}

/* The culprit of one of kinds that explains the most events of a load (then spikes), over every load, among those
 * ranked first in at least one of them (a second-ranked culprit is a suspect, not the cause to act on). Spikes alone
 * count only when the timing was poor: a spike that cost nothing needs no advice. */
static int pick_best(const struct vctx *v, const char *const *kinds, struct pick *out)
{
    size_t i, j;
    const json_t *p, *c;
    memset(out, 0, sizeof(*out));
    json_array_foreach(json_object_get(v->doc, "phases"), i, p) json_array_foreach(json_object_get(p, "top_culprits"),
                                                                                    j, c) {
        if (!kind_in(doc_str(c, "kind", NULL), kinds))
            continue;
        long long e = (long long)doc_num(c, "events"), s = (long long)doc_num(c, "spikes");
        e = e > 0 ? e : 0; /* doc_num is NAN when absent */
        s = s > 0 ? s : 0;
        if (e == 0 && (s == 0 || !trouble(v)))
            continue;
        const char *kind = doc_str(c, "kind", ""), *name = doc_str(c, "name", "");
        if (!ranked_first(json_object_get(p, "events"), kind, name) &&
            !ranked_first(json_object_get(p, "spikes"), kind, name))
            continue;
        if (out->top && (e < out->events || (e == out->events && s <= out->spikes)))
            continue;
        *out = (struct pick){ .top = c, .phase = p, .events = e, .spikes = s,
                              .nev = json_array_size(json_object_get(p, "events")),
                              .nsp = json_array_size(json_object_get(p, "spikes")) };
    }
    if (!out->top)
        return 0;
    const char *kind = doc_str(out->top, "kind", ""), *name = doc_str(out->top, "name", "");
    out->detail = detail_in(json_object_get(out->phase, "events"), kind, name);
    if (!out->detail)
        out->detail = detail_in(json_object_get(out->phase, "spikes"), kind, name);
    return 1;
}

/* "4 of 5 xrun events under burn" (or its spikes when it explained no event). */
static size_t what_it_explains(const struct pick *k, char *b, size_t n, size_t o)
{
    char load[PHASE_NAME_LEN];
    doc_phase_name(k->phase, load, sizeof(load));
    if (k->events > 0)
        return vadd(b, n, o, "%lld of %zu xrun event%s under %s", k->events, k->nev, k->nev == 1 ? "" : "s", load);
    return vadd(b, n, o, "%lld of %zu wake-up spike%s under %s", k->spikes, k->nsp, k->nsp == 1 ? "" : "s", load);
}

/* " (EVIDENCE)" when the culprit has a line of evidence. */
static size_t evidence(const struct pick *k, char *b, size_t n, size_t o)
{
    const char *ev = doc_str(k->top, "evidence", NULL);
    return ev && ev[0] ? vadd(b, n, o, " (%s)", ev) : o;
}

static const char *const process_kinds[] = { "rt_task", "thread", NULL };
static const char *const client_kinds[] = { "client", NULL };
static const char *const dsp_kinds[] = { "dsp", NULL };
static const char *const irq_kinds[] = { "irq", NULL };
static const char *const softirq_kinds[] = { "softirq", NULL };
static const char *const steal_kinds[] = { "steal", NULL };

static int has_process(const struct vctx *v)
{
    struct pick k;
    return pick_best(v, process_kinds, &k);
}

static void say_process(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, process_kinds, &k);
    const char *kind = doc_str(k.top, "kind", "");
    double pid = doc_num(k.detail, "pid");
    size_t o = vadd(b, n, 0, "Stop or lower %s", doc_str(k.top, "name", "?"));
    if (pid > 0)
        o = vadd(b, n, o, " (pid %.0f)", pid);
    o = vadd(b, n, o, ": it ran on the audio CPU before ");
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    if (strcmp(kind, "rt_task") == 0) {
        o = vadd(b, n, o, ". A real-time task at or above the audio thread's priority takes the CPU whatever the "
                 "kernel's settings: make it an ordinary task");
        if (pid > 0)
            o = vadd(b, n, o, " (chrt -o -p 0 %.0f)", pid);
        vadd(b, n, o, ", lower it below the audio, or move it off the audio CPU (taskset).");
    } else {
        vadd(b, n, o, ". Move it off the audio CPU (taskset) or stop it while you play.");
    }
}

static void hint_process(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, process_kinds, &k);
    snprintf(b, n, "stopping %.60s", doc_str(k.top, "name", "?"));
}

static int has_client(const struct vctx *v)
{
    struct pick k;
    return pick_best(v, client_kinds, &k);
}

static void say_client(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, client_kinds, &k);
    size_t o = vadd(b, n, 0, "Client %s did not finish in time: ", doc_str(k.top, "name", "?"));
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    vadd(b, n, o, ". The graph waits for every client: fix or remove that client (its own work, its own stalls) "
         "before any setting of this machine.");
}

static void hint_client(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, client_kinds, &k);
    snprintf(b, n, "fixing client %.60s", doc_str(k.top, "name", "?"));
}

static int has_dsp(const struct vctx *v)
{
    struct pick k;
    return pick_best(v, dsp_kinds, &k);
}

static void say_dsp(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, dsp_kinds, &k);
    size_t o = vadd(b, n, 0, "Your DSP overran the period: ");
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    vadd(b, n, o, ". The callback's own work took the cycle's time: do less work per cycle (a lower --dsp) or use a "
         "larger buffer; no kernel setting gives a cycle more time.");
}

static void hint_dsp(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "less DSP work per cycle");
}

static int has_irq(const struct vctx *v)
{
    struct pick k;
    return pick_best(v, irq_kinds, &k);
}

static void say_irq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, irq_kinds, &k);
    double irq = doc_num(k.detail, "irq");
    size_t o = vadd(b, n, 0, "%s rose on the audio CPU before ", doc_str(k.top, "name", "?"));
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    o = vadd(b, n, o, ". Put the sound card's interrupt thread and the audio above it (rtirq, on a kernel with "
             "threadirqs), or move that interrupt off the audio CPU");
    if (irq >= 0)
        o = vadd(b, n, o, " (/proc/irq/%.0f/smp_affinity_list)", irq);
    vadd(b, n, o, ".");
}

static void hint_irq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, irq_kinds, &k);
    double irq = doc_num(k.detail, "irq");
    /* rtirq is the threadirqs advice's hint already; the line's own move is this one's */
    if (irq >= 0)
        snprintf(b, n, "moving IRQ %.0f off the audio CPU", irq);
    else
        snprintf(b, n, "moving %.60s off the audio CPU", doc_str(k.top, "name", "?"));
}

static int has_softirq(const struct vctx *v)
{
    struct pick k;
    return pick_best(v, softirq_kinds, &k);
}

static void say_softirq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, softirq_kinds, &k);
    size_t o = vadd(b, n, 0, "The %s softirq rose before ", doc_str(k.top, "name", "?"));
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    vadd(b, n, o, ". Softirqs run ahead of every task: with threadirqs they run in the interrupt threads, which rtirq "
         "can put below the audio; or move the device that raises them (its interrupt, its packet steering) off "
         "the audio CPU.");
}

static int has_steal(const struct vctx *v)
{
    struct pick k;
    return pick_best(v, steal_kinds, &k);
}

static void say_steal(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, steal_kinds, &k);
    size_t o = vadd(b, n, 0, "The host of this virtual machine took the CPU (steal time) before ");
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    vadd(b, n, o, ". Nothing in this machine can change that: ask the VM's host for dedicated CPUs, or test on real "
         "hardware.");
}

/* The culprits' rules; verdict_order.c's table sets the order the advice is given in. */
static const struct advice_rule culprit_rules[] = {
    { "culprit_process", has_process, say_process, hint_process },
    { "culprit_client", has_client, say_client, hint_client },
    { "culprit_dsp", has_dsp, say_dsp, hint_dsp },
    { "culprit_steal", has_steal, say_steal, NULL },
    { "culprit_irq", has_irq, say_irq, hint_irq },
    { "culprit_softirq", has_softirq, say_softirq, NULL },
};

size_t verdict_culprit_rules_count(void)
{
    return sizeof(culprit_rules) / sizeof(culprit_rules[0]);
}

const struct advice_rule *verdict_culprit_rule(size_t i)
{
    return i < verdict_culprit_rules_count() ? &culprit_rules[i] : NULL;
}
