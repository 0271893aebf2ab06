#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every test: each cmocka binary in $BUILD/tests/test_*, then each tests/integration/*.sh (TAP-style
# "ok - ..." / "not ok - ..." lines), JOBS at a time (default: three a CPU and one; most tests wait on real time), of
# them PLAIN_JOBS plain ones at most (default: two a CPU and one). Ends with
# the slowest ten and one line: "N passed, N failed".
#
# A test's class is a line in its header, "# test-class: CLASS (why)" (an integration script; unit tests are quick):
#   quick  fast and disturbs nobody: the developers' quick tier (QUICK=1, `make check-quick`). In a whole run it
#          waits, as the bulk ones do, until no plain test is pending, then runs beside the last plain ones and the
#          solo ones; while a solo test is left, quick and bulk ones together run as many at a time as the machine
#          has CPUs. The plain tests keep the CPU to themselves (ci49: the machine was busy 100 % from +60 to
#          +240 s, then the solo tests ran 138 s one after another at 9-44 %)
#   (none) runs beside any other test but a solo one: a test beside it loads the machine no more than the
#          `stress-ng --cpu 2 --io 1` every test must pass beside
#   solo   disturbs others (a real-time thread that spins: a hog, a DSP burn) or holds system state others read
#          (/dev/cpu_dma_latency, tracefs): runs after the plain tests, one at a time, with only quick ones beside
#   alone  judged to microseconds, so even a quick test's real-time threads move it: runs with nothing beside
#   bulk   times nothing and runs no real-time thread, only ordinary CPU work (a compile of the whole tree): runs
#          beside any test but an alone one, solo ones too (it loads the machine as the stress-ng beside every
#          test does); it waits, as the solo ones do, until no plain test is pending, so that it fills the CPU the
#          solo tests at the end leave idle (one a CPU less than the machine has at a time) instead of
#          slowing the plain ones (ci17: the plain tests ended at +356 s, then 207 s of solo tests ran one at a
#          time with a CPU idle)
# "# test-fill: tail (why)" holds a quick test back the same way (CPU work that times nothing and starts no
# real-time thread, but quick enough for the developers' tier: a compile of the RT files, the golden outputs);
# and "# test-lock: NAME (why)" keeps the tests that share NAME (a system resource: passwd for useradd) apart;
# "# test-timeout: SECS (why)" gives a test more than TEST_TIMEOUT (a compile of the whole tree, one job, on a busy
# machine).
# Each test gets its own TMPDIR (sticky and world-writable, as /tmp is) and XDG_DATA_HOME (lib.sh makes its own store inside them) and its output is
# printed whole when it ends, so parallel tests never interleave.
#
# TESTS="pattern ..." runs only the tests whose name matches one (a regular expression: ^run_xruns$ for just that
# one); QUICK=1 only the quick tier;
# JOBS=1 one at a time. The times of the last run are kept in $BUILD/test-times (the longest start first next time).
set -u
BUILD=${BUILD:-build}
export RTJ=${RTJ:-./rtjitter}
export RTJ_HELPERS="$PWD/$BUILD/tests/helpers"
export RTJ_TOP="$PWD"
NPROC=$(nproc 2>/dev/null || echo 1)
JOBS=${JOBS:-$(( NPROC * 3 + 1 ))}
PLAIN_JOBS=${PLAIN_JOBS:-$(( NPROC * 2 + 1 ))}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "run-tests: JOBS must be a positive number, not '$JOBS'" >&2; exit 2; }
# ASan and UBSan make the code about three times slower (test_loopback: 7.6 s of CPU, over 150 s of wall time
# under ASan beside a busy suite): twice the time under `make sanitize`
TIMEOUT=${TEST_TIMEOUT:-$([ -n "${RTJ_SANITIZE:-}" ] && echo 360 || echo 180)}
HISTORY="$BUILD/test-times"

log=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-run.XXXXXX")
chmod 0711 "$log"

