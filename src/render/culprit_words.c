/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A culprit's kind and counts in words (culprit_words.h). */
#include "render/culprit_words.h"
#include <stdio.h>
#include <string.h>

static const struct { const char *kind, *words; } kinds[] = {
    { "rt_task", "real-time task" }, { "client", "client of the graph" }, { "irq", "interrupt" },
    { "softirq", "softirq" }, { "dsp", "our DSP" }, { "run_delay", "run delay" }, { "steal", "steal time" },
    { "pressure", "pressure (PSI)" }, { "freq", "CPU clock" }, { "idle_exit", "exit from idle" },
    { "thread", "thread" }, { "none", "not known" }, { "kthread", "kernel thread" },
    { "no_preempt", "kernel could not preempt" }, { "below_kernel", "below the kernel" },
};

const char *culprit_kind_words(const char *kind)
{
    for (size_t i = 0; kind && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcmp(kinds[i].kind, kind))
            return kinds[i].words;
    return kind ? kind : "?";
}

void culprit_counts_words(char *buf, size_t len, long long events, long long spikes)
{
    char e[40] = "", s[40] = "";
    if (events > 0)
        snprintf(e, sizeof(e), "%lld event%s", events, events == 1 ? "" : "s");
    if (spikes > 0)
        snprintf(s, sizeof(s), "%lld spike%s", spikes, spikes == 1 ? "" : "s");
    if (!e[0] && !s[0])
        snprintf(buf, len, "no event, no spike");
    else
        snprintf(buf, len, "%s%s%s", e, e[0] && s[0] ? ", " : "", s);
}
