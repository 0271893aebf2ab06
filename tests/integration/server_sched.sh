#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: passwd (useradd and userdel take /etc/passwd's lock: one such test at a time)
# What the report says of priorities is read, not assumed (issue 19 item 6). The truth: the kernel's own account
# of each thread, /proc/PID/task/TID/stat (policy, rt_priority), read by this test while the run goes on, and of the
# interrupt threads (kernel threads irq/N-NAME), /proc/PID/stat.
# - an external jackd at its default priority (jack2: -P 10, its clients 5 below), and one at -P 70: the report's
#   audio thread (audio.sched_policy, audio.priority, audio.client_thread), the server's highest thread
#   (audio.server_sched) and the interrupt threads (audio.irq_threads) are what /proc shows, and
#   audio.below_irq_threads is what those figures say; an audio thread below the interrupt threads gets jackd -P 70
#   before any kernel option and never threadirqs; one above them is not told to raise it; `check` run meanwhile
#   calls the same jackd below the interrupt threads exactly when the run's report does (one judgement, issue 35);
# - a normal user created here (useradd, removed on every exit path; no real-time rights: RLIMIT_RTPRIO 0) whose run
#   starts its private jackd with -R: that jackd's threads run SCHED_OTHER, and the report says server_realtime false
#   (server_realtime_asked: what jackd asked for).
. "$(dirname "$0")/../lib.sh"
# the text report with its wrapped lines joined (prose wraps at 80 columns, continuations indented under the text)
joined() { python3 -c 'import re,sys; sys.stdout.write(re.sub(r"\n {2,}(?=\S)", " ", open(sys.argv[1]).read()))' "$1"; }

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

# irqs: "COUNT POLICY PRIORITY" of the interrupt threads (the highest; priority 0 for a SCHED_OTHER one), "0 - -"
# without any: this test's own reading of /proc/PID/stat.
irqs() {
    python3 - <<'PY'
import os
n, top = 0, None
for p in os.listdir('/proc'):
    if not p.isdigit():
        continue
    try:
        comm = open('/proc/%s/comm' % p).read().strip()
        if not (comm.startswith('irq/') and comm[4:5].isdigit()):
            continue
        s = open('/proc/%s/stat' % p).read()
    except OSError:
        continue
    f = s[s.rindex(')') + 2:].split()
    prio, pol = int(f[37]), int(f[38])
    if pol not in (1, 2):
        prio = 0
    n += 1
    if top is None or prio > top[1]:
        top = (pol, prio)
names = {0: 'SCHED_OTHER', 1: 'SCHED_FIFO', 2: 'SCHED_RR'}
print('%d %s %s' % (n, names.get(top[0], 'other'), top[1]) if top else '0 - -')
PY
}

