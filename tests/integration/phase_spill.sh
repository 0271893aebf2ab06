#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# test-timeout: 90
# A finished phase's statistics are written out while the run goes on and read back for the report (run/run_spill.h,
# issue 32 item 5). tests/unit/test_phase_spill.c judges the read-back against the report built before the write;
# this judges the run itself, from outside:
# - a run of three phases holds, during its third, two unnamed files in its TMPDIR (/proc/PID/fd: "(deleted)"), and
#   none with RTJ_SPILL=0;
# - its report is complete (no warning of a phase not read back), and each phase's cycles are those its own timeline and histograms count, and what its
#   timer's interval makes of its measured time (the phases written out and the one never written alike);
# - a run killed by SIGKILL while its files are open leaves nothing in its TMPDIR (nothing was ever named there).
. "$(dirname "$0")/../lib.sh"

mkdir -p "$WORK/tmp" "$WORK/tmp0"
# The run's PID (not a load's: they share its command line) and the most unnamed files of DIR it held at once.
watch_fds() { # PID DIR -> prints the most seen
    local pid=$1 dir=$2 most=0 n
    while kill -0 "$pid" 2>/dev/null; do
        n=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c "$dir/#.*(deleted)")
        [ "$n" -gt "$most" ] && most=$n
        sleep 0.1
    done
    echo "$most"
}
run3() { # TMPDIR JSON [env...]
    local dir=$1 out=$2
    shift 2
    env TMPDIR="$dir" "$@" "$RTJ" run --backend timer --cpus 0 --interval 1000 --no-trace --loads none,burn,none \
        --warmup 0.3 --duration 2 --quiet --json "$out" >"$out.txt" 2>&1 &
    local pid=$!
    watch_fds "$pid" "$dir" >"$out.fds"
    wait "$pid"
}
run3 "$WORK/tmp" "$WORK/a.json"
rc=$?
check "the run exits 0 (got $rc: $(head -c 300 "$WORK/a.json.txt"))" [ "$rc" = 0 ]
check "it held the two finished phases' files at once (saw $(cat "$WORK/a.json.fds"))" [ "$(cat "$WORK/a.json.fds")" = 2 ]
run3 "$WORK/tmp0" "$WORK/b.json" RTJ_SPILL=0
rc=$?
# one test of both ("check ... [ a ] && [ b ]" would report the first alone)
check "RTJ_SPILL=0: the run exits 0 (got $rc) and holds no such file (saw $(cat "$WORK/b.json.fds"))" \
    holds '[ "$rc" = 0 ] && [ "$(cat "$WORK/b.json.fds")" = 0 ]'
judge() {
python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = d['complete'] and len(d['phases']) == 3 and not [w for w in d['warnings'] if 'written out' in str(w)]
for p in d['phases']:
    tl = sum(e['cycles'] for e in p['timeline'])
    hist = sum(c for lo, hi, c in p['histograms']['period'])
    due = p['measured_s'] * 1000  # the timer's 1 ms interval, one CPU
    print('# %s: cycles %d, timeline %d, period histogram %d (+1: the first has no period), %.0f due' % (
        p['load'], p['cycles'], tl, hist, due))
    ok &= p['cycles'] == tl == hist + 1 and abs(p['cycles'] - due) <= 0.25 * due
print(ok)
PY
}
for f in a b; do
    judge "$WORK/$f.json" >"$WORK/$f.judge"
    grep '^#' "$WORK/$f.judge"
    check "report $f: complete, and each phase's cycles agree with its timeline, histogram and measured time" \
        [ "$(tail -1 "$WORK/$f.judge")" = True ]
done
# Killed while it holds a file: nothing of it stays in its TMPDIR.
mkdir -p "$WORK/tmpk"
TMPDIR="$WORK/tmpk" "$RTJ" run --backend timer --cpus 0 --interval 1000 --no-trace --loads none,none,none --warmup 0.3 \
    --duration 3 --quiet --json "$WORK/k.json" >"$WORK/k.txt" 2>&1 &
pid=$!
held=0
for _ in $(seq 100); do
    held=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c "$WORK/tmpk/#.*(deleted)")
    [ "$held" -gt 0 ] && break
    sleep 0.1
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
sleep 0.3
check "the killed run held a file ($held) and left nothing in its TMPDIR ($(ls -A "$WORK/tmpk" | head -3))" \
    holds '[ "$held" -gt 0 ] && [ -z "$(ls -A "$WORK/tmpk")" ]'
