/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every form says the same way of a run's set-up: the buffer setting and a fixed DSP share, in words. Its
 * own file, below the renderers that use it, apart from the table of forms (render.c). */
#ifndef RTJ_RENDER_SETTING_H
#define RTJ_RENDER_SETTING_H
#include <jansson.h>
#include <stddef.h>

/* The buffer setting an "audio" object (or a compare report entry) names, for every form: "64 frames @ 48000 Hz",
 * with " = 1.333 ms" when with_ms and the period is known; an import without frames (cyclictest) gives
 * "1.000 ms interval". Into buf (always terminated); returns buf. */
char *render_setting(char *buf, size_t len, const json_t *au, int with_ms);
/* A fixed --dsp PCT in words, with what each phase's RT thread really used (phases[].dsp_share.measured_pct, its CPU
 * time over the cycles x the period): "50 % of each period burnt in the callback; measured (the RT thread's CPU
 * time): none 50.4 %, burn 51.0 %". Empty when the run asked for no fixed share. */
char *render_dsp_share(char *buf, size_t len, const json_t *doc);

#endif
