/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one order of advice: privileges first; then what the run itself saw; then the server's settings (priority,
 * quantum); then idle states; then kernel options; then the buffer size. Quickest to change and to undo first, and
 * nothing that would hide an earlier cause: threaded interrupts would put every interrupt thread above an audio
 * thread below 50, so the server's priority comes before any kernel option. verdict_advice.c sorts what its rules
 * and the checks table (src/checks) give by this table. Main thread. */
#include "verdict/verdict_order.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct advice_order table[] = {
    /* privileges */
    { "realtime", ADVICE_PRIVILEGES },
    { "mlock", ADVICE_PRIVILEGES },
    /* what the run itself saw */
    { "host", ADVICE_RUN },      /* the noise probe's gaps below the kernel as long as a period: host, firmware */
    { "incomplete", ADVICE_RUN },
    { "dropped", ADVICE_RUN },
    { "load", ADVICE_RUN },
    { "period", ADVICE_RUN },
    { "headroom", ADVICE_RUN },
    /* the culprits (verdict_culprit.c): a process that took the audio CPU, a client that did not finish, our own
     * DSP, the host of a VM: what the run saw explain its xruns, before any setting */
    { "culprit_below", ADVICE_RUN },   /* below the kernel: nothing here fixes it, said before any option */
    { "culprit_steal", ADVICE_RUN },
    { "culprit_process", ADVICE_RUN },
    { "culprit_thread", ADVICE_RUN },
    { "culprit_client", ADVICE_RUN },
    { "culprit_dsp", ADVICE_RUN },
    { "culprit_kthread", ADVICE_RUN },
    { "ladder", ADVICE_RUN },   /* the depth ladder: where the trouble starts, from the depths below this one */
    /* the server's settings */
    { "priority", ADVICE_SERVER },
    { "rtirq", ADVICE_SERVER },
    /* an interrupt or softirq the culprits name: the interrupts' priorities and affinity, before the kernel */
    { "culprit_irq", ADVICE_SERVER },
    { "culprit_softirq", ADVICE_SERVER },
    /* idle states, the CPU's power */
    { "culprit_idle", ADVICE_IDLE },
    { "idle", ADVICE_IDLE },
    { "governor", ADVICE_IDLE },
    /* the system's settings, then the kernel's boot options: the preemption model first when the run saw the kernel
     * unable to preempt a task for the audio thread */
    { "culprit_no_preempt", ADVICE_KERNEL },
    { "shared_irq", ADVICE_KERNEL },
    { "swappiness", ADVICE_KERNEL },
    { "rt_throttling", ADVICE_KERNEL },
    { "threadirqs", ADVICE_KERNEL },
    { "preempt", ADVICE_KERNEL },
    { "high_res_timers", ADVICE_KERNEL },
    /* the buffer size */
    { "buffer", ADVICE_BUFFER },
};

#define N (sizeof(table) / sizeof(table[0]))

size_t verdict_order_count(void)
{
    return N;
}

const struct advice_order *verdict_order_get(size_t i)
{
    return i < N ? &table[i] : NULL;
}

const char *verdict_order_class_name(enum advice_class c)
{
    static const char *const names[ADVICE_NCLASSES] = { "privileges", "run", "server", "idle", "kernel", "buffer" };
    return (unsigned)c < ADVICE_NCLASSES ? names[c] : "?";
}

/* The index of id in the table, or N. */
static size_t find(const char *id)
{
    for (size_t i = 0; i < N; i++)
        if (id && strcmp(table[i].id, id) == 0)
            return i;
    return N;
}

size_t verdict_order_rank(const char *id)
{
    size_t i = find(id);
    if (i < N)
        return i;
    for (i = 0; i < N && table[i].cls != ADVICE_BUFFER; i++)
        ;
    return i; /* unknown: where the buffer begins (sort_key puts it just before) */
}

/* Twice the rank, and one more for a known id: an unknown id sorts after the kernel options, before the buffer. */
static size_t sort_key(const char *id)
{
    return 2 * verdict_order_rank(id) + (find(id) < N);
}

void verdict_order_sort(const char *const *ids, size_t n, size_t *perm)
{
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = 1; i < n; i++) { /* insertion sort: stable, and n is a handful */
        size_t p = perm[i], kp = sort_key(ids[p]), j = i;
        while (j > 0 && sort_key(ids[perm[j - 1]]) > kp) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = p;
    }
}

