#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A disk that fills up during `write` is that phase's error in the report, not a crash: the run goes on to its
# next phase and exits 0. A small private tmpfs (in a private mount namespace, so needs root) is filled by
# another process while the load rewrites its file. A read-only tmpdir: the load is skipped with the reason.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
    ok "# SKIP disk full: needs root and unshare -m for a private tmpfs"
    exit 0
fi
name=$(server_name full)
start_jackd "$name" 48000 256 || { not_ok "jackd starts"; exit 0; }
mkdir -p "$WORK/small"
export RTJ WORK name
unshare -m bash -c '
    mount -t tmpfs -o size=24m rtjt-full "$WORK/small" || exit 9
    "$RTJ" run --server "$name" --loads write:mb=8:sync=1,none --duration 2.5 --warmup 0.5 --tmpdir "$WORK/small" \
        --quiet --json "$WORK/r.json" >"$WORK/out" 2>&1 &
    p=$!
    sleep 1.2
    # Keep taking whatever space the load frees when it truncates its file for the next pass.
    end=$((SECONDS + 2))
    while [ $SECONDS -lt $end ]; do
        dd if=/dev/zero of="$WORK/small/filler" bs=64k oflag=append conv=notrunc 2>/dev/null
        sleep 0.02
    done
    wait $p; echo "rc $?" >"$WORK/rc"
    rm -f "$WORK/small/filler"
    ls -A "$WORK/small" >"$WORK/left"
    umount "$WORK/small"
'
echo "# $(cat "$WORK/rc" 2>/dev/null); write phase: $(json "$WORK/r.json" "d['phases'][0]['load_metrics'], d['phases'][0]['load_error']")"
check "disk full: the run exits 0 ($(cat "$WORK/rc" 2>/dev/null))" [ "$(cat "$WORK/rc" 2>/dev/null)" = "rc 0" ]
check "disk full: the write phase's error says the disk filled up" \
    [ "$(json "$WORK/r.json" "'the disk filled up' in (d['phases'][0]['load_error'] or '') and 'No space left' in d['phases'][0]['load_error']")" = True ]
check "disk full: the write phase and the next one were measured" \
    [ "$(json "$WORK/r.json" "d['complete'] and d['phases'][0]['cycles'] > 0 and d['phases'][1]['cycles'] > 0")" = True ]
check "disk full: nothing of the load is left on the tmpfs ($(cat "$WORK/left"))" [ ! -s "$WORK/left" ]

# Read-only tmpdir: skipped, with the reason; the measurement goes on.
mkdir -p "$WORK/ro"
unshare -m bash -c '
    mount -t tmpfs -o size=4m,ro rtjt-ro "$WORK/ro" || exit 9
    "$RTJ" run --server "$name" --loads write:mb=8 --duration 1 --warmup 0.5 --tmpdir "$WORK/ro" --quiet \
        --json "$WORK/ro.json" >"$WORK/out" 2>&1; echo "rc $?" >"$WORK/rc"
    umount "$WORK/ro"
'
echo "# read-only: $(cat "$WORK/rc"); $(json "$WORK/ro.json" "d['phases'][0]['load_error']")"
check "read-only tmpdir: exit 0, write skipped with the reason" [ "$(cat "$WORK/rc") $(json "$WORK/ro.json" \
    "'skipped' in d['phases'][0]['load_error'] and 'Read-only' in d['phases'][0]['load_error'] and d['phases'][0]['cycles'] > 0")" = "rc 0 True" ]
# Full before the phase starts: skipped with the reason (no room for half of nothing).
mkdir -p "$WORK/full"
unshare -m bash -c '
    mount -t tmpfs -o size=4m rtjt-fullbefore "$WORK/full" || exit 9
    mkdir "$WORK/full/t"
    dd if=/dev/zero of="$WORK/full/filler" bs=64k 2>/dev/null
    "$RTJ" run --server "$name" --loads write:mb=8+read:mb=8 --duration 1 --warmup 0.5 --tmpdir "$WORK/full/t" \
        --quiet --json "$WORK/full.json" >"$WORK/out" 2>&1; echo "rc $?" >"$WORK/rc"
    ls -A "$WORK/full/t" >"$WORK/left"
    umount "$WORK/full"
'
echo "# full before: $(cat "$WORK/rc"); $(json "$WORK/full.json" "d['phases'][0]['load_error']")"
check "full tmpdir: exit 0, write and read skipped for too little free space, tmpdir left empty" \
    [ "$(cat "$WORK/rc") $(json "$WORK/full.json" "d['phases'][0]['load_error'].count('too little free space') == 2 and d['phases'][0]['cycles'] > 0") $(cat "$WORK/left" | wc -l)" = "rc 0 True 0" ]
# Full while compile works: cc's own words about it ("No space left on device") reach the phase's load_error
# (cc's stderr is kept in memory: a log file on the full disk would lose them).
# 4 s: on a busy machine cc writes its first output (when a unit is compiled) more than 1.5 s after the start.
mkdir -p "$WORK/cc"
unshare -m bash -c '
    mount -t tmpfs -o size=2m rtjt-ccfull "$WORK/cc" || exit 9
    dd if=/dev/zero of="$WORK/cc/filler" bs=1k count=2000 2>/dev/null # 48 KB stay: the sources fit, not all of cc output
    "$RTJ" run --server "$name" --loads compile:units=4,none --duration 4 --warmup 0.5 --tmpdir "$WORK/cc" --quiet \
        --json "$WORK/cc.json" >"$WORK/out" 2>&1; echo "rc $?" >"$WORK/rc"
    rm -f "$WORK/cc/filler"
    ls -A "$WORK/cc" >"$WORK/left"
    umount "$WORK/cc"
'
echo "# compile on a full tmpdir: $(cat "$WORK/rc"); $(json "$WORK/cc.json" "d['phases'][0]['load_error']")"
check "compile on a full tmpdir: exit 0, load_error says 'No space left on device', both phases measured, nothing left" \
    [ "$(cat "$WORK/rc") $(json "$WORK/cc.json" "'No space left on device' in (d['phases'][0]['load_error'] or '') and all(p['cycles'] > 0 for p in d['phases'])") $(wc -l <"$WORK/left")" = "rc 0 True 0" ]
stop_jackd "$JACKD_PID"
