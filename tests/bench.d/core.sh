#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 2 figures: RT-side cost per cycle (ns, and instructions with callgrind); capacity at 16 frames /
# 192 kHz for 60 s on a private dummy server; peak RSS after a 10 s and a 120 s run.
# CAPACITY_S / RSS_LONG_S shorten the long runs when you only want a quick look.
set -u
RTJ=${RTJ:-./rtjitter}
H=${RTJ_HELPERS:-build/tests/helpers}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"
unset JACK_DEFAULT_SERVER

"$H/bench_rtcycle" 2000000
"$H/bench_pwcycle" 2000000   # the native PipeWire callback (issue 33: goal <= 100 ns; its output buffer call left out)
if command -v valgrind >/dev/null; then
    valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" --toggle-collect=bench_one_cycle \
        "$H/bench_rtcycle" 100000 >/dev/null 2>"$W/cg.log"
    ir=$(sed -n 's/^summary: //p;s/^totals: //p' "$W/cg.out" | head -1)
    # 5 batches of 100000 cycles
    echo "rt cycle: $(python3 -c "print(round($ir / 500000, 1))") instructions per cycle (callgrind, toggle-collect=bench_one_cycle)"
fi

cap=${CAPACITY_S:-60}
echo "capacity: 16 frames @ 192000 Hz (12,000 cycles/s) for $cap s on a private dummy server..."
"$RTJ" run --loads none --rate 192000 --period 16 --duration "$cap" --warmup 1 --quiet --json "$W/cap.json" >/dev/null 2>"$W/cap.err"
python3 - "$W/cap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d['phases'][0]; r = d['run_stats']
print(f"capacity: {p['cycles']} cycles measured ({p['cycles']/p['measured_s']:.0f}/s), "
      f"dropped records {r['dropped']} (ring {r['ring_capacity']} records), "
      f"collector thread CPU {r['collector_cpu_pct']:.2f} % of one core ({r['collector_cpu_s']:.2f} s in {r['wall_s']:.1f} s), "
      f"xruns reported/detected {p['xruns']['reported']}/{p['xruns']['detected']}")
PY

# Private memory (Private_Dirty: jack's shared segments excluded) at 16 frames / 192 kHz, after 10 s and after
# PRIVATE_LONG_S (default 600 s), and the report's size per hour of measuring.
plong=${PRIVATE_LONG_S:-600}
for dur in 10 "$plong"; do
    "$RTJ" run --loads none --rate 192000 --period 16 --duration "$dur" --warmup 1 --quiet --json "$W/p$dur.json" >/dev/null 2>&1
done
python3 - "$W/p10.json" "$W/p$plong.json" "$plong" <<'PY'
import json, os, sys
a = json.load(open(sys.argv[1]))['run_stats']; b = json.load(open(sys.argv[2]))['run_stats']; s = float(sys.argv[3])
print(f"private memory (16 frames @ 192 kHz): {a['private_dirty_kib']} KiB after 10 s, {b['private_dirty_kib']} KiB "
      f"after {s:.0f} s (ring {b['ring_capacity']} records, dropped {b['dropped']})")
size = os.path.getsize(sys.argv[2])
# not scaled to an hour: the lists fill in the first seconds and the timeline folds, so a report grows far slower
# than in proportion (an hour of one phase: 1.0 MB, of eight: 1.79 MB; tests/experiments/hour16-result.txt)
print(f"report size: {size / 1024:.0f} KiB for {s:.0f} s of one phase (not in proportion to its length: its lists "
      f"fill in seconds)")
PY

# The same with loads: every default load (eight phases) of PRIVATE_LOADS_S (12) s, read from outside every 5 s and
# at the run's end. Each phase keeps its figures (its histograms' non-empty buckets, its timeline) and its share of
# the run's lists (an eighth each: stats/phase.h, struct phase_lists) with their culprits until the report is
# written. An hour of them: tests/experiments/hour16.sh (its results beside it).
pl=${PRIVATE_LOADS_S:-12}
"$RTJ" run --rate 192000 --period 16 --duration "$pl" --warmup 1 --quiet \
    --json "$W/pl.json" >/dev/null 2>&1 &
plpid=$!
: >"$W/pl.mem"
while kill -0 "$plpid" 2>/dev/null; do
    sleep 5
    awk -v t="$SECONDS" '/^Private_Dirty/ { print t, $2 }' "/proc/$plpid/smaps_rollup" 2>/dev/null >>"$W/pl.mem"
done
wait "$plpid"
python3 - "$W/pl.json" "$W/pl.mem" "$pl" <<'PY'
import json, os, sys
try:
    d = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("private memory with loads: the run wrote no report"); sys.exit(0)
m = [int(l.split()[1]) for l in open(sys.argv[2]) if len(l.split()) == 2]
ph = ', '.join(f"{p['load']} {len(p.get('events') or [])} events and {len(p.get('spikes') or [])} spikes listed "
               f"({p['xruns'].get('events', 0)} and {len(p.get('spikes') or []) + (p.get('spikes_unlisted') or 0)})"
               for p in d['phases'])
print(f"private memory with loads (16 frames @ 192 kHz, {sys.argv[3]} s a phase): {min(m) if m else '?'} to "
      f"{max(m) if m else '?'} KiB read every 5 s, {d['run_stats']['private_dirty_kib']} KiB at the last phase's end; {ph}")
# what each phase adds to the report: its lists (its share), histograms and timeline (issue 32: an hour in eight
# phases of 450 s wrote 5.4 MB with the whole lists each, indented throughout; tests/experiments/hour16-result.txt)
size = os.path.getsize(sys.argv[1])
print(f"report with loads: {size / 1e3:.0f} kB as written for {len(d['phases'])} phases, {size / 1e3 / len(d['phases']):.0f} kB "
      f"a phase ({len(json.dumps(d, separators=(',', ':'))) / 1e3 / len(d['phases']):.0f} kB compact)")
PY

long=${RSS_LONG_S:-120}
for dur in 10 "$long"; do
    "$RTJ" run --loads none --duration "$dur" --warmup 1 --quiet --json "$W/m$dur.json" >/dev/null 2>&1
done
python3 - "$W/m10.json" "$W/m$long.json" "$long" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['run_stats']['peak_rss_kib']
b = json.load(open(sys.argv[2]))['run_stats']['peak_rss_kib']
print(f"memory: peak RSS {a} KiB after a 10 s run, {b} KiB after a {sys.argv[3]} s run: "
      f"difference {b - a} KiB ({'under' if abs(b - a) < 1024 else 'NOT under'} 1 MiB)")
PY
