/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who held the CPU in the audio thread's wait, as culprits: one class each (trace_class.h). The sampler thread. */
#include "culprit/trace_class.h"
#include "util/utf8.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    utf8_trim(buf);
}

/* A duration as evidence says it: ms with one decimal from 0.1 ms, µs below. */
static const char *dur(char *buf, size_t len, int64_t ns)
{
    if (ns >= 100000)
        snprintf(buf, len, "%.1f ms", ns / 1e6);
    else
        snprintf(buf, len, "%.0f us", ns / 1e3);
    return buf;
}

/* The kernel's prio of a task as its policy: "FIFO 80" (real time: 99 - prio; FIFO or RR the trace does not say,
 * so "real-time"), "SCHED_OTHER". */
static const char *policy(char *buf, size_t len, int prio)
{
    if (prio >= 0 && prio < 100)
        snprintf(buf, len, "real-time %d", 99 - prio);
    else if (prio >= 100)
        snprintf(buf, len, "SCHED_OTHER");
    else
        snprintf(buf, len, "priority not known");
    return buf;
}

/* The class of a task holder: its kind, by the audio thread's priority in the wait (a_prio, the kernel's). */
static enum culprit_kind task_kind(const struct ts_holder *h, int a_prio)
{
    int audio_rt = a_prio >= 0 && a_prio < 100, rt = h->prio >= 0 && h->prio < 100;
    if (h->kthread == 1) {
        if (culprit_kthread_kind(h->name) == CKT_IRQ)
            return CK_IRQ; /* a threaded handler's time is its line's, as rtla folds it */
        return CK_KTHREAD;
    }
    if (!audio_rt)
        return rt ? CK_RT_TASK : CK_THREAD; /* an audio thread that is not real time shares the CPU fairly */
    if (rt && h->prio <= a_prio)
        return CK_RT_TASK;                  /* at or above the audio thread: the scheduler chose it */
    return CK_NO_PREEMPT;                   /* below it, and it kept the CPU: the kernel could not take it back */
}

static void name_of(const struct ts_holder *h, enum culprit_kind k, char *buf, size_t len)
{
    if (h->ctx == TS_NOEVENT || (h->ctx == TS_IDLE && k == CK_BELOW))
        say(buf, len, "nothing on the CPU");
    else if (h->ctx == TS_IDLE)
        say(buf, len, "the idle CPU");
    else if (h->ctx == TS_SOFTIRQ)
        say(buf, len, "%s", h->name[0] ? h->name : "softirq");
    else if (h->ctx == TS_IRQ && h->id >= 0)
        say(buf, len, "IRQ %d (%s)", h->id, h->name[0] ? h->name : "?");
    else if (h->ctx == TS_IRQ) {
        const char *what = "";
        for (const struct tev_vector *v = tev_vectors; v->event; v++)
            if (v->num == h->id)
                what = v->what;
        say(buf, len, "%s (%s interrupts)", h->name, what);
    } else if (k == CK_IRQ) { /* irq/N-NAME */
        char line[TEV_COMM_MAX];
        int irq = irq_thread_line(h->name, line, sizeof(line));
        say(buf, len, "IRQ %d (%s)", irq, line[0] ? line : "?");
    } else if (k == CK_KTHREAD && h->fn[0])
        say(buf, len, "kworker: %s", h->fn); /* a kworker is its work: the thread's name changes, the work's not */
    else
        say(buf, len, "%s", h->name);
}

/* Whether the trace holds the local timer's interrupt in the wait accounted (x86's LOC vector, arm64's
 * arch_timer line): ticks came. */
static int ticks_seen(const struct ts_account *a)
{
    for (int i = 0; i < a->nheld; i++)
        if (a->held[i].ctx == TS_IRQ && (strcmp(a->held[i].name, "LOC") == 0 ||
                                         strcmp(a->held[i].name, "arch_timer") == 0))
            return 1;
    return 0;
}

