/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict's advice: the run's own rules (its privileges, its set-up, what it measured and how well, the server's
 * priority, the idle trap, a larger buffer) and what to change in the system, from the checks table (src/checks)
 * run on the document's identity after a poor run; each piece once, in the one order of advice (verdict_order.c). A run without real-time scheduling gets no kernel advice at
 * all. Like Redis's LATENCY DOCTOR: what was seen, why it matters, what to try. Main thread, after the
 * measurement. */
#include "verdict/verdict_internal.h"
#include "verdict/verdict_text.h"
#include "verdict/verdict_order.h"
#include "verdict/ladder_rule.h"
#include "report/access.h"
#include "checks/checks.h"
#include "sysinfo/sysinfo.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *plural(long long n)
{
    return n == 1 ? "" : "s";
}

static void advise(struct advice *a, const char *id, const char *text, const char *hint)
{
    size_t i;
    const json_t *t;
    json_array_foreach(a->texts, i, t)
        if (json_string_value(t) && strcmp(json_string_value(t), text) == 0)
            return; /* each piece of advice once */
    json_array_append_new(a->texts, json_string(text));
    json_array_append_new(a->ids, json_string(id));
    if (hint && hint[0] && a->nhints < 8) {
        snprintf(a->hint_ids[a->nhints], sizeof(a->hint_ids[0]), "%s", id);
        snprintf(a->hints[a->nhints++], sizeof(a->hints[0]), "%s", hint);
    }
}

/* System advice only matters when the timing was poor: a passing run needs no tuning. */
static int trouble(const struct vctx *v)
{
    return v->failing > 0 || v->timing_warn;
}

/* A heavy callback: --dsp, or requested work that did not all get done. */
static int heavy_callback(const struct vctx *v)
{
    int heavy = doc_num(v->audio, "dsp_pct") > 0;
    for (size_t i = 0; i < json_array_size(json_object_get(v->doc, "phases")); i++)
        heavy |= doc_num(json_array_get(json_object_get(v->doc, "phases"), i), "desired_cpu_pct") < 100;
    return heavy;
}

/* Whether a check's finding can explain what this run suffered (enum check_matters). */
static int matters(const struct vctx *v, enum check_matters m)
{
    if (m == CHECK_MATTERS_CHECKLIST)
        return 0;
    if (m == CHECK_MATTERS_HEAVY_CALLBACK)
        return v->failing > 0 && heavy_callback(v);
    if (m == CHECK_MATTERS_FAILURE)
        return v->failing > 0;
    return trouble(v);
}

static int low_priority(const struct vctx *v);

/* The checks table's findings on the system identity, in the table's order (the machine, then boot options).
 * None for a run without real-time scheduling: its timing says nothing about the kernel. */
static int system_advice(const struct vctx *v, struct advice *a)
{
    if (!trouble(v) || (!v->rt && v->nph > 0) || v->kernel_cleared)
        return 0; /* a ladder's depths below kept up on this system: its findings do not explain this depth */
    size_t n = checks_count();
    struct check_result *r = calloc(n, sizeof(*r));
    if (!r)
        return -ENOMEM;
    /* The identity in the document, not this machine's: the verdict judges the system the run measured. */
    int got = checks_run(v->sys, NULL, r, n);
    for (int i = 0; i < got; i++) {
        /* threaded interrupts above an audio thread below them: the server's priority first (low_priority) */
        if (strcmp(r[i].check->id, "threadirqs") == 0 && low_priority(v))
            continue;
        if ((r[i].status == CHECK_WARN || r[i].status == CHECK_FAIL) && r[i].advice[0] &&
            matters(v, r[i].check->matters))
            advise(a, r[i].check->id, r[i].advice, r[i].hint);
    }
    free(r);
    return 0;
}

int verdict_not_realtime(const struct vctx *v)
{
    return !v->rt && v->nph > 0;
}

/* What `run` found before measuring (checks/privileges.h: audio.privileges {why, fix}), when it says. */
static const char *priv_str(const struct vctx *v, const char *key)
{
    return doc_str(json_object_get(v->audio, "privileges"), key, NULL);
}

