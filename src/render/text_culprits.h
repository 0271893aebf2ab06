/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits of a report in its text (text_culprits.c), for text.c. */
#ifndef RTJ_TEXT_CULPRITS_H
#define RTJ_TEXT_CULPRITS_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

#define TEXT_CULPRITS_PER_LOAD 3

/* "Culprits", then for each phase that sought them its top TEXT_CULPRITS_PER_LOAD (phases[].top_culprits): name,
 * what it is, basis, how many of the phase's events and spikes it was among the culprits of, and the first evidence
 * line, wrapped at o->width. Prints nothing when no phase has top_culprits (a report without culprits). */
void text_culprits(FILE *f, const json_t *doc, const struct render_opts *o);

#endif
