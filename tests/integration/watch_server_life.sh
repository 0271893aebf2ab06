#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtjitter watch and the server's life (issue 34 item 4), on a private jackd (256 frames) whose end the test makes:
# - the server killed (SIGKILL) or stopped (SIGTERM) under a session: watch exits 3 within 5 s with one line on
#   stderr saying the session ended and why (never only "report: PATH"), its report incomplete with that reason;
# - --server-log a FIFO, /dev/zero (refused with one line, exit 2) and a file another process keeps growing (read
#   a bounded amount a turn: the session ends at its --duration): none hangs (each under `timeout`);
# - Ctrl-C (SIGINT) ends a session within 2 s, measured from the signal to the exit (2.5 s accepted only when the
#   machine was busy: its load average above its CPUs; the figure is printed).
. "$(dirname "$0")/../lib.sh"

srv=$(server_name watchon)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }

# --- the server killed, then stopped ---
for how in KILL TERM; do
    start_jackd "$srv" 48000 256 || { not_ok "jackd starts"; exit 0; }
    "$RTJ" watch --server "$srv" --json "$WORK/$how.json" --output "$WORK/store" >"$WORK/$how.out" \
        2>"$WORK/$how.err" &
    wpid=$!
    sleep 2
    t0=$(date +%s.%N)
    [ "$how" = KILL ] && jack_kill_begin
    kill -"$how" "$JACKD_PID"
    for _ in $(seq 100); do kill -0 "$wpid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$wpid" 2>/dev/null && kill -TERM "$wpid"
    wait "$wpid"; rc=$?
    dt=$(elapsed "$t0")
    stop_jackd "$JACKD_PID"
    [ "$how" = KILL ] && jack_kill_end
    sed "s/^/# $how err: /" "$WORK/$how.err"
    line_ok() {
        [ "$(err_lines "$WORK/$how.err")" = 1 ] &&
        grep -Ev "$JACK_DB_NOISE" "$WORK/$how.err" | grep -Eq '^rtjitter watch: the session ended: .*(server|cycle).*incomplete'
    }
    check "server SIG$how: watch exits 3 in ${dt} s (got $rc)" holds \
        '[ "$rc" = 3 ] && awk -v d="$dt" "BEGIN { exit !(d < 5) }"'
    check "server SIG$how: one line on stderr says the session ended and why" line_ok
    check "server SIG$how: the report is incomplete, its reason the server's" \
        python3 -c "
import json, sys; d = json.load(open('$WORK/$how.json'))
sys.exit(not (d['complete'] is False and ('server' in d['incomplete_reason'] or 'cycle' in d['incomplete_reason'])))"
done

start_jackd "$srv" 48000 256 || { not_ok "jackd starts"; exit 0; }
# --- --server-log: a FIFO, /dev/zero, a growing file ---
mkfifo "$WORK/log.fifo"
for f in "$WORK/log.fifo" /dev/zero; do
    t0=$(date +%s.%N)
    timeout 10 "$RTJ" watch --server "$srv" --server-log "$f" --duration 2 --output "$WORK/store" >"$WORK/f.out" \
        2>"$WORK/f.err"
    rc=$?
    dt=$(elapsed "$t0")
    check "--server-log $f: refused at once (exit 2, one line naming it, ${dt} s; got $rc: $(cat "$WORK/f.err"))" \
        holds '[ "$rc" = 2 ] && [ "$(wc -l <"$WORK/f.err")" = 1 ] && grep -q "not a regular file" "$WORK/f.err"'
done
# a log another process keeps growing: ~2 MB/s of jackd-like lines for the session's 3 s and after (bounded: 12 MB)
python3 -c "
import sys, time
f = open(sys.argv[1], 'a', buffering=1 << 16)
line = 'Jack: JackEngine::XRun: client = grow was not finished, state = Triggered\n' * 256
for _ in range(600):
    f.write(line); f.flush(); time.sleep(0.01)
" "$WORK/grow.log" &
gpid=$!
sleep 0.3
t0=$(date +%s.%N)
timeout 20 "$RTJ" watch --server "$srv" --server-log "$WORK/grow.log" --duration 3 --json "$WORK/g.json" \
    --output "$WORK/store" >"$WORK/g.out" 2>"$WORK/g.err"
rc=$?
dt=$(elapsed "$t0")
kill -TERM "$gpid" 2>/dev/null; wait "$gpid" 2>/dev/null
echo "# the growing log: $(stat -c %s "$WORK/grow.log") bytes"
check "--server-log a growing file: the session ends at its 3 s (exit 0 in ${dt} s; got $rc: $(head -c 200 "$WORK/g.err"))" \
    holds '[ "$rc" = 0 ] && awk -v d="$dt" "BEGIN { exit !(d < 10) }"'

# --- Ctrl-C within 2 s ---
"$RTJ" watch --server "$srv" --json "$WORK/i.json" --output "$WORK/store" >"$WORK/i.out" 2>"$WORK/i.err" &
wpid=$!
sleep 2.5
load=$(cut -d' ' -f1 /proc/loadavg)
t0=$(date +%s.%N)
kill -INT "$wpid"
wait "$wpid"; rc=$?
dt=$(elapsed "$t0")
echo "# SIGINT to exit: ${dt} s (load average $load on $(nproc) CPUs)"
int_ok() {
    awk -v d="$dt" 'BEGIN { exit !(d <= 2.0) }' ||
        awk -v d="$dt" -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(d <= 2.5 && l > n) }'
}
check "SIGINT ends the session in ${dt} s (2 s; 2.5 s only on a busy machine), exit 0 (got $rc)" \
    holds '[ "$rc" = 0 ] && int_ok'
check "its report is written" [ -s "$WORK/i.json" ]

stop_jackd "$JACKD_PID"
