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
#include "culprit/culprit.h"
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

/* The audio thread's real-time priority in the report (0: not real time or not known). */
static int audio_rt_priority(const struct vctx *v)
{
    double pr = doc_num(v->audio, "priority");
    return json_is_true(json_object_get(v->audio, "realtime")) && pr > 0 ? (int)pr : 0;
}

/* The kernel's preemption model as sysinfo read it ("none", "voluntary", "full", "rt", "unknown"), and whether it
 * can be switched at boot (PREEMPT_DYNAMIC). */
static const char *preempt_model(const struct vctx *v, int *dynamic)
{
    const json_t *k = json_object_get(v->sys, "kernel");
    *dynamic = json_is_true(json_object_get(k, "preempt_dynamic"));
    return doc_str(k, "preempt", "unknown");
}

/* ---- one class, one rule (culprit/trace_class.h says which holder is which class) ---- */

static const char *const below_kinds[] = { "below_kernel", NULL };
static const char *const rt_kinds[] = { "rt_task", NULL };
static const char *const thread_kinds[] = { "thread", NULL };
static const char *const kthread_kinds[] = { "kthread", NULL };
static const char *const no_preempt_kinds[] = { "no_preempt", NULL };
static const char *const idle_kinds[] = { "idle_exit", NULL };
static const char *const client_kinds[] = { "client", NULL };
static const char *const dsp_kinds[] = { "dsp", NULL };
static const char *const irq_kinds[] = { "irq", NULL };
static const char *const softirq_kinds[] = { "softirq", NULL };
static const char *const steal_kinds[] = { "steal", NULL };

#define HAS(fn, kinds)                                                                                               \
    static int fn(const struct vctx *v)                                                                              \
    {                                                                                                                \
        struct pick k;                                                                                               \
        return pick_best(v, kinds, &k);                                                                              \
    }
/* The system's own classes (the kernel, its threads, the CPU below it): not this depth's answer when a ladder's
 * depths below it kept up on the same system (verdict/ladder_rule.h). */
#define HAS_SYSTEM(fn, kinds)                                                                                        \
    static int fn(const struct vctx *v)                                                                              \
    {                                                                                                                \
        struct pick k;                                                                                               \
        return !v->kernel_cleared && pick_best(v, kinds, &k);                                                        \
    }

/* The class's culprit, and "NAME: EXPLAINS (EVIDENCE). " begun in b. */
static size_t begin(const struct vctx *v, const char *const *kinds, struct pick *k, char *b, size_t n, const char *lead)
{
    pick_best(v, kinds, k);
    size_t o = vadd(b, n, 0, "%s", lead);
    o = what_it_explains(k, b, n, o);
    return evidence(k, b, n, o);
}

HAS_SYSTEM(has_below, below_kinds)
static void say_below(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, below_kinds, &k, b, n, "The CPU was not running at all (no tick, no interrupt) while the audio "
                     "thread waited, in ");
    vadd(b, n, o, ". That is below the kernel: in a virtual machine the host did not run this virtual CPU (its "
         "scheduling, overcommit, halt polling); on real hardware, firmware or SMIs. No setting of this kernel "
         "changes it: ask the host for dedicated CPUs, or test on real hardware, before any kernel option.");
}

static void hint_below(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "the host or firmware first");
}

HAS(has_rt, rt_kinds)
static void say_rt(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, rt_kinds, &k);
    double pid = doc_num(k.detail, "pid");
    int ap = audio_rt_priority(v);
    size_t o = vadd(b, n, 0, "Lower %s", doc_str(k.top, "name", "?"));
    if (pid > 0)
        o = vadd(b, n, o, " (pid %.0f)", pid);
    o = vadd(b, n, o, ": a real-time process at or above the audio thread's priority held the audio CPU in ");
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    o = vadd(b, n, o, ". The scheduler runs it first whatever the kernel's settings: run it below the audio thread");
    if (pid > 0 && ap > 1) /* SCHED_FIFO below the audio thread: a change the kernel accepts from root */
        o = vadd(b, n, o, " (chrt -f -p %d %.0f)", ap - 1, pid);
    vadd(b, n, o, ", or on another CPU.");
}

static void hint_rt(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, rt_kinds, &k);
    snprintf(b, n, "lowering %.60s", doc_str(k.top, "name", "?"));
}

