#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: passwd (useradd and userdel take /etc/passwd's lock: one such test at a time)
# Real time for a normal user, with a real unprivileged user created here and removed on every exit path: its
# login checked in both states (rights in force: SCHED_FIFO obtained, memory lockable; and not), with the one fix
# that follows from its groups and the limits files (a tree under --root holds /etc as the test writes it:
# jackd2's audio.conf, the user in audio or not); root under sudo judged as the user; and `rtjitter run` as that
# user on a private server in both states: a run without real time is "not a kernel test" and its advice starts
# with the privileges, with no kernel advice, no "-R" and no "join the audio group" to a member.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
RTJ_ABS=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ")
U="rtjt$$"
cleanup() { userdel "$U" 2>/dev/null; cleanup_lib; }
trap cleanup EXIT
if ! useradd -M -N -s /usr/sbin/nologin "$U" 2>"$WORK/useradd.err"; then
    ok "# SKIP no user could be created: $(head -1 "$WORK/useradd.err")"
    exit 0
fi
uid=$(id -u "$U")
chmod 0755 "$WORK"
mkdir -m 0777 "$WORK/out"

# tree DIR MEMBERS: /etc of a Debian machine with jackd2's audio.conf; MEMBERS of audio in /etc/group.
tree() {
    mkdir -p "$1/etc/security/limits.d"
    printf 'root:x:0:0:root:/root:/bin/bash\n%s:x:%s:100::/nonexistent:/usr/sbin/nologin\n' "$U" "$uid" >"$1/etc/passwd"
    printf 'root:x:0:\nusers:x:100:\naudio:x:29:%s\n' "$2" >"$1/etc/group"
    : >"$1/etc/security/limits.conf"
    cp "$TOP/tests/fixtures/sys-generic/etc/security/limits.d/audio.conf" "$1/etc/security/limits.d/"
    chmod -R a+rX "$1"
}
tree "$WORK/member" "$U"
tree "$WORK/outsider" ""

# As the user, a login whose real-time rights are not in force: RLIMIT_RTPRIO 0, RLIMIT_MEMLOCK 64 KiB.
without() { prlimit --rtprio=0 --memlock=65536 -- setpriv --reuid="$uid" --regid=100 "$@"; }
# As the user with the rights in force: the limits audio.conf grants, where root may raise them (prlimit); in a
# sandbox without CAP_SYS_RESOURCE, the same rights as capabilities (CAP_SYS_NICE, CAP_IPC_LOCK).
if prlimit --rtprio=95 --memlock=unlimited -- true 2>/dev/null; then
    HOW="RLIMIT_RTPRIO 95, RLIMIT_MEMLOCK unlimited"
    with() { prlimit --rtprio=95 --memlock=unlimited -- setpriv --reuid="$uid" --regid=100 "$@"; }
else
    HOW="CAP_SYS_NICE and CAP_IPC_LOCK (this sandbox cannot raise RLIMIT_RTPRIO: no CAP_SYS_RESOURCE)"
    with() { setpriv --reuid="$uid" --regid=100 --inh-caps=+sys_nice,+ipc_lock --ambient-caps=+sys_nice,+ipc_lock "$@"; }
fi
echo "# rights in force given as: $HOW"
get() { json "$1" "[c['$3'] for c in d['checks'] if c['id'] == '$2'][0]"; }

AGAIN="log out and in again (or reboot): you are in audio, and /etc/security/limits.d/audio.conf grants it rtprio 95 and memlock unlimited, but this login started before it was installed"

# --- not in force, a login in audio: the file came after the login --------------------------------------
without --groups=29 "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/a.json" >"$WORK/a.txt" 2>&1; rc=$?
check "not in force: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "the probe ran as $U in audio" [ "$(json "$WORK/out/a.json" "d['process']['user'], d['process']['euid'], 'audio' in d['process']['groups']")" = "$U $uid True" ]
check "not in force: RLIMIT_RTPRIO 0 and memlock 64 KiB read" \
    [ "$(json "$WORK/out/a.json" "d['process']['rtprio']['soft'], d['process']['memlock']['soft']")" = "0 65536" ]
