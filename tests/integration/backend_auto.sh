#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: plain (short runs on a private PipeWire and a private jackd, never two jackds)
# --backend auto (issue 33): the backend of the server the user would reach, each answer checked against the server
# itself (pw-cli lists our node in the PipeWire graph, jack_lsp our ports on the jackd, both during the run).
# Checked: neither answers -> exit 2, one line naming both places asked; only a PipeWire (its socket in
# XDG_RUNTIME_DIR, then by PIPEWIRE_REMOTE as an absolute path with XDG_RUNTIME_DIR elsewhere) -> pipewire, said on
# stderr in one line and in the report's audio.backend_auto with the socket's path (in a ladder timer,auto, in the
# pipewire depth's report only); under pw-jack -> jack through
# PipeWire's JACK (provider pipewire-jack), as pw-jack asks; only a jackd (JACK_DEFAULT_SERVER, then --server) -> jack
# on that server; both -> exit 2, one line naming both; watch --backend auto under PipeWire -> watches our node.
. "$(dirname "$0")/../lib.sh"

for c in pipewire pw-cli pw-jack jackd jack_lsp; do
    command -v "$c" >/dev/null || { ok "# SKIP $c is not installed"; exit 0; }
done
PW=
stop_pw() {
    [ -n "$PW" ] && { kill -TERM "$PW" 2>/dev/null; wait "$PW" 2>/dev/null; }
    cleanup_lib
}
trap stop_pw EXIT
unset PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR
NONE="$WORK/pwauto-none"
mkdir -p -m 0700 "$NONE"
JNAME=$(server_name pwauto)

# ---- neither answers ----
XDG_RUNTIME_DIR="$NONE" "$RTJ" run --backend auto --loads none --duration 1 --quiet --server "$JNAME" \
    >"$WORK/n.out" 2>"$WORK/n.err"
rc=$?
check "neither answers: exit 2 with one line naming both places (rc $rc: $(err_first "$WORK/n.err"))" \
    holds '[ "$rc" -eq 2 ] && [ "$(err_lines "$WORK/n.err")" -eq 1 ] && grep -q "no server answers: neither PipeWire (at $NONE/$JNAME) nor jackd .$JNAME." "$WORK/n.err"'

# ---- a run that lists itself to an observer: ASK is a command run 1.5 s into the run, its output kept ----
# auto_run NAME ASK RTJ-ARGS...: sets rc; $WORK/NAME.json, .err, .seen
auto_run() {
    local n=$1 ask=$2 pid
    shift 2
    "$RTJ" run --loads none --duration 2 --warmup 0.5 --quiet --json "$WORK/$n.json" "$@" >"$WORK/$n.out" \
        2>"$WORK/$n.err" &
    pid=$!
    sleep 1.5
    eval "$ask" >"$WORK/$n.seen" 2>&1
    wait "$pid"
    rc=$?
}

# ---- only a PipeWire ----
export XDG_RUNTIME_DIR="$WORK/pwauto-runtime"
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
unset DBUS_SESSION_BUS_ADDRESS PIPEWIRE_QUANTUM
pipewire >"$WORK/pw.log" 2>&1 &
PW=$!
for i in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break; sleep 0.1; done
check "private pipewire is up" [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]
auto_run pw 'pw-cli ls Node' --backend auto
a=$(json "$WORK/pw.json" "d['audio']['backend'], d['audio']['provider']")
check "only PipeWire: exit 0, the report says pipewire (rc $rc, $a)" [ "$rc $a" = "0 pipewire pipewire" ]
check "only PipeWire: pw-cli listed our node in the graph during the run" grep -q '"rtjitter-[0-9]*"' "$WORK/pw.seen"
check "only PipeWire: one line on stderr says it chose pipewire and where it answered ($(head -1 "$WORK/pw.err"))" \
    holds '[ "$(err_lines "$WORK/pw.err")" -eq 1 ] && grep -q "^rtjitter run: --backend auto chose pipewire: PipeWire answers at $XDG_RUNTIME_DIR/pipewire-0, no jackd .default. does" "$WORK/pw.err"'
check "only PipeWire: the report keeps why (audio.backend_auto)" \
    [ "$(json "$WORK/pw.json" "d['audio']['backend_auto']")" = "$(sed 's/^rtjitter run: //' "$WORK/pw.err")" ]

# by PIPEWIRE_REMOTE, an absolute path, with XDG_RUNTIME_DIR elsewhere (libpipewire's rule)
SOCK="$XDG_RUNTIME_DIR/pipewire-0"
PIPEWIRE_REMOTE="$SOCK" XDG_RUNTIME_DIR="$NONE" auto_run remote 'pw-cli ls Node' --backend auto
check "PIPEWIRE_REMOTE names the socket, XDG_RUNTIME_DIR elsewhere: exit 0, pipewire at that path (rc $rc: $(head -1 "$WORK/remote.err"))" \
    holds '[ "$rc" -eq 0 ] && [ "$(json "$WORK/remote.json" "d[\"audio\"][\"backend\"]")" = pipewire ] && grep -q "chose pipewire: PipeWire answers at $SOCK," "$WORK/remote.err" && grep -q "\"rtjitter-[0-9]*\"" "$WORK/remote.seen"'

