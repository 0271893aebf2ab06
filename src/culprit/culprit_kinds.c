/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every culprit kind, one row each (culprit.h, struct culprit_kind_info): its JSON token, its words and the verdict's
 * advice for it. The JSON writer and reader (culprit_json.c), the renderers (render/culprit_words.c,
 * render/text_culprits.c) and the verdict (verdict/verdict_culprit.c) all read a kind from here, and
 * tests/unit/test_culprit_kinds.c loops over it, so a new kind is one row. */
#include "culprit/culprit.h"
#include <stddef.h>
#include <string.h>

/* Leads and hints write the culprit's name where "%s" stands (nowhere else). */
static const struct culprit_kind_info kinds[CK_COUNT] = {
    [CK_RT_TASK] = { .token = "rt_task", .words = "real-time task", .text_words = "real-time task",
                     .rule = "culprit_process", .hint = "lowering %s" /* the lead and advice: say_rt */ },
    [CK_CLIENT] = { .token = "client", .words = "client of the graph", .text_words = "audio client",
                    .rule = "culprit_client", .lead = "Client %s did not finish in time: ",
                    .advice = ". The graph waits for every client: fix or remove that client (its own work, its own "
                              "stalls) before any setting of this machine.",
                    .hint = "fixing client %s" },
    [CK_IRQ] = { .token = "irq", .words = "interrupt", .text_words = "interrupt", .rule = "culprit_irq",
                 .lead = "%s ran ahead of the audio thread in " /* the advice and hint by the line: say_irq */ },
    [CK_SOFTIRQ] = { .token = "softirq", .words = "softirq", .text_words = "softirq", .rule = "culprit_softirq",
                     .lead = "%s softirq work ran ahead of the audio thread in ",
                     .advice = ". Softirqs run ahead of every task: with threadirqs they run in the interrupt threads, "
                               "which rtirq can put below the audio; or move the device that raises them (its "
                               "interrupt, its packet steering) off the audio CPU." },
    [CK_DSP] = { .token = "dsp", .words = "our DSP", .text_words = "our own DSP", .rule = "culprit_dsp",
                 .lead = "Your DSP overran the period: ",
                 .advice = ". The callback's own work took the cycle's time: do less work per cycle (a lower --dsp) "
                           "or use a larger buffer; no kernel setting gives a cycle more time.",
                 .hint = "less DSP work per cycle" },
    [CK_RUN_DELAY] = { .token = "run_delay", .words = "run delay", .text_words = "run delay" },
    [CK_STEAL] = { .token = "steal", .words = "steal time", .text_words = "hypervisor steal", .rule = "culprit_steal", .hint = "the host or firmware",
                   .lead = "The host of this virtual machine took the CPU (steal time) before ",
                   .advice = ". Nothing in this machine can change that: ask the VM's host for dedicated CPUs, or "
                             "test on real hardware." },
    [CK_PRESSURE] = { .token = "pressure", .words = "pressure (PSI)", .text_words = "pressure stall" },
    [CK_FREQ] = { .token = "freq", .words = "CPU clock", .text_words = "CPU clock" },
    [CK_IDLE_EXIT] = { .token = "idle_exit", .words = "exit from idle", .text_words = "exit from idle",
                       .rule = "culprit_idle", .system = 1,
                       .lead = "The audio CPU was idle and woke late while the audio thread waited, in ",
                       .advice = ". Deep idle states take long to leave: hold /dev/cpu_dma_latency at 0 while you play "
                                 "(rtjitter --dma-latency shows the difference); in a virtual machine the host woke "
                                 "the CPU late." },
    [CK_THREAD] = { .token = "thread", .words = "thread", .text_words = "thread", .rule = "culprit_thread",
                    .lead = "The audio thread is not real time, so it shared its CPU with ordinary tasks in ",
                    .advice = ". Give the audio thread real-time priority (the first advice) before anything else." },
    [CK_NONE] = { .token = "none", .words = "not known", .text_words = "not known" },
    [CK_KTHREAD] = { .token = "kthread", .words = "kernel thread", .text_words = "kernel thread",
                     .rule = "culprit_kthread", .system = 1,
                     .lead = "The kernel's own %s held the audio CPU in " /* the advice by its kind: say_kthread */ },
    [CK_NO_PREEMPT] = { .token = "no_preempt", .words = "kernel could not preempt",
                        .text_words = "kernel could not preempt", .rule = "culprit_no_preempt", .system = 1,
                        .lead = "The kernel could not preempt %s for the audio thread in "
                        /* the advice and hint by the preemption model: say_no_preempt */ },
    [CK_BELOW] = { .token = "below_kernel", .words = "below the kernel", .text_words = "below the kernel",
                   .rule = "culprit_below", .system = 1, .hint = "the host or firmware",
                   .lead = "The CPU was not running at all (no tick, no interrupt) while the audio thread waited, "
                           "in ",
                   .advice = ". That is below the kernel: in a virtual machine the host did not run this virtual CPU "
                             "(its scheduling, overcommit, halt polling); on real hardware, firmware or SMIs. No "
                             "setting of this kernel changes it: ask the host for dedicated CPUs, or test on real "
                             "hardware, before any kernel option." },
};

const struct culprit_kind_info *culprit_kind_info(enum culprit_kind k)
{
    return (unsigned)k < CK_COUNT ? &kinds[k] : NULL;
}

const struct culprit_kind_info *culprit_kind_info_of(const char *token)
{
    enum culprit_kind k = culprit_kind_parse(token);
    return k == CK_COUNT ? NULL : &kinds[k];
}

const char *culprit_kind_name(enum culprit_kind k)
{
    return (unsigned)k < CK_COUNT ? kinds[k].token : "none";
}

enum culprit_kind culprit_kind_parse(const char *name)
{
    for (int k = 0; name && k < CK_COUNT; k++)
        if (kinds[k].token && strcmp(name, kinds[k].token) == 0)
            return (enum culprit_kind)k;
    return CK_COUNT;
}
