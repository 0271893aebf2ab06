#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The audio server's own view as culprit sources (src/culprit/src_jacklog.c, src_pwprof.c), polled every 50 ms by
# tests/helpers/culprit_src_probe on CLOCK_MONOTONIC_RAW, against the truth of a stalling client's own log
# (tests/helpers/stall_client: the start and end of each of its 20 ms stalls, on CLOCK_MONOTONIC_RAW, its clock):
#  (a) a private jackd logging to a file: each stall is one observation naming "stall", read (t1) between the stall's
#      start and its end + 2 poll intervals (the longest the probe measured) + 25 ms; none outside the stalls but in
#      the client's own late cycles or a stall of the machine FIFO 99 canaries saw (jackd names, truly, whichever
#      client was running then). jackd
#      notes an unfinished client in the cycles during the stall, but writes the line later, from jack2's message
#      buffer thread (the RT thread only queues it): seen written 9 ms or more after the stall's end, so the
#      interval a line is placed in (the poll before its read to the read) may start after the stall ended;
#  (b) a private headless PipeWire with the stall client under pw-jack: each stall one observation naming "stall"
#      from the profiler, from the node's wake (before the client's first clock reading: 1 ms at most) to its next
#      wake (after the stall's end, within one period: it woke for the trigger waiting for it), and its "busy" figure
#      the stall's own length within that; none outside;
#  and the refusals, one line each: a FIFO as log, no PipeWire, a PipeWire without module-profiler. What a source
#  saw before the stalls were asked for (SIGUSR1: the client's callback never sleeps before it) is printed, not
#  failed: beside stress-ng PipeWire once showed the joining client triggered and not woken for 907 ms.
. "$(dirname "$0")/../lib.sh"
PROBE="$RTJ_HELPERS/culprit_src_probe"
POLL_MS=50

