# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for integration tests. Source it: . "$(dirname "$0")/../lib.sh"
# Every server a test starts has a unique name and is stopped by its PID; nothing is killed by name.
set -u
RTJ=${RTJ:-./rtjitter}
RTJ_HELPERS=${RTJ_HELPERS:-build/tests/helpers}
TESTNAME=$(basename "$0" .sh)
RTJ_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-$TESTNAME.XXXXXX")
export XDG_DATA_HOME="$WORK/xdg"        # reports of tests never land in the user's store
export JACK_NO_START_SERVER=1
unset JACK_DEFAULT_SERVER
JACKD_PIDS=()

ok()     { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }
check()  { local desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
# holds 'A && B': a condition of several parts as one check (check "x" [ A ] && [ B ] would test A alone)
holds()  { eval "$1"; }
# err_lines FILE / err_first FILE: a command's stderr as the user reads it from rtjitter, less Berkeley DB's complaint
# from inside libjack. jack2's servers remove their metadata store's region files (/dev/shm/jack_db-UID/__db.00N,
# see the strings of libjackserver) as they exit, so a JACK client that opens while another server of the same user
# exits may get "/dev/shm/jack_db-0/__db.001: No such file or directory" on its stderr from libdb: the suite runs
# servers side by side (CI met it in run_lifecycle). The line is jack2's, not rtjitter's, and nothing else is waived.
JACK_DB_NOISE='^/dev/shm/jack_db-[0-9]+/[^ ]*: '
err_lines() { grep -Ev "$JACK_DB_NOISE" "$1" | wc -l; }
err_first() { grep -Ev "$JACK_DB_NOISE" "$1" | head -1; }

# start_jackd NAME RATE PERIOD: a private dummy server; sets JACKD_PID. Waits until it takes clients.
start_jackd() {
    local name=$1 rate=${2:-48000} period=${3:-64}
    jackd -n "$name" -R -d dummy -r "$rate" -p "$period" >"$WORK/jackd-$name.log" 2>&1 &
    JACKD_PID=$!
    JACKD_PIDS+=("$JACKD_PID")
    local i
    for i in $(seq 100); do
        # jack_wait -c checks without starting a server; run in a subshell so a client abort stays quiet
        if (jack_wait -s "$name" -c 2>/dev/null | grep -q '^running') 2>/dev/null; then return 0; fi
        kill -0 "$JACKD_PID" 2>/dev/null || { cat "$WORK/jackd-$name.log"; jack_registry_why; return 1; }
        sleep 0.1
    done
    echo "# jackd $name did not take clients in 10 s"; cat "$WORK/jackd-$name.log"; jack_registry_why
    return 1
}

# jack_registry_why: when jack2's registry is why a server did not start (all 8 slots held, or dead servers holding
# some), one line saying what holds them and the command that frees the dead ones.
jack_registry_why() { python3 "$RTJ_LIB_DIR/helpers/jack_registry.py" why; return 0; }

stop_jackd() { # PID...: TERM to each at once, 5 s for all of them, then KILL
    local pid i live
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null
    for i in $(seq 50); do
        live=(); for pid in "$@"; do kill -0 "$pid" 2>/dev/null && live+=("$pid"); done
        [ ${#live[@]} -gt 0 ] || break
        sleep 0.1
    done
    for pid in "$@"; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    return 0
}

# jack_kill_begin ... jack_kill_end: around a SIGKILL of a JACK server whose clients still run, until they are gone.
# jack2 names its shared memory by registry index (/jack-UID-N) and reuses a segment's file without O_EXCL: a
# server that starts meanwhile frees the dead server's entries and can truncate a file its clients still map
# (they die of SIGBUS; seen beside other tests). No jackd of the suite starts inside the window: the suite's jackd
# (tests/helpers/slot-bin) takes the same lock shared before it becomes jackd. A no-op outside the runner.
jack_kill_begin() {
    [ -n "${RTJ_JACK_SLOTS:-}" ] && [ -e "$RTJ_JACK_SLOTS/registry.lock" ] || return 0
    exec {JACK_KILL_FD}<"$RTJ_JACK_SLOTS/registry.lock"
    flock -x -w 30 "$JACK_KILL_FD"
    sleep 0.5 # a jackd that passed the gate just before has done its start-up cleanup by now
}
jack_kill_end() {
    [ -n "${JACK_KILL_FD:-}" ] || return 0
    flock -u "$JACK_KILL_FD"; exec {JACK_KILL_FD}<&-; JACK_KILL_FD=
}

# start_pipewire: a private headless PipeWire (its own XDG_RUNTIME_DIR in $WORK, no D-Bus, no PIPEWIRE_QUANTUM from
# outside), its PID in PW, its log $WORK/pw.log; returns 0 once its socket is there (5 s at most), 1 if not. The
# caller stops it by its PID (define stop_pw and `trap stop_pw EXIT` before calling).
start_pipewire() {
    export XDG_RUNTIME_DIR="$WORK/pw-runtime"
    mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
    unset PIPEWIRE_REMOTE DBUS_SESSION_BUS_ADDRESS PIPEWIRE_QUANTUM
    pipewire >"$WORK/pw.log" 2>&1 &
    PW=$!
    local i
    for i in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && return 0; sleep 0.1; done
    return 1
}

# A unique server name for this test run.
server_name() { echo "rtjt-$TESTNAME-$$-$1"; }
# private_server PID: the name of the private jackd rtjitter PID started (rtjitter-PID-RANDOM-server or -sweep; the
# random part is not guessable), read from the server's own command line; empty while it has none.
private_server() { local j; j=$(pgrep -P "$1" -x jackd | head -1); [ -n "$j" ] &&
    tr '\0' '\n' <"/proc/$j/cmdline" 2>/dev/null | sed -n '/^-n$/{n;p;q}'; }
# PRIVATE_RE: the regular expression of a private server's name of rtjitter PID ($(private_re PID server)).
private_re() { echo "rtjitter-$1-[0-9a-f]{8}-$2"; }

# json FILE PYTHON-EXPR: print the value of an expression on the parsed document `d` (tuples space-separated).
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); v=($2); print(*v) if isinstance(v, tuple) else print(v)" "$1"; }

# observe NAME RTJ-ARGS...: one rtjitter run with the kernel's account of its real-time threads sampled from outside
# the process (tests/helpers/rt_observe.py: /proc/PID/task/TID/schedstat, $WORK/NAME.obs), set against the report by
# tests/helpers/rt_share.py ($WORK/NAME.share); the run's report is $WORK/NAME.json; sets rc.
observe() {
    local n=$1 pid h
    shift
    h=$(cd "$(dirname "$0")/../helpers" && pwd)
    "$RTJ" "$@" --json "$WORK/$n.json" >"$WORK/$n.out" 2>&1 &
    pid=$!
    python3 "$h/rt_observe.py" "$pid" "$WORK/$n.obs"
    wait "$pid"; rc=$?
    python3 "$h/rt_share.py" "$WORK/$n.obs" "$WORK/$n.json" >"$WORK/$n.share" 2>&1
}
# screenshots WIDTH,HEIGHT AT_ONCE NAME...: headless Chromium draws each $WORK/NAME.html into $WORK/NAME.png (its log
# $WORK/chromium-NAME.log, 120 s at most each), AT_ONCE at a time: a page's time is mostly Chromium's own start, not
# CPU (html_browser's seven one after another took 51 s of its 87).
screenshots() {
    local size=$1 at=$2 page p pids=() live
    shift 2
    for page in "$@"; do
        if [ "${#pids[@]}" -ge "$at" ]; then
            wait -n "${pids[@]}"
            live=(); for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && live+=("$p"); done; pids=("${live[@]}")
        fi
        timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --user-data-dir="$(mktemp -d "$WORK/chromium.XXXXXX")" --window-size="$size" \
            --screenshot="$WORK/$page.png" "file://$WORK/$page.html" >"$WORK/chromium-$page.log" 2>&1 &
        pids+=($!)
    done
    wait "${pids[@]}"
}
# canaries PRIO SECONDS: one canary thread per CPU (tests/helpers/canary: SCHED_FIFO PRIO, waking every 1 ms, its
# late wake-ups over 1 ms logged to $WORK/canary-CPU.log), in the background; canaries_wait waits for them,
# canaries_stop ends them early. The
# machine's own stalls beside an injected one, seen by an observer the code under test does not contain; counted in a
# window by canary_stalls W0 W1 [--spins HOGLOG] [--min-us US] [--interval-us US] [--total] [CPU...] (every CPU's by default;
# tests/helpers/canary_stalls.py says what it prints).
CANARY_PIDS=()
canaries() {
    local c
    for c in $(seq 0 $(($(nproc) - 1))); do
        "$RTJ_HELPERS/canary" "$c" "$1" 1000 "$2" 1000 >"$WORK/canary-$c.log" 2>/dev/null &
        CANARY_PIDS+=($!)
    done
}
# fine_canaries SECONDS: the canaries woken every 250 us, at priority 85, late wake-ups over 500 us logged (canaries'
# wake every 1 ms and log over 1 ms; PipeWire's tests use these): a block of the CPU that made a node miss a 1.3 ms cycle (64 frames) may last 1.5 ms, and one starting
# just after a 1 ms canary's wake delays its next wake by only 0.5 ms, unseen (met here beside a loaded machine).
fine_canaries() {
    local c
    for c in $(seq 0 $(($(nproc) - 1))); do
        "$RTJ_HELPERS/canary" "$c" 85 250 "$1" 500 >"$WORK/canary-$c.log" 2>/dev/null &
        CANARY_PIDS+=($!)
    done
}
canaries_wait() { wait "${CANARY_PIDS[@]}"; CANARY_PIDS=(); }
canaries_stop() { kill -TERM "${CANARY_PIDS[@]}" 2>/dev/null; canaries_wait; }   # they log what they saw so far
canary_stalls() {
    local w0=$1 w1=$2 opts=() logs=() h
    shift 2
    while [ $# -gt 0 ]; do
        case $1 in --total) opts+=("$1"); shift ;; --*) opts+=("$1" "$2"); shift 2 ;; *) logs+=("$WORK/canary-$1.log"); shift ;; esac
    done
    [ ${#logs[@]} -gt 0 ] || logs=("$WORK"/canary-*.log)
    h=$(cd "$(dirname "$0")/../helpers" && pwd)
    python3 "$h/canary_stalls.py" "$w0" "$w1" "${opts[@]}" "${logs[@]}"
}
# A quiet machine's promises (the share of CPU a --dsp level burns) are judged only on a quiet machine: QUIET=1 when
# the load average is under 1 as the test starts (LOAD), else the test says it did not judge them.
LOAD=$(cut -d' ' -f1 /proc/loadavg)
QUIET=$(awk -v l="$LOAD" 'BEGIN { print (l < 1.0) ? 1 : 0 }')
# period_check REPORT FRAMES_LOG [PHASE]: the phase's mean period over its cycles and skipped ones against the
# server's own period in the same window (frames_check's observer cycles: the time between them over the frames
# between them), within 1 %; prints what it compared. Where the report set intervals apart as frame-clock
# discontinuities (time passed with no frames: the whole graph stalled, as jack2's dummy driver does when it runs
# late), its mean leaves their time out, and the median interval is compared instead: the report's p50 against
# the observer's median interval over its cycles one period apart there.
period_check() {
    python3 - "$1" "$2" "${3:-0}" <<'PY'
import bisect, json, statistics, sys
d = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2])]
rate = int(lines[0][1])
p = d['phases'][int(sys.argv[3])]
col = 4 if d['audio'].get('clock') == 'CLOCK_MONOTONIC_RAW' else 1
cyc = [(float(l[col]), int(l[2])) for l in lines[1:] if l[0] == 'c']
ts = [t for t, _ in cyc]
w0, w1 = p['clock_window_s']
rper = p.get('period_frames') or d['audio']['period_frames']
def at(t):
    i = bisect.bisect_left(ts, t)
    return min((j for j in (i - 1, i) if 0 <= j < len(cyc)), key=lambda j: abs(ts[j] - t))
