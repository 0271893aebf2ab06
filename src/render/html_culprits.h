/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits of a report on its HTML page (issue 24), read from the report's JSON only (culprit/culprit.h, REPORT
 * SCHEMA): per load a summary of its top culprits, the periodicity and the sampler's window and cost in small print
 * (html_culprits_summary), and under each load's timeline a table of its xrun events and one of its spikes
 * (html_culprits_phase), each with the top culprit, its basis (observed, correlated or nothing seen, drawn apart),
 * its evidence line and the others folded in a <details>. A report without these keys gets none of it: its page is as before. */
#ifndef RTJ_HTML_CULPRITS_H
#define RTJ_HTML_CULPRITS_H
#include <jansson.h>
#include <stdio.h>

/* The CSS of these parts, handed to html_page_start_css() when html_culprits_any(). */
extern const char html_culprits_css[];

/* Whether the phase carries culprits (top_culprits, spikes, or an event's culprits); and whether any phase or the
 * report (its top-level "culprits") does. */
int html_culprits_phase_has(const json_t *phase);
int html_culprits_any(const json_t *doc);

/* The "Culprits" section: per load its top culprits, then the periodicity and the sampler in small print. */
void html_culprits_summary(FILE *f, const json_t *doc);
/* One load's tables: its events and its spikes (the first HTML_SPIKES_SHOWN, and how many more). */
#define HTML_SPIKES_SHOWN 20
#define HTML_EVENTS_SHOWN 100
void html_culprits_phase(FILE *f, const json_t *phase);

/* The first culprit of an event or a spike (its "culprits"[0]), NULL when none; and one line naming it for a
 * tooltip ("spin (pid 812, real-time task, correlated)"), "" when none. */
const json_t *html_culprit_top(const json_t *happening);
void html_culprit_label(char *buf, size_t len, const json_t *culprit);

#endif
