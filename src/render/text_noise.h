/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's noise probe lines (--backend noise): per phase and CPU the noise, the share available, the
 * longest gap, and what the gaps were (phases[].noise). Nothing for other backends. */
#ifndef RTJ_TEXT_NOISE_H
#define RTJ_TEXT_NOISE_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

void text_noise(FILE *f, const json_t *doc, const struct render_opts *o);
/* A noise figure in µs as both forms write it, the shortest readable: "12.3 µs", "4.56 ms", "1.23 s" (us_unit: "µs",
 * or "us" where UTF-8 cannot be shown); "-" for NAN. Returns b. */
const char *noise_dur(char *b, size_t n, double us, const char *us_unit);

#endif
