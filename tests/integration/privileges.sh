#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: passwd (useradd and userdel take /etc/passwd's lock: one such test at a time)
# Real time for a normal user, with a real unprivileged user created here and removed on every exit path: its
# login checked in both states (rights in force: SCHED_FIFO obtained, memory lockable; and not), with the one fix
# that follows from its groups and the limits files (a tree under --root holds /etc as the test writes it:
# jackd2's audio.conf, the user in audio or not); root under sudo judged as the user; and `rtjitter run` as that
# user on a private server in both states: a run without real time is "not a kernel test" and its advice starts
# with the privileges, with no kernel advice, no "-R" and no "join the audio group" to a member. Then real PAM
# logins (runuser -l: pam_limits in /etc/pam.d/runuser) in each state this machine can give (src/checks/login.c:
# the limits file written after the login, no pam_limits in the login's stack, added to audio after the login, a
# login program that may not raise the hard limit, this machine's container), each judged to its one fix, and
# `check --user` as root against what such a login really gets (`ulimit` in it), once with a limits file of the
# test user's own in /etc/security/limits.d (zz-rtjt-USER.conf, lines for that user only, removed on exit).
. "$(dirname "$0")/../lib.sh"
# The check text with its wrapped lines joined again (util/wrap.h: a status line continues under its title at 8
# spaces, a fix under its text at 13, a command wider than a line with " \\" and 15)
unwrap() { python3 -c 'import re,sys; t=open(sys.argv[1]).read(); t=re.sub(r" \\\n +", " ", t)
t=re.sub(r"\n {13}(?! )", " ", t); sys.stdout.write(re.sub(r"\n {8}(?!fix: | )", " ", t))' "$1"; }
TOP=${RTJ_TOP:-$PWD}
RTJ_ABS=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ")
U="rtjt$$"
U2="rtjta$$"   # a second user, in this machine's audio group
LIMITS_D=/etc/security/limits.d/zz-rtjt-$U.conf
cleanup() { userdel "$U" 2>/dev/null; userdel "$U2" 2>/dev/null; rm -f "$LIMITS_D"; cleanup_lib; }
trap cleanup EXIT
if ! useradd -M -N -s /usr/sbin/nologin "$U" 2>"$WORK/useradd.err" ||
   ! useradd -M -N -G audio -s /bin/bash "$U2" 2>>"$WORK/useradd.err"; then
    ok "# SKIP no user could be created: $(head -1 "$WORK/useradd.err")"
    exit 0
fi
uid=$(id -u "$U")
uid2=$(id -u "$U2")
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

# --- not in force, started by setpriv: no login at all, so no limits file was ever applied --------------------
without --groups=29 "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/a.json" >"$WORK/a.txt" 2>&1; rc=$?
check "not in force: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "the probe ran as $U in audio" [ "$(json "$WORK/out/a.json" "d['process']['user'], d['process']['euid'], 'audio' in d['process']['groups']")" = "$U $uid True" ]
check "not in force: RLIMIT_RTPRIO 0 and memlock 64 KiB read" \
    [ "$(json "$WORK/out/a.json" "d['process']['rtprio']['soft'], d['process']['memlock']['soft']")" = "0 65536" ]
check "not in force: rtprio, memlock and sched_fifo FAIL" [ "$(get "$WORK/out/a.json" rtprio status) $(get "$WORK/out/a.json" memlock status) $(get "$WORK/out/a.json" sched_fifo status)" = "fail fail fail" ]
check "the real SCHED_FIFO try was refused (EPERM)" [ "$(json "$WORK/out/a.json" "d['process']['sched_fifo']['ok'], d['process']['sched_fifo']['error']")" = "False Operation not permitted" ]
# The test's own shell (root) started rtjitter through prlimit and setpriv, which exec: no PAM session.
check "the login probe: rtjitter is its own first process as $U, opened by bash (root), no PAM service" \
    [ "$(json "$WORK/out/a.json" "d['process']['login']['comm'], d['process']['login']['opener']['comm'], d['process']['login']['opener']['uid'], d['process']['login']['service']")" = "$(basename "$RTJ_ABS" | cut -c1-15) bash 0 None" ]   # (make sanitize's binary is rtjitter-san)
NOLOGIN="start rtjitter from a login of $U: a console or desktop login, ssh, or sudo runuser -l $U"
check "the fix: start it from a login (setpriv opens none)" [ "$(get "$WORK/out/a.json" rtprio fix)" = "$NOLOGIN" ]
[ "$(get "$WORK/out/a.json" rtprio fix)" = "$NOLOGIN" ] || echo "# got: $(get "$WORK/out/a.json" rtprio why) | fix: $(get "$WORK/out/a.json" rtprio fix)"   # once in a full make check beside stress-ng: its cause
check "one fix for the three FAILs" [ "$(get "$WORK/out/a.json" memlock fix)|$(get "$WORK/out/a.json" sched_fifo fix)" = "$NOLOGIN|$NOLOGIN" ]
check "... printed once in the text, then 'the same as ... above'" \
    [ "$(grep -c "^        fix: $NOLOGIN\$" <(unwrap "$WORK/a.txt"))" -eq 1 -a "$(grep -c '^        fix: the same as for "Real-time priority' "$WORK/a.txt")" -eq 2 ]
check "never 'usermod -aG audio' to a member of audio" [ "$(grep -c usermod "$WORK/a.txt")" -eq 0 ]
check "the limits files grant it at the next login" [ "$(get "$WORK/out/a.json" limits_files status)" = ok ]
check "not running as root" [ "$(get "$WORK/out/a.json" root status)" = ok ]

# make check's runner as this login: rtjitter's own gate first, its why and fix, no test run, exit 2 (a fresh root's
# normal user failed 564 checks of 1686 instead, all for this one reason)
install -d -o "$uid" "$WORK/tmp-$U"
(cd "$TOP" && without --groups=29 env BUILD=build-check RTJ="$RTJ_ABS" TESTS='^nothing$' \
    TMPDIR="$WORK/tmp-$U" bash tests/run-tests.sh) >"$WORK/suite.out" 2>&1; rc=$?
check "make check's runner without real time: exit 2, rtjitter's why and fix, no test run (rc $rc: $(head -c 300 "$WORK/suite.out" | tr '\n' ' '))" \
    holds '[ "$rc" -eq 2 ] && grep -q "^rtjitter run: no real-time scheduling for this login" "$WORK/suite.out" && grep -q "^  fix: " "$WORK/suite.out" && grep -q "^run-tests: no test was run" "$WORK/suite.out" && ! grep -q "passed,\|allow-no-rt" "$WORK/suite.out"'

# --- not in force, not in audio at all -----------------------------------------------------------------
without --clear-groups "$RTJ_ABS" check --root "$WORK/outsider" --json "$WORK/out/c.json" >/dev/null 2>&1
check "not in audio: sudo usermod -aG audio $U, then log out and in again" [ "$(get "$WORK/out/c.json" rtprio fix)" = \
    "sudo usermod -aG audio $U, then log out and in again (/etc/security/limits.d/audio.conf grants audio rtprio 95 and memlock unlimited)" ]
check "not in audio: the limits files WARN with the same fix" \
    [ "$(get "$WORK/out/c.json" limits_files status)|$(get "$WORK/out/c.json" limits_files fix)" = "warn|$(get "$WORK/out/c.json" rtprio fix)" ]

# --- in force ------------------------------------------------------------------------------------------
with --groups=29 "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/d.json" >"$WORK/d.txt" 2>&1; rc=$?
no_fail() { [ "$rc" -eq 0 ] && [ "$(json "$WORK/out/d.json" "d['summary']['fail']")" -eq 0 ]; }
check "in force: exit 0, no FAIL (got $rc)" no_fail
check "in force: rtprio, memlock and sched_fifo OK" [ "$(get "$WORK/out/d.json" rtprio status) $(get "$WORK/out/d.json" memlock status) $(get "$WORK/out/d.json" sched_fifo status)" = "ok ok ok" ]
check "in force: a thread of $U really got SCHED_FIFO 80" [ "$(json "$WORK/out/d.json" "d['process']['sched_fifo']['ok'], d['process']['euid']")" = "True $uid" ]

# --- root under sudo: the musician's set-up, and a warning ----------------------------------------------
SUDO_USER=$U "$RTJ_ABS" check --root "$WORK/member" --json "$WORK/out/e.json" >/dev/null 2>&1
check "under sudo: root WARNs, naming $U" [ "$(get "$WORK/out/e.json" root status)|$(get "$WORK/out/e.json" root fix)" = "warn|run rtjitter as $U, without sudo" ]
check "under sudo: the limits files are judged for $U" grep -q "^$U gets rtprio 95" <(get "$WORK/out/e.json" limits_files why)

# --- real logins: runuser -l opens a PAM session (/etc/pam.d/runuser-l runs pam_limits) ------------------
# The observer: what such a login really gets, `ulimit` in its own shell.
login_as() { # USER COMMAND: a real login of USER, COMMAND run by its shell
    (cd /tmp && runuser -l "$1" -s /bin/bash -c "$2") 2>>"$WORK/runuser.err"
}
if ! command -v runuser >/dev/null || [ ! -f /etc/pam.d/runuser-l ]; then
    ok "# SKIP real logins: no runuser -l here"
else
    observed=$(login_as "$U2" 'echo $(ulimit -S -r) $(ulimit -H -r) $(ulimit -S -l) $(ulimit -H -l)')
    echo "# a real login of $U2 (in audio) gets: rtprio soft/hard, memlock soft/hard (KiB): $observed"
    # Member trees for U2: its /etc/group lists U2 in audio, as this machine's does.
    tree2() { # DIR AUDIO-CONF-MTIME PAM(yes|no)
        mkdir -p "$1/etc/security/limits.d" "$1/etc/pam.d"
        printf 'root:x:0:0:root:/root:/bin/bash\n%s:x:%s:100::/nonexistent:/bin/bash\n' "$U2" "$uid2" >"$1/etc/passwd"
        printf 'root:x:0:\nusers:x:100:\naudio:x:29:%s\n' "$U2" >"$1/etc/group"
        : >"$1/etc/security/limits.conf"
        cp "$TOP/tests/fixtures/sys-generic/etc/security/limits.d/audio.conf" "$1/etc/security/limits.d/"
        touch -d "$2" "$1/etc/security/limits.d/audio.conf"
        cp /etc/pam.d/runuser-l "$1/etc/pam.d/"
        if [ "$3" = yes ]; then cp /etc/pam.d/runuser "$1/etc/pam.d/"; else grep -v pam_limits /etc/pam.d/runuser >"$1/etc/pam.d/runuser"; fi
        chmod -R a+rX "$1"
    }
    # 1. The limits file was written after this login started: the one state whose fix is to log in again.
    tree2 "$WORK/later" "+1 hour" yes
    t0=$(date +%s)
    login_as "$U2" "$RTJ_ABS check --root $WORK/later --json $WORK/out/l1.json >$WORK/out/l1.txt"
    t1=$(date +%s)
    started=$(json "$WORK/out/l1.json" "d['process']['login']['started']")
    check "a real login: through runuser-l, opened by runuser (root), started while the test ran it ($t0 <= $started <= $t1)" \
        [ "$(json "$WORK/out/l1.json" "d['process']['login']['service'], d['process']['login']['opener']['comm'], d['process']['login']['opener']['uid']")" = "runuser-l runuser 0" \
          -a "$started" -ge $((t0 - 1)) -a "$started" -le $((t1 + 1)) ]
    mtime=$(stat -c %Y "$WORK/later/etc/security/limits.d/audio.conf")
    LATER="log out and in again (or reboot): /etc/security/limits.d/audio.conf was written at $(date -d "@$mtime" '+%F %T'), after this login started ($(date -d "@$started" '+%F %T'))"
    check "file after the login: log out and in again, with both times" [ "$(get "$WORK/out/l1.json" rtprio fix)" = "$LATER" ]
    check "file after the login: one fix for rtprio, memlock, sched_fifo; printed once" \
        [ "$(get "$WORK/out/l1.json" memlock fix)|$(get "$WORK/out/l1.json" sched_fifo fix)" = "$LATER|$LATER" -a \
          "$(grep -c '^        fix: log out and in again' "$WORK/out/l1.txt")" -eq 1 ]
    # 1b. The same, where `su -` runs pam_limits (the tree holds this machine's su and su-l): a new login in the same
    #     terminal is enough, and the fix says so first (issue 35); that `su - USER` gives a login the limits is
    #     what this machine's own su does: as root (no password), its rtprio and memlock are a real login's.
    if [ -f /etc/pam.d/su-l ] || [ -f /etc/pam.d/su ]; then
        tree2 "$WORK/latersu" "+1 hour" yes
        for f in su su-l common-session; do [ -f "/etc/pam.d/$f" ] && cp "/etc/pam.d/$f" "$WORK/latersu/etc/pam.d/"; done
        chmod -R a+rX "$WORK/latersu"
        login_as "$U2" "$RTJ_ABS check --root $WORK/latersu --json $WORK/out/l1s.json >/dev/null"
        if [ "$(json "$WORK/out/l1s.json" "bool((d['setup']['pam'].get('su-l') or d['setup']['pam'].get('su') or {}).get('limits'))")" = True ]; then
            check "file after the login, su - runs pam_limits: a new login in this terminal, su - $U2, first" \
                grep -q "^start a new login in this terminal, su - $U2 (or log out and in again): /etc/security/limits.d/audio.conf was written at" <(get "$WORK/out/l1s.json" rtprio fix)
            viasu=$(su - "$U2" -s /bin/bash -c 'echo $(ulimit -S -r) $(ulimit -H -r) $(ulimit -S -l) $(ulimit -H -l)' 2>/dev/null)
            check "su - $U2 gives a login this machine's limits, as runuser -l does ($viasu = $observed)" [ "$viasu" = "$observed" ]
        else
            ok "# SKIP su - runs no pam_limits in this machine's PAM: the fix is to log out and in"
        fi
    fi
    # 2. A login through a PAM service whose session stack has no pam_limits (the file older than the login).
    tree2 "$WORK/nopam" "-1 day" no
    login_as "$U2" "$RTJ_ABS check --root $WORK/nopam --json $WORK/out/l2.json >/dev/null"
    check "runuser-l without pam_limits (it includes runuser): add pam_limits to /etc/pam.d/runuser-l" \
        [ "$(get "$WORK/out/l2.json" rtprio fix)" = 'add the line "session required pam_limits.so" to /etc/pam.d/runuser-l, then log out and in again' ]
    # 3. With pam_limits, after the file, in audio: in force where the login program may raise the hard limit;
    #    where it may not (no CAP_SYS_RESOURCE: this sandbox), the hard limit it kept, and that reason.
    tree2 "$WORK/pam" "-1 day" yes
    login_as "$U2" "$RTJ_ABS check --root $WORK/pam --json $WORK/out/l3.json >/dev/null"
    set -- $observed
    if [ "$2" = unlimited ] || [ "$2" -ge 75 ]; then
        check "pam_limits in force (observed hard rtprio $2): rtprio OK" [ "$(get "$WORK/out/l3.json" rtprio status)" = ok ]
    else
        check "pam_limits could not raise the hard rtprio (observed $2): that reason, and its fix" \
            [ "$(get "$WORK/out/l3.json" rtprio status)" = fail -a \
              "$(get "$WORK/out/l3.json" rtprio fix)" = "log in through a login program with full root rights (a console or desktop login, or ssh), not one from a sandbox without CAP_SYS_RESOURCE" ]
        grep -q "has a hard RLIMIT_RTPRIO of $2: runuser could not raise it" <(get "$WORK/out/l3.json" rtprio why) &&
            ok "... the why names the login program and the hard limit it kept" || not_ok "why: $(get "$WORK/out/l3.json" rtprio why)"
    fi
    # 4. Added to audio after the login: the tree's /etc/group lists U, this machine's login gives U no audio.
    (cd /tmp && runuser -l "$U" -s /bin/bash -c "$RTJ_ABS check --root $WORK/member --json $WORK/out/l4.json >/dev/null") 2>>"$WORK/runuser.err"
    check "a real login of $U, in audio only in the tree's /etc/group: 'you were added to audio after this login started'" \
        grep -q "^log out and in again (or reboot): you were added to audio after this login started" <(get "$WORK/out/l4.json" rtprio fix)
    # 5. This machine as it is: the real files, the real login.
    login_as "$U2" "$RTJ_ABS check --json $WORK/out/l5.json >/dev/null"
    if [ -e /.dockerenv ] || [ -e /run/.containerenv ]; then
        set -- $observed
        if [ "$2" != unlimited ] && [ "$2" -lt 75 ]; then
            check "this machine is a container with hard rtprio $2: the container's fix" [ "$(get "$WORK/out/l5.json" rtprio fix)" = \
                "start the container with --ulimit rtprio=95 --ulimit memlock=-1 (docker run or podman run; --cap-add=SYS_NICE --cap-add=IPC_LOCK gives the same rights)" ]
        fi
    fi
    # run's gate says the same fix as check, once.
    login_as "$U2" "cd $WORK/out && $RTJ_ABS run --backend timer --loads none -D 1 --quiet --output $WORK/out/store >$WORK/out/g.txt 2>&1"; rc=$?
    if [ "$(get "$WORK/out/l5.json" sched_fifo status)" = fail ]; then
        # (the gate wraps to the terminal: the fix's lines joined; its commands are never broken)
        gfix=$(python3 -c 'import re,sys; t=open(sys.argv[1]).read(); m=re.search(r"^  fix: (.*(?:\n {7}\S.*)*)", t, re.M); print(re.sub(r"\n {7}", " ", m.group(1)) if m else "")' "$WORK/out/g.txt")
        check "run as that login: exit 2 at the gate, with check's fix once (got $rc)" \
            [ "$rc" -eq 2 -a "$(grep -c '^  fix: ' "$WORK/out/g.txt")" -eq 1 -a "$gfix" = "$(get "$WORK/out/l5.json" sched_fifo fix)" ]
        gj=$(tr '\n' ' ' <"$WORK/out/g.txt" | tr -s ' ')
        check "the gate fits 80 columns, names the priority check names (70), and offers --allow-no-rt as no kernel test" \
            holds '[ "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" "$WORK/out/g.txt")" -le 80 ] && echo "$gj" | grep -q "needs 70\|priority 70" && grep -q "^  or: --allow-no-rt measures anyway" "$WORK/out/g.txt" && echo "$gj" | grep -q "not a kernel test"'
        sed 's/^/#   /' "$WORK/out/g.txt"
    fi
    # 6. check --user as root: the login predicted, against what a real login of the user gets. First the user in
    #    audio with this machine's files; then U with its own limits file that lowers memlock (which needs no right).
    "$RTJ_ABS" check --user "$U2" --json "$WORK/out/p1.json" >"$WORK/out/p1.txt" 2>&1
    predicted() { json "$1" "' '.join(str(x // 1024 if k == 'memlock' and isinstance(x, int) else x) for k in ('rtprio', 'memlock') for x in (d['process'][k]['soft'], d['process'][k]['hard']))"; }
    check "--user $U2 as root: predicted ($(predicted "$WORK/out/p1.json")) = a real login's ($observed)" [ "$(predicted "$WORK/out/p1.json")" = "$observed" ]
    check "--user $U2: the root check says whose login is judged" grep -q "^running as root: $U2's next login is judged as PAM gives it" <(get "$WORK/out/p1.json" root why)
    printf '%s soft memlock 4096\n%s hard memlock 6144\n' "$U" "$U" >"$LIMITS_D"
    obs=$(login_as "$U" 'echo $(ulimit -S -r) $(ulimit -H -r) $(ulimit -S -l) $(ulimit -H -l)')
    "$RTJ_ABS" check --user "$U" --json "$WORK/out/p2.json" >/dev/null 2>&1
    check "--user $U with its own memlock lines: predicted ($(predicted "$WORK/out/p2.json")) = a real login's ($obs)" \
        [ "$(predicted "$WORK/out/p2.json")" = "$obs" -a "$(echo "$obs" | cut -d' ' -f3-)" = "4096 6144" ]
    rm -f "$LIMITS_D"
fi

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
      -a "$(grep -m1 -n '^  \(why\|fix\): ' "$WORK/run.log" | cut -d: -f1)" = 2 -a "$(grep -c '^  fix: ' "$WORK/run.log")" -eq 1 ]
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
