#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One stall, one event (issue 19 item 1): the whole matrix. A client stalls its callback STALL ms, five times, about a
# second apart, upstream of rtjitter (its output linked to rtjitter's input, so both run in one graph and rtjitter
# after it), on a private jackd (dummy driver) and on a private headless PipeWire (pw-jack), at 64, 128 and 256
# frames / 48 kHz, for stalls of 5, 20 and 50 ms where that is more than a period. Independent observers, none of
# them rtjitter's code:
#   - the stalling client's own log of its stalls (start, end) and of the xrun notifications it got (jackd only:
#     PipeWire sends none for a client's overrun);
#   - tests/helpers/jack_frames, another client fed by the stalling one: every graph cycle it ran, with its frames
#     (a disturbance: frames jumped by more than a period, or the cycle came over 1.5 periods after the last);
#   - a canary per CPU (tests/helpers/canary, SCHED_FIFO 85, a wake-up every 1 ms): the machine's own stalls, as
#     its late wake-ups.
# For each cell: the stalls, rtjitter's xrun events, which events lie in a stall (from a period before its start to
# three periods after its end), whether every stall has exactly one, and every event outside the stalls with what an
# observer saw at that moment (a canary late by half a period or more, the graph observer's disturbance, the
# client's notification) or "unexplained". And what the graph did after each stall (disturbances after its end,
# ms/periods skipped), against as long a window before each stall (the machine's own).
#
# usage: tests/experiments/stall_events.sh    (from the top of the tree, after make test-bins)
#   SERVERS="jackd pipewire" PERIODS="64 128 256" STALLS="5 20 50" STRESS=1 (stress-ng --cpu 2 --io 1 beside)
#   /dev/cpu_dma_latency is held at 0 as `make check` does (IDLE=1: not held).
# Appends to RESULT (default tests/experiments/stall_events-result.txt).
set -u
cd "$(dirname "$0")/../.." || exit 2
RTJ=${RTJ:-$PWD/rtjitter}
H=$PWD/${BUILD:-build}/tests/helpers
RESULT=${RESULT:-tests/experiments/stall_events-result.txt}
out=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-stall.XXXXXX")
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 3' INT TERM
export JACK_NO_START_SERVER=1
if [ "${IDLE:-0}" != 1 ]; then
    bash -c 'exec 3>/dev/cpu_dma_latency && printf 0 >&3 && exec setpriv --pdeathsig KILL sleep infinity' &
    PIDS+=($!)
fi
if [ "${STRESS:-0}" = 1 ]; then
    stress-ng --cpu 2 --io 1 --timeout 3600 >/dev/null 2>&1 &
    PIDS+=($!)
fi

start_pw() {
    export XDG_RUNTIME_DIR="$out/pw-runtime"
    mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
    unset PIPEWIRE_REMOTE DBUS_SESSION_BUS_ADDRESS
    pipewire >"$out/pw.log" 2>&1 &
    PW=$!; PIDS+=("$PW")
    for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break; sleep 0.1; done
}