/* The external JACK server was started without real-time scheduling (jackd -r, --no-realtime). */
static int server_without_rt(const struct vctx *v)
{
    size_t i;
    const json_t *s;
    /* what the server's threads ran at, read from /proc during the run (audio.server_sched) */
    const char *server = doc_str(v->audio, "server", NULL);
    if (server && strcmp(server, "external") == 0 && json_is_false(json_object_get(v->audio, "server_realtime")))
        return 1;
    json_array_foreach(json_object_get(v->sys, "audio_servers"), i, s) {
        const char *name = doc_str(s, "name", NULL), *cmd = doc_str(s, "cmdline", NULL);
        if (!name || !cmd || (strcmp(name, "jackd") && strcmp(name, "jackdbus")))
            continue;
        char padded[1100];
        snprintf(padded, sizeof(padded), " %.1000s ", cmd);
        if (strstr(padded, " -r ") || strstr(padded, " --no-realtime "))
            return 1;
    }
    return 0;
}

static void say_not_realtime(const struct vctx *v, char *b, size_t n)
{
    const char *why = priv_str(v, "why"), *fix = priv_str(v, "fix");
    const char *server = doc_str(v->audio, "server", NULL);
    size_t o = vadd(b, n, 0, "The audio thread did not run with real-time scheduling, so this run says nothing "
                   "about the kernel.");
    if (fix) {
        vadd(b, n, o, " %s%s%s: %s.", why ? "Why: " : "", why ? why : "", why ? ". The fix" : "The fix", fix);
        return;
    }
    /* A private server is started with real-time priority by rtjitter itself: only the login can lack it. */
    if ((!server || strcmp(server, "private") != 0) && server_without_rt(v))
        vadd(b, n, o, " The JACK server runs without real-time scheduling (started with -r): restart it without -r.");
    else
        vadd(b, n, o, " This login may not use real-time priority: rtjitter check says why (the limits files, your "
            "groups, a login that started before they were set) and gives the exact fix.");
}

static void hint_not_realtime(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "real-time scheduling first");
}

static int not_mlocked(const struct vctx *v)
{
    return json_is_false(json_object_get(v->audio, "mlocked"));
}

static void say_not_mlocked(const struct vctx *v, char *b, size_t n)
{
    const char *fix = priv_str(v, "fix");
    size_t o = vadd(b, n, 0, "Memory could not be locked: a page fault in the audio thread can cost a cycle.");
    /* One login, one fix: when the real-time advice gave it, it is not said twice. */
    if (fix && verdict_not_realtime(v))
        vadd(b, n, o, " The fix above gives this too.");
    else if (fix)
        vadd(b, n, o, " The fix: %s.", fix);
    else
        vadd(b, n, o, " Raise this login's memlock limit: rtjitter check names the limits file and the exact fix.");
}

/* The size the worst failing phase ran at: after a buffer change (a quantum forced mid-watch) the failing size is
 * not the one in force at the end, and twice the one in force would be advice about a size that did not fail. */
static long long failing_frames(const struct vctx *v, double *rate_hz)
{
    const struct pview *w = v->worst >= 0 && v->worst < v->nph ? &v->ph[v->worst] : NULL;
    int other = w && w->frames > 0 && w->rate_hz > 0 && (w->frames != v->frames || w->rate_hz != v->rate_hz);
    *rate_hz = other ? w->rate_hz : v->rate_hz;
    return other ? w->frames : v->frames;
}

static int bigger_buffer(const struct vctx *v)
{
    double rate;
    long long f = failing_frames(v, &rate);
    return v->failing > 0 && f > 0 && f < 8192 && !verdict_not_realtime(v);
}

static void say_bigger_buffer(const struct vctx *v, char *b, size_t n)
{
    double rate;
    long long f = failing_frames(v, &rate);
    if (f == v->frames)
        snprintf(b, n, "A larger buffer gives each cycle more time: %lld frames at %.0f Hz is %.2f ms per period "
                 "(twice the latency of this test).", v->frames * 2, v->rate_hz, v->period_us * 2 / 1000.0);
    else
        snprintf(b, n, "A larger buffer gives each cycle more time: %lld frames at %.0f Hz is %.2f ms per period "
                 "(twice the %lld frames it failed at).", f * 2, rate, 2e3 * (double)f / rate, f);
}

static void hint_bigger_buffer(const struct vctx *v, char *b, size_t n)
{
    double rate;
    snprintf(b, n, "%lld frames", failing_frames(v, &rate) * 2);
}

