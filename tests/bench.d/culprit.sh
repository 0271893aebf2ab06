#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 24 figures: the culprit sampler's CPU share at 20 Hz, on this machine's /proc and on a tree whose
# /proc/interrupts is the 64-CPU fixture (tests/fixtures/culprit/interrupts-64cpu, 207 lines; its other files are
# this machine's, linked). Prints figures, checks nothing. CULPRIT_BENCH_S (10) sets the thread's run.
set -u
H=${RTJ_HELPERS:-build/tests/helpers}
secs=${CULPRIT_BENCH_S:-10}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
echo "culprit sampler, this machine ($(nproc) CPUs, $(grep -c : /proc/interrupts) interrupt lines):"
"$H/bench_culprit" "$secs"
mkdir -p "$W/proc" "$W/sys"
cp tests/fixtures/culprit/interrupts-64cpu "$W/proc/interrupts"
for f in softirqs stat pressure; do ln -s "/proc/$f" "$W/proc/$f"; done
ln -s /sys/kernel "$W/sys/kernel"
# the tasks: this machine's, so that the RT-task scan has as much to read as here
for p in /proc/[0-9]*; do ln -s "$p" "$W/proc/${p#/proc/}"; done
echo "culprit sampler, the 64-CPU /proc/interrupts fixture (static: parsed every tick, no deltas):"
"$H/bench_culprit" "$secs" "$W/proc" "$W/sys"
# With the trace (root): a timer run under the write and compile loads at 64 frames, the trace source's reading of
# its pipe and the whole engine's cost, from the report's own accounting (culprits.cost, the tracefs summary), and
# the run's private memory at its end (VmRSS/Private_Dirty from /proc, read outside it).
if [ "$(id -u)" -eq 0 ]; then
    "${RTJ:-./rtjitter}" run --backend timer --loads none,write,compile --warmup 0.5 --duration 10 --quiet \
        --json "$W/t.json" --output "$W/store" >/dev/null 2>&1 &
    rpid=$!
    sleep 30
    priv=$(awk '/^Private_Dirty/ {s += $2} END {print s}' "/proc/$rpid/smaps" 2>/dev/null)
    wait "$rpid"
    python3 - "$W/t.json" "${priv:-?}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d['culprits']
t = next((s.get('summary') for s in c['sampler']['sources'] if s['name'] == 'tracefs'), None)
dur = sum(p.get('measured_s') or p['duration_s'] for p in d['phases'])
print('culprit engine with the trace, timer at 64 frames, none/write/compile, %.0f s measured:' % dur)
print('  engine: %.2f s of CPU, %.1f %% of one CPU; private memory at 30 s: %s kB' % (
    c['cost']['cpu_s'], c['cost']['cpu_pct'], sys.argv[2]))
if t:
    print('  trace: %d events read (%.0f a second), %.1f MB of text, %.2f s of CPU (%.1f %% of one CPU); '
          'explained %d of %d, no wait %d, not covered %d, lost events %d' % (
              t['events_read'], t['events_read'] / dur, t['bytes_read'] / 1e6, t['cpu_s'], 100 * t['cpu_s'] / dur,
              t['explained'], t['explains'], t['no_wait'], t['not_covered'], t['lost_events']))
PY
else
    echo "culprit engine with the trace: not root, not measured"
fi