# check_obs MODE STALL_OUT PROBE_OUT USR1 [EXCUSED]: prints "# ..." figures and one "ok"/"fail" line per rule. EXCUSED:
# windows "T0 T1" (raw clock) in which an observation outside the stalls is true: the stall client's own late cycles
# (a busy machine preempted it: jackd then logs it not finished, truly) and the machine's stalls FIFO 99 canaries saw
# (jackd logs whichever client was running then; ci32: once, beside a 12.7 ms stall the suite's canary saw).
check_obs() {
    python3 - "$@" <<'PY'
import re, sys
mode, stall_out, probe_out, usr1_file = sys.argv[1:5]
excused = [tuple(map(float, l.split()[:2])) for l in open(sys.argv[5]) if len(l.split()) >= 2] if len(sys.argv) > 5 else []
usr1 = float(open(usr1_file).read())
st = [l.split()[1:] for l in open(stall_out) if l.startswith("stall_times")][0]
stalls = [(float(st[i]), float(st[i + 1])) for i in range(0, len(st), 2)]
obs, gap = [], 0.0
for l in open(probe_out):
    if l.startswith("obs "):
        head, ev = l.rstrip("\n").split("\t", 1)
        f = head.split(" ", 5)
        obs.append((float(f[1]), float(f[2]), f[4], f[5], ev, float(f[3])))
    m = re.match(r"polls \d+ interval_max_ms ([\d.]+)", l)
    if m:
        gap = float(m.group(1)) / 1e3
period = 256 / 48000
fig, bad, late = [], [], []
used = set()
hits = []
for i, (s, e) in enumerate(stalls):
    if mode == "jacklog":
        lo, hi = s, e + 2 * gap + 0.025
        # an observation belongs to the last stall that started before it was read (beside stress-ng a poll gap
        # of 186 ms made a window reach into the next stall, 224 ms later)
        mine = lambda t: max((j for j, (a, b) in enumerate(stalls) if a <= t), default=-1)
        hits.append([k for k, o in enumerate(obs) if o[3] == "stall" and lo <= o[1] <= hi and mine(o[1]) == i])
    else:
        hits.append([k for k, o in enumerate(obs) if o[3] == "stall" and s - 0.001 <= o[0] <= s and e <= o[1] <= e + period])
# jackd writes its lines from jack2's message thread, which can miss the wake-up a line sends (JackMessageBuffer:
# it waits on a condition without looking at what is queued, and a signal sent while it flushes is lost): the line
# then waits for the next message, the next stall's (ci40: stall 0 none, stall 1 two, 467 ms apart). A stall with
# none before one with two read apart (two writes: lines read in one poll are one observation): the earlier is its.
for i in range(len(stalls) - 1):
    h, n = hits[i], sorted(hits[i + 1], key=lambda k: obs[k][1])
    if mode == "jacklog" and not h and len(n) == 2 and obs[n[1]][1] - obs[n[0]][1] > 1e-6:
        hits[i], hits[i + 1] = [n[0]], [n[1]]
        print("# stall %d's line was written after stall %d began, read %.0f ms after its end (jack2's message thread "
              "woke late)" % (i, i + 1, (obs[n[0]][1] - stalls[i][1]) * 1e3))
for i, (s, e) in enumerate(stalls):
    hit = hits[i]
    if len(hit) != 1:
        bad.append("stall %d [%.6f, %.6f]: %d observations" % (i, s, e, len(hit)))
        continue
    o = obs[hit[0]]
    used.add(hit[0])
    fig.append("%+.1f/%+.1f" % ((o[0] - s) * 1e3, (o[1] - e) * 1e3))
    late.append(o[5] - e)
    if mode == "pwprof":
        m = re.search(r"busy ([\d.]+) ms", o[4])
        busy = float(m.group(1)) / 1e3 if m else -1
        fig[-1] += " busy %.1f/%.1f" % (busy * 1e3, (e - s) * 1e3)
        # rounded to 0.1 ms in the evidence; from before the stall's start to after its end, one period more at most
        if not (e - s - 0.00006 <= busy <= e - s + period + 0.00006):
            bad.append("stall %d: busy %.1f ms for a stall of %.1f ms" % (i, busy * 1e3, (e - s) * 1e3))
# Before SIGUSR1 the client's callback never sleeps: what is seen then is its joining the graph (beside stress-ng
# once, PipeWire showed the node triggered and not woken for 907 ms), said, not counted as outside the stalls.
early = [o for k, o in enumerate(obs) if k not in used and o[1] < usr1]
outside = [o for k, o in enumerate(obs) if k not in used and o[1] >= usr1]
# an observation's span [t0, t1] met by an excused window, within a period
why = [o for o in outside if any(a <= o[1] + period and b >= o[0] - period for a, b in excused)]
if why:
    print("# %s: %d observation(s) outside the stalls, each in the client's own late cycles or a machine stall the "
          "canaries saw: %s" % (mode, len(why), "; ".join("%.6f-%.6f" % (o[0], o[1]) for o in why)))
outside = [o for o in outside if o not in why]
if early:
    print("# %s: %d observation(s) before the stalls were asked for (the client joining the graph): %s" %
          (mode, len(early), "; ".join("%.1f ms: %s" % ((o[1] - o[0]) * 1e3, o[4]) for o in early)))
print("# %s: %d stalls, %d observations, longest poll gap %.1f ms; t0-start/t1-end ms: %s" %
      (mode, len(stalls), len(obs), gap * 1e3, " ".join(fig)))
print("# %s: given by the poll %s ms after the stall's end" % (mode, " ".join("%.0f" % (x * 1e3) for x in late)))
if obs:
    print("# e.g. " + obs[0][4])
print("ok" if stalls and not bad else "fail " + "; ".join(bad))
print("ok" if not outside else "fail outside: " + "; ".join("%s %.6f-%.6f" % (o[3], o[0], o[1]) for o in outside))
PY
}

# stall_and_probe PROBE_ARGS... : the stall client (already started as $SPID, writing $WORK/stall.out) stalls 5
# times while the probe runs; both stopped by PID.
stall_and_probe() {
    "$PROBE" "$@" 30 "$POLL_MS" >"$WORK/probe.out" 2>"$WORK/probe.err" &
    local ppid=$! i
    for i in $(seq 50); do grep -q ready "$WORK/probe.err" && break; sleep 0.1; done
    for i in $(seq 50); do grep -q ready "$WORK/stall.err" && break; sleep 0.1; done
    # the time the stalls were asked for, on the stall client's clock: before it, its callback never sleeps
    python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC_RAW))' >"$WORK/usr1"
    kill -USR1 "$SPID"
    for i in $(seq 100); do grep -q '^stalls' "$WORK/stall.out" && break; sleep 0.1; done
    kill -TERM "$SPID"; wait "$SPID"
    # the probe's polls after the last stall: PipeWire's profiler sends its profiles in batches
    for i in $(seq 30); do [ "$(grep -c '^obs' "$WORK/probe.out")" -ge 5 ] && break; sleep 0.1; done
    sleep 0.3
    kill -TERM "$ppid"; wait "$ppid"
}

