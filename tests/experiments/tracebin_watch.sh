#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 34's cost of the trace, before and after the binary reader (src/culprit/trace_raw.c): `rtjitter watch` as
# root (the trace on) beside a private jackd (dummy, 48 kHz, 64 frames), BEFORE (a build of the text reader) and
# AFTER (this tree's binary) alternating ROUNDS times each (default 3), SECS s each (default 35): the CPU of watch's
# whole process from /proc/PID/stat (utime + stime) from 5 s to SECS - 3 s against the wall time, as `make bench`'s
# watch.sh measures it, and the trace source's own figures from the report (its cpu_s, events read, lost, what it
# read). Then each once with --no-trace: what the rest of watch costs. Prints figures, checks nothing; root only.
# usage: tests/experiments/tracebin_watch.sh BEFORE_BIN AFTER_BIN [ROUNDS [SECS]]
set -u
before=$1 after=$2 rounds=${3:-3} secs=${4:-35}
[ "$(id -u)" = 0 ] || { echo "tracebin_watch: needs root (the trace)"; exit 2; }
W=$(mktemp -d); name="rtjt-tbin34-watch-$$"
jackd -n "$name" -d dummy -r 48000 -p 64 >"$W/jackd.log" 2>&1 &
jp=$!
trap 'kill -TERM "$jp" 2>/dev/null; wait "$jp" 2>/dev/null; rm -rf "$W"' EXIT
for i in $(seq 50); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break; sleep 0.1; done
hz=$(getconf CLK_TCK)
one() { # LABEL BIN [OPTION]
    local label=$1 bin=$2 opt=${3:-} wp t0 t1 s0 s1
    "$bin" watch --server "$name" --server-log "$W/jackd.log" --duration "$secs" $opt --json "$W/r.json" \
        --output "$W/store" >"$W/out" 2>&1 &
    wp=$!
    sleep 5; t0=$(awk '{ print $14 + $15 }' "/proc/$wp/stat"); s0=$(date +%s.%N)
    sleep $((secs - 8)); t1=$(awk '{ print $14 + $15 }' "/proc/$wp/stat"); s1=$(date +%s.%N)
    wait "$wp"
    python3 - "$W/r.json" "$label" "$opt" "$t0" "$t1" "$s0" "$s1" "$hz" <<'PY'
import json, sys
f, label, opt, t0, t1, s0, s1, hz = sys.argv[1:]
pct = 100 * (int(t1) - int(t0)) / int(hz) / (float(s1) - float(s0))
try:
    d = json.load(open(f))
    tr = [s.get('summary') or {} for s in d['culprits']['sampler']['sources'] if s['name'] == 'tracefs']
    tr = tr[0] if tr else {}
except Exception as e:
    tr = {}
ev = tr.get('events_read') or 0
cost = f", trace: read {tr.get('read')}, {ev} events, {tr.get('lost_events')} lost, its own CPU {tr.get('cpu_s', 0):.3f} s" \
       f" ({1e9 * tr.get('cpu_s', 0) / ev:.0f} ns an event)" if ev else ", no trace"
print(f"{label:6s} {opt or 'trace':10s} watch CPU {pct:.2f} % of one CPU{cost}")
PY
}
for r in $(seq "$rounds"); do
    one before "$before"
    one after "$after"
done
one before "$before" --no-trace
one after "$after" --no-trace
