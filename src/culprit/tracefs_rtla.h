/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter diagnose`'s reading of rtla: whether this kernel has the timerlat tracer (tracefs available_tracers),
 * what the installed rtla offers (its version from `rtla --help`, auto-analysis when `rtla timerlat top --help`
 * lists -a/--auto: rtla 6.3 and later, not Debian 12's 6.1), and the summary of `rtla timerlat top -q` read into
 * JSON. The format read is rtla's own (tools/tracing/rtla/src/timerlat_top.c and timerlat_aa.c, read for this):
 *
 *                                      Timer Latency
 *     0 00:00:10   |          IRQ Timer Latency (us)        |         Thread Timer Latency (us)
 *   CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max
 *     0 #10004     |        1         0         1        22 |        4         2         4        45
 *   ---------------|----------------------------------------|---------------------------------------
 *   ALL #20008  e0 |                  0         1        22 |                   2         4        45
 *
 * (a "-" where a CPU had no sample; the ALL row's count is COUNT x 10^e; the ALL row only in newer rtla), then,
 * when the -a threshold was hit, "rtla timerlat hit stop tracing" and the auto-analysis ("## CPU 3 hit stop
 * tracing, analyzing it ##", "  IRQ handler delay:   16.80 us (0.90 %)", "  Blocking thread:   1778.64 us
 * (96.09 %)", "     stress:27041    1778.64 us", ..., "Max timerlat IRQ latency from idle: 12.04 us in cpu 4").
 * Pure functions of text (tests/unit/test_rtla.c). */
#ifndef RTJ_TRACEFS_RTLA_H
#define RTJ_TRACEFS_RTLA_H
#include <jansson.h>

/* Whether a tracer is listed in available_tracers' text ("timerlat osnoise function nop"). */
int rtla_tracer_listed(const char *available_tracers, const char *tracer);
/* rtla's version from its usage text ("rtla version 6.6.0"), copied into buf; 0 or -1 when not found. */
int rtla_version(const char *usage, char *buf, size_t len);
/* Whether `rtla timerlat top --help`'s text offers the auto-analysis (-a/--auto). */
int rtla_has_auto(const char *help);
/* The summary of rtla timerlat top's output: {unit, duration, cpus: [{cpu, count, irq: {cur, min, avg, max},
 * thread: {...}}], all: {count, irq: {min, avg, max}, thread: {...}} or null, stopped (the threshold was hit),
 * auto_analysis: {cpu, items: [{what, us, pct?}], blocking_thread: {comm, pid, us} or null, idle_max: {us, cpu}
 * or null} or null, lines: [the table's and the analysis's lines as printed]}. A value rtla printed as "-" is
 * null. NULL when the text has no table and no analysis (not rtla's output). */
json_t *rtla_parse_top(const char *text);

#endif
