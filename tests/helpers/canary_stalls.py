#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The machine's own stalls, as canary threads saw them (tests/helpers/canary logs), in a window.

usage: canary_stalls.py W0 W1 [--clock CLOCK] [--spins HOGLOG] [--min-us US] [--interval-us US] [--total] CANARY-LOG...

W0, W1: the window, in seconds of CLOCK_MONOTONIC (a report's clock_window_s), or of CLOCK_MONOTONIC_RAW with
--clock CLOCK_MONOTONIC_RAW (a jack2 report's audio.clock: its window is on that clock; so are the spins then).
--spins: a cpu_hog log; a late wake-up
whose deadline falls in a spin (or 2 ms before it) is the injected stall, not the machine's own. Prints one line,
"stalls N skips K long L max_us M": N late wake-ups of at least --min-us (default 4000) beside the spins, K the periods
of --interval-us (default 5000) they can make a thread skip (a stall of S us holds at most ceil(S / interval) of its
deadlines, and a thread caught running by it skips them all; the canary, waking every 1 ms, saw S - 1000 us or more),
L of them 29 ms or longer, M the longest.
--total: prints instead "total_us T stalls N": T the sum of the N late wake-ups' lateness of at least --min-us, every
canary's (the time the machine took from threads of the canaries' priority, as far as they saw it: a bound for the
time a thread of that priority lost then, e.g. a dummy jackd's frame clock).
"""
import math
import sys


def main(argv):
    args = argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    w0, w1 = float(args.pop(0)), float(args.pop(0))
    spins, min_us, interval, field, total = [], 4000.0, 5000.0, 1, False
    logs = []
    while args:
        a = args.pop(0)
        if a == '--spins':
            spins = [tuple(map(float, l.split()[1:3])) for l in open(args.pop(0)) if l.startswith('spin')]
        elif a == '--min-us':
            min_us = float(args.pop(0))
        elif a == '--clock':
            c = args.pop(0)
            if c not in ('CLOCK_MONOTONIC', 'CLOCK_MONOTONIC_RAW', 'None', ''):
                sys.exit('canary_stalls: --clock takes CLOCK_MONOTONIC or CLOCK_MONOTONIC_RAW, not %r' % c)
            field = 3 if c == 'CLOCK_MONOTONIC_RAW' else 1
        elif a == '--total':
            total = True
        elif a == '--interval-us':
            interval = float(args.pop(0))
        else:
            logs.append(a)
    late = []
    for f in logs:
        for l in open(f):
            p = l.split()
            if p and p[0] == 'late' and w0 <= float(p[field]) <= w1:
                t, us = float(p[field]), float(p[2])
                if not any(a - 0.002 <= t <= b for a, b in spins):
                    late.append(us)
    big = [us for us in late if us >= min_us]
    if total:
        print("total_us", round(sum(big), 1), "stalls", len(big))
        return
    print("stalls", len(big), "skips", sum(math.ceil((us + 1000) / interval) for us in late if us + 1000 >= interval),
          "long", sum(1 for us in late if us >= 29000), "max_us", round(max(late, default=0), 1))


if __name__ == '__main__':
    main(sys.argv)
