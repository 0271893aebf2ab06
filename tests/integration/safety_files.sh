#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: passwd (useradd and userdel take /etc/passwd's lock: one such test at a time)
# The user's files against an interrupted, killed or doomed run (issue 21, items 4 and 8), each attack performed:
# - Ctrl-C and SIGTERM during --loopback --record take.flac: the user's older take.flac is byte for byte what it
#   was; what was captured is kept under a new name (take.partial-<UTC time>.flac), read back by libsndfile
#   (tests/helpers/wav_read, not rtjitter's code) with as many frames as the report says and no more than the time
#   the run had; said on stderr and in the report; never over an existing file (decoys under every name the next
#   30 s could give are left byte for byte, the take gets a -2 name); exit 3 within 2 s. A run that completes still
#   replaces take.flac.
# - SIGKILL: two runs side by side record into one folder, one is killed; its hidden .NAME.tmp-* file and its
#   .rtjitter-glitches-* folder stay; the next run there removes exactly those (it says so) and never the live run's
#   (found through /proc/PID/fd of the live run, not through rtjitter), nor a symlink or a report writer's temp name
#   that look alike; the live run then finishes and keeps its take.
# - A normal user (created here) names, in a sticky world-writable folder like /tmp, a file owned by another user
#   as --json, --html or --record: the rename at the end would be refused, so the run refuses at once (one line,
#   exit 2, naming why, nothing measured, no report stored, no probe file left); the other user's file untouched.
#   A new name, or the user's own file there, still passes, and the pre-check's probe file never stays.
. "$(dirname "$0")/../lib.sh"
SRV="rtjt-hf-$$-a"
U="rtjthf$$u"
V="rtjthf$$v"
RUN_PIDS=()
cleanup_hf() {
    [ "$BASHPID" = "$$" ] || return 0
    local p u
    for p in "${RUN_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    for u in "$U" "$V"; do
        for _ in 1 2 3 4 5; do id "$u" >/dev/null 2>&1 || break; userdel "$u" 2>/dev/null || sleep 0.2; done
    done
    rm -f /dev/shm/jack_sem.*_"rtjt-hf-$$-"*
    python3 "$RTJ_LIB_DIR/helpers/jack_registry.py" reclaim "rtjt-hf-$$-" | grep '^#'
    cleanup_lib
}
trap cleanup_hf EXIT
trap 'exit 143' TERM INT HUP
H=$RTJ_HELPERS
start_jackd "$SRV" 48000 256 || { not_ok "jackd starts"; exit 0; }

# rec_start TAG DIR TARGET [args]: a loopback run recording into DIR/TARGET (report DIR/TAG.json), in the
# background; waits until its capture port exists and its warm-up (0.3 s) is over. Sets RPID.
rec_start() {
    local tag=$1 dir=$2 target=$3 i; shift 3
    "$RTJ" run --server "$SRV" --loads none --duration 30 --warmup 0.3 --quiet --loopback internal \
        --record "$dir/$target" --json "$dir/$tag.json" "$@" >"$WORK/$tag.out" 2>"$WORK/$tag.err" &
    RPID=$!
    RUN_PIDS+=("$RPID")
    for i in $(seq 100); do jack_lsp -s "$SRV" 2>/dev/null | grep -q "^rtjitter-$RPID:in" && break; sleep 0.1; done
    sleep 1.2
}
# rec_stop SIG: the signal to RPID; sets RC and DT (seconds from the signal to the exit).
rec_stop() {
    local t0
    t0=$(date +%s.%N)
    kill "-$1" "$RPID"
    wait "$RPID"; RC=$?
    DT=$(python3 -c "print(round($(date +%s.%N) - $t0, 2))")
}
# partial_ok TAG PARTIAL DIR: the kept take is what the report says, read back by libsndfile, no longer than the
# run's life, at the server's rate; no temporary file of it left in DIR.
partial_ok() {
    local tag=$1 f=$2 dir=$3 got rep
    got=$("$H/wav_read" "$f" 2>&1) || { echo "# $f: $got"; return 1; }
    rep=$(json "$dir/$tag.json" 'd["loopback"]["record"]["frames"], d["loopback"]["record"]["partial"], d["loopback"]["record"]["path"], d["complete"]')
    echo "# $tag: libsndfile: $got; report: $rep; life ${LIFE}s"
    set -- $got
    [ "$4" = 48000 ] && [ "$6" = 1 ] && [ "$2" -gt 0 ] && [ "$rep" = "$2 True $f False" ] &&
        python3 -c "import sys; sys.exit(not $2 / 48000 <= $LIFE)" &&
        [ -z "$(ls -A "$dir" | grep '\.tmp-')" ]
}

