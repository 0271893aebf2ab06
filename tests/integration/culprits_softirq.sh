#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a sender floods loopback on one CPU; its softirqs run on the other, under a real-time thread)
# Culprits (issue 24): a softirq storm on loopback networking only, bounded in time, named on a normal user's path
# (counters only: no tracefs). The injected culprit: tests/helpers/udp_flood, sending small UDP datagrams to
# its own socket on 127.0.0.1 from CPU 0 (at SCHED_FIFO 10, so that stress-ng there does not starve it) for 300 ms
# every 1.5 s, 3 times; it logs its own bursts (CLOCK_MONOTONIC).
# A sender on the audio CPU itself disturbs nothing: the kernel runs the receive softirq in the sender's own context,
# which the real-time thread preempts (tests/experiments/culprits_softirq-result.txt: 2 spikes in 10 runs). So the
# test steers loopback's packets to the audio CPU (RPS, lo's queues/rx-0/rps_cpus: root, restored on every exit):
# the NET_RX softirq then runs there, raised by function-call IPIs, in interrupt context or in ksoftirqd, as a
# network card's traffic steered to that CPU would. Judged by tests/helpers/culprit_check.py against the flood's log:
# - every burst that disturbed a cycle (at least 2 of the 3) has an event or a spike that names the NET_RX softirq
#   (on top when nothing else held more of the wait);
# - nothing outside the bursts names it.
. "$(dirname "$0")/../lib.sh"

rps=/sys/class/net/lo/queues/rx-0/rps_cpus
if [ "$(id -u)" != 0 ] || [ "$(nproc)" -lt 2 ] || ! [ -w "$rps" ]; then
    ok "# SKIP needs root, 2 CPUs and RPS (lo's rps_cpus) to steer loopback's softirqs to the audio CPU"
    exit 0
fi
cpu=$(($(nproc) - 1)); send=0
old_rps=$(cat "$rps")
restore_rps() { echo "$old_rps" >"$rps"; }
trap 'restore_rps; cleanup_lib' EXIT
printf '%x\n' $((1 << cpu)) >"$rps"
echo "# lo's rps_cpus: $old_rps -> $(cat "$rps") (CPU $cpu), restored at the end"

# Root's path, with the trace: the audio thread's waits in the storm are accounted by who held its CPU (the softirq
# itself, or ksoftirqd running it). Without the trace a softirq's surge around a happening is context, never its
# culprit (src/culprit/rank.c: counters_not_proof).
"$RTJ" run --backend timer --cpus "$cpu" --interval 1333 --priority 70 --loads none \
    --warmup 0.5 --duration 6 --spike-us 100 --quiet --json "$WORK/s.json" >"$WORK/s.out" 2>&1 &
rpid=$!
before=$(awk -v c=$((cpu + 2)) '$1 == "NET_RX:" { print $c }' /proc/softirqs)
"$RTJ_HELPERS/udp_flood" "$send" 300 1500 3 1500 10 >"$WORK/flood.log" # FIFO 10: a busy CPU 0 does not starve it
after=$(awk -v c=$((cpu + 2)) '$1 == "NET_RX:" { print $c }' /proc/softirqs)
wait "$rpid"; rc=$?
restore_rps
echo "# the flood: $(grep -c '^spin' "$WORK/flood.log") bursts, $(grep '^# sent' "$WORK/flood.log" | cut -c3-) datagrams; NET_RX on CPU $cpu: $before -> $after (/proc/softirqs, read by the test)"
check "the timer run (with the trace) beside the storm exits 0 (got $rc: $(head -c 300 "$WORK/s.out"))" [ "$rc" = 0 ]
check "the storm's softirqs ran on the audio CPU: NET_RX there rose by more than 1000 per burst ($before -> $after)" \
    [ $((after - before)) -gt 3000 ]
# --listed: the trace lists each holder of a tenth of a wait or more; beside a busy suite a compile's cc1 on the same
# CPU may hold more of a burst's waits than the storm (truly: the trace saw it), the storm's softirq then second
python3 "$RTJ_TOP/tests/helpers/culprit_check.py" "$WORK/s.json" "$WORK/flood.log" softirq "name=NET_RX" --listed \
    >"$WORK/c.txt" 2>&1
sed 's/^/# /' "$WORK/c.txt"
v() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/c.txt"; }
check "the 3 bursts fell in the measured window" [ "$(v truths_inside)" = 3 ]
# What is judged is the naming of what the storm caused: a burst that disturbed no cycle over 100 us (1 of 3 once
# in a make check) has nothing to name; two of three at least must have, so that the check never passes vacuously.
check "the storm disturbed cycles in at least 2 of its 3 bursts ($(v covered))" [ "$(v covered)" -ge 2 ]
check "each burst that disturbed a cycle has an event or spike that names the NET_RX softirq: $(v hit) of $(v covered)" \
    [ "$(v hit)" = "$(v covered)" ]
# Outside the bursts NET_RX may truly hold part of a wait: RPS steers all of lo's packets to the audio CPU, other
# tests' too (a fresh machine's suite listed it in 32 of 112 happenings there); on top, it must be rare.
echo "# outside the bursts: NET_RX listed in $(v named_outside), on top in $(v top_outside), of $(v outside)"
check "outside the bursts NET_RX is rarely the top culprit ($(v top_outside) of $(v outside): at most a tenth, or 2)" \
    holds '[ "$(v top_outside)" -le 2 ] || [ $(( $(v top_outside) * 10 )) -le "$(v outside)" ]'
# Every listing of the softirq, not only the top one: beside a busy suite a compile may top every burst's waits (once
# in a clean clone's CI: hit 3 of 3 listed, none on top), and the softirq it lists is still what the trace observed.
basis=$(json "$WORK/s.json" "sorted({c['basis'] for p in d['phases'] for h in p.get('events', []) + p.get('spikes', []) for c in h.get('culprits', []) if c.get('kind') == 'softirq'})")
check "the storm is named from the trace, marked observed (got $basis)" [ "$basis" = "['observed']" ]
