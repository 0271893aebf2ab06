#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# pw_named.py REPORT STALL_OUT Q: "N M S": of the M events in the S stalls inside the report's window (those ending in
# its last 100 ms left to pw_judge.py), N name the stalling client first, observed. Used by pipewire_xruns.sh and
# pipewire_wireplumber.sh.
import json, sys
d = json.load(open(sys.argv[1])); P = int(sys.argv[3]) / 48000.0
t = open(sys.argv[2]).read().split()
t = [float(x) for x in t[t.index('stall_times') + 1:t.index('xrun_times')]]
w0, w1 = d['phases'][0]['clock_window_s']
# a stall across the window's end is cut there, and one ending in its last 100 ms may be explained before the profiler
# told its end: those are judged by judge.py alone
st = [(a, b) for a, b in zip(t[0::2], t[1::2]) if w0 < a and b < w1 - 0.1]
ev = [e for e in d['phases'][0]['events'] if any(e['t_s'] <= b + 3 * P and e['t_s'] + e['length_ms'] / 1e3 >= a - P for a, b in st)]
ok = sum(1 for e in ev if e['culprits'] and e['culprits'][0]['name'] == 'stall' and e['culprits'][0]['basis'] == 'observed')
print(ok, len(ev), len(st))