# ---- real time for this login ---------------------------------------------------------------------------------------
# The tests measure with SCHED_FIFO and locked memory, as `rtjitter run` does. A login without them fails hundreds of
# tests for that one reason: a normal user's first `make check` on a fresh Debian 12 root failed 564 of 1686 checks,
# because the limits file its own jackd2 install wrote came after that login began. So rtjitter's own gate is asked
# first (a 0.5 s timer run); when it refuses, its why and fix are shown and the suite stops (exit 2) before any test.
if [ "$(id -u)" != 0 ] && [ -x "$RTJ" ]; then
    gate=$("$RTJ" run --backend timer --loads none --duration 0.5 --warmup 0 --quiet --json "$log/gate.json" \
           --output "$log/gate" 2>&1 >/dev/null)
    if grep -q 'no real-time scheduling for this login\|this login cannot lock memory' <<<"$gate"; then
        echo "run-tests: the tests measure with real-time priority and locked memory, which this login does not have:" >&2
        awk '/^  or: /{exit} {print}' <<<"$gate" >&2   # not its --allow-no-rt: the tests need real time
        echo "run-tests: no test was run; after the fix, run the tests again (make check)" >&2
        rm -rf "$log"
        exit 2
    fi
fi

# ---- jack2's 8 server slots --------------------------------------------------------------------------------------
# One registry for the machine holds at most 8 JACK servers; a server killed (a test's SIGKILL, a timeout, an earlier
# run stopped) keeps its slot for good, and a name used once is never started again to free it. So first the slots of
# dead test servers (rtjt-..., and rtjitter-PID-... of dead runs: an earlier run's too) are reclaimed, then what is
# free less one spare (a slot a killed server holds until its test's cleanup reclaims it) is shared out: the suite's
# jackd (tests/helpers/slot-bin, first on PATH) takes a slot file before it becomes the real jackd, and waits while
# every one is held.
REG="tests/helpers/jack_registry.py"
reclaimed=$(python3 "$REG" reclaim rtjt- rtjitter- 2>&1)
# What the reclaim could not free (another user's servers, names not the suite's): said, with the command that frees
# them. With every slot held no test's server could start, and each JACK test would fail after waiting for one
# ("jackd did not take clients in 10 s", 21 of them once): live servers are waited for 30 s, then the suite stops
# (exit 2), saying so.
for ((i = 0; i < 30; i++)); do regwhy=$(python3 "$REG" why); regrc=$?; [ $regrc -eq 2 ] || break; sleep 1; done
if [ $regrc -ge 2 ]; then
    echo "run-tests: no JACK server can start here, so the JACK tests cannot run: ${regwhy#\# }" >&2
    rm -rf "$log"
    exit 2