static int little_headroom(const struct vctx *v)
{
    return v->failing == 0 && v->timing_warn;
}

static void say_headroom(const struct vctx *v, char *b, size_t n)
{
    double pj = doc_num(v->profile, "warn_jitter_pct"), pm = doc_num(v->profile, "warn_margin_pct");
    snprintf(b, n, "Every deadline was met, but with little to spare: the worst jitter was %.0f µs (%.0f %% of the "
             "period; this profile accepts %.0f %%) and the tightest cycle left %.0f µs (%.0f %%; it asks for %.0f "
             "%%). A busier moment could cost a dropout.", v->jitter_us, 100 * v->jitter_us / v->period_us, pj,
             v->margin_us, 100 * v->margin_us / v->period_us, pm);
}

/* The server's settings: the audio thread is real-time but below the interrupt threads, as under a jackd started
 * at its default -P 10 (its clients get FIFO 5). The audio thread's priority is read from the thread itself
 * (audio.priority), the interrupt threads' from /proc (audio.irq_threads: their floor, sysinfo_irq_floor()); without interrupt threads
 * (no threadirqs), the priority threadirqs would give them, 50: advising it would put them all above the audio. */
#define IRQ_THREAD_PRIO 50
static double irq_prio(const struct vctx *v, int *read)
{
    const json_t *it = json_object_get(v->audio, "irq_threads");
    *read = json_integer_value(json_object_get(it, "count")) > 0 && json_is_integer(json_object_get(it, "priority"));
    if (!*read)
        return IRQ_THREAD_PRIO;
    /* the rule run's audio.below_irq_threads and check's server_rt follow (sysinfo_irq_floor()); a report without
     * "lowest" (older) is judged by its highest, at most 50 */
    int floor = sysinfo_irq_floor(it);
    double top = (double)json_integer_value(json_object_get(it, "priority"));
    return floor >= 0 ? floor : top < IRQ_THREAD_PRIO ? top : IRQ_THREAD_PRIO;
}

static int low_priority(const struct vctx *v)
{
    const char *backend = doc_str(v->audio, "backend", NULL), *pol = doc_str(v->audio, "sched_policy", NULL);
    double prio = doc_num(v->audio, "priority");
    int read;
    return v->rt && backend && strcmp(backend, "jack") == 0 && pol &&
           (strcmp(pol, "SCHED_FIFO") == 0 || strcmp(pol, "SCHED_RR") == 0) && prio >= 0 && prio < irq_prio(v, &read);
}

static void say_low_priority(const struct vctx *v, char *b, size_t n)
{
    const json_t *ss = json_object_get(v->audio, "server_sched"), *it = json_object_get(v->audio, "irq_threads");
    const char *prov = doc_str(v->audio, "provider", NULL);
    int read;
    double ip = irq_prio(v, &read);
    size_t o = vadd(b, n, 0, "The audio thread ran at %s %.0f", doc_str(v->audio, "sched_policy", "?"),
                    doc_num(v->audio, "priority"));
    if (json_is_object(ss))
        o = vadd(b, n, o, " (the server's highest thread: %s %.0f)", doc_str(ss, "policy", "?"),
                 doc_num(ss, "priority"));
    if (read)
        o = vadd(b, n, o, ", below this machine's %lld interrupt thread%s (the lowest at %s %.0f): every interrupt "
                 "goes ahead of the audio.", json_integer_value(json_object_get(it, "count")),
                 plural(json_integer_value(json_object_get(it, "count"))), doc_str(it, "policy", "?"), ip);
    else
        o = vadd(b, n, o, ", below the interrupt threads' priority (%.0f with threadirqs or on a PREEMPT_RT kernel): "
                 "threadirqs alone would put every interrupt ahead of the audio.", ip);
    if (prov && strcmp(prov, "pipewire-jack") == 0)
        vadd(b, n, o, " PipeWire sets it: raise rt.prio of module-rt (jack.conf, client-rt.conf) to %d or more, then "
             "rtirq to raise the sound card's interrupt thread above the rest.", CHECK_RTPRIO_NEED);
    else
        vadd(b, n, o, " Start jackd with -P %d or more (jack2 runs its clients 5 below it), then rtirq to raise the "
             "sound card's interrupt thread above the rest.", CHECK_RTPRIO_NEED);
}