check "not in force: rtprio, memlock and sched_fifo FAIL" [ "$(get "$WORK/out/a.json" rtprio status) $(get "$WORK/out/a.json" memlock status) $(get "$WORK/out/a.json" sched_fifo status)" = "fail fail fail" ]
check "the real SCHED_FIFO try was refused (EPERM)" [ "$(json "$WORK/out/a.json" "d['process']['sched_fifo']['ok'], d['process']['sched_fifo']['error']")" = "False Operation not permitted" ]
check "the fix: log out and in again, with why" [ "$(get "$WORK/out/a.json" rtprio fix)" = "$AGAIN" ]
check "one fix for both limits" [ "$(get "$WORK/out/a.json" memlock fix)" = "$AGAIN" ]
check "never 'usermod -aG audio' to a member of audio" [ "$(grep -c usermod "$WORK/a.txt")" -eq 0 ]
check "the limits files grant it at the next login" [ "$(get "$WORK/out/a.json" limits_files status)" = ok ]
check "not running as root" [ "$(get "$WORK/out/a.json" root status)" = ok ]

# --- not in force, added to audio after this login started ---------------------------------------------
without --clear-groups "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/b.json" >/dev/null 2>&1
check "a login from before joining audio: 'you were added to audio after this login started'" \
    grep -q "^log out and in again (or reboot): you were added to audio after this login started" <(get "$WORK/out/b.json" rtprio fix)

# --- not in force, not in audio at all -----------------------------------------------------------------
without --clear-groups "$RTJ_ABS" check --root "$WORK/outsider" --json "$WORK/out/c.json" >/dev/null 2>&1
check "not in audio: sudo usermod -aG audio $U, then log out and in again" [ "$(get "$WORK/out/c.json" rtprio fix)" = \
    "sudo usermod -aG audio $U, then log out and in again (/etc/security/limits.d/audio.conf grants audio rtprio 95 and memlock unlimited)" ]
check "not in audio: the limits files WARN with the same fix" \
    [ "$(get "$WORK/out/c.json" limits_files status)|$(get "$WORK/out/c.json" limits_files fix)" = "warn|$(get "$WORK/out/c.json" rtprio fix)" ]

# --- in force ------------------------------------------------------------------------------------------
with --groups=29 "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/d.json" >"$WORK/d.txt" 2>&1; rc=$?
check "in force: exit 0, no FAIL (got $rc)" [ "$rc" -eq 0 ] && [ "$(json "$WORK/out/d.json" "d['summary']['fail']")" -eq 0 ]
check "in force: rtprio, memlock and sched_fifo OK" [ "$(get "$WORK/out/d.json" rtprio status) $(get "$WORK/out/d.json" memlock status) $(get "$WORK/out/d.json" sched_fifo status)" = "ok ok ok" ]
check "in force: a thread of $U really got SCHED_FIFO 80" [ "$(json "$WORK/out/d.json" "d['process']['sched_fifo']['ok'], d['process']['euid']")" = "True $uid" ]

# --- root under sudo: the musician's set-up, and a warning ----------------------------------------------
SUDO_USER=$U "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/e.json" >/dev/null 2>&1
check "under sudo: root WARNs, naming $U" [ "$(get "$WORK/out/e.json" root status)|$(get "$WORK/out/e.json" root fix)" = "warn|run rtjitter as $U, without sudo" ]
check "under sudo: the limits files are judged for $U" grep -q "^$U gets rtprio 95" <(get "$WORK/out/e.json" limits_files why)

# --- rtjitter run as the user, on a private server: not in force, then in force ------------------------
if (jack_wait -c 2>/dev/null | grep -q '^running'); then
    ok "# SKIP runs as $U: a default JACK server runs on this machine"
    exit 0