fi
taken=$(python3 "$REG" taken 2>/dev/null || echo 0)
slots=$(( 8 - taken - 1 )); [ "$slots" -ge 1 ] || slots=1
mkdir -p "$log/bin" "$log/slots"
cp tests/helpers/slot-bin/jackd "$log/bin/jackd"
chmod 0755 "$log/bin" "$log/slots" "$log/bin/jackd"
for ((i = 0; i < slots; i++)); do : >"$log/slots/slot.$i"; chmod 0644 "$log/slots/slot.$i"; done
: >"$log/slots/registry.lock"; chmod 0644 "$log/slots/registry.lock"   # lib.sh's jack_kill_begin
# The tests' python3 is Debian's (the package `make check` installs, with python3-yaml): a version manager's shim
# first on PATH (pyenv's, here) is a bash script that costs each of the suite's thousands of short python3 calls
# 0.1 s idle and 0.8 s beside stress-ng (measured), minutes of a run and the cause of truth_provider's timeout.
[ -x /usr/bin/python3 ] && ln -s /usr/bin/python3 "$log/bin/python3"
export RTJ_JACK_SLOTS="$log/slots" PATH="$log/bin:$PATH"
echo "# JACK servers: $slots at a time (jack2's registry has 8 slots, $taken held now; of dead test servers' slots: ${reclaimed##*$'\n'})"
grep '^#' <<<"$reclaimed"
[ -n "$regwhy" ] && echo "$regwhy"
# ---- the idle trap -----------------------------------------------------------------------------------------------
# A CPU at rest sleeps in its deepest idle state, and each wake-up pays its exit latency: on a VM whose host halts an
# idle virtual CPU, milliseconds (measured here, on a quiet machine: a FIFO thread woke over 500 us late 200-400 times
# in 10 s, and 4 times with /dev/cpu_dma_latency held at 0; backend_alsa's canaries saw 225 stalls of half a period
# in 4.5 s). rtjitter holds the file for its own runs of the timer backend, but the suite's servers, observers,
# canaries and test providers run before, beside and after them, and a quiet CI machine is at rest most of the time
# (CI failed 5 tests that pass beside stress-ng, which keeps the CPUs from resting). So the suite holds it at 0 while
# it runs, as a studio machine's set-up does (the verdict's advice): a child of this shell that holds the file open
# and dies with it (pdeathsig), stopped at the end by its PID. RTJ_TEST_IDLE=1 leaves the idle states as they are.
dma_pid=
if [ -z "${RTJ_TEST_IDLE:-}" ] && [ -w /dev/cpu_dma_latency ]; then
    bash -c 'exec 3>/dev/cpu_dma_latency && printf 0 >&3 && exec setpriv --pdeathsig KILL sleep infinity' &
    dma_pid=$!
    echo "# /dev/cpu_dma_latency held at 0 while the suite runs (pid $dma_pid; RTJ_TEST_IDLE=1 leaves it)"
else
    echo "# /dev/cpu_dma_latency not held: ${RTJ_TEST_IDLE:+RTJ_TEST_IDLE is set}$([ -z "${RTJ_TEST_IDLE:-}" ] && echo 'not writable here')"
fi
# ---- the machine's own stalls, and one more run of a test they may have failed --------------------------------
# This VM's host takes a CPU away for milliseconds with no tick and no steal (seen here: 30-35 stalls of 2-3.5 ms a
# minute on each CPU, a SCHED_FIFO 99 thread asleep between them), longer than the suite's smallest period (64
# frames at 48 kHz, 1.33 ms): a stall can be an xrun no test injected, a "same" where a pair differs, a stop timed
# long. Each test that must see such a stall judges it by its own canaries where it can; for the rest the suite runs
# one canary per CPU of its own (tests/helpers/canary, SCHED_FIFO 99, a wake-up every 1 ms, each one over 2 ms late
# logged as it is seen), and a test with failed checks that ran while one of them saw a stall of 2 ms or more runs
# once more; its first output is printed whole, "retried:" names it at the end, and the second run's result is the
# one counted. A test that failed with no stall seen, or fails twice, fails. RTJ_TEST_RETRY=0 runs each test once.
canary_pids=()
if [ "${RTJ_TEST_RETRY:-1}" != 0 ] && [ -x "$BUILD/tests/helpers/canary" ]; then
    for ((c = 0; c < $(nproc); c++)); do
        "$BUILD/tests/helpers/canary" "$c" 99 1000 86400 2000 stream >"$log/canary-$c.log" 2>/dev/null &
        canary_pids+=($!)
    done