i0, i1 = at(w0), at(w1)
disc = p.get('discontinuities') or 0
if not disc:
    srv = (ts[i1] - ts[i0]) * 1e6 / ((cyc[i1][1] - cyc[i0][1]) / rper)
    got = p['period_us']['mean'] * (p['cycles'] - 1) / (p['cycles'] - 1 + p['xruns']['skipped_cycles'])
    what = 'mean over cycles and skipped ones'
else:
    iv = [(ts[k] - ts[k - 1]) * 1e6 for k in range(i0 + 1, i1 + 1) if cyc[k][1] - cyc[k - 1][1] == rper]
    srv, got = statistics.median(iv), p['period_us']['p50']
    what = 'median (%d intervals set apart as discontinuities)' % disc
print('%s %.2f us, the server\'s %.2f us' % (what, got, srv))
sys.exit(abs(got - srv) > 0.01 * srv)
PY
}
# quiet_check DESC CMD...: a quiet machine's promise checked when QUIET=1, else one ok line saying it was not judged
# and why (the load average). What the load cannot move is checked always, with check.
quiet_check() {
    local d=$1; shift
    if [ "$QUIET" = 1 ]; then check "$d" "$@"; else ok "# SKIP $d: the machine is busy (load average $LOAD)"; fi
}

cleanup_lib() {
    local p
    # Only the test's own shell: a subshell ($(...), a pipeline) that a signal ends may run the EXIT trap too, with
    # copies of its arrays, and would stop the servers and remove WORK under the shell still using them (seen: a
    # Ctrl-C of the suite met a test inside $(json ...); the subshell's cleanup was cut short, the shell's never
    # ran, and the test's jackd lived on).
    [ "$BASHPID" = "$$" ] || return 0
    # the CPU time this test and every process it waited for used (the runner's slowest-ten table shows it)
    times >"$WORK/.times" 2>/dev/null &&   # a builtin, in this shell (a pipe would time a subshell)
        awk '{ for (i = 1; i <= NF; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } } END { printf "# cpu-seconds: %.1f\n", t }' "$WORK/.times"
    stop_jackd "${JACKD_PIDS[@]}"
    for p in "${CANARY_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    # jack2 leaves a client's semaphore behind when the server goes before the client: remove those of the
    # servers this test named (the names are unique to this run).
    rm -f /dev/shm/jack_sem.*_"rtjt-$TESTNAME-$$-"*
    # jack2's registry slot of a server of this test that was killed (on purpose, or by stop_jackd's last resort):
    # held for good otherwise (tests/helpers/jack_registry.py). Only this test's names: an rtjitter-PID-... slot may
    # be another test's to look at (safety_run); the runner reclaims those at its end.
    python3 "$RTJ_LIB_DIR/helpers/jack_registry.py" reclaim "rtjt-$TESTNAME-$$-" | grep '^#'
    rm -rf "$WORK"
}
trap cleanup_lib EXIT
# A signal ends the shell through exit, so the EXIT trap runs in it (not only in whatever subshell was running).
trap 'exit 143' TERM INT HUP