# ---- (a) a private jackd's log --------------------------------------------------------------------------------
name=$(server_name csv_jl)
if start_jackd "$name" 48000 256; then
    log="$WORK/jackd-$name.log"
    # stalls 80 cycles (427 ms) apart: the log has no times, so two stalls whose lines one poll reads are one
    # observation (ci38, at load 8: polls 150 ms late, stalls 213 ms apart, 4 observations of 5 stalls)
    "$RTJ_HELPERS/stall_client" "$name" 20 80 5 >"$WORK/stall.out" 2>"$WORK/stall.err" &
    SPID=$!
    canaries 99 20   # FIFO 99, one a CPU: the host's own stalls, seen apart from jackd and its clients
    stall_and_probe jacklog "$log"
    canaries_stop
    sed -n 's/^late_times //p' "$WORK/stall.out" | tr ' ' '\n' | paste -d' ' - - >"$WORK/excused.txt"
    awk '$1 == "late" { printf "%.6f %.6f\n", $4, $4 + $3 / 1e6 }' "$WORK"/canary-*.log >>"$WORK/excused.txt"
    res=$(check_obs jacklog "$WORK/stall.out" "$WORK/probe.out" "$WORK/usr1" "$WORK/excused.txt")
    grep '^#' <<<"$res"
    echo "# jackd printed $(grep -c 'JackEngine::XRun: client = stall' "$log") XRun lines for stall; $(grep -c . "$WORK/stall.out") lines from the stall client"
    r=($(grep -v '^#' <<<"$res" | cut -c1-4))
    check "jackd log: every stall has one observation naming stall, read within its window ($(grep -v '^#' <<<"$res" | sed -n 1p))" [ "${r[0]}" = ok ]
    check "jackd log: no observation outside the stalls ($(grep -v '^#' <<<"$res" | sed -n 2p))" [ "${r[1]}" = ok ]
    [ "${r[0]}" = ok ] || { echo "# the stall client: $(tr '\n' ' ' <"$WORK/stall.out" | cut -c1-300)"; sed 's/^/# jackd: /' "$log" | tail -15; }
    stop_jackd "$JACKD_PID"
else
    not_ok "private jackd $name started"
fi
mkfifo "$WORK/fifo"
"$PROBE" jacklog "$WORK/fifo" 1 >/dev/null 2>"$WORK/fifo.err"; rc=$?
ok_=0; [ "$rc" = 1 ] && [ "$(wc -l <"$WORK/fifo.err")" = 1 ] && grep -q 'a FIFO, not a regular file: refused' "$WORK/fifo.err" && ok_=1 # all of them: "check ... [ a ] && [ b ]" judged [ a ] alone
check "a FIFO as server log is refused at open with one line (rc $rc: $(cat "$WORK/fifo.err"))" [ "$ok_" = 1 ]

# ---- (b) a private PipeWire's profiler --------------------------------------------------------------------------
if ! command -v pipewire >/dev/null || ! command -v pw-jack >/dev/null; then
    ok "# SKIP pipewire and pw-jack are not installed"
    exit 0
fi
unset PIPEWIRE_REMOTE DBUS_SESSION_BUS_ADDRESS
export XDG_RUNTIME_DIR="$WORK/csv_pw-none"
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
"$PROBE" pwprof none 1 >/dev/null 2>"$WORK/none.err"; rc=$?
none_ok() { [ "$rc" = 1 ] && [ "$(wc -l <"$WORK/none.err")" = 1 ] && grep -q '^no PipeWire at ' "$WORK/none.err"; }
check "no PipeWire: open fails with one line saying so (rc $rc: $(cat "$WORK/none.err"))" none_ok

# pw_start DIR [CONF]: a private headless PipeWire with its own XDG_RUNTIME_DIR; sets PW (its PID).
pw_start() {
    export XDG_RUNTIME_DIR="$1"
    mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
    pipewire ${2:+-c "$2"} >"$XDG_RUNTIME_DIR.log" 2>&1 &
    PW=$!
    for i in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break; sleep 0.1; done
    [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]
}
pw_stop() { kill -TERM "$PW" 2>/dev/null; wait "$PW" 2>/dev/null; PW=; }
PW=
trap 'pw_stop; cleanup_lib' EXIT

