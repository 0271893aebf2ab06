#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: plain (short runs on a private PipeWire and WirePlumber beside a stalling client and canaries)
# The native PipeWire backend under WirePlumber, the session manager Ubuntu Studio runs (issue 33): a private session
# D-Bus (dbus-daemon --session, its own socket in /tmp/pwauto-bus.XXXXXX, stopped by its PID), a private headless PipeWire and WirePlumber with
# their own XDG_RUNTIME_DIR, the quantum forced to 256 (pw-metadata, read back). Checked against observers the code
# does not produce:
#  - WirePlumber runs the session: pw-cli lists it as a client of that PipeWire, and the "default" metadata it keeps;
#  - `run --backend pipewire` and `watch --backend pipewire` exit 0 under it, our node in the graph during each
#    (pw-cli ls Node), the report's quantum the forced one;
#  - a client of the test's own (tests/helpers/stall_client through pw-jack, its own log on CLOCK_MONOTONIC) stalls
#    20 ms three times in each: every stall exactly one event, an event beyond them only when a canary (lib.sh's
#    fine_canaries) or the stall client's own log saw the machine stall then (tests/helpers/pw_judge.py), each event
#    in a stall naming the stalling client first, observed (pw_named.py); pw-profiler's own rows (-o) saw the staller
#    unfinished, and the report counts its unfinished cycles between 3 and pw-profiler's rows.
. "$(dirname "$0")/../lib.sh"

for c in pipewire wireplumber dbus-daemon pw-jack pw-cli pw-metadata pw-profiler; do
    command -v "$c" >/dev/null || { ok "# SKIP $c is not installed"; exit 0; }
