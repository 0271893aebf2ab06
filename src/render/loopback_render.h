/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's "loopback" object (src/loopback/loopback.h gives its shape) in text and in HTML, read from the
 * JSON alone: nothing when the report has none. Any type in any key is survived (a report is untrusted input). */
#ifndef RTJ_LOOPBACK_RENDER_H
#define RTJ_LOOPBACK_RENDER_H
#include <jansson.h>
#include <stdio.h>
#include "render/render_opts.h"

/* A short "loopback:" block: latency, glitches per phase, the first few glitches, where the WAVs are. */
void loopback_text(FILE *f, const json_t *doc, const struct render_opts *o);
/* A "Loopback" section: latency, glitches per phase, the glitch table with links to the WAVs (relative to the
 * report's page: "wav_dir" + name) and a small waveform of each from its excerpt. */
void loopback_html(FILE *f, const json_t *doc);

/* Shared by both (loopback_text.c): the name of phase index i of doc ("phase N" when the report has no such
 * phase). */
void loopback_phase_name(const json_t *doc, json_int_t i, char *buf, size_t len);

#endif
