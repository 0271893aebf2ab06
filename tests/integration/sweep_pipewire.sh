#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtjitter sweep under PipeWire's JACK (pw-jack), against a private headless PipeWire with its own XDG_RUNTIME_DIR.
# The user's own setting is clock.force-quantum 256 (set by the test). (1) The sweep over 64 and 128 frames starts
# no jackd and measures both sizes: the truth in force in each cell is the graph's cycle size an independent JACK
# client of the test saw (tests/helpers/jack_frames: NFRAMES of every cycle in the cell's measured window), and
# what pw-metadata said while the cell ran; after it, pw-metadata (read by the test) says 256 again. (2) SIGTERM
# mid-sweep: exit 3 within 2 s, 256 again. (3) SIGKILL mid-sweep leaves the forced size and the state file; the next
# start (a run) sets 256 back and says so. (4) run with no --period says which quantum it measures, the command
# for another, and that a quantum above 256 is far above a studio's.
. "$(dirname "$0")/../lib.sh"

if ! command -v pipewire >/dev/null || ! command -v pw-jack >/dev/null || ! command -v pw-metadata >/dev/null; then
    ok "# SKIP pipewire, pw-jack and pw-metadata are not installed"
    exit 0
fi
PW=
FPID=
stop_pw() { [ -n "$FPID" ] && kill -TERM "$FPID" 2>/dev/null; [ -n "$PW" ] && { kill -TERM "$PW" 2>/dev/null; wait "$PW" 2>/dev/null; }; cleanup_lib; }
trap stop_pw EXIT
start_pipewire
check "private pipewire is up" [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]

# pw-metadata's own word on a key of the settings object
setting() { timeout 5 pw-metadata -n settings 0 | sed -n "s/.*key:'$1' value:'\([^']*\)'.*/\1/p"; }
wait_setting() { # KEY VALUE: up to 10 s
    local i
    for i in $(seq 100); do [ "$(setting "$1")" = "$2" ] && return 0; sleep 0.1; done
    return 1
}
timeout 5 pw-metadata -n settings 0 clock.force-quantum 256 >/dev/null
check "the user's own setting: clock.force-quantum 256" wait_setting clock.force-quantum 256

# (1) The sweep, with an observer of the graph's cycles beside it and pw-metadata read while it runs.
pw-jack "$RTJ_HELPERS/jack_frames" default >"$WORK/frames.log" 2>"$WORK/frames.err" &
FPID=$!
( while :; do echo "$(date +%s.%N) $(setting clock.force-quantum)"; sleep 0.2; done ) >"$WORK/meta.log" 2>/dev/null &
MPID=$!
sleep 0.5
pw-jack "$RTJ" sweep --periods 64,128 --loads none --duration 1 --warmup 0.3 --measure-all \
    --json "$WORK/s.json" >"$WORK/s.out" 2>"$WORK/s.err"
src=$?
kill -TERM "$MPID"; wait "$MPID" 2>/dev/null
sleep 0.2; kill -TERM "$FPID"; wait "$FPID"; FPID=
sed 's/^/# /' "$WORK/s.err"
check "pw-jack sweep: done (exit 0 or 1: a busy machine may fail a size; got $src), no jackd started" \
    [ "$src" -le 1 -a "$(grep -c 'private JACK server' "$WORK/s.err")" = 0 ]
check "it says on stderr that the whole PipeWire graph runs at each size, and what it sets back (256)" \
    grep -q "whole PipeWire graph.*set back after to clock.force-quantum 256" "$WORK/s.err"
check "both cells measured, at the size asked, by PipeWire's quantum" python3 - "$WORK/s.json" "$WORK/frames.log" "$WORK/meta.log" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cyc = [l.split() for l in open(sys.argv[2]) if l.startswith('c ')]
meta = [l.split() for l in open(sys.argv[3]) if len(l.split()) == 2]
bad = d['audio']['buffer_change'] != 'pipewire_force_quantum'
for c in d['cells']:
    r = json.load(open(c['report']))
    p = [p for p in r['phases'] if p['load'] == 'none'][0]
    w0, w1 = p['clock_window_s']
    # the observer's own cycles inside the cell's measured window: every one of the cell's size
    n = [int(l[3]) for l in cyc if w0 <= float(l[1]) <= w1]
    print('# cell %d: %s; the observer saw %d cycles in its window, sizes %s; the report ran %s frames' %
          (c['period_frames'], c['state'], len(n), sorted(set(n)), p.get('period_frames')))
    bad |= not (c['measured'] and c['state'] in ('safe', 'unsafe') and len(n) > 0.5 * 48000 / c['period_frames']
                and set(n) == {c['period_frames']} and p.get('period_frames') == c['period_frames'])
