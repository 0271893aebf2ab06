#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a JACK graph does after one stall (issue 19 item 1: the rule that makes one stall one event). A client stalls
# its callback STALL ms, five times, about a second apart, on a private jackd (dummy driver, 48 kHz) at 64, 128 and
# 256 frames; another client downstream of it (tests/helpers/jack_frames, fed by it as rtjitter is) logs every cycle
# it runs, on its own, and the stalling
# client logs its stalls and the xrun notifications it gets. For each stall: the graph's disturbances from the stall's
# start until 300 ms after its end (a cycle whose frames jumped by more than one period, or that came more than 1.5
# periods after the one before), each as its time after the stall's end (ms) and the periods it skipped, and the
# stalling client's notifications (ms after the end), and as a baseline the disturbances in as long a window before
# each stall's start (the machine's own). Beside them, rtjitter's own xrun events for the same run.
#
# usage: tests/experiments/stall_events.sh    (from the top of the tree, after make test-bins)
# Writes RESULT (default tests/experiments/stall_events-result.txt).
set -u
cd "$(dirname "$0")/../.." || exit 2
RTJ=${RTJ:-./rtjitter}
H=${BUILD:-build}/tests/helpers
RESULT=${RESULT:-tests/experiments/stall_events-result.txt}
out=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-stall.XXXXXX")
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$out"' EXIT
export JACK_NO_START_SERVER=1

one() { # PERIOD STALL_MS
    local per=$1 ms=$2 name=rtjt-stx-$$-$1-$2 jp fp sp rp
    jackd -n "$name" -R -P 70 -d dummy -r 48000 -p "$per" >"$out/jackd.log" 2>&1 &
    jp=$!; PIDS+=("$jp")
    for _ in $(seq 50); do jack_wait -s "$name" -c 2>/dev/null | grep -q '^running' && break; sleep 0.1; done
    "$H/jack_frames" "$name" >"$out/frames.log" 2>/dev/null &
    fp=$!
    "$RTJ" run --server "$name" --loads none --warmup 0.5 --duration 6.5 --quiet --json "$out/r.json" >/dev/null 2>&1 &
    rp=$!
    local every=$(( 48000 / per ))             # about a second of cycles
    for _ in $(seq 50); do jack_lsp -s "$name" 2>/dev/null | grep -q "^rtjitter-$rp:in" && break; sleep 0.1; done
    # the stalling client feeds rtjitter and the observer: both run after it in each cycle
    "$H/stall_client" "$name" "$ms" "$every" 5 "rtjitter-$rp:in" >"$out/stall.out" 2>"$out/stall.err" &
    sp=$!
    for _ in $(seq 50); do grep -q ready "$out/stall.err" && break; sleep 0.1; done
    jack_connect -s "$name" stall:out frames:in
    sleep 1; kill -USR1 "$sp"
    for _ in $(seq 100); do grep -q '^stalls' "$out/stall.out" && break; sleep 0.1; done
    wait "$rp"
    kill -TERM "$sp"; wait "$sp"; kill -TERM "$fp"; wait "$fp"
    kill -TERM "$jp"; wait "$jp"
    python3 - "$out/frames.log" "$out/stall.out" "$out/r.json" "$per" "$ms" <<'PY'
import json, sys
per, ms = int(sys.argv[4]), float(sys.argv[5])
P = per / 48000.0
cyc = [l.split() for l in open(sys.argv[1]) if l.startswith('c ')]
raw = [(float(c[4]), int(c[2]), int(c[3])) for c in cyc]       # CLOCK_MONOTONIC_RAW, frames, nframes
txt = open(sys.argv[2]).read().split()
st = [float(x) for x in txt[txt.index('stall_times') + 1:txt.index('xrun_times')]]
xr = [float(x) for x in txt[txt.index('xrun_times') + 1:]]
stalls = list(zip(st[0::2], st[1::2]))
dist = []
for i in range(1, len(raw)):
    dt, df = raw[i][0] - raw[i - 1][0], raw[i][1] - raw[i - 1][1]
    if df > raw[i - 1][2] or dt > 1.5 * P:
        dist.append((raw[i][0], round(df / per) - 1, dt))
d = json.load(open(sys.argv[3])); ph = d['phases'][0]
print("%4d frames (%.2f ms), stall %2.0f ms: rtjitter events %d (reported %d, detected %d) for %d stalls" % (
    per, P * 1e3, ms, ph['xruns']['events'], ph['xruns']['reported'], ph['xruns']['detected'], len(stalls)))
for s0, s1 in stalls:
    ds = ["%+.1f ms/%d" % ((t - s1) * 1e3, k) for t, k, _ in dist if s0 <= t <= s1 + 0.3]
    xs = ["%+.1f" % ((t - s1) * 1e3) for t in xr if s0 - 0.01 <= t <= s1 + 0.3]
    print("    stall %.3f+%.1f ms: graph disturbances (ms after its end/periods skipped) %s; notifications %s" % (
        s0 % 1000, (s1 - s0) * 1e3, ' '.join(ds) or '-', ' '.join(xs) or '-'))
# the baseline: the same disturbances in the 300 ms before each stall's start (500 to 200 ms before it), where no
# stall of the client can reach: the machine's own
base = sum(1 for s0, s1 in stalls for t, k, _ in dist if s0 - 0.5 <= t < s0 - 0.2)
after = sum(1 for s0, s1 in stalls for t, k, _ in dist if s1 + 0.005 < t <= s1 + 0.3)
print("    after the stalls' ends (5 to 300 ms): %d disturbances; in as long before their starts: %d (the baseline)" % (after, base))
PY
}
{
    echo "# stall_events: jack2 $(jackd --version 2>/dev/null | sed -n 's/.*version \([^ ]*\).*/\1/p' | head -1), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)"
    for per in ${PERIODS:-64 128 256}; do
        for ms in ${STALLS:-5 20 50}; do
            awk -v m="$ms" -v p="$per" 'BEGIN { exit !(m > p / 48.0) }' || continue
            one "$per" "$ms"
        done
    done
} | tee "$RESULT"
