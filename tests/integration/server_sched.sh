#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the report says of priorities is read, not assumed (issue 19 item 6). The truth: the kernel's own account
# of each thread, /proc/PID/task/TID/stat (policy, rt_priority), read by this test while the run goes on.
# - an external jackd at its default priority (jack2: -P 10, its clients 5 below): the report's audio thread
#   (audio.sched_policy, audio.priority) and the server's highest thread (audio.server_sched) are what /proc shows;
#   the verdict asks for jackd -P 70 before any kernel option and never advises threadirqs then;
# - a normal user (nobody, no real-time rights) whose run starts its private jackd with -R: that jackd's threads
#   run SCHED_OTHER, and the report says server_realtime false (server_realtime_asked: what jackd asked for).
. "$(dirname "$0")/../lib.sh"

# sched WATCHED PID...: "POLICY MAXPRIO NRT" for each PID over its threads (policy of the highest real-time one, else
# 0), sampled every 20 ms while WATCHED lives, from when it has 4 threads or more (its JACK client's are up) until it
# has a real-time thread, or a second more without one; the last sample when one of them ends first. One process for the whole watch: on a busy machine a
# Python start can take a second.
sched() {
    python3 - "$@" <<'PY'
import os, sys, time
def one(pid):
    best, nrt = (0, 0), 0
    try:
        tasks = os.listdir('/proc/%s/task' % pid)
    except OSError:
        return None
    for t in tasks:
        try:
            s = open('/proc/%s/task/%s/stat' % (pid, t)).read()
        except OSError:
            continue
        f = s[s.rindex(')') + 2:].split()
        prio, pol = int(f[37]), int(f[38])      # fields 40 and 41
        if pol in (1, 2):
            nrt += 1
            if prio > best[1]: best = (pol, prio)
    return best[0], best[1], nrt, len(tasks)
last, up = None, None
while True:
    now = [one(p) for p in sys.argv[1:]]
    if now[0] is None or None in now:
        break
    last = now
    if now[0][3] >= 4 and up is None:
        up = time.monotonic()
    if up is not None and (now[0][2] > 0 or time.monotonic() - up > 1.0):
        break                                   # real time, or up for a second without it
    time.sleep(0.02)
print(' | '.join('%d %d %d' % x[:3] if x else '0 0 0' for x in (last or [None] * (len(sys.argv) - 1))))
PY
}
POL=([0]=SCHED_OTHER [1]=SCHED_FIFO [2]=SCHED_RR)

# --- 1. an external jackd at its default priority ---
name=$(server_name ext)
jackd -n "$name" -d dummy -r 48000 -p 256 >"$WORK/jackd.log" 2>&1 &
JACKD_PID=$!; JACKD_PIDS+=("$JACKD_PID")
for _ in $(seq 100); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break; sleep 0.1; done
"$RTJ" run --server "$name" --loads none --warmup 0.3 --duration 2 --quiet --json "$WORK/e.json" >"$WORK/e.out" 2>&1 &
rpid=$!
# sampled while it runs, until its JACK thread is there (a busy machine may take a while to reach it)
both=$(sched "$rpid" "$JACKD_PID")
own=${both%% | *}; srv=${both##* | }
wait "$rpid"; rc=$?
rep=$(json "$WORK/e.json" "d['audio']['sched_policy'], d['audio']['priority'], d['audio']['server_sched']['policy'], d['audio']['server_sched']['priority'], d['audio']['server_realtime'], d['audio']['server_sched']['pid']")
echo "# external jackd (default -P): /proc: server $srv, rtjitter $own; report: $rep; exit $rc"
read -r spol sprio _ <<<"$srv"; read -r opol oprio _ <<<"$own"
check "external jackd: exit 0, the report's audio thread is what /proc shows (${POL[$opol]} $oprio)" \
    [ "$rc" = 0 -a "$(json "$WORK/e.json" "d['audio']['sched_policy'], d['audio']['priority']")" = "${POL[$opol]} $oprio" ]
check "external jackd: the report's server threads are what /proc shows (${POL[$spol]} $sprio, pid $JACKD_PID), realtime" \
    [ "$(json "$WORK/e.json" "d['audio']['server_sched']['policy'], d['audio']['server_sched']['priority'], d['audio']['server_sched']['pid'], d['audio']['server_realtime']")" = "${POL[$spol]} $sprio $JACKD_PID True" ]
ids=$(json "$WORK/e.json" "' '.join(d['verdict']['advice_ids'])")
echo "# advice: $ids"
if [ "$opol" = 1 ] && [ "$oprio" -lt 50 ]; then
    check "the audio thread at FIFO $oprio (below the interrupt threads' 50): the verdict asks for jackd -P 70, no threadirqs" \
        [ "$(json "$WORK/e.json" "'priority' in d['verdict']['advice_ids'] and 'threadirqs' not in d['verdict']['advice_ids'] and any('jackd with -P 70' in a for a in d['verdict']['advice'])")" = True ]
else
    not_ok "jackd at its default priority gave its client FIFO below 50 (got ${POL[$opol]:-?} $oprio)"
fi
stop_jackd "$JACKD_PID"

# --- 2. a normal user's private jackd, started with -R, without the rights ---
chmod 755 "$WORK"; mkdir -p "$WORK/nobody"; cp "$RTJ" "$WORK/nobody/rtjitter"; chown -R nobody "$WORK/nobody"
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$WORK/nobody" XDG_DATA_HOME="$WORK/nobody/xdg" \
    TMPDIR="$WORK/nobody" prlimit --rtprio=0 -- "$WORK/nobody/rtjitter" run --allow-no-rt --loads none --warmup 0.3 \
    --duration 2 --quiet --json "$WORK/nobody/n.json" >"$WORK/n.out" 2>&1 &
rpid=$!
jpid=
for _ in $(seq 100); do jpid=$(pgrep -P "$rpid" -x jackd | head -1); [ -n "$jpid" ] && break; sleep 0.1; done
# the setpriv-ed process is rtjitter itself (setpriv, env and prlimit exec): its child is the private jackd,
# sampled once its threads are up (its client, rtjitter's JACK thread, then exists)
srv=
if [ -n "$jpid" ]; then
    # no real-time thread to wait for here: sampled once rtjitter's JACK client threads are up (4 or more)
    both=$(sched "$rpid" "$jpid")
    srv=${both##* | }
fi
wait "$rpid"; rc=$?
echo "# nobody's private jackd (pid ${jpid:-none}): /proc: $srv; report: $(json "$WORK/nobody/n.json" "d['audio']['server'], d['audio']['server_realtime'], d['audio'].get('server_realtime_asked'), d['audio']['server_sched']" 2>&1 | head -c 300); exit $rc"
read -r spol sprio _ <<<"${srv:-x x}"
check "nobody's private jackd runs ${POL[$spol]:-?} in /proc, and the report says server_realtime $( [ "$spol" = 0 ] && echo false || echo true)" \
    [ "$rc" = 0 -a -n "$jpid" -a "$(json "$WORK/nobody/n.json" "d['audio']['server'], d['audio']['server_realtime'], d['audio']['server_sched']['policy']")" = "private $( [ "$spol" = 0 ] && echo False || echo True) ${POL[$spol]:-?}" ]
check "... and the server's request is kept apart (server_realtime_asked is a boolean)" \
    [ "$(json "$WORK/nobody/n.json" "type(d['audio']['server_realtime_asked']).__name__")" = bool ]