# pw-metadata while the sweep ran: 256 (before), 64, 128, 256 (after), in this order
seq = [v for _, v in meta]
order = [v for i, v in enumerate(seq) if i == 0 or v != seq[i - 1]]
print('# pw-metadata clock.force-quantum over the sweep:', ' '.join(order))
bad |= not ('64' in order and '128' in order and order.index('64') < order.index('128'))
sys.exit(bad)
PY
check "after the sweep pw-metadata says clock.force-quantum 256 again (got $(setting clock.force-quantum)), force-rate 0 ($(setting clock.force-rate))" \
    [ "$(setting clock.force-quantum) $(setting clock.force-rate)" = "256 0" ]
check "the sweep document says what it set back" \
    [ "$(json "$WORK/s.json" "d['audio']['pipewire']['force_quantum_before'], d['audio']['pipewire']['restored']")" = "256 True" ]
check "no state file is left" [ -z "$(ls -A "$XDG_RUNTIME_DIR/rtjitter" 2>/dev/null)" ]

# (2) SIGTERM once the sweep forced 64: it ends in order and sets 256 back.
pw-jack "$RTJ" sweep --periods 64,128 --loads none --duration 5 --warmup 0.3 --measure-all --quiet \
    --json "$WORK/t.json" >"$WORK/t.out" 2>"$WORK/t.err" &
tpid=$!
wait_setting clock.force-quantum 64; forced=$?
sleep 0.5
t0=$(date +%s.%N); kill -TERM "$tpid"; wait "$tpid"; trc=$?; t1=$(date +%s.%N)
el=$(python3 -c "print(round($t1 - $t0, 2))")
check "SIGTERM mid-sweep (64 forced: $forced): exit 3 (got $trc) within 2 s (${el} s)" \
    python3 -c "import sys; sys.exit(not ($forced == 0 and $trc == 3 and $el < 2))"
check "after SIGTERM pw-metadata says clock.force-quantum 256 (got $(setting clock.force-quantum))" \
    [ "$(setting clock.force-quantum)" = 256 ]

# (3) SIGKILL: nothing runs to set it back; the state file holds 256 and the dead pid; the next start restores it.
pw-jack "$RTJ" sweep --periods 64,128 --loads none --duration 5 --warmup 0.3 --quiet >"$WORK/k.out" 2>&1 &
kpid=$!
wait_setting clock.force-quantum 64; forced=$?
kill -KILL "$kpid"; wait "$kpid" 2>/dev/null
st=$(cat "$XDG_RUNTIME_DIR"/rtjitter/pipewire-quantum.* 2>/dev/null | tr '\n' ' ')
echo "# state file after SIGKILL: $st"
check "SIGKILL mid-sweep leaves 64 forced (got $(setting clock.force-quantum)) and a state file naming 256 and pid $kpid" \
    python3 -c "import sys; sys.exit(not ($forced == 0 and '$(setting clock.force-quantum)' == '64' and 'force-quantum 256 ' in '$st' and 'pid $kpid ' in '$st'))"
pw-jack "$RTJ" run --loads none --duration 0.5 --warmup 0.2 --json "$WORK/n.json" >"$WORK/n.out" 2>"$WORK/n.err"
nrc=$?
sed 's/^/# /' "$WORK/n.err"
check "the next start (a run, exit $nrc) sets clock.force-quantum 256 back (got $(setting clock.force-quantum)) and says so" \
    [ "$(setting clock.force-quantum)" = 256 -a "$(grep -c 'died while it forced the quantum: set back clock.force-quantum 256' "$WORK/n.err")" = 1 ]
check "and removes the state file" [ -z "$(ls -A "$XDG_RUNTIME_DIR/rtjitter" 2>/dev/null)" ]

# (4) run with no --period, at PipeWire's own 1024: which quantum is measured, the command for another, and that
# 1024 is far above a studio's. The size measured is the observer's truth: the report's own period against
# pw-metadata's forced 0 (none) and the 1024 jack_bufsize reports.
timeout 5 pw-metadata -n settings 0 clock.force-quantum 0 >/dev/null
wait_setting clock.force-quantum 0
bs=$(timeout 5 pw-jack jack_bufsize 2>/dev/null | head -1)
pw-jack "$RTJ" run --loads none --duration 0.5 --warmup 0.2 --json "$WORK/q.json" >"$WORK/q.out" 2>"$WORK/q.err"
sed 's/^/# /' "$WORK/q.err"
check "run with no --period measured PipeWire's quantum (jack_bufsize says $bs; the report $(json "$WORK/q.json" "d['audio']['period_frames']"))" \
    [ "$(json "$WORK/q.json" "d['audio']['period_frames']")" = "$bs" ]
check "it says the quantum it measures and the exact command for another" \
    grep -q "PipeWire runs a quantum of $bs frames.*pw-metadata -n settings 0 clock.force-quantum 128" "$WORK/q.err"
check "and, above 256, that it is far above a studio's, in the report's warnings too" \
    python3 -c "import json,sys; d=json.load(open('$WORK/q.json')); sys.exit(not ($bs > 256 and any('far above a studio' in w for w in d['warnings'])))"
