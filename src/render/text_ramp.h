/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's DSP headroom lines (`--dsp ramp`): the calibration, and one line per phase. */
#ifndef RTJ_TEXT_RAMP_H
#define RTJ_TEXT_RAMP_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

void text_ramp(FILE *f, const json_t *doc, const struct render_opts *o);

#endif