# frames_check REPORT FRAMES_LOG [PHASE]: cycles in a phase's measured window (the first by default) and its mean
# period against the server's own frames there (FRAMES_LOG from tests/helpers/jack_frames, an independent JACK client
# on the same clock). The window's ends are the observer's own cycles nearest rtjitter's first and last (same graph
# cycle: both clients run in it, microseconds apart): the graph's frames between them and the observer's time between
# them, exact; a line through the 50 ms samples would be off by a stall on a busy machine.
# Prints: rate period cycles expected_cycles mean_period_us server_period_us report_rate report_period gap: gap is
# the graph cycles the window's ends may be off by where the observer missed the cycles there (0 when it ran in both).
frames_check() {
    python3 - "$1" "$2" "${3:-0}" <<'PY'
import bisect, json, sys
d = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2])]
rate, period = int(lines[0][1]), int(lines[0][3])
# the observer's entry on the clock the report times with (jack2: CLOCK_MONOTONIC_RAW, which runs apart from
# CLOCK_MONOTONIC by NTP's slewing since boot: half a period here once, so the nearest cycle was a guess)
col = 4 if d['audio'].get('clock') == 'CLOCK_MONOTONIC_RAW' else 1
cyc = [(float(l[col]), int(l[2])) for l in lines[1:] if l[0] == 'c']
p = d['phases'][int(sys.argv[3])]
w0, w1 = p['clock_window_s']
rper = p.get('period_frames') or d['audio']['period_frames']
ts = [t for t, _ in cyc]
def at(t):
    """The observer's cycle nearest t, and how many graph cycles it may be off: 0 when it is within a period of t;
    when the observer missed the cycles there (its own thread woke late: the graph ran on without it), the graph
    cycles between the observer's cycles either side of t, which the window's end may be any of."""
    i = bisect.bisect_left(ts, t)
    best = min((j for j in (i - 1, i) if 0 <= j < len(cyc)), key=lambda j: abs(ts[j] - t), default=None)
    if best is None or (abs(ts[best] - t) > rper / rate and not 0 < i < len(cyc)):
        raise SystemExit(f"no observer cycle within a period of {t} (the observer saw {ts[0] if ts else '-'}..{ts[-1] if ts else '-'})")
    if abs(ts[best] - t) <= rper / rate:
        return cyc[best], 0
    return cyc[best], (cyc[i][1] - cyc[i - 1][1]) / rper - 1
((t0, f0), g0), ((t1, f1), g1) = at(w0), at(w1)
exp_cycles = (f1 - f0) / rper + 1
exp_period = (t1 - t0) * 1e6 / ((f1 - f0) / rper)
print(rate, period, p['cycles'], round(exp_cycles, 1), round(p['period_us']['mean'], 2), round(exp_period, 2),
      d['audio']['rate'], d['audio']['period_frames'], round(g0 + g1))
PY
}
