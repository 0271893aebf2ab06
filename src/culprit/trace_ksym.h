/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A work item's function in the binary trace is an address (workqueue_execute_start's `function`); the text trace
 * printed its name (%ps). The reader feeds the address as "0x..." and remembers it; ksym_resolve names all of them
 * at once from /proc/kallsyms (~50 ms of the kernel's time for its 120,000 lines, so only when a kworker running an
 * unnamed one held an explained wait: src_trace.c) and renames them in the stream; a slice's work not among its
 * wait's holders may keep its address until then. The sampler thread only. */
#ifndef RTJ_CULPRIT_TRACE_KSYM_H
#define RTJ_CULPRIT_TRACE_KSYM_H
#include <stddef.h>
#include <stdint.h>

#define KSYM_NAMES 512   /* functions named, as the stream's table holds (TS_FNS) */
#define KSYM_PENDING 64  /* fed as addresses, not yet named */

struct ksym_names {
    struct { uint64_t addr; char name[48]; } fn[KSYM_NAMES];
    int nfn;
    uint64_t pending[KSYM_PENDING];
    int npending;
};

struct trace_stream;
/* The name of addr when known, else "0x..." written into hex (and addr remembered for ksym_resolve). */
const char *ksym_name(struct ksym_names *k, uint64_t addr, char *hex, size_t len);
/* Names the remembered addresses ("name", "name [module]", as %ps prints them) from /proc/kallsyms and renames them
 * in ts (NULL: not). Returns how many were named. */
int ksym_resolve(struct ksym_names *k, struct trace_stream *ts);

#endif