HAS(has_thread, thread_kinds)
static void say_thread(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, thread_kinds, &k, b, n, "The audio thread is not real time, so it shared its CPU with "
                     "ordinary tasks in ");
    vadd(b, n, o, ". Give the audio thread real-time priority (the first advice) before anything else.");
}

/* A kernel thread's advice by its kind; 0 when there is nothing to tune (a per-CPU stopper: never a line). */
static int kthread_advice(const char *name, char *b, size_t n, size_t o)
{
    switch (culprit_kthread_kind(name)) {
    case CKT_KWORKER:
        if (strncmp(name, "unbound ", 8) == 0)
            vadd(b, n, o, ". Unbound kernel work can be kept off the audio CPU: write a CPU mask without it to "
                 "/sys/devices/virtual/workqueue/cpumask; and find what queues that work (a file system's "
                 "writeback, a driver).");
        else
            vadd(b, n, o, ". That work is bound to the audio CPU: find what queues it there (a file system's "
                 "writeback, a driver) and keep that activity off the audio CPU.");
        return 1;
    case CKT_SOFTIRQ:
        vadd(b, n, o, ". ksoftirqd runs softirq work that piled up: see the interrupt and softirq advice.");
        return 1;
    case CKT_RCU:
        vadd(b, n, o, ". RCU's callbacks can be moved off the audio CPU with rcu_nocbs= on the kernel command "
             "line (where the kernel has RCU_NOCB_CPU).");
        return 1;
    case CKT_STOPPER:
    case CKT_IRQ:
        return 0;
    default:
        vadd(b, n, o, ". Nothing can be run against a kernel thread: look for what drives it.");
        return 1;
    }
}

/* The kernel thread that explains the most, leaving out the per-CPU stoppers (nothing to tune). */
static int pick_kthread(const struct vctx *v, struct pick *k)
{
    if (!pick_best(v, kthread_kinds, k))
        return 0;
    char tmp[8];
    return kthread_advice(doc_str(k->top, "name", ""), tmp, sizeof(tmp), 0);
}

static int has_kthread(const struct vctx *v)
{
    struct pick k;
    return !v->kernel_cleared && pick_kthread(v, &k);
}

static void say_kthread(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_kthread(v, &k);
    size_t o = vadd(b, n, 0, "The kernel's own %s held the audio CPU in ", doc_str(k.top, "name", "?"));
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    kthread_advice(doc_str(k.top, "name", ""), b, n, o);
}

HAS_SYSTEM(has_no_preempt, no_preempt_kinds)
static void say_no_preempt(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    int dyn;
    const char *model = preempt_model(v, &dyn);
    pick_best(v, no_preempt_kinds, &k);
    size_t o = vadd(b, n, 0, "The kernel could not preempt %s for the audio thread in ", doc_str(k.top, "name", "?"));
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    o = vadd(b, n, o, ". It is not to blame: it was in the kernel, and this kernel (preempt=%s) lets such code run "
             "on", model);
    if (strcmp(model, "none") == 0 || strcmp(model, "voluntary") == 0) {
        if (dyn)
            vadd(b, n, o, ": boot it with preempt=full (GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then "
                 "update-grub), before any other kernel option.");
        else
            vadd(b, n, o, ": use a lowlatency or PREEMPT_RT kernel (apt install linux-lowlatency on Ubuntu, "
                 "linux-image-rt-amd64 on Debian).");
    } else {
        vadd(b, n, o, ": only a PREEMPT_RT kernel makes the rest preemptible (linux-image-rt-amd64 on Debian).");
    }
}

static void hint_no_preempt(const struct vctx *v, char *b, size_t n)
{
    int dyn;
    const char *model = preempt_model(v, &dyn);
    int partial = strcmp(model, "none") == 0 || strcmp(model, "voluntary") == 0;
    snprintf(b, n, "%s", partial && dyn ? "preempt=full" : "a PREEMPT_RT kernel");
}

HAS_SYSTEM(has_idle, idle_kinds)
static void say_idle(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, idle_kinds, &k, b, n, "The audio CPU was idle and woke late while the audio thread waited, "
                     "in ");
    if (verdict_idle_governable(v) == 0) {
        o = vadd(b, n, o, ". ");
        verdict_say_halts(v, b, n, o);
        return;
    }
    vadd(b, n, o, ". Deep idle states take long to leave: hold /dev/cpu_dma_latency at 0 while you play (rtjitter "
         "--dma-latency shows the difference); in a virtual machine the host woke the CPU late.");
}

