#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtjitter on a LAVA device under test, the way Linaro's test-definitions run cyclictest: called from the steps of
# rtjitter.yaml (in this directory) with the definition's parameters as options; writes everything under ./output:
#   rtjitter.json        the run's report (the source of truth; `rtjitter report` renders it again anywhere)
#   rtjitter-junit.xml   the same thresholds as JUnit
#   rtjitter-lava.sh     one lava-test-case line per phase and metric (`rtjitter report --format lava`), run by the
#                        definition's next step: case names LOAD-METRIC with measurement and units
#   rtjitter.log         rtjitter's own output; jackd.log the private server's
#   exit-status          rtjitter's exit status: 0 limits held, 1 a limit exceeded, 2 bad usage, 3 incomplete
# rtjitter itself: -r PATH, else the one on PATH, else built from the repository this file came from (`make`
# at its top, after `make deps-run` installs the Debian packages it needs, unless -S true).
set -u

usage() {
    echo "usage: $0 [-r RTJITTER] [-b jack|timer] [-l LOADS] [-d SECS] [-w SECS] [-p FRAMES] [-R HZ] [-x MAX_XRUNS]" >&2
    echo "       [-m MIN_DEADLINES_PCT] [-u MAX_WAKEUP_P99_US] [-j MAX_JITTER_US] [-P PROFILE] [-s SERVER] [-S true|false]" >&2
    exit 2
}

RTJITTER="" BACKEND=jack LOADS=none,burn DURATION=10 WARMUP=1 PERIOD=64 RATE=48000 MAX_XRUNS="" MIN_DEADLINES_PCT=""
MAX_WAKEUP_P99_US="" MAX_JITTER_US="" PROFILE="" SERVER="" SKIP_INSTALL=false
while getopts "r:b:l:d:w:p:R:x:m:u:j:P:s:S:" opt; do
    case "$opt" in
        r) RTJITTER=$OPTARG ;; b) BACKEND=$OPTARG ;; l) LOADS=$OPTARG ;; d) DURATION=$OPTARG ;;
        w) WARMUP=$OPTARG ;; p) PERIOD=$OPTARG ;; R) RATE=$OPTARG ;; x) MAX_XRUNS=$OPTARG ;;
        m) MIN_DEADLINES_PCT=$OPTARG ;; u) MAX_WAKEUP_P99_US=$OPTARG ;; j) MAX_JITTER_US=$OPTARG ;;
        P) PROFILE=$OPTARG ;; s) SERVER=$OPTARG ;; S) SKIP_INSTALL=$OPTARG ;; *) usage ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
OUTPUT=$(pwd)/output
mkdir -p "$OUTPUT" || exit 1
: >"$OUTPUT/rtjitter-lava.sh"

# A failure of the set-up is a test case of its own, so that the job says what went wrong.
setup_fail() {
    echo "rtjitter-lava.sh: $1" >&2
    echo "lava-test-case rtjitter-setup --result fail" >"$OUTPUT/rtjitter-lava.sh"
    exit 1
}

if [ -z "$RTJITTER" ]; then
    if command -v rtjitter >/dev/null 2>&1; then
        RTJITTER=$(command -v rtjitter)
    elif [ -f "$HERE/../../Makefile" ] && [ -d "$HERE/../../src" ]; then
        top=$(cd "$HERE/../.." && pwd)
        if [ "$SKIP_INSTALL" != true ]; then
            make -C "$top" deps-run >"$OUTPUT/build.log" 2>&1 || setup_fail "make deps-run failed (see output/build.log)"
        fi
        make -C "$top" -j"$(nproc 2>/dev/null || echo 1)" rtjitter >>"$OUTPUT/build.log" 2>&1 ||
            setup_fail "building rtjitter failed (see output/build.log)"
        RTJITTER=$top/rtjitter
    else
        setup_fail "rtjitter is not installed and this is not its source tree: give -r PATH"
    fi
fi
[ -x "$RTJITTER" ] || setup_fail "$RTJITTER is not an executable"

set -- run --backend "$BACKEND" --loads "$LOADS" --duration "$DURATION" --warmup "$WARMUP" --quiet \
    --json "$OUTPUT/rtjitter.json" --junit "$OUTPUT/rtjitter-junit.xml" --output "$OUTPUT/store"
[ -n "$MAX_XRUNS" ] && set -- "$@" --max-xruns "$MAX_XRUNS"
[ -n "$MIN_DEADLINES_PCT" ] && set -- "$@" --min-deadlines-pct "$MIN_DEADLINES_PCT"
[ -n "$MAX_WAKEUP_P99_US" ] && set -- "$@" --max-wakeup-p99-us "$MAX_WAKEUP_P99_US"
[ -n "$MAX_JITTER_US" ] && set -- "$@" --max-jitter-us "$MAX_JITTER_US"
[ -n "$PROFILE" ] && set -- "$@" --profile "$PROFILE"

JACKD_PID=""
stop_jackd() {
    [ -n "$JACKD_PID" ] || return 0
    kill "$JACKD_PID" 2>/dev/null
    wait "$JACKD_PID" 2>/dev/null
    JACKD_PID=""
}
trap stop_jackd EXIT
trap 'stop_jackd; exit 3' INT TERM
if [ "$BACKEND" = jack ]; then
    # A private dummy server of this run's own, at the asked period; stopped by its PID, whatever happens.
    SERVER=${SERVER:-rtjt-lava-$$}
    export JACK_NO_START_SERVER=1
    command -v jackd >/dev/null 2>&1 || setup_fail "jackd is not installed (the definition's install deps: jackd2)"
    jackd -n "$SERVER" -d dummy -r "$RATE" -p "$PERIOD" >"$OUTPUT/jackd.log" 2>&1 &
    JACKD_PID=$!
    i=0
    until jack_wait -s "$SERVER" -c 2>/dev/null | grep -q '^running'; do
        i=$((i + 1))
        [ "$i" -le 100 ] || setup_fail "the private jackd did not start (see output/jackd.log)"
        sleep 0.1
    done
    set -- "$@" --server "$SERVER"
else
    set -- "$@" --period "$PERIOD" --rate "$RATE"
fi

rc=0
"$RTJITTER" "$@" >"$OUTPUT/rtjitter.log" 2>&1 || rc=$?
stop_jackd
echo "$rc" >"$OUTPUT/exit-status"
sed 's/^/rtjitter: /' "$OUTPUT/rtjitter.log"
if [ ! -s "$OUTPUT/rtjitter.json" ]; then
    echo "lava-test-case rtjitter-thresholds --result fail --measurement $rc --units exit-status" >"$OUTPUT/rtjitter-lava.sh"
    exit 0
fi
"$RTJITTER" report "$OUTPUT/rtjitter.json" --format lava >"$OUTPUT/rtjitter-lava.sh" ||
    echo "lava-test-case rtjitter-report --result fail" >>"$OUTPUT/rtjitter-lava.sh"
# The run's exit status: every enforced limit at once (a pass only when all held).
if [ "$rc" -eq 0 ]; then
    echo "lava-test-case rtjitter-thresholds --result pass" >>"$OUTPUT/rtjitter-lava.sh"
else
    echo "lava-test-case rtjitter-thresholds --result fail --measurement $rc --units exit-status" >>"$OUTPUT/rtjitter-lava.sh"
fi
exit 0