static void hint_low_priority(const struct vctx *v, char *b, size_t n)
{
    const char *prov = doc_str(v->audio, "provider", NULL);
    if (prov && strcmp(prov, "pipewire-jack") == 0)
        snprintf(b, n, "a higher rt.prio");
    else
        snprintf(b, n, "jackd -P %d", CHECK_RTPRIO_NEED);
}

/* The idle trap: at rest (the none phase) the wake-up p99 is more than twice a loaded phase's (and 50 µs more), and
 * /dev/cpu_dma_latency was not held. A CPU with nothing to do sleeps in an idle state slow to leave; a loaded one
 * never does, so the load looks better than rest. Sets the phases compared (the loaded one: the lowest p99). */
#define IDLE_TRAP_RATIO 2.0
#define IDLE_TRAP_MIN_US 50.0
static int idle_trap_phases(const struct vctx *v, int *rest, int *loaded)
{
    if (json_is_integer(json_object_get(v->audio, "cpu_dma_latency_us")))
        return 0; /* held: the CPUs did not sleep deep */
    *rest = *loaded = -1;
    for (int i = 0; i < v->nph; i++) {
        double p99 = v->ph[i].wakeup_p99_us;
        if (!(p99 > 0))
            continue;
        if (strcmp(v->ph[i].name, "none") == 0) {
            if (*rest < 0)
                *rest = i;
        } else if (*loaded < 0 || p99 < v->ph[*loaded].wakeup_p99_us) {
            *loaded = i;
        }
    }
    if (*rest < 0 || *loaded < 0)
        return 0;
    double r = v->ph[*rest].wakeup_p99_us, l = v->ph[*loaded].wakeup_p99_us;
    return r > IDLE_TRAP_RATIO * l && r - l >= IDLE_TRAP_MIN_US;
}

static int idle_trap(const struct vctx *v)
{
    int r, l;
    return !v->kernel_cleared && idle_trap_phases(v, &r, &l); /* the depths below slept in the same idle states */
}

/* A depth of a ladder with only clean depths below it (verdict/ladder_rule.h): the trouble starts here. */
static int ladder_here(const struct vctx *v)
{
    return v->kernel_cleared && trouble(v);
}

static void say_ladder_here(const struct vctx *v, char *b, size_t n)
{
    const char *d = v->depth ? v->depth : "this";
    snprintf(b, n, "The %s depth below, on the same kernel under the same loads, kept up: the trouble starts here, "
             "at the %s depth. Look at what %s adds (its server, its driver, its settings) before the kernel; the "
             "kernel's own settings are not advised here.", v->below, d, d);
}

/* Depth zero (verdict/ladder_rule.h): the noise probe, this run's or a depth's below it, saw gaps below the kernel
 * as long as a period here, and this run missed deadlines: the host or the firmware first, before any kernel
 * option. */
static int host_first(const struct vctx *v)
{
    int vm;
    return trouble(v) && (v->xruns > 0 || v->missed > 0) && !isnan(ladder_host_first(v->doc, v->period_us, &vm));
}

static void say_host_first(const struct vctx *v, char *b, size_t n)
{
    int vm;
    double us = ladder_host_first(v->doc, v->period_us, &vm);
    size_t o = vadd(b, n, 0, "The host or the firmware, not this kernel: the noise probe saw gaps of up to %.1f ms "
                    "below the kernel (nothing the kernel counts rose across them), as long as a period here (%.2f "
                    "ms): each is a missed deadline whatever the kernel does. ", us / 1000.0, v->period_us / 1000.0);
    if (vm == 1)
        vadd(b, n, o, "This is a virtual machine: the host's scheduling of its virtual CPU (the host's own load, "
             "halt polling, overcommitted CPUs) is where to act, before any kernel option here.");
    else
        vadd(b, n, o, "Look at the firmware (SMIs, the BIOS's power management) before any kernel option.");
}

static void hint_host_first(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "the host or firmware first");
}

