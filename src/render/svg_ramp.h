/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The DSP headroom ramp's plot (svg_ramp.c): margin against DSP load, per step of a phase's "dsp_ramp". */
#ifndef RTJ_SVG_RAMP_H
#define RTJ_SVG_RAMP_H
#include <jansson.h>
#include <stdio.h>
#include "render/svg.h"

void svg_ramp(FILE *f, const char *title, const json_t *ramp, double period_us);

#endif