# a depth ladder with auto: only the depth auto chose says why
"$RTJ" run --backend timer,auto --loads none --duration 1 --warmup 0.3 --quiet --output "$WORK/ladder" \
    >"$WORK/lad.out" 2>"$WORK/lad.err"
rc=$?
lad=$(for f in $(find "$WORK/ladder" -name '*.json' | sort); do
    json "$f" "d['audio']['backend'], 'why' if d['audio'].get('backend_auto') else '-'"; done | tr '\n' ' ')
check "a ladder timer,auto: exit 0, its depths timer then pipewire, only pipewire's report says why auto chose it (rc $rc: $lad)" \
    [ "$rc $lad" = "0 timer - pipewire why " ]

# under pw-jack: libjack is PipeWire's, the JACK backend through it
pw-jack "$RTJ" run --backend auto --loads none --duration 1 --warmup 0.2 --quiet --json "$WORK/pwj.json" \
    >"$WORK/pwj.out" 2>"$WORK/pwj.err"
rc=$?
a=$(json "$WORK/pwj.json" "d['audio']['backend'], d['audio']['provider']")
check "under pw-jack: exit 0, jack through PipeWire's JACK, said so (rc $rc, $a: $(head -1 "$WORK/pwj.err"))" \
    holds '[ "$rc $a" = "0 jack pipewire-jack" ] && grep -q "chose jack: libjack is PipeWire.s (pw-jack)" "$WORK/pwj.err"'

# watch --backend auto
"$RTJ" watch --backend auto --duration 2 --json "$WORK/w.json" >"$WORK/w.out" 2>"$WORK/w.err" &
wpid=$!
sleep 1.2
pw-cli ls Node >"$WORK/w.seen" 2>&1
wait "$wpid"
rc=$?
check "watch --backend auto under PipeWire: exit 0, it watched with our node (rc $rc: $(head -1 "$WORK/w.err"))" \
    holds '[ "$rc" -eq 0 ] && [ "$(json "$WORK/w.json" "d[\"audio\"][\"backend\"]")" = pipewire ] && grep -q "\"rtjitter-$wpid\"" "$WORK/w.seen" && grep -q "^rtjitter watch: --backend auto chose pipewire" "$WORK/w.err"'

# ---- both answer: a jackd named by JACK_DEFAULT_SERVER beside the PipeWire ----
start_jackd "$JNAME" 48000 256
check "private jackd $JNAME is up" [ $? -eq 0 ]
JACK_DEFAULT_SERVER="$JNAME" "$RTJ" run --backend auto --loads none --duration 1 --quiet >"$WORK/b.out" 2>"$WORK/b.err"
rc=$?
check "both answer: exit 2 with one line naming both (rc $rc: $(err_first "$WORK/b.err"))" \
    holds '[ "$rc" -eq 2 ] && [ "$(err_lines "$WORK/b.err")" -eq 1 ] && grep -q "both PipeWire (at $XDG_RUNTIME_DIR/pipewire-0) and jackd .$JNAME. answer: give --backend pipewire or --backend jack" "$WORK/b.err"'

# ---- only a jackd: the PipeWire stopped ----
kill -TERM "$PW"; wait "$PW" 2>/dev/null; PW=
JACK_DEFAULT_SERVER="$JNAME" auto_run jk "jack_lsp -s $JNAME" --backend auto
a=$(json "$WORK/jk.json" "d['audio']['backend'], d['audio']['provider'], d['audio']['server_name']")
check "only a jackd (JACK_DEFAULT_SERVER): exit 0, jack on $JNAME (rc $rc, $a: $(err_first "$WORK/jk.err"))" \
    holds '[ "$rc $a" = "0 jack jack2 $JNAME" ] && grep -q "chose jack: jackd .$JNAME. answers, no PipeWire at $XDG_RUNTIME_DIR/pipewire-0" "$WORK/jk.err"'
check "only a jackd: jack_lsp listed our ports on $JNAME during the run" grep -q "^rtjitter" "$WORK/jk.seen"
auto_run jk2 "jack_lsp -s $JNAME" --backend auto --server "$JNAME"
check "only a jackd (--server): exit 0, jack on $JNAME (rc $rc: $(err_first "$WORK/jk2.err"))" \
    holds '[ "$rc" -eq 0 ] && [ "$(json "$WORK/jk2.json" "d[\"audio\"][\"server_name\"]")" = "$JNAME" ] && grep -q "^rtjitter" "$WORK/jk2.seen"'
stop_jackd "$JACKD_PID"