static void say_idle_trap(const struct vctx *v, char *b, size_t n)
{
    int r = 0, l = 0;
    idle_trap_phases(v, &r, &l);
    if (verdict_idle_governable(v) == 0) {
        size_t o = vadd(b, n, 0, "At rest the wake-up p99 was %.0f µs, more than twice that under %s (%.0f µs): an "
                        "idle CPU is slower to wake than a busy one, so the load looked better than rest. ",
                        v->ph[r].wakeup_p99_us, v->ph[l].name, v->ph[l].wakeup_p99_us);
        verdict_say_halts(v, b, n, o);
        return;
    }
    const char *why = doc_str(v->audio, "cpu_dma_latency", NULL);
    size_t o = vadd(b, n, 0, "At rest the wake-up p99 was %.0f µs, more than twice that under %s (%.0f µs): a CPU "
                    "with nothing to do sleeps in an idle state that is slow to leave, and every wake-up pays its "
                    "exit latency (in a virtual machine, the host's halt of the virtual CPU). A loaded CPU never "
                    "sleeps deep, so the load looked better than rest. Hold /dev/cpu_dma_latency at 0 while you "
                    "play: rtjitter run --dma-latency measures it so", v->ph[r].wakeup_p99_us, v->ph[l].name,
                    v->ph[l].wakeup_p99_us);
    if (why && strncmp(why, "not held", 8) == 0)
        o = vadd(b, n, o, " (this run could not: %s)", why + 10);
    vadd(b, n, o, "; rtjitter check says how the audio group may hold it, or disable the slow idle states "
         "(sudo cpupower idle-set -D %d).", CHECK_IDLE_EXIT_MAX_US);
}

static void hint_idle_trap(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "%s", verdict_idle_governable(v) == 0 ? "the host's halt polling" : "--dma-latency");
}

int verdict_idle_governable(const struct vctx *v)
{
    return doc_idle_governable(v->sys);
}

/* What an idle CPU without idle states is, said where holding /dev/cpu_dma_latency would be advised. */
size_t verdict_say_halts(const struct vctx *v, char *b, size_t n, size_t o)
{
    const char *drv = doc_str(json_object_get(json_object_get(v->sys, "cpu"), "idle"), "driver", NULL);
    return vadd(b, n, o, "This machine has no CPU idle states (cpuidle driver: %s): an idle CPU halts, so holding "
                "/dev/cpu_dma_latency at 0 changes nothing here. In a virtual machine the host decides how soon a "
                "halted virtual CPU runs again (its halt polling, its own load, dedicated CPUs); a guest idle driver "
                "with a polling state (cpuidle-haltpoll) lets rtjitter --dma-latency keep the CPU polling.",
                drv ? drv : "none");
}

int verdict_period_too_long(const struct vctx *v)
{
    double lim = doc_num(v->profile, "warn_period_ms");
    return v->period_us > 0 && v->period_us / 1000.0 > lim;
}

static void say_period_long(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "%.2f ms per period is more latency than the %s profile accepts (%.1f ms): test a smaller "
             "buffer.", v->period_us / 1000.0, doc_str(v->profile, "name", NULL), doc_num(v->profile, "warn_period_ms"));
}

static int dropped_records(const struct vctx *v)
{
    return v->dropped > 0;
}

static void say_dropped(const struct vctx *v, char *b, size_t n)
{
    snprintf(b, n, "%lld measurement record%s were dropped (the collector fell behind): the statistics miss "
             "those cycles.", v->dropped, plural(v->dropped));
}

int verdict_load_failed(const struct vctx *v)
{
    for (int i = 0; i < v->nph; i++)
        if (v->ph[i].load_error)
            return 1;
    return 0;
}

static void say_load_failed(const struct vctx *v, char *b, size_t n)
{
    for (int i = 0; i < v->nph; i++)
        if (v->ph[i].load_error) {
            snprintf(b, n, "The %s load did not run as planned (%s): that phase measured a quieter machine.",
                     v->ph[i].name, v->ph[i].load_error);
            return;
        }
}

static int incomplete(const struct vctx *v)
{
    return !v->complete;
}

static void say_incomplete(const struct vctx *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "The run did not complete: the figures cover only the part that ran.");
}

