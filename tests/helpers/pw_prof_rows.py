#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# pw_prof_rows.py PROFILER_LOG TIMING3_PLOT REPORT: "ROWS CYCLES": the rows in which pw-profiler's own log (the file
# `pw-profiler -o` writes, its columns named by the Timing3.plot it writes at exit, "stall/ID") has a "stall" follower
# unfinished (status 1 or 2: triggered or awake), and the cycles the report's audio.pipewire_graph counts for the
# node "stall". Every "stall" follower counts: an earlier case's staller may still be listed (its rows all finished).
# Used by pipewire_xruns.sh and pipewire_wireplumber.sh.
import json, re, sys

cols = [(int(c) - 4, i) for c, i in re.findall(r'using (\d+) title "stall/(\d+)"', open(sys.argv[2]).read())]
rows = 0
for line in open(sys.argv[1]):
    f = line.split('\t')
    rows += sum(1 for b, i in cols if len(f) > b + 6 and f[b].strip() == i and f[b + 6].strip() in ('1', '2'))
g = json.load(open(sys.argv[3]))['audio'].get('pipewire_graph') or {}
print(rows, sum(n['cycles'] for n in g.get('by_node', []) if n['node'] == 'stall'))
