#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: plain (watch sessions on a private PipeWire beside a stalling client and canaries)
# rtjitter watch --backend pipewire after a quantum change and across a restarted PipeWire (issue 33 item 3, issue
# 34 item 4), on a private headless PipeWire with its own XDG_RUNTIME_DIR. Checked against observers the code does
# not produce:
# - a client of the test's own (pw-jack stall_client, its own log on CLOCK_MONOTONIC) stalls 20 ms three times at
#   256 frames, then the test forces 512 (pw-metadata, read back): watch's line "buffer changed: 256 -> 512", its
#   summary's size now (512) and its xruns by buffer (at 256 no fewer than the stalls the client logged before the
#   change, and as many as the "began" lines before the change line; the sum all of them); the live page's heading
#   (--html, rewritten while watching) says 512, not the size at start; the report's advice of a larger buffer
#   doubles the size it failed at (512, "twice the 256 frames it failed at"), never the one in force at the end;
# - PipeWire stopped (SIGTERM) and started again with the same runtime dir: watch says it waits and that it is
#   back, our node is in the new graph (pw-cli ls Node), and the session runs on to its --duration (exit 0);
# - with --exit-with-server, PipeWire stopped: exit 3 within 5 s, one line saying the session ended, the report
#   incomplete with the reason.
. "$(dirname "$0")/../lib.sh"

for c in pipewire pw-jack pw-metadata pw-cli; do
    command -v "$c" >/dev/null || { ok "# SKIP $c is not installed"; exit 0; }