fi
userrun() { # HOW JSON [OPTION...]
    local how=$1 out=$2
    shift 2
    (cd /tmp && "$how" --groups=29 timeout 60 env XDG_DATA_HOME="$WORK/out/xdg" HOME="$WORK/out" "$RTJ_ABS" run \
        --loads none --duration 1 --warmup 0.3 --quiet --json "$out" "$@") >"$WORK/run.log" 2>&1
}
# AddressSanitizer's mlockall() does nothing and succeeds: in the sanitizer build memory always reads as locked.
if [ -n "${RTJ_SANITIZE:-}" ]; then locked=True; advice="realtime"; else locked=False; advice="realtime mlock"; fi
# By default a run without real-time rights stops before measuring: the fix first, exit 2, no report.
userrun without "$WORK/out/rx.json"; rc=$?
echo "# without real time, no --allow-no-rt: exit $rc: $(head -2 "$WORK/run.log" | tr '\n' ' ')"
check "run without real time: exit 2 before measuring, no report, the reason and the exact fix first" \
    [ "$rc" -eq 2 -a ! -e "$WORK/out/rx.json" -a "$(head -1 "$WORK/run.log" | grep -c 'no real-time scheduling for this login')" -eq 1 \
      -a "$(sed -n 2p "$WORK/run.log" | grep -c '^  fix: ')" -eq 1 ]
check "... and it names --allow-no-rt" grep -q -- '--allow-no-rt measures anyway' "$WORK/run.log"
userrun without "$WORK/out/r0.json" --allow-no-rt; rc=$?
if [ -s "$WORK/out/r0.json" ]; then
    check "run without real time: exit 0 (got $rc)" [ "$rc" -eq 0 ]
    check "run without real time: realtime false, mlocked $locked, private server" \
        [ "$(json "$WORK/out/r0.json" "d['audio']['realtime'], d['audio']['mlocked'], d['audio']['server']")" = "False $locked private" ]
    check "its verdict: not a kernel test" grep -q "^Not a kernel test: the audio thread ran without real-time scheduling" \
        <(json "$WORK/out/r0.json" "d['verdict']['summary']")
    # The privileges first; the run's own findings (headroom on a busy machine) may follow; no system advice
    # (the checks table's ids) and no larger buffer.
    ids=$(json "$WORK/out/r0.json" "' '.join(d['verdict']['advice_ids'])")
    check "its advice: the privileges first, nothing about the kernel nor the buffer ($ids)" \
        [ "$(json "$WORK/out/r0.json" "' '.join(d['verdict']['advice_ids'][:len('$advice'.split())]) == '$advice' and
            not set(d['verdict']['advice_ids']) & {'governor', 'rtirq', 'shared_irq', 'swappiness', 'rt_throttling',
            'threadirqs', 'preempt', 'high_res_timers', 'buffer'}")" = True ]
    check "its advice: no -R for the server rtjitter started, no 'audio group'" \
        [ "$(json "$WORK/out/r0.json" "sum(('-R' in a) + ('audio group' in a) for a in d['verdict']['advice'])")" -eq 0 ]
else
    not_ok "run without real time, --allow-no-rt, wrote no report (exit $rc): $(tail -2 "$WORK/run.log")"
fi
userrun with "$WORK/out/r1.json"; rc=$?
if [ -s "$WORK/out/r1.json" ]; then
    check "run with real time in force: exit 0 (got $rc)" [ "$rc" -eq 0 ]
    check "run with real time in force: SCHED_FIFO and memory locked" \
        [ "$(json "$WORK/out/r1.json" "d['audio']['realtime'], d['audio']['sched_policy'], d['audio']['mlocked']")" = "True SCHED_FIFO True" ]
    check "its verdict is a kernel test" [ "$(json "$WORK/out/r1.json" "d['verdict']['summary'].startswith('Not a kernel test')")" = False ]
else
    not_ok "run with real time wrote no report (exit $rc): $(tail -2 "$WORK/run.log")"
fi