double verdict_order_share(const char *text)
{
    /* the first "N of M xrun event" the text holds */
    for (const char *p = text; p && (p = strstr(p, " of ")); p += 4) {
        const char *q = p;
        while (q > text && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q == p)
            continue;
        char *end;
        long long k = strtoll(q, NULL, 10), m = strtoll(p + 4, &end, 10);
        if (end != p + 4 && m > 0 && k >= 0 && k <= m && !strncmp(end, " xrun event", 11))
            return (double)k / (double)m;
    }
    return 0;
}

void verdict_order_sort_weighed(const char *const *ids, const double *share, size_t n, size_t *perm)
{
    verdict_order_sort(ids, n, perm);
    if (!share || n < 2)
        return;
    /* the places the weighed entries hold, and those entries ranked by share (stable: the order breaks ties) */
    size_t *slot = malloc(n * sizeof(*slot)), *who = malloc(n * sizeof(*who)), k = 0;
    if (!slot || !who) {
        free(slot);
        free(who);
        return; /* the order alone: no weight rather than a wrong one */
    }
    for (size_t i = 0; i < n; i++) {
        size_t e = perm[i];
        size_t r = verdict_order_rank(ids[e]);
        int privileges = r < N && table[r].cls == ADVICE_PRIVILEGES;
        if (share[e] > 0 && !privileges) {
            slot[k] = i;
            who[k++] = e;
        }
    }
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && share[who[j]] > share[who[j - 1]]; j--) {
            size_t t = who[j];
            who[j] = who[j - 1];
            who[j - 1] = t;
        }
    for (size_t i = 0; i < k; i++)
        perm[slot[i]] = who[i];
    free(slot);
    free(who);
}

/* The verb each hint takes: by its first words (a culprit's "stopping X"), else by its id's kind. */
void verdict_order_step(const char *id, const char *hint, char *buf, size_t n)
{
    static const struct {
        const char *from, *to;
    } gerunds[] = {
        { "stopping ", "stop " }, { "fixing ", "fix " }, { "moving ", "move " }, { "lowering ", "lower " },
        { "raising ", "raise " }, { "using ", "use " }, { "less ", "do less " },
    };
    for (size_t i = 0; i < sizeof(gerunds) / sizeof(gerunds[0]); i++)
        if (!strncmp(hint, gerunds[i].from, strlen(gerunds[i].from))) {
            snprintf(buf, n, "%s%s", gerunds[i].to, hint + strlen(gerunds[i].from));
            return;
        }
    static const struct {
        const char *id, *hint, *step; /* hint NULL: any; step: printf with the hint */
    } steps[] = {
        { "threadirqs", "threadirqs and rtirq", "boot with threadirqs and install rtirq" },
        { "culprit_no_preempt", "preempt=full", "boot with preempt=full" },
        { "culprit_no_preempt", NULL, "install %s" },
        { "preempt", "a lowlatency kernel", "install a lowlatency kernel" },
        { "preempt", NULL, "boot with %s" },
        { "rtirq", NULL, "install %s" },
        { "governor", NULL, "use %s" },
        { "buffer", NULL, "use %s" },
        { "idle", "the host's halt polling", "ask the host about its halt polling" },
        { "host_first", NULL, "look at the host or firmware (no setting of this kernel changes that)" },
        { "culprit_below", NULL, "look at the host or firmware (no setting of this kernel changes that)" },
        { "culprit_steal", NULL, "look at the host or firmware (no setting of this kernel changes that)" },
        { "idle", NULL, "run with %s" },
        { "realtime", NULL, "get %s" },
        { "priority", "a higher rt.prio", "set a higher rt.prio" },
        { "priority", NULL, "start %s" },
    };
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (id && !strcmp(id, steps[i].id) && (!steps[i].hint || !strcmp(hint, steps[i].hint))) {
            if (strstr(steps[i].step, "%s"))
                snprintf(buf, n, steps[i].step, hint);
            else
                snprintf(buf, n, "%s", steps[i].step);
            return;
        }
    snprintf(buf, n, "try %s", hint);
}
