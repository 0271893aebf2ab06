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
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

/* The culprit a rule names: its top_culprits entry, its load, its detail (the first event's or spike's own culprit
 * object: pid, cpu, irq), and what it explains of that load. */
struct pick {
    const json_t *top, *phase, *detail;
    long long events, spikes;
    long long first_events, first_spikes; /* of the kept happenings, those that ranked it first */
    size_t nev, nsp;
    int sp_unlisted;              /* the phase had spikes not listed (less late than those listed) */
};

static int trouble(const struct vctx *v)
{
    return v->failing > 0 || v->timing_warn;
}

/* The culprit object of (kind, name) in the longest of list's happenings that have it (events by length, spikes by
 * wake-up; the first when none says), so that its pid and its evidence come from one happening, the one
 * top_culprits quotes (report_culprits.c): two processes of one name (two canaries) are never mixed. */
static const json_t *detail_in(const json_t *list, const char *kind, const char *name)
{
    size_t i, j;
    const json_t *h, *c, *best = NULL;
    double best_size = -1;
    json_array_foreach(list, i, h) json_array_foreach(json_object_get(h, "culprits"), j, c) {
        const char *k = doc_str(c, "kind", ""), *n = doc_str(c, "name", "");
        if (strcmp(k, kind) || strcmp(n, name))
            continue;
        double size = doc_num(h, "length_ms");
        if (isnan(size))
            size = doc_num(h, "wakeup_us") / 1000.0;
        if (isnan(size))
            size = 0;
        if (!best || size > best_size)
            best = c, best_size = size;
        break;
    }
    return best;
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

/* The culprit of one of kinds ranked first in the most events of a load (then spikes; then the most it is in), over
 * every load, among those ranked first in at least one of them (a second-ranked culprit is a suspect, not the cause
 * to act on). Spikes alone count only when the timing was poor: a spike that cost nothing needs no advice. */
static int pick_best(const struct vctx *v, enum culprit_kind want, struct pick *out)
{
    size_t i, j;
    const json_t *p, *c;
    memset(out, 0, sizeof(*out));
    json_array_foreach(json_object_get(v->doc, "phases"), i, p) json_array_foreach(json_object_get(p, "top_culprits"),
                                                                                    j, c) {
        if (culprit_kind_parse(doc_str(c, "kind", NULL)) != want)
            continue;
        long long e = (long long)doc_num(c, "events"), s = (long long)doc_num(c, "spikes");
        e = e > 0 ? e : 0; /* doc_num is NAN when absent */
        s = s > 0 ? s : 0;
        if (e == 0 && (s == 0 || !trouble(v)))
            continue;
        const char *kind = doc_str(c, "kind", ""), *name = doc_str(c, "name", "");
        long long fe = ranked_first(json_object_get(p, "events"), kind, name),
                  fs = ranked_first(json_object_get(p, "spikes"), kind, name);
        if (!fe && !fs)
            continue;
        /* the most happenings ranked first, then the most it is in: another test's canary, second in 4 events for
         * 61 us of a 0.4 ms wait and first in one, took the advice from the hog that held 13 (truth32) */
        if (out->top && (fe < out->first_events || (fe == out->first_events && fs < out->first_spikes) ||
                         (fe == out->first_events && fs == out->first_spikes &&
                          (e < out->events || (e == out->events && s <= out->spikes)))))
            continue;
        *out = (struct pick){ .top = c, .phase = p, .events = e, .spikes = s, .first_events = fe, .first_spikes = fs,
                              .nev = json_array_size(json_object_get(p, "events")),
                              .nsp = json_array_size(json_object_get(p, "spikes")),
                              .sp_unlisted = doc_num(p, "spikes_unlisted") > 0 };
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
    if (k->sp_unlisted) /* the report lists the latest-waking spikes only (phase.h) */
        return vadd(b, n, o, "%lld of the %zu worst wake-up spikes under %s", k->spikes, k->nsp, load);
    return vadd(b, n, o, "%lld of %zu wake-up spike%s under %s", k->spikes, k->nsp, k->nsp == 1 ? "" : "s", load);
}

/* " (EVIDENCE)" when the culprit has a line of evidence. */
static size_t evidence(const struct pick *k, char *b, size_t n, size_t o)
{
    const char *ev = doc_str(k->detail, "evidence", NULL); /* the happening its pid is from */
    if (!ev || !ev[0])
        ev = doc_str(k->top, "evidence", NULL);
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

/* ---- one class, one rule (culprit/trace_class.h says which holder is which class) ----
 * A class's words are its row in the table of kinds (culprit/culprit_kinds.c): "LEAD EXPLAINS (EVIDENCE)ADVICE",
 * with its name where the lead or the hint says "%s". What the table leaves NULL, the class's own function writes. */

/* fmt with name where it says "%s" (at most once), added at o; the name cut at max bytes. */
static size_t add_named(char *b, size_t n, size_t o, const char *fmt, const char *name, int max)
{
    const char *at = strstr(fmt, "%s");
    if (!at)
        return vadd(b, n, o, "%s", fmt);
    return vadd(b, n, o, "%.*s%.*s%s", (int)(at - fmt), fmt, max, name, at + 2);
}

/* Whether the class has a culprit to advise on: the system's own classes (the kernel, its threads, the CPU below it)
 * are not this depth's answer when a ladder's depths below it kept up on the same system (verdict/ladder_rule.h). */
static int has_kind(const struct vctx *v, enum culprit_kind kind)
{
    struct pick k;
    return !(culprit_kind_info(kind)->system && v->kernel_cleared) && pick_best(v, kind, &k);
}

/* The class's culprit, and "LEAD EXPLAINS (EVIDENCE)" begun in b. */
static size_t begin(const struct vctx *v, enum culprit_kind kind, struct pick *k, char *b, size_t n)
{
    pick_best(v, kind, k);
    size_t o = add_named(b, n, 0, culprit_kind_info(kind)->lead, doc_str(k->top, "name", "?"), INT_MAX);
    o = what_it_explains(k, b, n, o);
    return evidence(k, b, n, o);
}

/* The whole advice of a class whose row has it all: begin, then its advice. */
static void say_kind(const struct vctx *v, enum culprit_kind kind, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, kind, &k, b, n);
    vadd(b, n, o, "%s", culprit_kind_info(kind)->advice);
}

/* Its row's hint, the name cut at 60 bytes. */
static void hint_kind(const struct vctx *v, enum culprit_kind kind, char *b, size_t n)
{
    struct pick k;
    pick_best(v, kind, &k);
    if (n)
        b[0] = '\0';
    add_named(b, n, 0, culprit_kind_info(kind)->hint, doc_str(k.top, "name", "?"), 60);
}

#define HAS(fn, kind)                                                                                                \
    static int fn(const struct vctx *v) { return has_kind(v, kind); }
#define SAY(fn, kind)                                                                                                \
    static void fn(const struct vctx *v, char *b, size_t n) { say_kind(v, kind, b, n); }
#define HINT(fn, kind)                                                                                               \
    static void fn(const struct vctx *v, char *b, size_t n) { hint_kind(v, kind, b, n); }

HAS(has_below, CK_BELOW)
SAY(say_below, CK_BELOW)
HAS(has_thread, CK_THREAD)
SAY(say_thread, CK_THREAD)
HAS(has_idle, CK_IDLE_EXIT)
/* The idle CPU's rule: holding /dev/cpu_dma_latency only where the CPUs have idle states it keeps them from. */
static void say_idle(const struct vctx *v, char *b, size_t n)
{
    if (verdict_idle_governable(v) != 0) {
        say_kind(v, CK_IDLE_EXIT, b, n);
        return;
    }
    struct pick k;
    size_t o = begin(v, CK_IDLE_EXIT, &k, b, n);
    verdict_say_halts(v, b, n, vadd(b, n, o, ". "));
}
HAS(has_client, CK_CLIENT)
SAY(say_client, CK_CLIENT)
HINT(hint_client, CK_CLIENT)
HAS(has_dsp, CK_DSP)
SAY(say_dsp, CK_DSP)
HINT(hint_dsp, CK_DSP)
HAS(has_softirq, CK_SOFTIRQ)
SAY(say_softirq, CK_SOFTIRQ)
HAS(has_steal, CK_STEAL)
HINT(hint_below, CK_BELOW)
HINT(hint_steal, CK_STEAL)
SAY(say_steal, CK_STEAL)
HAS(has_rt, CK_RT_TASK)
HINT(hint_rt, CK_RT_TASK)
HAS(has_no_preempt, CK_NO_PREEMPT)
HAS(has_irq, CK_IRQ)

static void say_rt(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, CK_RT_TASK, &k);
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

/* A kernel thread's advice by its kind; 0 when there is nothing to tune (a per-CPU stopper: never a line). */
static int kthread_advice(const char *name, char *b, size_t n, size_t o)
{
    switch (culprit_kthread_kind(name)) {
    case CKT_KWORKER:
        if (strncmp(name, "kworker/u", 9) == 0) /* an unbound pool's worker: kworker/uPOOL:N */
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
    if (!pick_best(v, CK_KTHREAD, k))
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
    size_t o = begin(v, CK_KTHREAD, &k, b, n);
    kthread_advice(doc_str(k.top, "name", ""), b, n, o);
}

static void say_no_preempt(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    int dyn;
    const char *model = preempt_model(v, &dyn);
    size_t o = begin(v, CK_NO_PREEMPT, &k, b, n);
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

/* A real interrupt line (IRQ N) or a per-CPU vector (the local timer, IPIs, which nothing moves). */
static void say_irq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    size_t o = begin(v, CK_IRQ, &k, b, n);
    double irq = doc_num(k.detail, "irq");
    int line = strncmp(doc_str(k.top, "name", "?"), "IRQ ", 4) == 0;
    if (!line) { /* LOC, RES, CAL...: the CPU's own timer and the other CPUs' requests */
        vadd(b, n, o, ". These are the CPU's own timer and messages from the other CPUs: nothing moves them; what "
             "sends them (the load on the other CPU) is what to change.");
        return;
    }
    /* the run asked the kernel whether the line may be moved (culprit_irq_affinity): a managed interrupt (a
     * multiqueue disk's or network card's queues) may not, and its path would be a command the kernel refuses */
    const char *aff = doc_str(k.detail, "affinity", "");
    if (strcmp(aff, "fixed") == 0) {
        vadd(b, n, o, ". Put the sound card's interrupt thread and the audio above it (rtirq, on a kernel with "
             "threadirqs); the kernel places this interrupt itself (a managed interrupt, as a multiqueue disk's or "
             "network card's queues are), and refuses to move it.");
        return;
    }
    o = vadd(b, n, o, ". Put the sound card's interrupt thread and the audio above it (rtirq, on a kernel with "
             "threadirqs), or move that interrupt off the audio CPU");
    if (irq >= 0 && strcmp(aff, "movable") == 0)
        o = vadd(b, n, o, " (/proc/irq/%.0f/smp_affinity_list, as root)", irq);
    else
        o = vadd(b, n, o, " where the kernel allows it (it refuses a managed interrupt's; a run as root asks it, "
                 "and names the file)");
    vadd(b, n, o, ".");
}

static void hint_irq(const struct vctx *v, char *b, size_t n)
{
    struct pick k;
    pick_best(v, CK_IRQ, &k);
    const char *name = doc_str(k.top, "name", "?");
    if (strncmp(name, "IRQ ", 4) == 0)
        snprintf(b, n, "moving %.60s off the audio CPU", name);
    else
        snprintf(b, n, "less work on the other CPUs");
}

/* The culprits' rules, one a class, each under its kind's rule id; verdict_order.c's table sets the order
 * the advice is given in (tests/unit/test_culprit_kinds.c holds the ids to the table's). */
static const struct advice_rule culprit_rules[] = {
    { "culprit_below", has_below, say_below, hint_below },
    { "culprit_process", has_rt, say_rt, hint_rt },
    { "culprit_thread", has_thread, say_thread, NULL },
    { "culprit_client", has_client, say_client, hint_client },
    { "culprit_dsp", has_dsp, say_dsp, hint_dsp },
    { "culprit_steal", has_steal, say_steal, hint_steal },
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
