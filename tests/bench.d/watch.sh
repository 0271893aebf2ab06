#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 25 figures: what `rtjitter watch` costs beside a session on a private jackd (64 frames): its CPU share over
# the run (utime + stime from /proc/PID/stat against the wall time) and its private memory (Private_Dirty of
# smaps_rollup) early and at the end, to show it stays flat. WATCH_BENCH_S (60; the 10 minutes: 600) sets
# the run. Prints figures, checks nothing.
set -u
secs=${WATCH_BENCH_S:-60}
W=$(mktemp -d); name="rtjbench-watch-$$"
jackd -n "$name" -d dummy -r 48000 -p 64 >"$W/jackd.log" 2>&1 &
jp=$!
trap 'kill -TERM "$jp" 2>/dev/null; wait "$jp" 2>/dev/null; rm -rf "$W"' EXIT
for i in $(seq 50); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break; sleep 0.1; done
"$RTJ" watch --server "$name" --server-log "$W/jackd.log" --duration "$secs" --output "$W/store" >"$W/out" 2>&1 &
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
