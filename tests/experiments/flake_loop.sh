#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flake experiment (issue 22): each timing-sensitive test ROUNDS times beside `stress-ng --cpu 2 --io 1`, run
# the way `make check` runs them (tests/run-tests.sh, JOBS at a time, solo tests alone), so each test also has
# another test beside it. Three full runs barely test a flake (one that fails one run in five passes three runs
# half the time); ten rounds of each catch it nine times in ten.
#
# usage: tests/experiments/flake_loop.sh [ROUNDS] [TEST ...]     (from the top of the tree, after `make test-bins`)
#        FULL=1 tests/experiments/flake_loop.sh [ROUNDS]   each round a whole `make check` on a clean clone of HEAD
#                                                          (build included), its wall time in the round's line
# Prints, and writes to RESULT (default tests/experiments/flake_loop-result.txt): each round's line, then per test
# "NAME passed R of ROUNDS" and every failing check as it was printed. Exit 0 when no round failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROUNDS=${1:-10}
shift 2>/dev/null
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "flake_loop: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 2; }
# Every test whose truth involves time: measured cycles, xruns, stalls, latencies, exit within 2 s, compare's calls.
DEFAULT="backend_alsa backend_alsa_xrun backend_timer backend_timer_hog compare_aa compare_disaster dsp_ramp dsp_share html_browser load_diskfull load_kill
load_registry loopback loopback_alsa loopback_alsa_xrun packaging run_cycles run_ladder run_lifecycle run_pipewire run_xruns safety_run sweep
server_sched truth_provider truth_rephase"
tests=${*:-$DEFAULT}
RESULT=${RESULT:-tests/experiments/flake_loop-result.txt}
BUILD=${BUILD:-build}
command -v stress-ng >/dev/null || { echo "flake_loop: needs stress-ng (make deps-check)" >&2; exit 2; }
[ -n "${FULL:-}" ] || [ -x "$BUILD/tests/helpers/testprov" ] || { echo "flake_loop: build first: make test-bins" >&2; exit 2; }

out=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-flake.XXXXXX")
chmod 0755 "$out" # the clean clone's binary is run by users the tests create
stress-ng --cpu 2 --io 1 --timeout 6h >/dev/null 2>&1 &
spid=$!
trap 'kill -TERM "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; rm -rf "$out"' EXIT
trap 'exit 3' INT TERM

exact=$(for t in $tests; do printf '^%s$ ' "$t"; done)
state="$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet -- . ':!tests/experiments' 2>/dev/null || echo ' (with changes)')"
{
    echo "# flake_loop${FULL:+ (FULL: make check on a clean clone)}: $ROUNDS rounds beside stress-ng --cpu 2 --io 1, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs,"
    echo "# commit $state, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$RESULT"
for r in $(seq "$ROUNDS"); do
    s=$(date +%s)
    if [ -n "${FULL:-}" ]; then
        rm -rf "$out/clone" && git clone -q . "$out/clone" && (cd "$out/clone" && make check) >"$out/round-$r.log" 2>&1
    else
        TESTS="$exact" BUILD="$BUILD" tests/run-tests.sh >"$out/round-$r.log" 2>&1
    fi
    [ -n "${LOGS:-}" ] && mkdir -p "$LOGS" && cp "$out/round-$r.log" "$LOGS/round-$r.log"   # LOGS=DIR keeps each round's output
    # a failing round's whole output is kept anyway (its causes are what the experiment is for)
    if grep -q '^not ok' "$out/round-$r.log"; then
        keep=${KEEP:-${TMPDIR:-/tmp}/rtjt-flake-failed}
        mkdir -p "$keep" && cp "$out/round-$r.log" "$keep/$(date -u +%Y%m%dT%H%M%S)-round-$r.log" &&
            echo "# round $r's output: $keep/" | tee -a "$RESULT"
    fi
    echo "round $r: $(grep -E "^[0-9]+ passed, [0-9]+ failed" "$out/round-$r.log" | tail -1) in $(( $(date +%s) - s )) s; $(grep '^failed:' "$out/round-$r.log")" | tee -a "$RESULT"
done
echo "# per test" | tee -a "$RESULT"
bad=0
for t in $tests; do
    passed=0
    for r in $(seq "$ROUNDS"); do
        # a test's block runs from its "== integration: NAME" line to the next "== " line
        blk=$(awk -v n="$t" '/^== /{on = ($0 ~ "^== integration: " n " ")} on' "$out/round-$r.log")
        if [ -n "$blk" ] && ! grep -q '^not ok' <<<"$blk"; then
            passed=$((passed + 1))
        else
            bad=1
            grep '^not ok' <<<"$blk" | sed "s/^/    round $r: /" >>"$out/fail-$t"
            [ -z "$blk" ] && echo "    round $r: did not run" >>"$out/fail-$t"
        fi
    done
    echo "$t passed $passed of $ROUNDS" | tee -a "$RESULT"
    [ -f "$out/fail-$t" ] && tee -a "$RESULT" <"$out/fail-$t"
done
exit "$bad"
