/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT threads' CPU time, read by the orchestrator (never by an RT thread) from the kernel's own account:
 * /proc/self/task/TID/schedstat, whose fields are the time the thread ran (sum_exec_runtime, ns), the time it waited
 * on a run queue to run (run delay, ns) and how many times it ran. The RT threads publish their TIDs and count their
 * cycles and DSP work units in an rt_meter (rt_sink.h); a reading is taken while every thread is between two cycles
 * (its begun and ended counts equal around the read), so that it covers whole cycles and none of a burn in progress
 * (the kernel updates a running thread's sum only at its ticks and when it stops). The --dsp share a phase or a
 * ramp step really got is its threads' CPU time over their cycles times the nominal period. */
#ifndef RTJ_RT_CPU_H
#define RTJ_RT_CPU_H
#include <jansson.h>
#include <stdint.h>
#include "rt_sink.h"

/* One reading of every metered RT thread, summed over the threads. */
struct rt_cpu_reading {
    int threads;                  /* threads read; 0: none yet (no cycle ran, or /proc unreadable) */
    int clean;                    /* every thread was caught between two cycles */
    uint64_t cpu_ns;              /* schedstat field 1 */
    uint64_t delay_ns;            /* schedstat field 2: waiting to run */
    uint64_t cycles;              /* the threads' ended cycles */
    uint64_t dsp_units;           /* DSP work units the threads did */
    double mono_s;                /* when, on CLOCK_MONOTONIC */
};

/* Parse a schedstat line: "CPU_NS DELAY_NS TIMESLICES". 0, or -EINVAL. */
int rt_cpu_parse_schedstat(const char *text, uint64_t *cpu_ns, uint64_t *delay_ns);

/* Not RT (sleeps while it waits for a gap between cycles, at most ~30 ms): read every thread of m. */
void rt_cpu_read(const struct rt_meter *m, struct rt_cpu_reading *out);

/* What happened between two readings a and b, per cycle, as shares of a nominal period of period_ns. Returns 0, or
 * -1 when there is nothing to tell (no thread, no cycle, or the threads changed between a and b). */
struct rt_cpu_share {
    double cpu_pct;               /* CPU time over cycles x period: the share the threads really used */
    double delay_pct;             /* run delay over cycles x period */
    double cpu_s, delay_s;        /* the totals */
    uint64_t cycles, dsp_units;
    int threads, clean;
};
int rt_cpu_between(const struct rt_cpu_reading *a, const struct rt_cpu_reading *b, double period_ns,
                   struct rt_cpu_share *out);

/* The report's "dsp_share" object of a phase (or of a ramp step's keys, with requested_pct < 0 left out):
 * {requested_pct, measured_pct, run_delay_pct, cpu_s, run_delay_s, cycles, threads, mono_window_s, method}. */
json_t *rt_cpu_share_json(const struct rt_cpu_share *s, double requested_pct, double mono_t0, double mono_t1);

#endif
