/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one way the verdict's files write their sentences (verdict.c: the summary; verdict_advice.c: the advice;
 * verdict_ramp.c: a ramp's summary): appended to a fixed buffer, clipped, never overrun. Below all three. */
#ifndef RTJ_VERDICT_TEXT_H
#define RTJ_VERDICT_TEXT_H
#include <stddef.h>

/* Appends to b at o (clipped to n); returns the new end. */
size_t vadd(char *b, size_t n, size_t o, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
