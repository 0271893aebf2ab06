#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 25 figures for `rtjitter run --soak`: private memory flat over a soak, and report bytes per hour.
# One soak of SOAK_LONG_S (60) s on the timer backend at 64 frames / 48 kHz (one thread, the last CPU), its
# Private_Dirty (smaps_rollup, read from outside) sampled at 10 s and near its end, and a 10 s soak's report beside it.
# Bytes per hour: a 60 s report keeps every second of its timeline (report.c keeps each second of the first and last
# 60 s), so it is not extrapolated linearly: the hour is its fixed part (the report less its timeline) plus what
# report.c keeps of an hour's timeline: 120 edge seconds, 60 minute entries and the eventful seconds this run saw
# (x 11: each with its 5 neighbours either side), capped at TL_DETAIL_MAX (src/stats/timeline.h), each entry at this
# run's mean size; and the bound when every second is eventful: the cap's seconds alone and as many folded stretches
# between them. The soak's own part (bins, 12 windows an hour) is in the fixed part.
# Sizes are of the report as written (indented): its compact size times the file's own ratio.
set -u
RTJ=${RTJ:-./rtjitter}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"
long=${SOAK_LONG_S:-60}
cpu=$(($(nproc) - 1))
pd() { awk '/^Private_Dirty/ { print $2 }' "/proc/$1/smaps_rollup" 2>/dev/null; }
"$RTJ" run --backend timer --cpus "$cpu" --soak 10s --warmup 1 --quiet --json "$W/s10.json" >/dev/null 2>"$W/s10.err" ||
    { echo "soak: the 10 s soak failed: $(head -c 300 "$W/s10.err")"; exit 1; }
"$RTJ" run --backend timer --cpus "$cpu" --soak "${long}s" --warmup 1 --quiet --json "$W/s.json" >/dev/null 2>"$W/s.err" &
pid=$!
# the culprit sampler's 30 s of history fills first: memory is read at 31 s (10 s when the soak is shorter than 60 s)
at=$([ "$long" -ge 60 ] && echo 31 || echo 10)
sleep $((at + 1)); m10=$(pd "$pid")
sleep $((long - at)); mend=$(pd "$pid")
wait "$pid" || { echo "soak: the ${long} s soak failed: $(head -c 300 "$W/s.err")"; exit 1; }
cap=$(awk '$1 == "#define" && $2 == "TL_DETAIL_MAX" { print $3 }' src/stats/timeline.h 2>/dev/null)
python3 - "$W/s10.json" "$W/s.json" "$m10" "$mend" "$long" "$at" "${cap:-1500}" <<'PY'
import json, sys
s10, s, m10, mend, long = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3] or 0), int(sys.argv[4] or 0), int(sys.argv[5])
at = int(sys.argv[6])
cap = int(sys.argv[7])
def size(d): return len(json.dumps(d, separators=(',', ':')))
p0 = s['phases'][0]
happ = len(p0.get('events', [])) + len(p0.get('spikes', []))
print(f"soak: private memory (Private_Dirty) of one {long} s soak: {m10} KiB at {at} s, {mend} KiB at {long - 1} s "
      f"({mend - m10:+d} KiB, {happ} events and spikes listed, each explained with its culprits: they are what "
      f"grows, up to 256 events (the latest 192 and the worst 64) and the worst 128 spikes a phase); the reports' own figure (at the end): "
      f"{s10['run_stats']['private_dirty_kib']} KiB after a 10 s soak, {s['run_stats']['private_dirty_kib']} KiB "
      f"after {long} s")
p = s['phases'][0]; tl = p['timeline']
raw = open(sys.argv[2]).read()
tl_bytes = size(tl); n = len(tl); per = tl_bytes / max(n, 1)
fixed = size(s) - tl_bytes
half = s['audio']['period_us'] / 2
ev = sum(1 for e in tl if e.get('xrun_events') or e.get('deadlines_missed') or e.get('xruns_detected')
         or e.get('wakeup_max_us', 0) > half or e.get('jitter_abs_max_us', 0) > half)
ev_h = ev / max(p['measured_s'], 1) * 3600
kept = 120 + 60 + min(cap, ev_h * 11)
# as written (indented, one number a line): the compact sizes times the file's own ratio
k = len(raw) / size(s)
est = (fixed + kept * per) * k
worst = (fixed + (120 + 60 + 2 * cap) * per) * k
sk = size(p['soak'])
print(f"soak: report of the {long} s soak: {len(raw)} bytes as written ({size(s)} compact); timeline {n} entries of "
      f"{per:.0f} bytes; the soak object {sk} bytes ({len(p['soak']['bins'])} non-empty 1 us bins, "
      f"{len(p['soak']['windows'])} windows); {ev} eventful seconds (wake-up or jitter over half the period, xruns)")
print(f"soak: report bytes per hour, 64 frames: ~{est / 1e6:.2f} MB at this run's rate of eventful seconds "
      f"({ev_h:.0f}/h), at most {worst / 1e6:.2f} MB when every second is eventful (the timeline's cap of {cap:,} "
      f"seconds alone, and the folded stretches between them); a 24 h soak's timeline: at most "
      f"{(120 + 1440 + 2 * cap) * per * k / 1e6:.2f} MB "
      f"(sizes as written: the compact form x {k:.2f}, this file's ratio)")
PY
