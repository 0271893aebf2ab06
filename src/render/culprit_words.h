/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A culprit's kind in words, for every renderer (text, HTML, compare): "rt_task" reads "real-time task". */
#ifndef RTJ_CULPRIT_WORDS_H
#define RTJ_CULPRIT_WORDS_H
#include <stddef.h>

/* The words for a kind name of culprit/culprit.h; an unknown kind is returned as it is, NULL as "?". */
const char *culprit_kind_words(const char *kind);
/* The same in the text report's culprits section, which has its own wording ("audio client", "hypervisor steal"). */
const char *culprit_kind_text_words(const char *kind);
/* "4 events, 2 spikes", "1 event", "6 spikes", or "no event, no spike" when both are 0 (or less). */
void culprit_counts_words(char *buf, size_t len, long long events, long long spikes);

#endif