done
DBUS=
PW=
WP=
PROF=
SPID=
stop_all() {
    [ -n "$SPID" ] && { kill -TERM "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; }
    [ -n "$PROF" ] && { kill -INT "$PROF" 2>/dev/null; wait "$PROF" 2>/dev/null; }
    [ -n "$WP" ] && { kill -TERM "$WP" 2>/dev/null; wait "$WP" 2>/dev/null; }
    [ -n "$PW" ] && { kill -TERM "$PW" 2>/dev/null; wait "$PW" 2>/dev/null; }
    [ -n "$DBUS" ] && { kill -TERM "$DBUS" 2>/dev/null; wait "$DBUS" 2>/dev/null; }
    [ -n "${BUS_DIR:-}" ] && rm -rf "$BUS_DIR"
    cleanup_lib
}
trap stop_all EXIT
HELP_PY=$(cd "$(dirname "$0")/../helpers" && pwd)
export XDG_RUNTIME_DIR="$WORK/pwauto-runtime"
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
unset PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR PIPEWIRE_QUANTUM DBUS_SESSION_BUS_ADDRESS

# the session bus, on a socket of its own in a short private dir (a socket's path is at most 107 bytes; the runner's
# work dirs are long)
BUS_DIR=$(mktemp -d /tmp/pwauto-bus.XXXXXX)
dbus-daemon --session --nofork --address="unix:path=$BUS_DIR/bus" --print-address=1 \
    >"$WORK/dbus.addr" 2>"$WORK/dbus.err" &
DBUS=$!
for i in $(seq 50); do [ -s "$WORK/dbus.addr" ] && break; sleep 0.1; done
export DBUS_SESSION_BUS_ADDRESS=$(head -1 "$WORK/dbus.addr")
check "a private session bus is up ($DBUS_SESSION_BUS_ADDRESS)" [ -S "$BUS_DIR/bus" ] || sed 's/^/# dbus: /' "$WORK/dbus.err"
pipewire >"$WORK/pw.log" 2>&1 &
PW=$!
for i in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break; sleep 0.1; done
check "private pipewire is up" [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]
wireplumber >"$WORK/wp.log" 2>&1 &
WP=$!
for i in $(seq 100); do pw-cli ls Metadata 2>/dev/null | grep -q 'metadata.name = "default"' && break; sleep 0.1; done
pw-cli ls Client >"$WORK/clients" 2>&1
check "WirePlumber runs the session: a client of this PipeWire, its \"default\" metadata there" \
    holds 'kill -0 "$WP" && grep -q "application.name = \"WirePlumber\"" "$WORK/clients" && pw-cli ls Metadata | grep -q "metadata.name = \"default\""'
Q=256
pw-metadata -n settings 0 clock.force-quantum "$Q" >/dev/null
seen=$(pw-metadata -n settings 0 clock.force-quantum 2>&1 | grep -o "value:'[0-9]*'")
check "the quantum forced to $Q is in force by pw-metadata ($seen)" [ "$seen" = "value:'$Q'" ]

# one_case run|watch: rtjitter beside a client stalling 20 ms three times, pw-profiler and the canaries
one_case() {
    local cmd=$1 D="$WORK/$1" attempt se rc rpid named pp
    for attempt in 1 2; do   # a stall cut by the window's edge all the same: once more
        rm -rf "$D"; mkdir "$D"
        STALL_CLOCK=mono pw-jack -p "$Q" "$RTJ_HELPERS/stall_client" default 20 30 3 >"$D/stall.out" 2>"$D/stall.err" &
        SPID=$!
        for i in $(seq 50); do grep -q ready "$D/stall.err" && break; sleep 0.1; done
        (cd "$D" && exec pw-profiler -o "$D/prof.log" >"$D/prof.out" 2>&1) &
        PROF=$!
        fine_canaries 8
        local args=(--backend pipewire --duration 4 --json "$D/r.json")
        [ "$cmd" = run ] && args+=(--loads none --warmup 1 --quiet)
        "$RTJ" "$cmd" "${args[@]}" >"$D/out" 2>&1 &
        rpid=$!
        # the stalls from once our node is in the graph (pw-cli's list) and past the warm-up: a busy machine's slow
        # start must not put them before the measured window
        for i in $(seq 100); do
            pw-cli ls Node >"$D/nodes" 2>&1
            grep -q "\"rtjitter-$rpid\"" "$D/nodes" && break
            sleep 0.1
        done
        sleep 1.5
        kill -USR1 "$SPID"
        wait "$rpid"
        rc=$?
        for i in $(seq 30); do grep -q '^stalls' "$D/stall.out" && break; sleep 0.1; done
        kill -TERM "$SPID"; wait "$SPID"; SPID=
        sleep 0.2
        kill -INT "$PROF"; wait "$PROF"; PROF=
        canaries_stop
        se=$(python3 "$HELP_PY/pw_judge.py" "$HELP_PY" "$D/r.json" "$D/stall.out" "$Q" 3 "$WORK"/canary-*.log)
        case "$se" in *"stalls in the window, not 3"*) [ "$attempt" = 1 ] && { echo "# $cmd: $se: once more"; continue; } ;; esac
        break
    done
    check "$cmd under WirePlumber: exit 0, the report's quantum $Q, our node in the graph (rc $rc: $(tail -1 "$D/out" | cut -c1-80))" \
        holds '[ "$rc" = 0 ] && [ "$(json "$D/r.json" "d[\"audio\"][\"period_frames\"]")" = "$Q" ] && grep -q "\"rtjitter-$rpid\"" "$D/nodes"'
    check "$cmd under WirePlumber: 3 stalls of 20 ms, one event each, none beyond unless a canary or the stall client's own log saw it ($se)" \
        [ "${se%% *}" = ok ]
    named=$(python3 "$HELP_PY/pw_named.py" "$D/r.json" "$D/stall.out" "$Q")
    check "$cmd under WirePlumber: each event in a stall names the stalling client first, observed ($named)" \
        holds 'set -- $named; [ "$1" = "$2" ] && [ "$2" -ge "$3" ] && [ "$3" -ge 3 ]'
    pp=$(python3 "$HELP_PY/pw_prof_rows.py" "$D/prof.log" "$D/Timing3.plot" "$D/r.json")
    check "$cmd under WirePlumber: pw-profiler saw the staller unfinished (rows, report's cycles: $pp): 3 <= the report's <= pw-profiler's rows" \
        holds 'set -- $pp; [ "$2" -ge 3 ] && [ "$2" -le "$1" ]'
}
one_case run
one_case watch
check "WirePlumber and the session bus still run at the end" holds 'kill -0 "$WP" && kill -0 "$DBUS"'
