#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The idle trap (issue 19 item 5), measured: wake-up latency at rest with and without /dev/cpu_dma_latency held at
# 0, by rtjitter (timer and JACK backends) and by cyclictest, the reference tool, in turn on a quiet machine.
# cyclictest holds the file by default (--laptop lets it go); rtjitter's timer backend too (--no-dma-latency lets it
# go), its other backends only with --dma-latency. Needs root (the file is root's), rt-tests and jackd2.
#
# usage: tests/experiments/idle_trap.sh [SECS]    (from the top of the tree, after make; default 10 s a run)
# Prints one line a run: "TOOL HOLD p50 p99 max" in µs, and writes them to RESULT (default
# tests/experiments/idle_trap-result.txt).
set -u
cd "$(dirname "$0")/../.." || exit 2
SECS=${1:-10}
RTJ=${RTJ:-./rtjitter}
RESULT=${RESULT:-tests/experiments/idle_trap-result.txt}
[ "$(id -u)" = 0 ] || { echo "idle_trap: needs root (/dev/cpu_dma_latency)" >&2; exit 2; }
command -v cyclictest >/dev/null || { echo "idle_trap: needs cyclictest (rt-tests)" >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-idle.XXXXXX")
name=rtjt-idle-$$
jackd -n "$name" -R -P 70 -d dummy -r 48000 -p 64 >"$out/jackd.log" 2>&1 &
jpid=$!
trap 'kill "$jpid" 2>/dev/null; wait "$jpid" 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 50); do jack_wait -s "$name" -c 2>/dev/null | grep -q '^running' && break; sleep 0.1; done

# cyclictest: one thread on CPU 1 at FIFO 95, 1333 µs (a 64-frame period at 48 kHz), histogram to 10 ms
cyc() { # NAME ARGS...
    local n=$1; shift
    cyclictest -q -m -t1 -a1 -p95 -i1333 -D"$SECS" -h10000 "$@" >"$out/$n.hist" 2>/dev/null
    python3 - "$out/$n.hist" "$n" <<'PY'
import sys
h = {}
for l in open(sys.argv[1]):
    if l[0].isdigit():
        a = l.split(); h[int(a[0])] = int(a[1])
n = sum(h.values()); acc = 0; q = {}
for us in sorted(h):
    acc += h[us]
    for p in (0.5, 0.99):
        if p not in q and acc >= p * n: q[p] = us
print("%-26s p50 %6d p99 %6d max %6d (%d cycles)" % (sys.argv[2], q.get(0.5, -1), q.get(0.99, -1), max(k for k in h if h[k]) if n else -1, n))
PY
}
rtj() { # NAME ARGS...
    local n=$1; shift
    "$RTJ" run --loads none --warmup 1 --duration "$SECS" --quiet --json "$out/$n.json" "$@" >/dev/null 2>&1
    python3 - "$out/$n.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d['phases'][0]; w = p['wakeup_us']
print("%-26s p50 %6.0f p99 %6.0f max %6.0f (%d cycles; %s)" % (sys.argv[2], w['p50'], w['p99'], w['max'], p['cycles'], d['audio'].get('cpu_dma_latency')))
PY
}
{
    echo "# idle_trap: $SECS s a run at rest, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r),"
    echo "# cpuidle driver $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none), load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)"
    cyc "cyclictest held" 
    cyc "cyclictest --laptop" --laptop
    rtj "timer held" --backend timer --cpus 1 --period 64
    rtj "timer --no-dma-latency" --backend timer --cpus 1 --period 64 --no-dma-latency
    rtj "jack --dma-latency" --server "$name" --dma-latency
    rtj "jack (not held)" --server "$name"
} | tee "$RESULT"
