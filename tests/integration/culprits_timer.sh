#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog spins on one CPU)
# Culprits (issue 24) on the path most musicians get: a normal user (nobody, given real-time limits with prlimit as
# a login's limits.conf would), no tracefs, no server. The injected culprit: tests/helpers/cpu_hog, a SCHED_FIFO 90
# task pinned to the timer thread's CPU (which runs at FIFO 70), spinning 300 ms every 1.5 s, 4 times; it logs its
# own spins (CLOCK_MONOTONIC, the timer backend's clock). Without the trace a task is named only when its counters
# prove it held the wait's CPU (its schedstat run time in 50 ms samples leaves half the wait inside it, and it is
# pinned there): a spin of whole samples does, a 20 ms one cannot (culprit_engine.sh). Judged by
# tests/helpers/culprit_check.py against that log:
# - every spin inside the measured window has an event or a spike whose top culprit is the hog, by its pid (the
#   test's $!, not anything rtjitter computed), marked correlated;
# - nothing outside the spins names the hog (not even just before one: the proof is of the wait itself);
# - the hog's period is found: 1.5 s within 5 %, with the hog named at those moments.
. "$(dirname "$0")/../lib.sh"

cpu=$(($(nproc) - 1))
chmod 755 "$WORK"; mkdir -p "$WORK/nobody"; cp "$RTJ" "$WORK/nobody/rtjitter"; chown -R nobody "$WORK/nobody"
# The user's real-time limits, as limits.conf gives the audio group; where even root cannot raise them (a container
# whose hard RLIMIT_RTPRIO is 0, as here), the user measures without real time (--allow-no-rt): the hog preempts a
# normal thread all the same, and the sampler's path is the same.
if prlimit --rtprio=95:95 --memlock=unlimited:unlimited true 2>/dev/null; then
    lim=(prlimit --rtprio=95:95 --memlock=unlimited:unlimited); nort=()
    echo "# nobody runs with RLIMIT_RTPRIO 95"
else
    lim=(); nort=(--allow-no-rt)
    echo "# RLIMIT_RTPRIO cannot be raised here (hard limit $(ulimit -Hr)): nobody measures without real time"
fi
"${lim[@]}" setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$WORK/nobody" XDG_DATA_HOME="$WORK/nobody/xdg" \
    "$WORK/nobody/rtjitter" run --backend timer --cpus "$cpu" --interval 5000 --priority 70 --loads none "${nort[@]}" \
    --warmup 0.5 --duration 7.5 --quiet --json "$WORK/nobody/t.json" >"$WORK/t.out" 2>&1 &
rpid=$!
"$RTJ_HELPERS/cpu_hog" "$cpu" 90 300 1500 4 2200 300 >"$WORK/hog.log" &
hog=$!
wait "$hog"
wait "$rpid"; rc=$?
check "a normal user's timer run beside the hog exits 0 (got $rc: $(head -c 300 "$WORK/t.out"))" [ "$rc" = 0 ]
python3 "$RTJ_TOP/tests/helpers/culprit_check.py" "$WORK/nobody/t.json" "$WORK/hog.log" rt_task "pid=$hog" \
    >"$WORK/c.txt" 2>&1
sed 's/^/# /' "$WORK/c.txt"
v() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/c.txt"; }
check "the hog's 4 spins fell in the measured window" [ "$(v truths_inside)" = 4 ]
check "each spin has an event or spike whose top culprit is the hog (pid $hog): $(v hit) of $(v truths_inside)" \
    [ "$(v hit)" = "$(v truths_inside)" ]
check "nothing outside the spins names the hog ($(v named_outside) of $(v outside))" [ "$(v named_outside)" = 0 ]
per=$(json "$WORK/nobody/t.json" "' '.join('%.3f' % x['period_s'] for x in d['culprits'].get('periodicity', []) if 'cpu_hog' in x.get('what', ''))")
echo "# periodicity naming cpu_hog: ${per:-none}; all: $(json "$WORK/nobody/t.json" "d['culprits'].get('periodicity')")"
check "the hog's period (1.5 s, its own schedule) is found within 5 % (got ${per:-none})" \
    python3 -c "import sys; v=[float(x) for x in '$per'.split()]; sys.exit(not any(abs(x - 1.5) <= 0.075 for x in v))"
basis=$(json "$WORK/nobody/t.json" "sorted({c['basis'] for p in d['phases'] for h in p.get('events', []) + p.get('spikes', []) for c in h.get('culprits', [])[:1] if c.get('kind') == 'rt_task'})")
check "the hog is named from counters, marked correlated (got $basis)" [ "$basis" = "['correlated']" ]