HAS(has_client, client_kinds)
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

HAS(has_dsp, dsp_kinds)
static void say_dsp(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, dsp_kinds, &k, b, n, "Your DSP overran the period: ");
    vadd(b, n, o, ". The callback's own work took the cycle's time: do less work per cycle (a lower --dsp) or use a "
         "larger buffer; no kernel setting gives a cycle more time.");
}

static void hint_dsp(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "less DSP work per cycle");
}

/* A real interrupt line (not a per-CPU vector: the local timer, IPIs, which nothing moves). */
static int pick_irq(const struct vctx *v, struct pick *k)
{
    return pick_best(v, irq_kinds, k);
}

static int has_irq(const struct vctx *v)
{
    struct pick k;
    return pick_irq(v, &k);
}

static void say_irq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_irq(v, &k);
    double irq = doc_num(k.detail, "irq");
    const char *name = doc_str(k.top, "name", "?");
    int line = strncmp(name, "IRQ ", 4) == 0;
    size_t o = vadd(b, n, 0, "%s ran ahead of the audio thread in ", name);
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    if (!line) { /* LOC, RES, CAL...: the CPU's own timer and the other CPUs' requests */
        vadd(b, n, o, ". These are the CPU's own timer and messages from the other CPUs: nothing moves them; what "
             "sends them (the load on the other CPU) is what to change.");
        return;
    }
    o = vadd(b, n, o, ". Put the sound card's interrupt thread and the audio above it (rtirq, on a kernel with "
             "threadirqs), or move that interrupt off the audio CPU");
    if (irq >= 0)
        o = vadd(b, n, o, " where the kernel allows it (/proc/irq/%.0f/smp_affinity_list)", irq);
    vadd(b, n, o, ".");
}

static void hint_irq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_irq(v, &k);
    const char *name = doc_str(k.top, "name", "?");
    if (strncmp(name, "IRQ ", 4) == 0)
        snprintf(b, n, "moving %.60s off the audio CPU", name);
    else
        snprintf(b, n, "less work on the other CPUs");
}

HAS(has_softirq, softirq_kinds)
static void say_softirq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, softirq_kinds, &k);
    size_t o = vadd(b, n, 0, "%s softirq work ran ahead of the audio thread in ", doc_str(k.top, "name", "?"));
    o = what_it_explains(&k, b, n, o);
    o = evidence(&k, b, n, o);
    vadd(b, n, o, ". Softirqs run ahead of every task: with threadirqs they run in the interrupt threads, which rtirq "
         "can put below the audio; or move the device that raises them (its interrupt, its packet steering) off "
         "the audio CPU.");
}

HAS(has_steal, steal_kinds)
static void say_steal(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, steal_kinds, &k, b, n, "The host of this virtual machine took the CPU (steal time) before ");
    vadd(b, n, o, ". Nothing in this machine can change that: ask the VM's host for dedicated CPUs, or test on real "
         "hardware.");
}

/* The culprits' rules, one a class; verdict_order.c's table sets the order the advice is given in. */
static const struct advice_rule culprit_rules[] = {
    { "culprit_below", has_below, say_below, hint_below },
    { "culprit_process", has_rt, say_rt, hint_rt },
    { "culprit_thread", has_thread, say_thread, NULL },
    { "culprit_client", has_client, say_client, hint_client },
    { "culprit_dsp", has_dsp, say_dsp, hint_dsp },
    { "culprit_steal", has_steal, say_steal, hint_below },
    { "culprit_kthread", has_kthread, say_kthread, NULL },
    { "culprit_irq", has_irq, say_irq, hint_irq },
    { "culprit_softirq", has_softirq, say_softirq, NULL },
    { "culprit_idle", has_idle, say_idle, NULL },
    { "culprit_no_preempt", has_no_preempt, say_no_preempt, hint_no_preempt },
};

size_t verdict_culprit_rules_count(void)
{
    return sizeof(culprit_rules) / sizeof(culprit_rules[0]);
}

const struct advice_rule *verdict_culprit_rule(size_t i)
{
    return i < verdict_culprit_rules_count() ? &culprit_rules[i] : NULL;
}