fi
# stall_seen T0_NS T1_NS: the longest stall (ms) a suite canary saw with its deadline in [T0, T1] (realtime ns), or
# nothing
stall_seen() {
    [ "${#canary_pids[@]}" -gt 0 ] || return
    cat "$log"/canary-*.log 2>/dev/null |
        awk -v t0="$1" -v t1="$2" '$1 == "late" && NF >= 5 && $5 * 1e9 >= t0 && $5 * 1e9 <= t1 && $3 > m { m = $3; at = $5 }
            END { if (m) printf "%.1f ms at +%.1f s\n", m / 1000, at - t0 / 1e9 }'
}
declare -A retried=()
declare -A fill_of=() tmo_of=() pid_of=() kind_of=() class_of=() lock_of=() start_of=() secs_of=() est_of=() cpu_of=()
running=()
interrupted=0
stop_all() {
    interrupted=1
    local n
    # `timeout` leads a process group of its own: the signal reaches every process the test started
    # (and CONT: a test may have stopped a process of its own on purpose, which would sleep through the TERM)
    for n in "${running[@]}"; do kill -TERM -- "-${pid_of[$n]}" 2>/dev/null; kill -CONT -- "-${pid_of[$n]}" 2>/dev/null; done
}
trap 'stop_all' INT TERM
trap 'kill "${canary_pids[@]}" 2>/dev/null; rm -rf "$log"; [ -n "$dma_pid" ] && kill "$dma_pid" 2>/dev/null' EXIT

# ---- what to run ------------------------------------------------------------------------------------------------
names=()
# TESTS: names or patterns, space-separated; a name matches a pattern anywhere unless it is anchored (^name$).
wanted() {
    local p
    [ -z "${TESTS:-}" ] && return 0
    for p in $TESTS; do [[ "$1" =~ $p ]] && return 0; done
    return 1
}
add() { # NAME KIND CLASS [LOCK]
    wanted "$1" || return
    [ -n "${QUICK:-}" ] && [ "$3" != quick ] && return
    names+=("$1"); kind_of[$1]=$2; class_of[$1]=$3; lock_of[$1]=${4:-}
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    case $t in *.d) continue ;; esac
    add "$(basename "$t")" unit quick
done
# Each script's header lines, read in one pass (five processes a script were 400 forks: 11 s of an empty run at
# load 6): NAME CLASS LOCK FILL TIMEOUT a line, "-" for none; each the first such line's, as `sed | head -1` gave.
hdr() {
    awk 'function out() { if (f != "") print n, c, l, fl, t }
         FNR == 1 { out(); f = FILENAME; n = f; sub(/^.*\//, "", n); sub(/\.sh$/, "", n); c = l = t = "-"; fl = 0; hc = hl = 0 }
         !hc && /^# test-class:/ { hc = 1; s = $0; sub(/^# test-class: */, "", s); match(s, /^[a-z]*/); c = substr(s, 1, RLENGTH); if (c == "") c = "-" }
         !hl && /^# test-lock:/ { hl = 1; s = $0; sub(/^# test-lock: */, "", s); match(s, /^[a-z0-9_-]*/); l = substr(s, 1, RLENGTH); if (l == "") l = "-" }
         /^# test-fill: *tail/ { fl = 1 }
         t == "-" && /^# test-timeout: *[0-9]/ { s = $0; sub(/^# test-timeout: */, "", s); match(s, /^[0-9]+/); t = substr(s, 1, RLENGTH) }
         END { out() }' "$@"
}
while read -r n c lk fl tmo; do
    [ "$c" = - ] && c=
    case ${c:-plain} in quick|plain|solo|alone|bulk) ;; *) echo "run-tests: tests/integration/$n.sh: unknown test-class '$c'" >&2; exit 2 ;; esac
    [ "$lk" = - ] && lk=
    add "$n" integration "${c:-plain}" "$lk"
    case $c in bulk) fill_of[$n]=1 ;; esac
    [ "$fl" = 1 ] && fill_of[$n]=1
    [ "$tmo" != - ] && tmo_of[$n]=$tmo
