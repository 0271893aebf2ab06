/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's noise probe lines (--backend noise): per phase and CPU the noise, the share available, the
 * longest gap, and what the gaps were (phases[].noise). Nothing for other backends. */
#ifndef RTJ_TEXT_NOISE_H
#define RTJ_TEXT_NOISE_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

void text_noise(FILE *f, const json_t *doc, const struct render_opts *o);

#endif