# --- Ctrl-C: the older take stays, the capture is kept under a new name ---------------------------------------
D=$WORK/takes
mkdir "$D"
head -c 65536 /dev/urandom >"$D/take.flac"
cp "$D/take.flac" "$WORK/take.orig"
t_start=$(date +%s.%N)
rec_start int "$D" take.flac
rec_stop INT
LIFE=$(python3 -c "print(round($(date +%s.%N) - $t_start, 2))")
echo "# SIGINT: rc $RC in ${DT}s; stderr: $(cat "$WORK/int.err")"
P1=$(ls "$D" | grep '^take\.partial-[0-9]\{8\}T[0-9]\{6\}Z\.flac$')
check "SIGINT: exit 3 within 2 s (rc $RC, ${DT}s)" python3 -c "import sys; sys.exit(not ($RC == 3 and $DT <= 2))"
check "SIGINT: the older take.flac is byte for byte what it was" cmp -s "$D/take.flac" "$WORK/take.orig"
check "SIGINT: the capture is kept as one take.partial-<time>.flac (${P1:-none})" [ "$(echo "$P1" | grep -c .)" = 1 ]
check "SIGINT: libsndfile reads it back: the report's frames, 48 kHz mono, no longer than the run lived" \
    partial_ok int "$D/$P1" "$D"
check "SIGINT: stderr names the kept take and the untouched one" \
    grep -qF "are kept in $D/$P1 ($D/take.flac was left as it was)" "$WORK/int.err"

# --- SIGTERM, with every name the next 30 s could give already taken: never over a file ----------------------
now=$(date -u +%s)
for s in $(seq 0 30); do
    n="take.partial-$(date -u -d "@$((now + s))" +%Y%m%dT%H%M%SZ).flac"
    [ -e "$D/$n" ] || echo "decoy $s" >"$D/$n"
done
(cd "$D" && md5sum take.partial-*.flac take.flac) >"$WORK/before.md5"
t_start=$(date +%s.%N)
rec_start term "$D" take.flac
rec_stop TERM
LIFE=$(python3 -c "print(round($(date +%s.%N) - $t_start, 2))")
echo "# SIGTERM: rc $RC in ${DT}s; stderr: $(cat "$WORK/term.err")"
P2=$(ls "$D" | grep '^take\.partial-[0-9]\{8\}T[0-9]\{6\}Z-[0-9]*\.flac$')
check "SIGTERM: exit 3 within 2 s (rc $RC, ${DT}s)" python3 -c "import sys; sys.exit(not ($RC == 3 and $DT <= 2))"
check "SIGTERM: take.flac, the first partial take and the 30 decoys are byte for byte what they were" \
    bash -c "cd '$D' && md5sum --quiet -c '$WORK/before.md5'"
check "SIGTERM: its name taken, the capture went to a -N name (${P2:-none})" [ "$(echo "$P2" | grep -c .)" = 1 ]
check "SIGTERM: libsndfile reads it back: the report's frames, 48 kHz mono, no longer than the run lived" \
    partial_ok term "$D/$P2" "$D"

# --- a run that completes still replaces take.flac ---------------------------------------------------------------
"$RTJ" run --server "$SRV" --loads none --duration 1 --warmup 0.3 --quiet --loopback internal \
    --record "$D/take.flac" --json "$D/full.json" >"$WORK/full.out" 2>"$WORK/full.err"; RC=$?
