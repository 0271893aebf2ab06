/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scanning /proc's text in place (no copies, no allocation): a line's end, blanks, a word, an unsigned decimal.
 * Used by the culprit sampler's parsers (src/culprit/sample_proc.c) and the noise probe's counters
 * (src/util/noise_counters.c). Indices into b[0..len). */
#ifndef RTJ_TEXTSCAN_H
#define RTJ_TEXTSCAN_H
#include <stddef.h>
#include <stdint.h>

/* The end of the line that starts at i (the index of its newline, or len). */
size_t scan_line_end(const char *b, size_t len, size_t i);
/* The first index from i on that is not a space or a tab (end at most). */
size_t scan_skip_blank(const char *b, size_t end, size_t i);
/* The first index from i on that is a space or a tab (end at most). */
size_t scan_word_end(const char *b, size_t end, size_t i);
/* An unsigned decimal at b[i..end): its value (saturated) in *v, and the index after it (i when there is none). */
size_t scan_read_u64(const char *b, size_t end, size_t i, uint64_t *v);

#endif