/* The run's own rules; verdict_order.c's table, not this list, sets the order the advice is given in. */
static const struct advice_rule advice_rules[] = {
    { "ladder", ladder_here, say_ladder_here, NULL },
    { "host", host_first, say_host_first, hint_host_first },
    { "realtime", verdict_not_realtime, say_not_realtime, hint_not_realtime },
    { "mlock", not_mlocked, say_not_mlocked, NULL },
    { "incomplete", incomplete, say_incomplete, NULL },
    { "dropped", dropped_records, say_dropped, NULL },
    { "load", verdict_load_failed, say_load_failed, NULL },
    { "period", verdict_period_too_long, say_period_long, NULL },
    { "headroom", little_headroom, say_headroom, NULL },
    { "priority", low_priority, say_low_priority, hint_low_priority },
    { "idle", idle_trap, say_idle_trap, hint_idle_trap },
    { "buffer", bigger_buffer, say_bigger_buffer, hint_bigger_buffer },
};

#define NRULES (sizeof(advice_rules) / sizeof(advice_rules[0]))

size_t verdict_rules_count(void)
{
    return NRULES + verdict_culprit_rules_count();
}

const char *verdict_rule_id(size_t i)
{
    const struct advice_rule *c = i >= NRULES ? verdict_culprit_rule(i - NRULES) : NULL;
    return i < NRULES ? advice_rules[i].id : c ? c->id : NULL;
}

static void run_rules(const struct vctx *v, struct advice *adv, const struct advice_rule *rules, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        if (!rules[r].applies(v))
            continue;
        char text[1600], hint[96] = "";
        rules[r].say(v, text, sizeof(text));
        if (rules[r].hint)
            rules[r].hint(v, hint, sizeof(hint));
        advise(adv, rules[r].id, text, hint);
    }
}


/* Puts a's advice and hints in the one order of advice (verdict_order.c). */
static int order_advice(struct advice *a)
{
    size_t n = json_array_size(a->ids);
    const char **ids = calloc(n + 1, sizeof(*ids));
    size_t *perm = calloc(n + 1, sizeof(*perm));
    double *share = calloc(n + 1, sizeof(*share));
    json_t *texts = json_array(), *idv = json_array();
    int err = !ids || !perm || !share || !texts || !idv ? -ENOMEM : 0;
    for (size_t i = 0; !err && i < n; i++) {
        ids[i] = json_string_value(json_array_get(a->ids, i));
        share[i] = verdict_order_share(json_string_value(json_array_get(a->texts, i)));
    }
    /* the one order, and within it by the share of the dropouts each explains (issue 35) */
    if (!err)
        verdict_order_sort_weighed(ids, share, n, perm);
    for (size_t i = 0; !err && i < n; i++)
        if (json_array_append(texts, json_array_get(a->texts, perm[i])) ||
            json_array_append(idv, json_array_get(a->ids, perm[i])))
            err = -ENOMEM;
    if (!err) {
        const char *hid[8];
        size_t hp[8];
        double hs[8];
        char hints[8][96], hint_ids[8][32];
        for (int i = 0; i < a->nhints; i++) {
            hid[i] = a->hint_ids[i];
            hs[i] = 0; /* a hint weighs what its advice explains */
            for (size_t k = 0; k < n; k++)
                if (ids[k] && !strcmp(ids[k], hid[i]))
                    hs[i] = share[k];
        }
        verdict_order_sort_weighed(hid, hs, (size_t)a->nhints, hp);
        for (int i = 0; i < a->nhints; i++) {
            memcpy(hints[i], a->hints[hp[i]], sizeof(hints[0]));
            memcpy(hint_ids[i], a->hint_ids[hp[i]], sizeof(hint_ids[0]));
        }
        memcpy(a->hints, hints, (size_t)a->nhints * sizeof(hints[0]));
        memcpy(a->hint_ids, hint_ids, (size_t)a->nhints * sizeof(hint_ids[0]));
        json_decref(a->texts);
        json_decref(a->ids);
        a->texts = texts;
        a->ids = idv;
    } else {
        json_decref(texts);
        json_decref(idv);
    }
    free(ids);
    free(perm);
    free(share);
    return err;
}

/* Every piece of advice the run's rules and the checks table give, then put in the one order (verdict_order.c). */
int verdict_advise(const struct vctx *v, struct advice *a)
{
    run_rules(v, a, advice_rules, NRULES);
    run_rules(v, a, verdict_culprit_rule(0), verdict_culprit_rules_count()); /* what explained the xruns */
    int err = system_advice(v, a);
    return err ? err : order_advice(a);
}
