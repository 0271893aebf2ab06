#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 34's hour figures: what `rtjitter watch` costs over a long session at 64 frames with an event every few
# seconds, as root (the kernel trace on) and as a normal user (the /proc sampler only), side by side on one private
# jackd (dummy, 48 kHz, 64 frames) beside a client that stalls STALL_MS (20) every STALL_EVERY_S (5) seconds
# (tests/helpers/stall_client) and a bare JACK client (tests/helpers/jack_loopback) for the same time: the floor of
# any client at this period here. Printed: each watch's CPU share (utime + stime of all its threads, /proc/PID/stat,
# against the wall time) from 5 s to the end and for each stretch between checkpoints, each thread's share, and its
# private memory (Private_Dirty of smaps_rollup) at 1, 10 and 60 minutes (those the run reaches) and at the end; the
# xruns its report holds against the stalls the client made, and the report's size (issue 32: 2 MB an hour).
# BENCH_WATCH_S (180; the issue's hour: 3600) sets the run (the watches run 10 s longer: the last reading is at
# BENCH_WATCH_S - 3 s, while both surely run). The normal user is created with useradd and removed after (root only
# when useradd cannot); its watch runs under setpriv with CAP_SYS_NICE and CAP_IPC_LOCK as ambient capabilities (what
# tests/integration/privileges.sh does where prlimit cannot raise RLIMIT_RTPRIO): real-time scheduling, as a member of
# audio has, and no more (tracefs stays root's). Prints figures, checks nothing.
set -u
secs=${BENCH_WATCH_S:-180}
stall_ms=${STALL_MS:-20}
every_s=${STALL_EVERY_S:-5}
H=${RTJ_HELPERS:-build/tests/helpers}
RTJ_ABS=$(readlink -f "$RTJ")
W=$(mktemp -d); chmod 755 "$W"
U="rtjbh$$"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    [ -n "${uid:-}" ] && userdel "$U" 2>/dev/null
    [ -n "${BENCH_KEEP:-}" ] && echo "kept: $W" || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 3' INT TERM

# as WHO (root or user) runs a command: the user's through setpriv, which execs it (the PID is the command's)
as() {
    local who=$1; shift
    if [ "$who" = root ]; then exec "$@"; else
        exec setpriv --reuid="$uid" --regid=100 --clear-groups --inh-caps=+sys_nice,+ipc_lock \
            --ambient-caps=+sys_nice,+ipc_lock env HOME="$W/$who" "$@"; fi
}

whos=(root)
if [ "$(id -u)" != 0 ]; then
    echo "watch_hour: not root: skipped (it creates a user and compares root's watch, with the trace, to the user's)"
    exit 0
fi
if useradd -M -N -s /usr/sbin/nologin "$U" 2>"$W/useradd.err"; then
    uid=$(id -u "$U"); whos+=(user)
else
    echo "watch_hour: no user could be created ($(head -1 "$W/useradd.err")): root only"
fi
k=$(( every_s * 48000 / 64 ))   # cycles between two stalls
nstall=$(( secs / every_s + 10 ))
# one server for both watches: jack2's promiscuous mode (its files open to the group users, the user's group)
# lets the user's watch reach root's jackd, and both then see the same stalls
export JACK_PROMISCUOUS_SERVER=users
name="rtjbench-hour-$$"
# jack2 holds at most 8 servers on a machine at once (its shared registry): others' tests may hold them all for a
# while, so a refused start is tried again for a minute
for try in $(seq 30); do
    jackd -n "$name" -d dummy -r 48000 -p 64 >"$W/jackd.log" 2>&1 &
    jp=$!
    for i in $(seq 50); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') && break; sleep 0.1; done
    kill -0 "$jp" 2>/dev/null && break
    wait "$jp"; sleep 2
done
pids+=("$jp")
# the helpers: each ends itself by SIGALRM 120 s after it is ready unless told more (RTJ_HELPER_ALARM_S), so that a
# test that forgets them leaves nothing behind; here they are told the run's length. One that still dies is started
# again, and said (until 2026-12-05 the alarm was not raised: that, not the server, ended both every ~2 minutes)
export RTJ_HELPER_ALARM_S=$((secs + 120))
start_stall() { "$H/stall_client" "$name" "$stall_ms" "$k" "$nstall" >>"$W/stall.out" 2>&1 & sp=$!; pids+=("$!"); }
start_bare() { "$H/jack_loopback" "$name" bare$((nbare++)) 0 >/dev/null 2>&1 & bp=$!; pids+=("$!"); }
nbare=0; start_stall; start_bare
sleep 0.5
declare -A wp
for who in "${whos[@]}"; do
    d="$W/$who"; mkdir -p "$d"; [ "$who" = user ] && chown "$uid" "$d"
    as "$who" "$RTJ_ABS" watch --server "$name" --server-log "$W/jackd.log" --duration "$((secs + 10))" --json "$d/w.json" \
        --output "$d/store" >"$d/out" 2>"$d/err" &
    wp[$who]=$!; pids+=("$!")
done
t_start=$(date +%s.%N)   # the watches' start: the checkpoints count from here
for i in $(seq 50); do grep -q '^ready' "$W/stall.out" && break; sleep 0.1; done
kill -USR1 "$sp"   # the stalls from here

