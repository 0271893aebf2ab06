#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Our node's scheduling latency as pw-profiler saw it: awake - signal, per cycle, in us.

pw-profiler -o FILE writes one line per driver cycle: 4 columns for the driver (period, end date, delay, quantum
in us), then 8 per follower: id, signal - driver signal, awake - driver signal, finish - driver signal,
awake - signal, finish - awake, status, 0 (PipeWire's src/tools/pw-profiler.c; blank when the follower did not
run that cycle). Its own "awake - signal" column is 0 whenever signal - driver signal truncates to 0 us (0.3.65
asks for it > 0), so it is computed here from the two columns before it; each is truncated to whole us, so the
difference is +/- 1 us. Which follower is ours: the Timing3.plot pw-profiler writes in its working directory at
exit names each follower's column "NAME/ID".

Usage: pw_profiler_wake.py PROFILE_LOG TIMING3_PLOT NODE_NAME
Prints: cycles min p50 p90 p99 max unwoken (us, awake - signal of NODE_NAME's cycles whose status says it woke:
2 awake or 3 finished; unwoken: the cycles with status 1, triggered but not yet awake, whose awake column is
the previous cycle's); exit 1 when the node is not found.
"""
import math
import re
import sys


def quantile(v, q):
    """The report's convention for a percentile: the value at rank ceil(q * n) of the sorted values."""
    s = sorted(v)
    k = max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))
    return s[k]


def main():
    log, plot, name = sys.argv[1:4]
    m = re.search(r'using (\d+) title "%s/(\d+)"' % re.escape(name), open(plot).read())
    if not m:
        print("no follower %s in %s" % (name, plot), file=sys.stderr)
        return 1
    col = int(m.group(1))            # Timing3 plots "finish - driver signal" (1-based): the follower's 4th column
    base = col - 4                   # so its id column is this one, 0-based
    nid = m.group(2)
    vals = []
    unwoken = 0
    for line in open(log):
        f = line.rstrip('\n').split('\t')
        if len(f) < base + 7 or f[base].strip() != nid:
            continue
        if int(f[base + 6]) < 2:
            # status 1 (triggered): the node was signalled but not awake when the cycle was sampled (a stalled
            # server's cycles): its awake time is the previous cycle's, not this one's; counted apart
            unwoken += 1
            continue
        sig, awake = int(f[base + 1]), int(f[base + 2])
        vals.append(awake - sig)
    if not vals:
        print("follower %s/%s has no cycles in %s" % (name, nid, log), file=sys.stderr)
        return 1
    print(len(vals), min(vals), quantile(vals, 0.5), quantile(vals, 0.9), quantile(vals, 0.99), max(vals), unwoken)
    return 0


if __name__ == '__main__':
    sys.exit(main())