done
PW=
SPID=
stop_pw() {
    [ -n "$SPID" ] && { kill -TERM "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; }
    [ -n "$PW" ] && { kill -TERM "$PW" 2>/dev/null; wait "$PW" 2>/dev/null; }
    cleanup_lib
}
trap stop_pw EXIT
export XDG_RUNTIME_DIR="$WORK/pwauto-runtime"
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
unset PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS PIPEWIRE_QUANTUM
start_pw() {
    pipewire >"$WORK/pw-$1.log" 2>&1 &
    PW=$!
    for i in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && return 0; sleep 0.1; done
    return 1
}
stop_pw_now() { kill -TERM "$PW"; wait "$PW" 2>/dev/null; PW=; }
force() { pw-metadata -n settings 0 clock.force-quantum "$1" >/dev/null; }
mono() { python3 -c 'import time; print("%.6f" % time.monotonic())'; }

# ---- a quantum change after three stalls ----
start_pw 1
check "private pipewire is up" [ $? -eq 0 ]
force 256
sleep 0.3
STALL_CLOCK=mono pw-jack -p 256 "$RTJ_HELPERS/stall_client" default 20 30 3 >"$WORK/stall.out" 2>"$WORK/stall.err" &
SPID=$!
for i in $(seq 50); do grep -q ready "$WORK/stall.err" && break; sleep 0.1; done
canaries 85 18
"$RTJ" watch --backend pipewire --duration 14 --json "$WORK/q.json" --html "$WORK/q.html" >"$WORK/q.out" \
    2>"$WORK/q.err" &
wpid=$!
for i in $(seq 100); do grep -q "^watching " "$WORK/q.out" && break; sleep 0.1; done   # its cycles run
sleep 0.5
kill -USR1 "$SPID"
sleep 1.5
t_change=$(mono)
force 512
seen=$(pw-metadata -n settings 0 clock.force-quantum 2>&1 | grep -o "value:'[0-9]*'")
# the live page is rewritten every 5 s: its heading after the change, read while watch still runs
for i in $(seq 100); do
    cp "$WORK/q.html" "$WORK/q-live.html" 2>/dev/null
    grep -q "512 frames" "$WORK/q-live.html" 2>/dev/null && break
    kill -0 "$wpid" 2>/dev/null || break
    sleep 0.1
done
wait "$wpid"
rc=$?
for i in $(seq 30); do grep -q '^stalls' "$WORK/stall.out" && break; sleep 0.1; done
kill -TERM "$SPID"; wait "$SPID"; SPID=
canaries_stop
sed 's/^/# watch: /' "$WORK/q.out" | cut -c1-120
check "the quantum forced to 512 is in force by pw-metadata ($seen)" [ "$seen" = "value:'512'" ]
check "watch exits 0 (rc $rc: $(head -1 "$WORK/q.err"))" [ "$rc" -eq 0 ]
check "watch says the buffer changed from 256 to 512 frames" \
    grep -Eq "^[0-9:.]+  buffer changed: 256 -> 512 frames @ 48000 Hz \(10.67 ms\)$" "$WORK/q.out"
check "the summary says the size now is 512 frames" \
    grep -q "^  buffer: now 512 frames @ 48000 Hz (10.67 ms), after 1 change$" "$WORK/q.out"
# the stall client's own log: its stalls before the change
before=$(python3 -c "
import sys
t = open(sys.argv[1]).read().split(); t = [float(x) for x in t[t.index('stall_times') + 1:t.index('xrun_times')]]
print(sum(1 for a in t[0::2] if a < float(sys.argv[2])))" "$WORK/stall.out" "$t_change")
read -r n256 n512 < <(sed -n 's/^  xruns by buffer: \([0-9]*\) at 256, \([0-9]*\) at 512$/\1 \2/p' "$WORK/q.out")
began=$(grep -c "^[0-9:.]*  xrun [0-9]* began$" "$WORK/q.out")
began_before=$(sed '/buffer changed:/q' "$WORK/q.out" | grep -c "^[0-9:.]*  xrun [0-9]* began$")
check "xruns by buffer: at 256 no fewer than the $before stalls the client logged before the change, as many as the began lines before the change line ($began_before), all $began in all (got ${n256:-?} at 256, ${n512:-?} at 512)" \
    holds '[ -n "$n256" ] && [ "$before" -eq 3 ] && [ "$n256" -ge 3 ] && [ "$n256" -eq "$began_before" ] && [ $((n256 + n512)) -eq "$began" ]'
check "the live page's heading says the size in force after the change (512), not the one at start" \
    grep -q "watching pipewire server pipewire-0, 512 frames @ 48000 Hz (was 256 @ 48000)" "$WORK/q-live.html"
setting=$(json "$WORK/q.json" "d['verdict']['setting']")
check "the report's verdict names the size before the change too ($setting)" \
    [ "$setting" = "512 frames at 48 kHz (10.67 ms per period; before a buffer change: 256)" ]
adv=$(json "$WORK/q.json" "' | '.join(a for a in d['verdict']['advice'] if 'larger buffer' in a)")
# (xruns at 512 too, a machine slow enough to drop at that size as well, e.g. under ASan: then 1024 is right, and so
# is 512 while those xruns are the 256-frame segment's in the report: watch counts an xrun under the size in force
# when it printed its line, up to 0.5 s after it began)
if [ "${n512:-0}" -eq 0 ]; then
    check "the report's advice of a larger buffer doubles the size it failed at, 256 ($adv)" \
        holds '[[ "$adv" == *"512 frames at 48000 Hz is 10.67 ms per period (twice the 256 frames it failed at)"* ]] && [[ "$adv" != *1024* ]]'
else
    check "xruns at 512 as well ($n512): the report's advice of a larger buffer doubles a size that failed ($adv)" \
        holds '[[ "$adv" == *"1024 frames at 48000 Hz is 21.33 ms per period"* ]] || [[ "$adv" == *"(twice the 256 frames it failed at)"* ]]'
fi

# ---- PipeWire restarted with the same runtime dir: the session goes on ----
t0=$(date +%s.%N)
"$RTJ" watch --backend pipewire --duration 12 --json "$WORK/r.json" >"$WORK/r.out" 2>"$WORK/r.err" &
wpid=$!
sleep 2
stop_pw_now
sleep 2
start_pw 2
check "pipewire is up again" [ $? -eq 0 ]
sleep 2.5
pw-cli ls Node >"$WORK/r.seen" 2>&1
wait "$wpid"
rc=$?
dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
sed 's/^/# restart err: /' "$WORK/r.err"
check "restarted PipeWire: watch runs on to its --duration across both lives (exit 0 in $dt s; got $rc)" \
    holds '[ "$rc" = 0 ] && awk -v d="$dt" "BEGIN { exit !(d > 10 && d < 18) }"'
check "restarted PipeWire: stderr says the first life ended, that it waits, that PipeWire is back" \
    holds 'grep -q "^rtjitter watch: the session ended: .*PipeWire" "$WORK/r.err" && grep -q "^rtjitter watch: waiting for the default PipeWire to come back" "$WORK/r.err" && grep -q "^rtjitter watch: the default PipeWire is back: watching it again" "$WORK/r.err"'
check "restarted PipeWire: our node is in the new graph (pw-cli ls Node)" grep -q "\"rtjitter-$wpid\"" "$WORK/r.seen"

# ---- --exit-with-server: the session ends with PipeWire ----
"$RTJ" watch --backend pipewire --exit-with-server --json "$WORK/x.json" >"$WORK/x.out" 2>"$WORK/x.err" &
wpid=$!
sleep 2
t0=$(date +%s.%N)
stop_pw_now
for _ in $(seq 100); do kill -0 "$wpid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$wpid" 2>/dev/null && kill -TERM "$wpid"
wait "$wpid"; rc=$?
dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
check "--exit-with-server, PipeWire stopped: exit 3 in $dt s, one line saying the session ended (got $rc: $(head -1 "$WORK/x.err"))" \
    holds '[ "$rc" = 3 ] && awk -v d="$dt" "BEGIN { exit !(d < 5) }" && [ "$(wc -l <"$WORK/x.err")" = 1 ] && grep -q "^rtjitter watch: the session ended: the PipeWire server went away" "$WORK/x.err"'
check "--exit-with-server: the report is incomplete, its reason PipeWire's going" \
    [ "$(json "$WORK/x.json" "d['complete'] is False and 'PipeWire' in d['incomplete_reason']")" = True ]
