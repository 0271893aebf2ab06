#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# rt_observe.py PID OUT [INTERVAL_S]: the kernel's own account of PID's real-time threads, read from outside the
# process, for tests that judge rtjitter's figures against it. Every INTERVAL_S (default 0.01) until PID exits,
# one line per SCHED_FIFO/SCHED_RR thread of PID:
#     MONO_S TID CPU_NS RUN_DELAY_NS CLEAN STEAL_TICKS
# CPU_NS and RUN_DELAY_NS: /proc/PID/task/TID/schedstat fields 1 and 2 (the time the thread ran, and waited on a run
# queue to run); CLEAN 1 when the thread was sleeping just before and just after that read (the kernel updates a
# running thread's sum only at its ticks and when it stops, so only such a sample is exact); STEAL_TICKS: the
# steal column of /proc/stat's "cpu" line (USER_HZ ticks: the time the hypervisor ran something else on our CPUs).
# MONO_S is CLOCK_MONOTONIC, the clock of rtjitter's dsp_share.mono_window_s.
import os
import sys
import time

pid, out = sys.argv[1], open(sys.argv[2], 'w')
interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
task = f'/proc/{pid}/task'


def state(tid):
    with open(f'{task}/{tid}/stat') as f:
        s = f.read()
    rest = s.rsplit(')', 1)[1].split()
    return rest[0], int(rest[38])  # state, policy


def steal():
    with open('/proc/stat') as f:
        return int(f.readline().split()[8])


rt, next_scan = [], 0.0
while os.path.exists(task):
    now = time.monotonic()
    try:
        if now >= next_scan:  # threads come and go rarely: look for the real-time ones twice a second
            rt = [t for t in os.listdir(task) if state(t)[1] in (1, 2)]
            next_scan = now + 0.5
        st = steal()
        for tid in rt:
            s0 = state(tid)[0]
            with open(f'{task}/{tid}/schedstat') as f:
                c, d = f.read().split()[:2]
            t = time.clock_gettime(time.CLOCK_MONOTONIC)
            s1 = state(tid)[0]
            out.write(f'{t:.6f} {tid} {c} {d} {int(s0 == "S" and s1 == "S")} {st}\n')
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        rt, next_scan = [], 0.0
    out.flush()
    time.sleep(interval)