done < <(hdr tests/integration/*.sh)
# A clean clone (CI) has no times of its own yet: tests/test-times holds one run's beside stress-ng (commit it anew
# when tests change much: cp build-check/test-times tests/). Without any, the long tests would start last.
for h in tests/test-times "$HISTORY"; do
    [ -r "$h" ] || continue
    while read -r n s; do [ -n "${kind_of[$n]:-}" ] && est_of[$n]=$s; done <"$h"
done
# The longest first (last run's times, else the committed ones; a test not timed yet counts as long), so the lanes
# end together.
mapfile -t pending < <(for n in "${names[@]}"; do echo "${est_of[$n]:-999} $n"; done | sort -k1,1nr -k2 | cut -d' ' -f2)

# ---- one test ---------------------------------------------------------------------------------------------------
launch() { # NAME
    local n=$1 dir="$log/$1"
    mkdir -p "$dir/tmp" "$dir/xdg"
    # like /tmp (sticky, anyone may write): tests run commands as users they create
    chmod 0711 "$dir" && chmod 1777 "$dir/tmp"
    start_of[$n]=$(date +%s%N)
    if [ "${kind_of[$n]}" = unit ]; then
        TMPDIR="$dir/tmp" XDG_DATA_HOME="$dir/xdg" timeout -k 5 "$TIMEOUT" "$BUILD/tests/$n" >"$dir/out" 2>&1 </dev/null &
    else
        TMPDIR="$dir/tmp" XDG_DATA_HOME="$dir/xdg" timeout -k 20 "${tmo_of[$n]:-$TIMEOUT}" bash "tests/integration/$n.sh" \
            >"$dir/out" 2>&1 </dev/null &
    fi
    pid_of[$n]=$!
    running+=("$n")
}

pass=0; fail=0; failed_names=(); finished=0
# BRIEF=1 (make check): one line per test, and a failed test's whole output; every test's output goes to
# BRIEF_LOG (default $BUILD/test-log) all the same.
BRIEF_LOG=${BRIEF_LOG:-$BUILD/test-log}
if [ -n "${BRIEF:-}" ]; then : >"$BRIEF_LOG" || BRIEF_LOG=/dev/null; fi
finish() { # NAME RC
    if [ -z "${BRIEF:-}" ]; then
        finish_full "$@"
        return
    fi
    local before_fail=$fail
    finish_full "$@" >"$log/.brief.out" 2>&1   # in this shell: its counts and times stay
    finished=$((finished + 1))
    cat "$log/.brief.out" >>"$BRIEF_LOG"
    if [ -n "$retrying" ]; then
        printf '[%d/%d] RETRY %s (%s s):\n' "$finished" "${#names[@]}" "$1" "${secs_of[$1]:-?}"
        finished=$((finished - 1))
        grep -E '^(not ok|# retry)' "$log/.brief.out" | sed 's/^/    /'
    elif [ "$fail" -gt "$before_fail" ]; then
        printf '[%d/%d] FAIL %s (%s s):\n' "$finished" "${#names[@]}" "$1" "${secs_of[$1]:-?}"
        sed 's/^/    /' "$log/.brief.out"
    else
        printf '[%d/%d] ok   %s (%s s)\n' "$finished" "${#names[@]}" "$1" "${secs_of[$1]:-?}"
    fi
}
finish_full() { # NAME RC
    local n=$1 rc=$2 dir="$log/$1" p f s
    s=$(( ($(date +%s%N) - start_of[$n]) / 100000000 ))   # tenths of a second
    secs_of[$n]=$((s / 10)).$((s % 10))
    if [ "${kind_of[$n]}" = unit ]; then
        echo "== unit: $n (${secs_of[$n]} s, from +$(( (start_of[$n] - run_start) / 1000000000 )) s)"
        cat "$dir/out"
        # cmocka's summary lines (stdout and stderr may share a line, so match anywhere)
        p=$(grep -o '\[  PASSED  \] [0-9]* test(s)' "$dir/out" | tail -1 | grep -o '[0-9]\+')
        f=$(grep -o '\[  FAILED  \] [0-9]* test(s)' "$dir/out" | tail -1 | grep -o '[0-9]\+')
        p=${p:-0}; f=${f:-0}
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $n exited with status $rc"; fi # crashed, or a sanitizer
    else
        echo "== integration: $n (${secs_of[$n]} s, from +$(( (start_of[$n] - run_start) / 1000000000 )) s)"
        cat "$dir/out"
        cpu_of[$n]=$(sed -n 's/^# cpu-seconds: //p' "$dir/out" | tail -1)
        p=$(grep -c '^ok ' "$dir/out")
        f=$(grep -c '^not ok ' "$dir/out")
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $n exited with status $rc"; fi
        if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $n ran no test"; fi
    fi
    [ "$rc" -eq 124 ] && echo "not ok - $n did not end within ${tmo_of[$n]:-$TIMEOUT} s"
    retrying=
    if [ "$f" -gt 0 ] && [ "${kind_of[$n]}" = integration ] && [ -z "${retried[$n]:-}" ] && [ "$interrupted" = 0 ]; then
        local seen
        seen=$(stall_seen "${start_of[$n]}" "$(date +%s%N)")
        if [ -n "$seen" ]; then
            retried[$n]="failed checks: $f, beside a stall of $seen"
            echo "# retry: $n: ${retried[$n]} (the suite's canary): it runs once more, and that run counts"
            pending=("$n" "${pending[@]}")
            retrying=1
            rm -rf "$dir"
            return
        fi
    fi
    [ -n "${retried[$n]:-}" ] && retried[$n]="${retried[$n]}; again: $([ "$f" -gt 0 ] && echo failed || echo passed)"
    pass=$((pass + p)); fail=$((fail + f))
    [ "$f" -gt 0 ] && failed_names+=("$n")
    rm -rf "$dir"
}

# May NAME start now, beside what runs? A solo test runs beside quick and bulk ones only (they time nothing and load
# the machine no more than the stress-ng every test must pass beside), never beside another solo or a plain one.
can_start() {
    local n=$1 r fills=0 plains=0 beside=0
    [ "${#running[@]}" -lt "$JOBS" ] || return 1
    for r in "${running[@]}"; do
        [ -n "${fill_of[$r]:-}" ] && fills=$((fills + 1))
        { [ "${class_of[$r]}" = quick ] || [ -n "${fill_of[$r]:-}" ]; } && beside=$((beside + 1))
        [ "${class_of[$r]}" = plain ] && plains=$((plains + 1))
        case ${class_of[$n]}:${class_of[$r]} in
            alone:* | *:alone) return 1 ;;
            solo:quick | quick:* | solo:bulk | bulk:*) ;;
            solo:* | *:solo) return 1 ;;
        esac
        [ -n "${lock_of[$n]}" ] && [ "${lock_of[$n]}" = "${lock_of[$r]}" ] && return 1
    done
    # the fill tests run one a CPU less than the machine has at a time (one on 2 CPUs), so that the solo test beside
    # them keeps a CPU of its own (a solo test itself starts beside any: the solo tests one after another are the
    # tail's length). ci19 let them all start at once as the last plain test ended: five beside culprits_truth
    # stretched it from 35 to 67 s and the tail with it.
    if [ -n "${fill_of[$n]:-}" ]; then
        [ $((fills + 1)) -le $(( NPROC > 1 ? NPROC - 1 : 1 )) ] || return 1
    fi
    # at most PLAIN_JOBS plain tests at once (two a CPU and one), the rest of JOBS for the quick ones: with the fill
    # tests held for the tail, seven plain ones at once (ci20) made three of the first seven fail a timing check and
    # run again, as holding the quick ones back had done before
    [ "${class_of[$n]}" = plain ] && [ "$plains" -ge "$PLAIN_JOBS" ] && return 1
    # while a solo test is left, as many quick and fill tests at once as the machine has CPUs (ci50: three quick
    # ones and a bulk one beside culprits_truth stretched it from 50 to 77 s, and the solo tests' tail with it)
    if [ -n "$tail_solo" ] && { [ "${class_of[$n]}" = quick ] || [ -n "${fill_of[$n]:-}" ]; }; then
        [ "$beside" -lt "$NPROC" ] || return 1
    fi
    return 0
}

# Solo, alone, quick and fill tests wait until no plain test is pending: the solo ones then run one after another at
# the end, the quick and fill ones beside them. (Holding the quick ones back was tried before PLAIN_JOBS: six plain
# tests at once then failed five timing checks in a clean clone's CI. With at most PLAIN_JOBS plain ones at once,
# ci51 and ci53 passed with them held.)
t0=$(date +%s)
run_start=$(date +%s%N)
while [ "${#pending[@]}" -gt 0 ] || [ "${#running[@]}" -gt 0 ]; do
    [ "$interrupted" = 1 ] && break
    others=0 tail_solo=
    for n in "${pending[@]}" "${running[@]}"; do
        case ${class_of[$n]} in solo|alone) tail_solo=1 ;; esac
    done
    for n in "${pending[@]}"; do [ "${class_of[$n]}" = plain ] && others=1 && break; done
    started=1
    while [ "$started" = 1 ]; do
        started=0
        for i in "${!pending[@]}"; do
            n=${pending[$i]}
            case ${class_of[$n]} in solo|alone|quick) [ "$others" = 1 ] && continue ;; esac
            [ -n "${fill_of[$n]:-}" ] && [ "$others" = 1 ] && continue
            if can_start "$n"; then
                launch "$n"; unset 'pending[i]'; pending=("${pending[@]}"); started=1; break
            fi
        done
    done
    [ "${#running[@]}" -gt 0 ] || break
    pids=(); for n in "${running[@]}"; do pids+=("${pid_of[$n]}"); done
    wait -n -p done_pid "${pids[@]}" 2>/dev/null
    rc=$?
    [ -n "${done_pid:-}" ] || continue       # interrupted by a signal: the loop looks again
    for i in "${!running[@]}"; do
        n=${running[$i]}
        if [ "${pid_of[$n]}" = "$done_pid" ]; then
            unset 'running[i]'; running=("${running[@]}")
            finish "$n" "$rc"
            break
        fi
    done
    done_pid=
done
if [ "$interrupted" = 1 ]; then
    for n in "${running[@]}"; do wait "${pid_of[$n]}" 2>/dev/null; done
    echo "interrupted: ${#pending[@]} tests not started, ${#running[@]} stopped${running[*]:+ (${running[*]})}"
    fail=$((fail + 1))
fi

# ---- the slowest ten, and the times for the next run's order ------------------------------------------------------
if [ "${#secs_of[@]}" -gt 0 ]; then
    echo "== the slowest tests (wall time; $JOBS at a time; all in $(( $(date +%s) - t0 )) s)"
    for n in "${!secs_of[@]}"; do echo "${secs_of[$n]} $n ${class_of[$n]} ${cpu_of[$n]:--}"; done | sort -k1,1nr | head -10 |
        while read -r s n c u; do
            if [ "$u" = - ]; then u=""; else u=$(printf '%6.1f s CPU' "$u"); fi
            printf '   %6.1f s  %-22s %-6s %s\n' "$s" "$n" "$c" "$u"
        done
    all_cpu=$(for n in "${!cpu_of[@]}"; do echo "${cpu_of[$n]}"; done | awk '{ t += $1 } END { printf "%.0f", t }')
    echo "   (wall time, class, the CPU time of an integration test and what it waited for: $all_cpu s in all)"
    if [ -z "${TESTS:-}" ] && [ -z "${QUICK:-}" ] && [ "$interrupted" = 0 ]; then
        for n in "${!secs_of[@]}"; do echo "$n ${secs_of[$n]}"; done | sort >"$HISTORY.tmp" 2>/dev/null &&
            mv "$HISTORY.tmp" "$HISTORY" 2>/dev/null
    fi
fi
# What this run's killed servers still hold, freed for the next run (a test's cleanup frees its own).
left=$(python3 "$REG" reclaim rtjt- rtjitter- 2>&1)
[ "${left##*$'\n'}" = "reclaimed 0 of 0" ] || echo "# JACK servers left holding a slot: ${left##*$'\n'}"
grep '^#' <<<"$left"
for n in "${!retried[@]}"; do echo "retried: $n (${retried[$n]})"; done
[ "${#failed_names[@]}" -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
