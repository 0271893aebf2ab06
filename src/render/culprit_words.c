/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A culprit's kind and counts in words (culprit_words.h); the words are the table of kinds' (culprit/culprit_kinds.c). */
#include "render/culprit_words.h"
#include "culprit/culprit.h"
#include <stdio.h>
#include <string.h>

const char *culprit_kind_words(const char *kind)
{
    const struct culprit_kind_info *k = culprit_kind_info_of(kind);
    return k ? k->words : kind ? kind : "?";
}

const char *culprit_kind_text_words(const char *kind)
{
    const struct culprit_kind_info *k = culprit_kind_info_of(kind);
    return k ? k->text_words : kind ? kind : "?";
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