got=$("$H/wav_read" "$D/take.flac" 2>&1)
echo "# complete run: rc $RC; take.flac: $got; report: $(json "$D/full.json" 'd["loopback"]["record"]')"
check "a complete run (rc $RC) replaces take.flac with its capture, as the report says" \
    [ "$RC" = 0 -a "$(echo "$got" | cut -d' ' -f2)" = "$(json "$D/full.json" 'd["loopback"]["record"]["frames"]')" \
      -a "$(json "$D/full.json" 'd["loopback"]["record"]["partial"], d["loopback"]["record"]["path"]')" = "False $D/take.flac" ]

# --- SIGKILL beside a live run: the next run removes the dead one's files only -----------------------------------
K=$WORK/kill
mkdir "$K" "$WORK/elsewhere"
echo precious >"$WORK/elsewhere/target.wav"
ln -s "$WORK/elsewhere/target.wav" "$K/.link.wav.tmp-0123456789ab"      # a symlink under a temp file's name
echo writer >"$K/.report.json.tmp-abcdef012345"                        # a report writer's temp name (doc.h)
rec_start dead "$K" dead.wav
DEAD=$RPID
rec_start live "$K" live.wav
LIVE=$RPID
# The live run's own entries, as the kernel sees its open files (not as rtjitter names them).
live_fds=$(ls -l /proc/"$LIVE"/fd 2>/dev/null | sed -n "s|.* -> $K/||p" | sort -u)
kill -KILL "$DEAD"; wait "$DEAD" 2>/dev/null
ours() { ls -A "$K" | grep -E '^\.(dead|live)\.wav\.tmp-|^\.rtjitter-glitches-' | sort; }
left=$(ours)
dead_left=$(comm -23 <(echo "$left") <(echo "$live_fds"))
echo "# live run's entries (/proc/$LIVE/fd): $(echo $live_fds); after kill -9: $(echo $left)"
check "kill -9: the dead run left its temporary file and its glitch folder ($(echo $dead_left))" \
    [ "$(echo "$dead_left" | grep -c '^\.dead\.wav\.tmp-')" = 1 -a "$(echo "$dead_left" | grep -c '^\.rtjitter-glitches-')" = 1 ]
check "kill -9: the live run holds its own two (through /proc/$LIVE/fd)" \
    [ "$(echo "$live_fds" | grep -cE '^\.live\.wav\.tmp-|^\.rtjitter-glitches-')" = 2 ]
"$RTJ" run --server "$SRV" --loads none --duration 0.5 --warmup 0.2 --quiet --loopback internal \
    --record "$K/next.wav" --json "$K/next.json" >"$WORK/next.out" 2>"$WORK/next.err"; RC=$?
echo "# next run: rc $RC; stderr: $(cat "$WORK/next.err")"
after=$(ours)
check "the next run (rc $RC) removed the dead run's file and folder" \
    [ -z "$(comm -12 <(echo "$after") <(echo "$dead_left"))" -a "$RC" = 0 ]
check "... and said so, naming each" \
    bash -c "for n in $(echo $dead_left); do grep -qF \"removed $K/\$n\" '$WORK/next.err' || exit 1; done"
check "... and left the live run's (still running: $(kill -0 "$LIVE" 2>/dev/null && echo yes || echo no))" \
    [ "$after" = "$(echo "$live_fds" | grep -E '^\.live\.wav\.tmp-|^\.rtjitter-glitches-')" ]
check "... and the look-alikes: the symlink (its target intact) and the report writer's temp file" \
    [ -L "$K/.link.wav.tmp-0123456789ab" -a "$(cat "$WORK/elsewhere/target.wav")" = precious \
      -a "$(cat "$K/.report.json.tmp-abcdef012345" 2>/dev/null)" = writer ]
rec_stop INT
check "the live run, stopped, kept its take (rc $RC)" \
    [ "$RC" = 3 -a "$(ls "$K" | grep -c '^live\.partial-.*\.wav$')" = 1 -a -z "$(ours)" ]

# --- a normal user, another user's file in a sticky folder: refused before the run -------------------------------
if ! useradd -M -N -s /bin/sh "$U" 2>"$WORK/useradd.err" || ! useradd -M -N -s /bin/sh "$V" 2>>"$WORK/useradd.err"; then
    ok "# SKIP no user could be created: $(head -1 "$WORK/useradd.err")"
    exit 0