# A PipeWire whose configuration leaves module-profiler out.
grep -v 'libpipewire-module-profiler' /usr/share/pipewire/pipewire.conf >"$WORK/noprof.conf"
if pw_start "$WORK/csv_pw-noprof" "$WORK/noprof.conf"; then
    "$PROBE" pwprof none 1 >/dev/null 2>"$WORK/noprof.err"; rc=$?
    ok_=0; [ "$rc" = 1 ] && [ "$(wc -l <"$WORK/noprof.err")" = 1 ] && grep -q 'has no profiler: module-profiler is not loaded' "$WORK/noprof.err" && ok_=1 # all of them: "check ... [ a ] && [ b ]" judged [ a ] alone
    check "PipeWire without module-profiler: open fails with one line saying so (rc $rc: $(cat "$WORK/noprof.err"))" [ "$ok_" = 1 ]
    pw_stop
else
    not_ok "a private PipeWire without module-profiler started"
fi

if pw_start "$WORK/csv_pw-runtime"; then
    # the stall client logs on CLOCK_MONOTONIC_RAW (its default): the probe's times are converted from PipeWire's
    # CLOCK_MONOTONIC to that clock by the source, so the conversion is under test too
    pw-jack -p 256 "$RTJ_HELPERS/stall_client" default 20 40 5 >"$WORK/stall.out" 2>"$WORK/stall.err" &
    SPID=$!
    stall_and_probe pwprof culprit_src_probe
    res=$(check_obs pwprof "$WORK/stall.out" "$WORK/probe.out" "$WORK/usr1")
    grep '^#' <<<"$res"
    echo "# $(grep '^summary' "$WORK/probe.out" | cut -c1-300)"
    r=($(grep -v '^#' <<<"$res" | cut -c1-4))
    check "PipeWire profiler: every stall has one observation naming stall, from its wake to its next, busy as long as the stall ($(grep -v '^#' <<<"$res" | sed -n 1p))" [ "${r[0]}" = ok ]
    check "PipeWire profiler: no observation outside the stalls ($(grep -v '^#' <<<"$res" | sed -n 2p))" [ "${r[1]}" = ok ]

    # The same stalls with the stall client as "our own" node: no observation (never our own as another client),
    # and each stall one cycle of ours longer than its period, from its wake to its next, in pwprof_own_cycles.
    pw-jack -p 256 "$RTJ_HELPERS/stall_client" default 20 40 5 >"$WORK/stall.out" 2>"$WORK/stall.err" &
    SPID=$!
    stall_and_probe pwprof stall
    own=$(python3 - "$WORK/stall.out" "$WORK/probe.out" "$WORK/usr1" <<'PY'
import sys
usr1 = float(open(sys.argv[3]).read())
st = [l.split()[1:] for l in open(sys.argv[1]) if l.startswith("stall_times")][0]
stalls = [(float(st[i]), float(st[i + 1])) for i in range(0, len(st), 2)]
lines = open(sys.argv[2]).read().splitlines()
obs = [l for l in lines if l.startswith("obs ")]
own_all = [tuple(map(float, l.split()[1:3])) for l in lines if l.startswith("own_long ")]
own = [c for c in own_all if c[1] >= usr1]  # before SIGUSR1: its joining the graph (see check_obs)
if len(own) < len(own_all):
    print("# own node: %d long cycle(s) before the stalls were asked for: %s ms" % (len(own_all) - len(own),
          " ".join("%.1f" % ((f - a) * 1e3) for a, f in own_all if f < usr1)), file=sys.stderr)
period = 256 / 48000
hits = [sum(1 for a, f in own if s - 0.001 <= a <= s and e <= f <= e + period) for s, e in stalls]
print("%d %d %d %s" % (len(obs), len(own), sum(h == 1 for h in hits),
      " ".join("%.1f" % ((f - a) * 1e3) for a, f in own)))
PY
)
    set -- $own
    echo "# own node 'stall': $1 observations, $2 cycles over the period (ms: ${*:4}), $3 of 5 stalls matched one each"
    check "PipeWire profiler, our own node: no observation of it, each stall one long cycle of ours in its window" \
        [ "$1 $2 $3" = "0 5 5" ]
    pw_stop
else
    not_ok "a private PipeWire started"
fi
