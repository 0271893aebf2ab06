#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Culprits (issue 24) and watch (issue 25) under PipeWire's JACK (pw-jack) on a private headless PipeWire (its own
# XDG_RUNTIME_DIR), the stack Ubuntu Studio ships. A client stalling 20 ms every 100 cycles, 4 times, upstream of
# rtjitter at 256 frames (tests/helpers/stall_client, logging its stalls on CLOCK_MONOTONIC, PipeWire's clock):
# - rtjitter run --no-trace (a normal user's path): the top culprit of every event in a stall is the client
#   'stall', observed (PipeWire's profiler, read through libpipewire), nothing outside the stalls names it, and
#   the report's sources list the profiler as on;
# - rtjitter watch: a begun line within 150 ms of each stall's start, and an end line naming 'stall'.
. "$(dirname "$0")/../lib.sh"

if ! command -v pipewire >/dev/null || ! command -v pw-jack >/dev/null; then
    ok "# SKIP pipewire and pw-jack are not installed"
    exit 0
fi
PW=
stop_pw() { [ -n "$PW" ] && { kill -TERM "$PW" 2>/dev/null; wait "$PW" 2>/dev/null; }; cleanup_lib; }
trap stop_pw EXIT
start_pipewire
check "private pipewire is up" [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]
HELP_PY=$(cd "$(dirname "$0")/../helpers" && pwd)

# stalled CMD...: CMD (an rtjitter run or watch, its JSON $WORK/$name.json) with the stall client linked upstream of
# it, 4 stalls after its warm-up; the stall client's log in $WORK/$name.stall
stalled() {
    local name=$1 rpid spid i
    shift
    pw-jack -p 256 "$@" --json "$WORK/$name.json" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    rpid=$!
    for i in $(seq 50); do pw-jack jack_lsp 2>/dev/null | grep -q "rtjitter-$rpid:in" && break; sleep 0.1; done
    STALL_CLOCK=mono pw-jack -p 256 "$RTJ_HELPERS/stall_client" default 20 100 4 "rtjitter-$rpid:in" \
        >"$WORK/$name.stall" 2>"$WORK/$name.stall.err" &
    spid=$!
    for i in $(seq 50); do grep -q ready "$WORK/$name.stall.err" && break; sleep 0.1; done
    sleep 1.5
    kill -USR1 "$spid"
    wait "$rpid"; rc=$?
    kill -TERM "$spid"; wait "$spid"
}

stalled run "$RTJ" run --loads none --warmup 2 --duration 6 --no-trace --quiet
check "the run beside the stalling client exits 0 (got $rc: $(head -c 300 "$WORK/run.err"))" [ "$rc" = 0 ]
sed -n 's/^stall_times //p' "$WORK/run.stall" | tr ' ' '\n' | paste -d' ' - - >"$WORK/stalls.txt"
# the client's own late cycles beyond its stalls (a busy machine preempts it: PipeWire's profiler then sees it not
# finish, truly): naming it then is not naming it outside its misbehaviour
sed -n 's/^late_times //p' "$WORK/run.stall" | tr ' ' '\n' | paste -d' ' - - >"$WORK/late.txt"
echo "# the stall client's own late cycles: $(wc -l <"$WORK/late.txt")"
python3 "$HELP_PY/culprit_check.py" "$WORK/run.json" "$WORK/stalls.txt" client name=stall --excuse "$WORK/late.txt" >"$WORK/c.txt" 2>&1
sed 's/^/# run: /' "$WORK/c.txt"
v() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
check "the 4 stalls fell in the measured window" [ "$(v truths_inside "$WORK/c.txt")" = 4 ]
check "each stall's event names the client 'stall' on top: $(v hit "$WORK/c.txt") of 4" [ "$(v hit "$WORK/c.txt")" = 4 ]
check "nothing outside the stalls names it ($(v named_outside "$WORK/c.txt"))" [ "$(v named_outside "$WORK/c.txt")" = 0 ]
src=$(json "$WORK/run.json" "[s['state'] for s in d['culprits']['sampler']['sources'] if s['name'] == 'PipeWire profiler']")
b=$(json "$WORK/run.json" "sorted({h['culprits'][0]['basis'] for p in d['phases'] for h in p['events'] if h.get('culprits') and h['culprits'][0]['name'] == 'stall'})")
check "PipeWire's profiler is a source (got $src), and the client is observed (got $b)" \
    [ "$src" = "['on']" -a "$b" = "['observed']" ]

stalled watch "$RTJ" watch --duration 7 --wide --output "$WORK/store"
sed 's/^/# watch: /' "$WORK/watch.out"
check "watch under pw-jack exits 0 (got $rc: $(head -c 300 "$WORK/watch.err"))" [ "$rc" = 0 ]
python3 "$HELP_PY/watch_check.py" "$WORK/watch.out" "$WORK/watch.stall" mono "$WORK/watch.json" >"$WORK/wc.txt" 2>&1
sed 's/^/# /' "$WORK/wc.txt"
check "watch: each stall has a begun line within 150 ms of its start: $(v begun_near "$WORK/wc.txt") of $(v stalls "$WORK/wc.txt")" \
    [ "$(v stalls "$WORK/wc.txt")" = 4 -a "$(v begun_near "$WORK/wc.txt")" = 4 ]
check "watch: each ended line names 'stall': $(v ended_named "$WORK/wc.txt") of 4" [ "$(v ended_named "$WORK/wc.txt")" = 4 ]
