/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's section of a report page (--backend noise): per CPU, its noise figures, each class of gap, the
 * gaps' histogram and the lines named, from the phases' "noise" objects; nothing when no phase has one. */
#ifndef RTJ_HTML_NOISE_H
#define RTJ_HTML_NOISE_H
#include <jansson.h>
#include <stdio.h>

void html_noise(FILE *f, const json_t *doc);

#endif
