#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtjitter watch and the server's life (issue 34 item 4), on a private jackd (256 frames) whose end the test makes:
# - the server killed (SIGKILL) or stopped (SIGTERM) under a session with --exit-with-server: watch exits 3 within
#   5 s with one line on stderr saying the session ended and why (never only "report: PATH"), its report incomplete
#   with that reason;
# - by default the session waits for a server of that name to come back: stopped, restarted 2 s later, with a stall
#   client of its own (20 ms, twice) in its second life: stderr says the first life ended, that it waits, that the
#   server is back; the numbers go on (each once), each of the client's stalls has its began line within 150 ms
#   (tests/helpers/watch_check.py against the second life's report and the client's log), the numbers go on from a
#   first client's stall in the first life, the last summary counts both lives, --duration counts both lives (exit 0
#   at ~17 s), the store holds both lives' reports (the first incomplete, the second complete), and --json FILE the whole
#   session: both lives' phases as the store's reports have them, numbered by life;
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
    "$RTJ" watch --server "$srv" --exit-with-server --json "$WORK/$how.json" --output "$WORK/store" >"$WORK/$how.out" \
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

# --- the server stopped and restarted under the same name: the session goes on ---
start_jackd "$srv" 48000 256 || { not_ok "jackd starts"; exit 0; }
t0=$(date +%s.%N)
"$RTJ" watch --server "$srv" --duration 17 --json "$WORK/r.json" --output "$WORK/rstore" >"$WORK/r.out" \
    2>"$WORK/r.err" &
wpid=$!
"$RTJ_HELPERS/stall_client" "$srv" 20 281 1 >"$WORK/rstall1.out" 2>&1 &
spid=$!
sleep 1; kill -USR1 "$spid"   # one stall in the first life
sleep 2
stop_jackd "$JACKD_PID"
kill -TERM "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
sleep 2
start_jackd "$srv" 48000 256 || { not_ok "jackd starts again"; kill -TERM "$wpid"; wait "$wpid"; exit 0; }
"$RTJ_HELPERS/stall_client" "$srv" 20 281 2 >"$WORK/rstall.out" 2>&1 &
spid=$!
sleep 2.5; kill -USR1 "$spid"   # watch is back within about a second of the server; its stalls from here
wait "$wpid"; rc=$?
dt=$(elapsed "$t0")
kill -TERM "$spid"; wait "$spid"
sed 's/^/# restart err: /' "$WORK/r.err"
sed 's/^/# restart out: /' "$WORK/r.out" | cut -c1-120
check "restarted server: watch goes on to its --duration across both lives (exit 0 in ${dt} s; got $rc)" \
    holds '[ "$rc" = 0 ] && awk -v d="$dt" "BEGIN { exit !(d > 15 && d < 23) }"'
check "restarted server: stderr says the first life ended, that it waits, that the server is back" \
    holds 'grep -q "^rtjitter watch: the session ended: " "$WORK/r.err" && grep -q "^rtjitter watch: waiting for JACK server .$srv. to come back" "$WORK/r.err" &&
           grep -q "^rtjitter watch: JACK server .$srv. is back" "$WORK/r.err"'
python3 "$RTJ_TOP/tests/helpers/watch_check.py" "$WORK/r.out" "$WORK/rstall.out" raw "$WORK/r.json" >"$WORK/rc.txt" 2>&1
sed 's/^/# /' "$WORK/rc.txt"
rv() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/rc.txt"; }
nums=$(sed -n 's/^[^ ]*  xrun \([0-9]*\) began$/\1/p' "$WORK/r.out" | tr '\n' ' ')
check "restarted server: the client's 2 stalls in the second life each have a began line within 150 ms ($(rv begun_near) of $(rv stalls)), the numbers each once ($nums)" \
    holds '[ "$(rv stalls)" = 2 ] && [ "$(rv begun_near)" = 2 ] && [ "$(echo $nums | tr " " "\n" | sort | uniq -d | wc -l)" = 0 ]'
nb=$(echo $nums | wc -w)
summ=$(grep '^your session: ' "$WORK/r.out" | tail -1)
check "restarted server: the numbers go on from the first life (its stall is 1; $nb began in all) and the last summary counts both lives ($summ)" \
    holds 'echo "$summ" | grep -Eq "^your session: 1[5-9] s, $nb xruns?" && [ "$nb" -ge 3 ]'
reps=$(find "$WORK/rstore" -name '*-watch.json' | sort)
check "restarted server: the store holds both lives' reports, the first incomplete, the second complete" \
    python3 -c "
import json, sys
r = [json.load(open(f)) for f in sys.argv[1:]]
sys.exit(not (len(r) == 2 and r[0]['complete'] is False and r[1]['complete'] is True))" $reps
# --json FILE holds the whole session, not the last life only: the store's two reports (each life's own, written as
# it ended) are its phases, in order, each with its life; it starts when the first did and counts both lives' events
check "restarted server: --json holds both lives, a phase each as the store's own reports have it ($(json "$WORK/r.json" "(d.get('lives'), [p.get('life') for p in d['phases']], [len(p.get('events', [])) for p in d['phases']])"))" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
r = [json.load(open(f)) for f in sys.argv[2:]]
ph = s['phases']
same = all({k: v for k, v in p.items() if k != 'life'} == q['phases'][0] for p, q in zip(ph, r))
sys.exit(not (len(r) == 2 and s.get('lives') == 2 and [p.get('life') for p in ph] == [1, 2] and same and
              s['started'] == r[0]['started'] and s['finished'] == r[1]['finished'] and s['complete'] is True and
              len(ph[0].get('events', [])) >= 1))" "$WORK/r.json" $reps

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