fi
AS_U=(setpriv --reuid="$(id -u "$U")" --regid="$(id -g "$U")" --clear-groups)
chmod 755 "$WORK"
mkdir -p "$WORK/bin" "$WORK/u"
cp "$RTJ" "$WORK/bin/rtjitter" && cp -r "${RTJ_TOP:-.}/data" "$WORK/bin/" && chmod -R a+rX "$WORK/bin"
chown "$U" "$WORK/u"
RUN_U=("${AS_U[@]}" env HOME="$WORK/u" XDG_DATA_HOME="$WORK/u/xdg" TMPDIR="$WORK/u" "$WORK/bin/rtjitter")
ST=$WORK/sticky
mkdir "$ST" && chmod 1777 "$ST"                                     # like /tmp: root's, sticky, world-writable
for f in victim.json victim.html victim.wav; do echo "$V's $f" >"$ST/$f"; done
chown "$V" "$ST"/victim.*; chmod 666 "$ST"/victim.*                 # writable by all: only the rename is refused
(cd "$ST" && md5sum victim.*) >"$WORK/victim.md5"
# refused OPT TARGET [ARGS]: U's run with OPT TARGET ends at once: exit 2, one line naming the file and why.
refused() {
    local opt=$1 target=$2 t0 rc; shift 2
    t0=$(date +%s.%N)
    "${RUN_U[@]}" run --allow-no-rt --loads none --duration 10 --warmup 0.3 --quiet "$opt" "$target" "$@" \
        >"$WORK/ref.out" 2>"$WORK/ref.err"; rc=$?
    local dt
    dt=$(python3 -c "print(round($(date +%s.%N) - $t0, 2))")
    echo "# $U, $opt $target: rc $rc in ${dt}s: $(cat "$WORK/ref.err")"
    [ "$rc" = 2 ] && [ "$(wc -l <"$WORK/ref.err")" = 1 ] &&
        grep -qF -- "$opt $target: cannot be replaced: it belongs to another user (uid $(id -u "$V")) in a sticky directory" "$WORK/ref.err" &&
        python3 -c "import sys; sys.exit(not $dt < 5)" &&
        [ -z "$(find "$WORK/u" -name '*.json' 2>/dev/null)" ]                # no report stored: nothing measured
}
check "normal user, --json: another user's file in a sticky folder: exit 2 at once, one line, why" \
    refused --json "$ST/victim.json"
check "normal user, --html: the same" refused --html "$ST/victim.html"
check "normal user, --record: the same" refused --record "$ST/victim.wav" --loopback internal
check "... the other user's files untouched, no probe file left in the folder" \
    [ -z "$(cd "$ST" && md5sum --quiet -c "$WORK/victim.md5" 2>&1)" -a "$(ls -A "$ST" | wc -l)" = 3 ]
# Allowed: a new name, and the user's own file in the same folder. The pre-check's probe file never stays: the
# folder is listed while the run measures (timer backend: no server a normal user could not reach).
echo "$U's own" >"$ST/own.json"; chown "$U" "$ST/own.json"
"${RUN_U[@]}" run --backend timer --allow-no-rt --loads none --duration 1.5 --warmup 0.3 --quiet \
    --json "$ST/new.json" --html "$ST/own.json" >"$WORK/al.out" 2>"$WORK/al.err" &
apid=$!
RUN_PIDS+=("$apid")
probes=0
while kill -0 "$apid" 2>/dev/null; do
    ls -A "$ST" | grep -q '\.tmp-' && probes=$((probes + 1))
    sleep 0.05
done
wait "$apid"; rc=$?
echo "# allowed: rc $rc: $(cat "$WORK/al.err"); listings with a .tmp- entry: $probes"
check "normal user: a new name and its own file in the sticky folder pass (rc $rc), both written by it" \
    [ "$rc" = 0 -a "$(stat -c %U "$ST/new.json")" = "$U" -a "$(stat -c %U "$ST/own.json")" = "$U" \
      -a "$(json "$ST/new.json" 'd["complete"]')" = True ] && grep -q '<html' "$ST/own.json"
check "normal user: no temp or probe file ever stayed in the folder (seen in $probes listings; none now)" \
    [ -z "$(ls -A "$ST" | grep '\.tmp-')" ]
