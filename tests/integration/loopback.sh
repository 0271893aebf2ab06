#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --loopback on a private dummy jackd (48 kHz, 256 frames).
# - Round-trip latency through the internal loop client adding N frames (N = 0, 7, 64): jack2 breaks the loop of the
#   graph with one feedback connection, a period later, so the truth is 256 + N frames; jack2's own jack_iodelay,
#   run at the same time through the same loop code (tests/helpers/jack_loop, another client on the same server),
#   must agree within one frame; and rtjitter --loopback OUT:IN through that standalone loop gives the same.
#   No glitch unless the server itself had an xrun there (this VM is shared: a real xrun is a real dropout).
# - Stalls injected by tests/helpers/stall_client (20 ms, known times on CLOCK_MONOTONIC_RAW, jack2's clock): each
#   is one glitch within a period of the stall's end (when the graph ran again), with a WAV read back by libsndfile
#   (tests/helpers/wav_read: frames, rate, channels) whose captured channel holds the jump: the 1 kHz tone of the
#   reference (48 frames a cycle, loopsig.h) stops repeating itself there and only there.
# - Bad port name, impossible connection, --loopback with --backend timer: one line, exit 2.
# - A full disk while writing WAVs (a tiny tmpfs in a private mount namespace; else SKIP): the run goes on, exits 0,
#   and the report says which glitches have no recording and why; nothing is left behind.
. "$(dirname "$0")/../lib.sh"
SRV="rtjt-lpr-$$"
PERIOD=256
LOOP_PIDS=()
cleanup_lpr() {
    local p
    for p in "${LOOP_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    cleanup_lib
    rm -f /dev/shm/jack_sem.*_"$SRV"*
}
trap cleanup_lpr EXIT
start_jackd "$SRV" 48000 "$PERIOD" || { not_ok "jackd starts"; exit 0; }
H=$RTJ_HELPERS

# lat N: rtjitter through its internal loop of N frames, while jack_iodelay measures the standalone loop lpN.
lat() {
    local n=$1 i
    "$H/jack_loop" "$SRV" "lp$n" "$n" 2>"$WORK/lp$n.err" &
    local lp=$!
    LOOP_PIDS+=("$lp")
    for i in $(seq 50); do grep -q ready "$WORK/lp$n.err" && break; sleep 0.1; done
    JACK_DEFAULT_SERVER="$SRV" timeout 3 stdbuf -oL jack_iodelay >"$WORK/iod$n.out" 2>&1 &
    local io=$!
    for i in $(seq 50); do jack_lsp -s "$SRV" 2>/dev/null | grep -q '^jack_delay:in' && break; sleep 0.1; done
    jack_connect -s "$SRV" jack_delay:out "lp$n:in" && jack_connect -s "$SRV" "lp$n:out" jack_delay:in
    "$RTJ" run --server "$SRV" --loads none --duration 1.5 --warmup 0.3 --quiet --loopback "internal:$n" \
        --json "$WORK/lat$n.json" >"$WORK/lat$n.out" 2>&1
    LAT_RC=$?
    wait "$io"
    IOD=$(sed -n 's/^ *\([0-9.]*\) frames .*total roundtrip latency.*/\1/p' "$WORK/iod$n.out" | tail -1)
    IOD=${IOD%.*}
    if [ "$n" = 7 ]; then # OUT:IN through the loop jack_iodelay just measured (now alone on it)
        "$RTJ" run --server "$SRV" --loads none --duration 1.5 --warmup 0.3 --quiet --loopback "lp$n:in:lp$n:out" \
            --json "$WORK/ports.json" >"$WORK/ports.out" 2>&1
        PORTS_RC=$?
    fi
    kill -TERM "$lp"; wait "$lp" 2>/dev/null
}

# glitches not at an xrun of the server's own (a glitch tied to one is a real dropout of this busy machine)
unexplained='sum(1 for g in d["loopback"]["glitches"] if g["xrun"] is None)'
for N in 0 7 64; do
    lat "$N"
    truth=$((PERIOD + N))
    got=$(json "$WORK/lat$N.json" 'd["loopback"]["latency"]["frames"]')
    echo "# N=$N: truth $truth, rtjitter $got, jack_iodelay ${IOD:-none}, glitches $(json "$WORK/lat$N.json" \
        'd["loopback"]["glitch_count"], d["phases"][0]["xruns"]')"
    check "internal:$N: run exits 0 ($LAT_RC)" [ "$LAT_RC" = 0 ]
    check "internal:$N: latency $got frames = period + N = $truth, within one frame" \
        python3 -c "import sys; sys.exit(abs(int('$got') - $truth) > 1)"
    check "internal:$N: jack_iodelay on the same loop code (${IOD:-none}) within one frame of rtjitter ($got)" \
        python3 -c "import sys; sys.exit(abs(int('${IOD:-999999}') - int('$got')) > 1)"
    check "internal:$N: no glitch but at a server xrun ($(json "$WORK/lat$N.json" "$unexplained") unexplained)" \
        [ "$(json "$WORK/lat$N.json" "$unexplained")" = 0 ]
    check "internal:$N: the report names the loop" \
        [ "$(json "$WORK/lat$N.json" 'd["audio"]["loopback"]["mode"], d["audio"]["loopback"]["loop_delay_frames"]')" = "internal $N" ]
done
check "OUT:IN through the standalone loop: exits 0 ($PORTS_RC)" [ "$PORTS_RC" = 0 ]
check "OUT:IN: latency $(json "$WORK/ports.json" 'd["loopback"]["latency"]["frames"]') = $((PERIOD + 7)), within one frame" \
    [ "$(json "$WORK/ports.json" 'abs(d["loopback"]["latency"]["frames"] - '$((PERIOD + 7))') <= 1')" = True ]
check "OUT:IN: the ports are named and connected, no glitch but at a server xrun" \
    [ "$(json "$WORK/ports.json" 'd["audio"]["loopback"]["out"] == "lp7:in" and d["audio"]["loopback"]["in"] == "lp7:out" and d["audio"]["loopback"]["connected"] and '"$unexplained"' == 0')" = True ]

# --- bad input: one line, exit 2 ---
one_line_exit2() { [ "$1" = 2 ] && [ "$(wc -l <"$WORK/bad.err")" = 1 ] && grep -q -- "$2" "$WORK/bad.err"; }
bad() { # DESC PATTERN ARGS...
    local desc=$1 pat=$2; shift 2
    "$RTJ" run --loads none --duration 1 --warmup 0 --quiet "$@" >"$WORK/bad.out" 2>"$WORK/bad.err"
    local rc=$?
    echo "# $desc: rc $rc: $(cat "$WORK/bad.err")"
    check "$desc: exit 2, one line naming it" one_line_exit2 "$rc" "$pat"
}
bad "a port that does not exist" "nosuch:out" --server "$SRV" --loopback system:playback_1:nosuch:out
bad "a capture port as OUT (impossible connection)" "system:capture_1" --server "$SRV" \
    --loopback system:capture_1:system:capture_2
bad "not a port pair" "--loopback" --server "$SRV" --loopback nocolon
bad "internal:N with a bad N" "internal:x" --server "$SRV" --loopback internal:x
bad "--loopback with --backend timer" "--loopback is not an option of --backend timer" --backend timer \
    --loopback internal
bad "--record without --loopback" "--record needs --loopback" --server "$SRV" --record "$WORK/x.wav"
check "no glitch folder left by the refused runs" [ -z "$(find "$WORK" -name '.rtjitter-glitches-*')" ]