hz=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
kib() { awk '/^Private_Dirty:/ { print $2 }' "/proc/$1/smaps_rollup" 2>/dev/null; }
now() { date +%s.%N; }
# each thread of a process: its id, name, policy (stat's 41st field: 1 FIFO, 2 RR) and utime + stime
threads() { local th; for th in /proc/$1/task/*; do awk '{ sub(/^.*\) /, "") ; print $39, $12 + $13 }' "$th/stat" \
    2>/dev/null | sed "s|^|$(basename "$th") $(tr ' ' _ <"$th/comm" 2>/dev/null) |"; done; }
# checkpoints (seconds since the watches started): 5 s, 1, 10 and 60 minutes that the run reaches, and the end
cps=(5); for c in 60 600 3600; do [ "$c" -lt $((secs - 3)) ] && cps+=("$c"); done; cps+=($((secs - 3)))
declare -A T M B
bdone=0; blast=0; deaths=()   # the bare clients' ticks: those of the ended ones, the current one's last read
bticks() { local x; x=$(ticks "$bp"); [ -n "$x" ] && blast=$x; echo $((bdone + blast)); }
for c in "${cps[@]}"; do
    while :; do
        left=$(awk -v s="$t_start" -v c="$c" -v n="$(now)" 'BEGIN { d = s + c - n; print (d > 0 ? d : 0) }')
        if ! kill -0 "$sp" 2>/dev/null; then
            deaths+=("the stall client ended at $(awk -v s="$t_start" -v n="$(now)" 'BEGIN { printf "%.0f", n - s }') s")
            r0=$(grep -c '^ready' "$W/stall.out"); start_stall
            for i in $(seq 50); do [ "$(grep -c '^ready' "$W/stall.out")" -gt "$r0" ] && break; sleep 0.1; done
            kill -USR1 "$sp" 2>/dev/null
        fi
        if ! kill -0 "$bp" 2>/dev/null; then
            deaths+=("the bare client ended at $(awk -v s="$t_start" -v n="$(now)" 'BEGIN { printf "%.0f", n - s }') s (its CPU counted to 10 s before)")
            bdone=$((bdone + blast)); blast=0; start_bare
        fi
        bticks >/dev/null
        awk -v l="$left" 'BEGIN { exit !(l <= 10) }' && { sleep "$left"; break; }
        sleep 10
    done
    t=$(now)
    for who in "${whos[@]}"; do
        T[$who,$c]=$(ticks "${wp[$who]}"); M[$who,$c]=$(kib "${wp[$who]}"); B[$who,$c]=$(bticks)
        threads "${wp[$who]}" >"$W/$who/threads-$c"
    done
    T[t,$c]=$t
done
for who in "${whos[@]}"; do wait "${wp[$who]}"; echo "$?" >"$W/$who/rc"; done
kill -TERM "$sp" "$bp" 2>/dev/null; wait "$sp" "$bp" 2>/dev/null
for d in "${deaths[@]}"; do echo "watch_hour: $d and was started again"; done

echo "watch_hour: $secs s, one private jackd (dummy, 48 kHz, 64 frames) for both, a client stalling $stall_ms ms every" \
     "$every_s s; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
for who in "${whos[@]}"; do
    mode="root, the trace on"; [ "$who" = user ] && mode="a normal user ($U), no trace"
    ev=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["phases"][0]; print(p["xruns"]["events"])' \
         "$W/$who/w.json" 2>/dev/null || echo "?")
    st=$(awk '/^stalls/ { n += $2 } END { print n }' "$W/stall.out")
    line="watch as $mode: exit $(cat "$W/$who/rc"), $ev xruns in its report, the client stalled ${st:-?} times"
    line+="; the report $(stat -c %s "$W/$who/w.json" 2>/dev/null || echo '?') bytes for $secs s (issue 32: 2 MB an hour)"
    echo "$line"
    prev=5
    for c in "${cps[@]:1}"; do
        awk -v a="${T[$who,$prev]}" -v b="${T[$who,$c]}" -v ba="${B[$who,$prev]}" -v bb="${B[$who,$c]}" \
            -v s0="${T[t,$prev]}" -v s1="${T[t,$c]}" -v hz="$hz" -v p="$prev" -v c="$c" -v m="${M[$who,$c]}" 'BEGIN {
            printf "  %5d-%5d s: watch CPU %.2f %% of one CPU (the bare client beside it %.2f %%); Private_Dirty at %d s: %s KiB\n",
                p, c, 100 * (b - a) / hz / (s1 - s0), 100 * (bb - ba) / hz / (s1 - s0), c, m }'
        prev=$c
    done
    last=${cps[-1]}
    awk -v a="${T[$who,5]}" -v b="${T[$who,$last]}" -v ba="${B[$who,5]}" -v bb="${B[$who,$last]}" \
        -v s0="${T[t,5]}" -v s1="${T[t,$last]}" -v hz="$hz" -v l="$last" 'BEGIN {
        printf "  whole run (5-%d s): watch CPU %.2f %% of one CPU; the bare JACK client beside it %.2f %%; watch beyond that floor %.2f points\n",
            l, 100 * (b - a) / hz / (s1 - s0), 100 * (bb - ba) / hz / (s1 - s0), 100 * ((b - a) - (bb - ba)) / hz / (s1 - s0) }'
    # where it goes: each thread's share over the run (the real-time ones are JACK's: the process callback, the notifications)
    awk -v hz="$hz" -v s0="${T[t,5]}" -v s1="${T[t,$last]}" 'FNR == NR { a[$1] = $4; next }
        { d = $4 - a[$1]; what = "JACK'"'"'s or the main thread"
          if ($3 == 1 || $3 == 2) what = "a JACK thread, real time: the process callback or its notifications"
          else if ($2 == "rtj-culprits") what = "the culprit sampler"
          else if ($2 == "rtj-collect") what = "the collector"
          printf "    thread %s (%s, %s): %.2f %% of one CPU\n", $1, $2, what, 100 * d / hz / (s1 - s0) }' \
        "$W/$who/threads-5" "$W/$who/threads-$last"
done
