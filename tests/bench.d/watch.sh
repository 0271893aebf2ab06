#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 25 figures: what `rtjitter watch` costs beside a session on a private jackd (64 frames): its CPU share over
# the run (utime + stime from /proc/PID/stat against the wall time) and its private memory (Private_Dirty of
# smaps_rollup) early and at the end, to show it stays flat. WATCH_BENCH_S (60; the issue's 10 minutes: 600) sets
# the run. Prints figures, checks nothing.
set -u
secs=${WATCH_BENCH_S:-60}
W=$(mktemp -d); name="rtjbench-watch-$$"
jackd -n "$name" -d dummy -r 48000 -p 64 >"$W/jackd.log" 2>&1 &
jp=$!
trap 'kill -TERM "$jp" 2>/dev/null; wait "$jp" 2>/dev/null; rm -rf "$W"' EXIT
for i in $(seq 50); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break; sleep 0.1; done
"$RTJ" watch --server "$name" --server-log "$W/jackd.log" --duration "$secs" --json "$W/w.json" --output "$W/store" \
    >"$W/out" 2>&1 &
wp=$!
kib() { awk '/^Private_Dirty:/ { print $2 }' "/proc/$wp/smaps_rollup" 2>/dev/null; }
ticks() { awk '{ print $14 + $15 }' "/proc/$wp/stat" 2>/dev/null; }
sleep 5; m0=$(kib); t0=$(ticks); s0=$(date +%s.%N)
# the sampler's 30 s of history and the first minute of the timeline fill in the first minute: from then on, flat
if [ "$secs" -ge 120 ]; then sleep 55; m60=$(kib); sleep $((secs - 63)); else m60=; sleep $((secs - 8)); fi
m1=$(kib); t1=$(ticks); s1=$(date +%s.%N)
wait "$wp"
hz=$(getconf CLK_TCK)
awk -v a="$t0" -v b="$t1" -v s0="$s0" -v s1="$s1" -v hz="$hz" -v m0="$m0" -v m1="$m1" -v m60="$m60" -v secs="$secs" 'BEGIN {
    printf "watch, %d s beside a private jackd (64 frames): CPU %.2f %% of one CPU (all its threads, from 5 s to %d s)\n",
        secs, 100 * (b - a) / hz / (s1 - s0), secs - 3
    if (m60 != "") printf "watch, private memory (Private_Dirty): %s KiB at 5 s, %s KiB at 60 s, %s KiB at %d s (%+d KiB from 60 s)\n", m0, m60, m1, secs - 3, m1 - m60
    else printf "watch, private memory (Private_Dirty): %s KiB at 5 s, %s KiB at %d s\n", m0, m1, secs - 3 }'
# how long its culprit sampler was quiet (4 Hz, not 20: nothing had begun for a second and nothing was left to
# explain), and this VM's own xruns at 64 frames that kept it at 20 Hz
python3 - "$W/w.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d['culprits']['sampler']; ph = d['phases'][0]
print(f"watch, its culprit sampler: quiet ({s.get('quiet_hz', 0):.0f} Hz) {s.get('quiet_s', 0):.0f} s of "
      f"{ph['measured_s']:.0f} s, {s.get('ticks', 0)} ticks; {ph['xruns']['events']} xruns (this machine's own)")
PY

# The floor: a bare JACK client of the same server (tests/helpers/jack_loopback, one port copied to another), its CPU
# over 20 s: what any client at this period costs here (its wake-ups and futex calls), before watch measures anything.
"${RTJ_HELPERS:-build/tests/helpers}/jack_loopback" "$name" bare 0 2>/dev/null &
lp=$!
sleep 2; bt0=$(awk '{ print $14 + $15 }' "/proc/$lp/stat"); bs0=$(date +%s.%N); sleep 20
bt1=$(awk '{ print $14 + $15 }' "/proc/$lp/stat"); bs1=$(date +%s.%N)
kill -TERM "$lp"; wait "$lp" 2>/dev/null
awk -v a="$bt0" -v b="$bt1" -v s0="$bs0" -v s1="$bs1" -v hz="$hz" 'BEGIN {
    printf "a bare JACK client on the same server (the floor of any client at 64 frames): CPU %.2f %% of one CPU\n", 100 * (b - a) / hz / (s1 - s0) }'
# watch --no-trace and --no-culprits, 30 s each: what the trace and the culprit sampler add
for o in --no-trace --no-culprits; do
    "$RTJ" watch --server "$name" --server-log "$W/jackd.log" --duration 30 $o --output "$W/store" >/dev/null 2>&1 &
    wp=$!
    sleep 5; t0=$(ticks); s0=$(date +%s.%N); sleep 22; t1=$(ticks); s1=$(date +%s.%N); m1=$(kib)
    wait "$wp"
    awk -v a="$t0" -v b="$t1" -v s0="$s0" -v s1="$s1" -v hz="$hz" -v o="$o" -v m="$m1" 'BEGIN {
        printf "watch %s, 30 s: CPU %.2f %% of one CPU, private memory %s KiB\n", o, 100 * (b - a) / hz / (s1 - s0), m }'
done

# With events: the same watch beside a client that stalls 3 ms every 12 cycles (tests/helpers/stall_client, ~60
# xruns a second: a hundred times a bad session's rate), for WATCH_EVENTS_S (60) s: its private memory at 10 s, at
# half time and at the end (flat once the report's 256 listed events and the engine's results for them are held:
# stats/eventkeep.h, culprit_engine_forget), and the report's size.
esecs=${WATCH_EVENTS_S:-60}
H=${RTJ_HELPERS:-build/tests/helpers}
"$H/stall_client" "$name" 3 12 $((esecs * 70)) >"$W/stall.out" 2>&1 &
sp=$!
sleep 0.5
"$RTJ" watch --server "$name" --server-log "$W/jackd.log" --duration "$esecs" --json "$W/e.json" --output "$W/store" \
    >"$W/eout" 2>&1 &
wp=$!
sleep 1; kill -USR1 "$sp" 2>/dev/null   # the client stalls from here
sleep 9; e10=$(kib); sleep $((esecs / 2 - 10)); eh=$(kib); sleep $((esecs - esecs / 2 - 3)); e1=$(kib)
wait "$wp"
kill -TERM "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
python3 - "$W/e.json" "$esecs" "${e10:-?}" "${eh:-?}" "${e1:-?}" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1])); s = float(sys.argv[2])
ph = d['phases'][0]; n = ph['xruns']['events']; size = os.path.getsize(sys.argv[1])
print(f"watch with events, {s:.0f} s beside a client stalling 3 ms every 12 cycles: {n} xruns; private memory "
      f"{sys.argv[3]} KiB at 10 s, {sys.argv[4]} KiB at {s / 2:.0f} s, {sys.argv[5]} KiB at {s - 3:.0f} s; report "
      f"{size / 1024:.0f} KiB ({ph['events_summary']['listed']} listed, {ph['events_summary']['summarised']} summed "
      f"in {len(ph['events_summary']['per_minute'])} minutes: the listed stay at most 256, a minute adds one line)")
PY