static void evidence_of(const struct ts_holder *h, enum culprit_kind k, const struct ts_account *a, int cpu,
                        char *buf, size_t len)
{
    char d1[24], d2[24], pol[32];
    dur(d1, sizeof(d1), h->ns);
    dur(d2, sizeof(d2), a->wait_ns);
    const char *of = "wait"; /* the longest one, accounted (trace_stream.h) */
    switch (k) {
    case CK_BELOW:
        if (h->ctx == TS_IDLE) { /* idle far longer than its idle states take to leave (idle_beyond) */
            char d3[24];
            if (a->idle_exit_ns > 0)
                say(buf, len, "CPU %d stayed idle for %s of the audio thread's %s %s, though its idle states take "
                    "at most %s to leave: it was not running (trace)", cpu, d1, d2, of,
                    dur(d3, sizeof(d3), a->idle_exit_ns));
            else
                say(buf, len, "CPU %d stayed idle for %s of the audio thread's %s %s, though it has no idle states "
                    "(a halt is left in microseconds): it was not running (trace)", cpu, d1, d2, of);
            return;
        }
        if (a->due_silent_ns * 2 > h->ns) /* its timer's interrupt was due in that silence (ts_set_own_timer) */
            say(buf, len, "CPU %d recorded no event for %s of the audio thread's %s %s, though its timer's "
                "interrupt was due: it was not running (trace)", cpu, d1, d2, of);
        else
            say(buf, len, "CPU %d recorded no event (no tick, IPI or interrupt) for %s of the audio thread's %s %s: "
                "it was not running (trace)", cpu, d1, d2, of);
        return;
    case CK_IDLE_EXIT:
        if (h->ctx == TS_IDLE && a->idle_exit_ns == 0)
            say(buf, len, "CPU %d stayed idle for %s of the audio thread's %s %s: it has no idle states and halts; "
                "running it again took that long (trace)", cpu, d1, d2, of);
        else
            say(buf, len, "CPU %d stayed idle for %s of the audio thread's %s %s: waking it took that long (trace)", cpu,
            d1, d2, of);
        return;
    case CK_SOFTIRQ:
        say(buf, len, "the %s softirq ran %s of the audio thread's %s %s on CPU %d (trace)", h->name, d1, d2, of,
            cpu);
        return;
    case CK_IRQ:
        if (h->ctx == TS_TASK)
            say(buf, len, "its interrupt thread %s (pid %d, %s) kept CPU %d for %s of the audio thread's %s %s "
                "(trace)", h->name, h->id, policy(pol, sizeof(pol), h->prio), cpu, d1, d2, of);
        else
            say(buf, len, "its handler ran %s of the audio thread's %s %s on CPU %d (trace)", d1, d2, of, cpu);
        return;
    case CK_KTHREAD:
        if (h->fn[0])
            say(buf, len, "%s (pid %d, %s) ran the work %s on CPU %d for %s of the audio thread's %s %s (trace)",
                h->name, h->id, policy(pol, sizeof(pol), h->prio), h->fn, cpu, d1, d2, of);
        else if (strncmp(h->name, "kworker", 7) == 0) /* its work began before what the ring holds, or in lost events */
            say(buf, len, "the kernel thread %s (pid %d, %s) kept CPU %d for %s of the audio thread's %s %s; the "
                "work it ran is not in the trace (trace)", h->name, h->id, policy(pol, sizeof(pol), h->prio), cpu,
                d1, d2, of);
        else
            say(buf, len, "the kernel thread %s (pid %d, %s) kept CPU %d for %s of the audio thread's %s %s (trace)",
                h->name, h->id, policy(pol, sizeof(pol), h->prio), cpu, d1, d2, of);
        return;
    case CK_NO_PREEMPT:
        /* "ticks kept arriving" only where the trace holds a local timer interrupt in the wait: a hold shorter
         * than a tick need not have had one (rtj-x held CPU 1 0.2 ms at HZ=250 in an hour at 16 frames, and the
         * evidence said ticks kept arriving) */
        say(buf, len, "%s (pid %d, %s) kept CPU %d for %s of the audio thread's %s %s%s: the kernel could not preempt "
            "it (trace)", h->name, h->id, policy(pol, sizeof(pol), h->prio), cpu, d1, d2, of,
            ticks_seen(a) ? " while ticks kept arriving" : "");
        return;
    default:
        say(buf, len, "%s (pid %d, %s) kept CPU %d for %s of the audio thread's %s %s (trace)", h->name, h->id,
            policy(pol, sizeof(pol), h->prio), cpu, d1, d2, of);
        return;
    }
}

/* An idle CPU that let the woken audio thread wait far longer than its slowest idle state takes to leave was not
 * running: in a virtual machine the host had not run the halted virtual CPU, on real hardware firmware or an SMI held
 * it. Nothing the kernel's idle settings (/dev/cpu_dma_latency) choose explains that part. */
static int idle_beyond(const struct ts_holder *h, const struct ts_account *a)
{
    return h->ctx == TS_IDLE && a->idle_exit_ns >= 0 && h->ns > 2 * a->idle_exit_ns + TRACE_CLASS_IDLE_SLACK_NS;
}

enum culprit_kind trace_class_kind(const struct ts_holder *h, int audio_prio)
{
    switch (h->ctx) {
    case TS_NOEVENT: return CK_BELOW;
    case TS_IDLE: return CK_IDLE_EXIT;
    case TS_IRQ: return CK_IRQ;
    case TS_SOFTIRQ: return CK_SOFTIRQ;
    case TS_TASK: return task_kind(h, audio_prio);
    default: return CK_NONE;
    }
}

int trace_class_unproven(const struct ts_account *a)
{
    if (a->unknown_ns <= 0)
        return 0;
    int64_t top = a->nheld > 0 ? a->held[0].ns : 0, next = a->nheld > 1 ? a->held[1].ns : 0;
    if (top > next + a->unknown_ns)
        return 0;
    return trace_class_why(a);
}

int trace_class_why(const struct ts_account *a)
{
    if (a->lost_ns > 0)
        return CNW_LOST;
    return a->missed_ns * 2 > a->unknown_ns ? CNW_MISSED : CNW_NOT_COVERED;
}

int trace_class_obs(const struct ts_account *a, int64_t t0_ns, int64_t t1_ns, struct culprit_obs *out, int max)
{
    int n = 0;
    for (int i = 0; i < a->nheld && n < max; i++) {
        const struct ts_holder *h = &a->held[i];
        /* a trifle of the wait (a tick's handler) is not what made it long */
        if (h->ns < TRACE_CLASS_MIN_NS || h->ns * 10 < a->wait_ns)
            continue;
        enum culprit_kind k = idle_beyond(h, a) ? CK_BELOW : trace_class_kind(h, a->audio_prio);
        struct culprit_obs *o = &out[n++];
        memset(o, 0, sizeof(*o));
        o->t0_ns = t0_ns, o->t1_ns = t1_ns, o->kind = k, o->cpu = a->longest_cpu, o->value_ns = h->ns;
        o->pid = h->ctx == TS_TASK ? h->id : 0;
        o->rt_priority = h->ctx == TS_TASK && h->prio >= 0 && h->prio < 100 ? 99 - h->prio : 0;
        o->began_exactly = 1;
        o->wait_ns = a->wait_ns;
        name_of(h, k, o->name, sizeof(o->name));
        evidence_of(h, k, a, a->longest_cpu, o->evidence, sizeof(o->evidence));
    }
    return n;
}
