/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace's slices (src_trace.h): the last TRACE_SLICES_MAX texts of an explained wait's CPU, kept in a ring for
 * the report's files beside it, shared by the source and whoever saves them (counted references). */
#ifndef RTJ_TRACE_SLICES_H
#define RTJ_TRACE_SLICES_H
#include "culprit/src_trace.h"
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct trace_slices *trace_slices_new(void);
struct trace_slices *trace_slices_ref(struct trace_slices *s);
/* Keeps a copy of text (len bytes), the lines from body_at on counted as its segments; out of memory: not kept. */
void trace_slices_put(struct trace_slices *s, int cpu, int64_t t0_ns, int64_t t1_ns, const char *text, size_t len,
                      size_t body_at, int truncated);
/* Appends each kept slice's {file, t0_ns, t1_ns, cpu, lines, truncated} to list; returns how many were dropped. */
int trace_slices_list(struct trace_slices *s, json_t *list);

#endif