one() { # SERVER PERIOD STALL_MS
    local srv=$1 per=$2 ms=$3 name=rtjt-stx-$$-$2-$3 jp= fp sp rp w=() c cp=()
    rm -f "$out"/canary-*.log
    if [ "$srv" = jackd ]; then
        jackd -n "$name" -R -P 70 -d dummy -r 48000 -p "$per" >"$out/jackd.log" 2>&1 &
        jp=$!; PIDS+=("$jp")
        for _ in $(seq 50); do jack_wait -s "$name" -c 2>/dev/null | grep -q '^running' && break; sleep 0.1; done
        w=(env); export STALL_CLOCK=raw
    else
        w=(pw-jack -p "$per"); name=default; export STALL_CLOCK=mono
    fi
    for c in $(seq 0 $(($(nproc) - 1))); do
        "$H/canary" "$c" 85 1000 30 1000 >"$out/canary-$c.log" 2>/dev/null &
        cp+=($!)
    done
    "${w[@]}" "$H/jack_frames" "$name" >"$out/frames.log" 2>/dev/null &
    fp=$!
    "${w[@]}" "$RTJ" run --server "$name" --loads none --warmup 2 --duration 6.5 --quiet --json "$out/r.json" >"$out/r.out" 2>&1 &
    rp=$!
    local every=$(( 48000 / per ))             # about a second of cycles
    for _ in $(seq 50); do "${w[@]}" jack_lsp -s "$name" 2>/dev/null | grep -q "rtjitter-$rp:in" && break; sleep 0.1; done
    # the stalling client feeds rtjitter and the observer: both run after it in each cycle
    "${w[@]}" "$H/stall_client" "$name" "$ms" "$every" 5 "rtjitter-$rp:in" >"$out/stall.out" 2>"$out/stall.err" &
    sp=$!
    for _ in $(seq 50); do grep -q ready "$out/stall.err" && break; sleep 0.1; done
    "${w[@]}" jack_connect -s "$name" stall:out frames:in 2>/dev/null
    # every graph change (the stall client's arrival, its links) falls in rtjitter's 2 s warm-up: a new client's
    # first cycles may be notified as an xrun (seen once: an event of one notification 0.28 s into the window)
    sleep 2.2; kill -USR1 "$sp"
    for _ in $(seq 100); do grep -q '^stalls' "$out/stall.out" && break; sleep 0.1; done
    wait "$rp"
    kill -TERM "$sp"; wait "$sp"; kill -TERM "$fp"; wait "$fp"
    kill -TERM "${cp[@]}"; wait "${cp[@]}"
    [ -n "$jp" ] && { kill -TERM "$jp"; wait "$jp"; }
    /usr/bin/python3 - "$out/frames.log" "$out/stall.out" "$out/r.json" "$per" "$ms" "$srv" "$out"/canary-*.log <<'PY'
import json, sys
per, ms, srv = int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
P = per / 48000.0
try:
    d = json.load(open(sys.argv[3]))
except Exception as e:
    print("%-8s %4d frames, stall %2.0f ms: no report (%s)" % (srv, per, ms, e)); sys.exit(0)
ph = d['phases'][0]
raw = d['audio']['clock'] == 'CLOCK_MONOTONIC_RAW'
col = 4 if raw else 1                     # jack_frames: entry on CLOCK_MONOTONIC (1) and _RAW (4)
cyc = [l.split() for l in open(sys.argv[1]) if l.startswith('c ')]
obs = [(float(c[col]), int(c[2]), int(c[3])) for c in cyc]
txt = open(sys.argv[2]).read().split()
st = [float(x) for x in txt[txt.index('stall_times') + 1:txt.index('xrun_times')]]
xr = [float(x) for x in txt[txt.index('xrun_times') + 1:]]
w0, w1 = ph['clock_window_s']
stalls = [(a, b) for a, b in zip(st[0::2], st[1::2]) if w0 < a and b < w1]
dist = []                                 # the graph observer's disturbances: (time, periods skipped)
for i in range(1, len(obs)):
    dt, df = obs[i][0] - obs[i - 1][0], obs[i][1] - obs[i - 1][1]
    if df > obs[i - 1][2] or dt > 1.5 * P:
        dist.append((obs[i][0], round(df / per) - 1))
cf = 3 if raw else 1                      # canary: "late DEADLINE_S LATENESS_US RAW_DEADLINE_S"
late = [(float(l.split()[cf]), float(l.split()[2]) / 1e6) for c in sys.argv[7:] for l in open(c) if l.startswith('late ')]
ev = ph['events']
sys.path.insert(0, 'tests/helpers')
from stall_events import attribute       # the rule make check judges run_xruns and run_pipewire by
per_stall, beyond = attribute(ev, stalls, late, xr, P, dist)
why = {w: sum(x == w for _, x, _ in beyond) for w in ('canary', 'graph', 'notified', 'unexplained')}
lines = ["      event at %.3f s (%.1f ms, %d cycles, %d skipped): %s" % (
    e['t_s'] - w0, e['length_ms'], e['cycles'], e['skipped'],
    "a canary was %.1f ms late then" % (x * 1e3) if w == 'canary' else
    "the graph observer saw %d periods skipped then" % x if w == 'graph' else
    "the stall client was notified of an xrun then" if w == 'notified' else "no observer saw anything then")
    for e, w, x in beyond]
one_each = all(n == 1 for n in per_stall)
if d['audio']['period_frames'] != per:
    print("%-8s %4d frames asked, %d measured: the cell is void" % (srv, per, d['audio']['period_frames'])); sys.exit(0)
print("%-8s %4d frames (%.2f ms), stall %2.0f ms: %d stalls, rtjitter %d events (%d in the stalls: %s), %d beyond them "
      "(a canary saw the machine stall %d, the graph observer a skip %d, the client notified %d, unexplained %d); "
      "gaps %d, notifications %d" % (
    srv, per, P * 1e3, ms, len(stalls), len(ev), len(ev) - len(beyond),
    "one each" if one_each else "per stall %s" % per_stall, len(beyond), why['canary'], why['graph'],
    why['notified'], why['unexplained'], ph['xruns']['detected'], ph['xruns']['reported']))
for l in lines:
    print(l)
for a, b in stalls:
    ds = ["%+.1f/%d" % ((t - b) * 1e3, k) for t, k in dist if a <= t <= b + 0.3]
    nx = sum(1 for t in xr if a - 0.01 <= t <= b + 0.3)
    print("    stall %.1f ms: graph disturbances (ms after its end/periods skipped) %s; %d notifications" % (
        (b - a) * 1e3, ' '.join(ds) or '-', nx))
base = sum(1 for a, b in stalls for t, k in dist if a - 0.5 <= t < a - 0.2)
after = sum(1 for a, b in stalls for t, k in dist if b + 0.005 < t <= b + 0.3)
print("    after the stalls' ends (5 to 300 ms): %d disturbances; in as long before their starts: %d (the baseline)" % (after, base))
PY
}
{
    echo "# stall_events: jack2 $(dpkg-query -W -f '${Version}' jackd2 2>/dev/null), pipewire $(pipewire --version 2>/dev/null | sed -n 's/.*libpipewire \([^ ]*\).*/\1/p' | head -1), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD), cpu_dma_latency $([ "${IDLE:-0}" = 1 ] && echo 'not held' || echo 'held at 0'), $([ "${STRESS:-0}" = 1 ] && echo 'beside stress-ng --cpu 2 --io 1' || echo 'quiet')"
    for srv in ${SERVERS:-jackd pipewire}; do
        [ "$srv" = pipewire ] && start_pw
        for per in ${PERIODS:-64 128 256}; do
            for ms in ${STALLS:-5 20 50}; do
                awk -v m="$ms" -v p="$per" 'BEGIN { exit !(m > p / 48.0) }' || continue
                one "$srv" "$per" "$ms"
            done
        done
        [ "$srv" = pipewire ] && { kill -TERM "$PW"; wait "$PW"; }
    done
} | tee -a "$RESULT"
