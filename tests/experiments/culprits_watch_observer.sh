#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An experiment, not a gate (issue 34 beside issue 32): `rtjitter watch` as root, whose culprit sampler slows to
# 4 Hz and leaves the trace's rings to the kernel while all is quiet, judged against `perf record`'s scheduler trace
# as culprits_observer.sh judges a run: for each xrun event and spike of the watch's report, the audio threads'
# longest wait and who held that CPU (tests/helpers/perf_waits.py), against the report's top culprit. A private
# jackd (dummy, 48 kHz, FRAMES) and, beside it, LOAD (a shell command; default `stress-ng --hdd 1 --timeout SECS`: writes
# whose kernel paths hold the CPU now and then), so that xruns come now and then, each after a quiet stretch.
# usage (root): tests/experiments/culprits_watch_observer.sh OUTDIR [SECS (60)] [FRAMES (128)]
# Prints the observer's lines and its summary, and how long the sampler was quiet; OUTDIR keeps the report, the
# perf script and the observer's JSON.
set -u
out=${1:?usage: culprits_watch_observer.sh OUTDIR [SECS] [FRAMES]}
secs=${2:-60}
frames=${3:-128}
RTJ=${RTJ:-./rtjitter}
PY=$(dirname "$0")/../helpers
mkdir -p "$out"
name="rtjwobs-$$-$RANDOM"
jackd -n "$name" -d dummy -r 48000 -p "$frames" >"$out/jackd.log" 2>&1 &
jp=$!
load=${LOAD:-stress-ng --hdd 1 --timeout $((secs + 5))}
trap 'kill -TERM "$jp" ${lp:-} 2>/dev/null; wait 2>/dev/null' EXIT
for i in $(seq 50); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break; sleep 0.1; done
. "$PY/perf_sched_events.sh"
perf record -q -a -k CLOCK_MONOTONIC -m 4096 "${ev[@]}" -o "$out/perf.data" 2>"$out/perf.err" &
perf_pid=$!
sleep 1.5
(cd "$out" && exec bash -c "$load" >/dev/null 2>&1) &
lp=$!
"$RTJ" watch --server "$name" --server-log "$out/jackd.log" --duration "$secs" --json "$out/report.json" \
    --output "$out" >"$out/watch.txt" 2>"$out/watch.err" &
wp=$!
wait "$wp"
echo "# watch exited $? (pid $wp); jackd $jp; load: $load"
kill -INT "$perf_pid"
wait "$perf_pid"
perf script -i "$out/perf.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$out/script.txt" 2>/dev/null
python3 - "$out/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d['culprits']['sampler']
tr = [x.get('summary') or {} for x in s['sources'] if x['name'] == 'tracefs']
tr = tr[0] if tr else {}
print(f"# sampler quiet {s.get('quiet_s', 0):.1f} s, {s.get('quiet_ticks', 0)} of {s.get('ticks', 0)} ticks; trace: "
      f"{tr.get('quiet_polls', 0)} quiet polls, {tr.get('overwritten_quiet', 0)} events overwritten meanwhile, "
      f"{tr.get('explained', 0)} of {tr.get('explains', 0)} explained, lost_waits {tr.get('lost_waits', 0)}")
PY
python3 "$PY/perf_waits.py" "$out/report.json" "$out/script.txt" --pid "$wp" --pid "$jp" --json "$out/observer.json"
rm -f "$out/perf.data"