# --- 1. an external jackd at its default priority (-P 10), then at -P 70 ---
# ext LABEL [JACKD OPTIONS]: an external jackd, rtjitter against it, /proc sampled meanwhile; the checks.
ext() {
    local label=$1; shift
    local name="rtjt-h6p-$$-$label"
    jackd -n "$name" "$@" -d dummy -r 48000 -p 256 >"$WORK/jackd-$label.log" 2>&1 &
    JACKD_PID=$!; JACKD_PIDS+=("$JACKD_PID")
    for _ in $(seq 100); do (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break; sleep 0.1; done
    local j="$WORK/$label.json"
    "$RTJ" run --server "$name" --loads none --warmup 0.3 --duration 2 --quiet --json "$j" >"$WORK/$label.out" 2>&1 &
    local rpid=$!
    # sampled while it runs, until its JACK thread is there (a busy machine may take a while to reach it)
    local both own srv irq rc
    both=$(sched "$rpid" "$JACKD_PID")
    irq=$(irqs)
    own=${both%% | *}; srv=${both##* | }
    wait "$rpid"; rc=$?
    local rep
    rep=$(json "$j" "d['audio']['sched_policy'], d['audio']['priority'], d['audio']['server_sched']['policy'], d['audio']['server_sched']['priority'], d['audio']['server_realtime'], d['audio']['server_sched']['pid'], d['audio']['irq_threads'], d['audio']['below_irq_threads']")
    echo "# external jackd ($label: ${*:-default -P}): /proc: server $srv, rtjitter $own, interrupt threads $irq; report: $rep; exit $rc"
    local spol sprio opol oprio icount ipol iprio
    read -r spol sprio _ <<<"$srv"; read -r opol oprio _ <<<"$own"; read -r icount ipol iprio <<<"$irq"
    check "$label: exit 0, the report's audio thread is what /proc shows (${POL[$opol]} $oprio), client_thread too, read from /proc/self/task" \
        [ "$rc" = 0 -a "$(json "$j" "d['audio']['sched_policy'], d['audio']['priority'], d['audio']['client_thread']['policy'], d['audio']['client_thread']['priority'], d['audio']['client_thread']['read_from'].startswith('/proc/self/task/')")" = "${POL[$opol]} $oprio ${POL[$opol]} $oprio True" ]
    check "$label: the report's server threads are what /proc shows (${POL[$spol]} $sprio, pid $JACKD_PID), realtime" \
        [ "$(json "$j" "d['audio']['server_sched']['policy'], d['audio']['server_sched']['priority'], d['audio']['server_sched']['pid'], d['audio']['server_realtime']")" = "${POL[$spol]} $sprio $JACKD_PID True" ]
    check "$label: the report's interrupt threads are what /proc shows ($irq)" \
        [ "$(json "$j" "(lambda t: (t['count'], t['policy'] or '-', '-' if t['priority'] is None else t['priority']))(d['audio']['irq_threads'])")" = "$irq" ]
    local ids
    ids=$(json "$j" "' '.join(d['verdict']['advice_ids'])")
    echo "# $label advice: $ids"
    if [ "$icount" = 0 ]; then
        check "$label: no interrupt thread in /proc, so below_irq_threads is null" [ "$(json "$j" "d['audio']['below_irq_threads']")" = None ]
    elif [ "$oprio" -lt "$iprio" ]; then
        check "$label: the audio thread at ${POL[$opol]} $oprio, below the interrupt threads' $iprio: flagged; the verdict asks for jackd -P 70, no threadirqs" \
            [ "$(json "$j" "d['audio']['below_irq_threads'] and 'priority' in d['verdict']['advice_ids'] and 'threadirqs' not in d['verdict']['advice_ids'] and any('jackd with -P 70' in a for a in d['verdict']['advice'])")" = True ]
    else
        check "$label: the audio thread at ${POL[$opol]} $oprio, not below the interrupt threads' $iprio: not flagged, not told to raise it" \
            [ "$(json "$j" "d['audio']['below_irq_threads'] is False and 'priority' not in d['verdict']['advice_ids']")" = True ]
    fi
    "$RTJ" report "$j" >"$WORK/$label.txt" 2>&1
    if [ "$icount" != 0 ] && [ "$oprio" -lt "$iprio" ]; then
        check "$label: the text report's thread line says it ran BELOW the interrupt threads ($ipol $iprio)" \
            grep -q "^thread:  ${POL[$opol]} priority $oprio (server ${POL[$spol]} $sprio), BELOW the interrupt threads ($ipol $iprio)" <(joined "$WORK/$label.txt")
    else
        check "$label: the text report's thread line does not say BELOW" \
            eval '! grep -q "BELOW the interrupt" <(joined "$WORK/$label.txt") && grep -q "^thread:  ${POL[$opol]} priority $oprio (server ${POL[$spol]} $sprio)" <(joined "$WORK/$label.txt")'
    fi
    # check judges the same running server against the same interrupt threads as run did (issue 35): its server_rt
    # names this jackd below them exactly when the run's report says its audio thread was below them
    "$RTJ" check --json "$WORK/$label.check.json" >/dev/null 2>&1
    local cb rb
    cb=$(json "$WORK/$label.check.json" "[c['status'] == 'warn' and '(pid $JACKD_PID) at ' in c['why'] for c in d['checks'] if c['id'] == 'server_rt'][0]")
    rb=$(json "$j" "d['audio']['below_irq_threads']")
    echo "# $label: check's server_rt: $(json "$WORK/$label.check.json" "[c['status'] + ': ' + c['why'] for c in d['checks'] if c['id'] == 'server_rt'][0]")"
    # (other servers of this machine are judged in the same line, below ones first: where they fill it and this one
    # is not named at all, there is nothing to judge)
    local named
    named=$(json "$WORK/$label.check.json" "[('(pid $JACKD_PID)' in c['why'] or '(pid $JACKD_PID,' in c['why']) for c in d['checks'] if c['id'] == 'server_rt'][0]")
    if [ "$rb" = None ]; then
        check "$label: no interrupt thread: check does not call the server below them ($cb)" [ "$cb" = False ]
    elif [ "$rb" = True ] && [ "$named" = False ]; then
        ok "# SKIP $label: check's line is full of other servers of this machine, this one not named"
    else
        check "$label: check calls this jackd below the interrupt threads ($cb) exactly when run did ($rb)" [ "$cb" = "$rb" ]
    fi
    echo "$opol $oprio $iprio" >"$WORK/$label.seen"
    stop_jackd "$JACKD_PID"
}
ext default
read -r opol oprio iprio <"$WORK/default.seen"
check "jackd at its default priority gave its client real-time FIFO below 50 (got ${POL[$opol]:-?} $oprio)" \
    [ "$opol" = 1 -a "$oprio" -lt 50 ]
ext p70 -P 70
read -r opol oprio iprio <"$WORK/p70.seen"
check "jackd -P 70 gave its client real-time FIFO 50 or more (got ${POL[$opol]:-?} $oprio)" [ "$opol" = 1 -a "$oprio" -ge 50 ]

# --- 2. a normal user's private jackd, started with -R, without the rights ---
U="rtjth6p$$"
cleanup() { userdel "$U" 2>/dev/null; cleanup_lib; }
trap cleanup EXIT
if ! useradd -M -N -s /usr/sbin/nologin "$U" 2>"$WORK/useradd.err"; then
    not_ok "no test user could be created: $(head -1 "$WORK/useradd.err")"
    exit 0
fi
uid=$(id -u "$U"); gid=$(id -g "$U")
chmod 755 "$WORK"; mkdir -p "$WORK/user"; cp "$RTJ" "$WORK/user/rtjitter"; chown -R "$uid" "$WORK/user"
setpriv --reuid="$uid" --regid="$gid" --clear-groups env HOME="$WORK/user" XDG_DATA_HOME="$WORK/user/xdg" \
    TMPDIR="$WORK/user" prlimit --rtprio=0 -- "$WORK/user/rtjitter" run --allow-no-rt --loads none --warmup 0.3 \
    --duration 2 --quiet --json "$WORK/user/n.json" >"$WORK/n.out" 2>&1 &
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
echo "# $U's private jackd (pid ${jpid:-none}): /proc: $srv; report: $(json "$WORK/user/n.json" "d['audio']['server'], d['audio']['server_realtime'], d['audio'].get('server_realtime_asked'), d['audio']['server_sched']" 2>&1 | head -c 300); exit $rc"
read -r spol sprio _ <<<"${srv:-x x}"
check "a normal user's private jackd runs ${POL[$spol]:-?} in /proc, and the report says server_realtime $( [ "$spol" = 0 ] && echo false || echo true)" \
    [ "$rc" = 0 -a -n "$jpid" -a "$(json "$WORK/user/n.json" "d['audio']['server'], d['audio']['server_realtime'], d['audio']['server_sched']['policy']")" = "private $( [ "$spol" = 0 ] && echo False || echo True) ${POL[$spol]:-?}" ]
check "... as this machine gives a normal user no real-time rights (hard RLIMIT_RTPRIO 0 here): its jackd's threads ran SCHED_OTHER in /proc (the premise)" \
    [ "${spol:-x}" = 0 ]
check "... and the report's audio thread ran SCHED_OTHER too, read from /proc/self/task" \
    [ "$(json "$WORK/user/n.json" "d['audio']['client_thread']['policy'], d['audio']['client_thread']['read_from'].startswith('/proc/self/task/'), d['audio']['realtime']")" = "SCHED_OTHER True False" ]
check "... and the server's request is kept apart (server_realtime_asked is a boolean)" \
    [ "$(json "$WORK/user/n.json" "type(d['audio']['server_realtime_asked']).__name__")" = bool ]
