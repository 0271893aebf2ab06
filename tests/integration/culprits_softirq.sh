#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a sender floods loopback on one CPU; its softirqs run on the other, under a real-time thread)
# Culprits (issues 24, 32): a softirq storm on loopback networking only, bounded in time, named from the trace and
# judged against perf's record of the scheduler. The injected culprit: tests/helpers/udp_flood, sending small UDP datagrams to
# its own socket on 127.0.0.1 from CPU 0 (at SCHED_FIFO 10, so that stress-ng there does not starve it) for 300 ms
# every 1.5 s, 3 times; it logs its own bursts (CLOCK_MONOTONIC).
# A sender on the audio CPU itself disturbs nothing: the kernel runs the receive softirq in the sender's own context,
# which the real-time thread preempts (tests/experiments/culprits_softirq-result.txt: 2 spikes in 10 runs). So the
# test steers loopback's packets to the audio CPU (RPS, lo's queues/rx-0/rps_cpus: root, restored on every exit):
# the NET_RX softirq then runs there, raised by function-call IPIs, in interrupt context or in ksoftirqd, as a
# network card's traffic steered to that CPU would.
# The truth is perf's (`perf record -a` of the scheduler, interrupts and softirqs beside the run, read by
# tests/helpers/perf_waits.py, apart from src/culprit/): for each spike, the audio thread's longest wait and who held
# its CPU most of it. A spike in a burst is not the storm's by its time alone: beside a burst perf itself, a compile
# or the host held waits too, and a late wake with no wait at all is below the kernel (ci59 failed on such a spike).
# - the storm reached the audio thread (perf saw NET_RX hold its waits in at least 1 of the 3 bursts; none: a SKIP);
# - every spike perf saw it make late (NET_RX held most of the wait, 30 us or more, and the wait is half the lateness
#   or more) lists NET_RX;
# - NET_RX on top only where perf saw it hold the wait (at most a tenth otherwise);
# - outside the bursts (the flood's own log, tests/helpers/culprit_check.py) NET_RX is rarely on top.
. "$(dirname "$0")/../lib.sh"

rps=/sys/class/net/lo/queues/rx-0/rps_cpus
skip_all() { ok "# SKIP $*"; exit 0; }
if [ "$(id -u)" != 0 ] || [ "$(nproc)" -lt 2 ] || ! [ -w "$rps" ]; then
    ok "# SKIP needs root, 2 CPUs and RPS (lo's rps_cpus) to steer loopback's softirqs to the audio CPU"
    exit 0
fi
command -v perf >/dev/null || skip_all "no perf (apt install linux-perf; make check installs it)"
perf record -q -a -e sched:sched_switch -o /dev/null -- true 2>/dev/null || skip_all "perf cannot record here"
cpu=$(($(nproc) - 1)); send=0
old_rps=$(cat "$rps")
restore_rps() { echo "$old_rps" >"$rps"; }
# the observer: perf's record of the scheduler, interrupts and softirqs (tests/helpers/perf_waits.py), not the code's
ev=(-e sched:sched_switch -e sched:sched_waking -e irq:irq_handler_entry -e irq:irq_handler_exit
    -e irq:softirq_entry -e irq:softirq_exit)
for v in local_timer reschedule call_function call_function_single; do
    [ -d /sys/kernel/tracing/events/irq_vectors ] || perf list 2>/dev/null | grep -q "irq_vectors:${v}_entry" || continue
    ev+=(-e "irq_vectors:${v}_entry" -e "irq_vectors:${v}_exit")
done
perf_pid=
cleanup_perf() { [ -n "$perf_pid" ] && kill -INT "$perf_pid" 2>/dev/null; [ -n "$perf_pid" ] && wait "$perf_pid" 2>/dev/null; perf_pid=; }
trap 'cleanup_perf; restore_rps; cleanup_lib' EXIT
perf record -q -a -k CLOCK_MONOTONIC -m 4096 "${ev[@]}" -o "$WORK/perf.data" 2>"$WORK/perf.err" &
perf_pid=$!
canaries 1 9
sleep 1
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
cleanup_perf
canaries_stop
grep -i lost "$WORK/perf.err" | sed 's/^/# perf: /'
perf script -i "$WORK/perf.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$WORK/script.txt" 2>/dev/null
rm -f "$WORK/perf.data"
canary_logs=("$WORK"/canary-*.log)
python3 "$RTJ_TOP/tests/helpers/perf_waits.py" "$WORK/s.json" "$WORK/script.txt" --pid "$rpid" --min-ms 0.05 \
    --json "$WORK/obs.json" "${canary_logs[@]/#/--canary=}" >"$WORK/obs.txt" 2>&1
tail -1 "$WORK/obs.txt" | sed 's/^/# /'
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
# perf's account: the spikes the storm made late, and whether the report names it there. A spike is the storm's
# when perf saw NET_RX hold most of the audio thread's wait, 30 us or more of it, and that wait is at least half the
# spike's lateness (a 50 us wait in a spike 230 us late does not say what made it late: the rest came before the wake)
read -r storm named top_nr top_wrong reached uncovered <<<"$(python3 - "$WORK/obs.json" "$WORK/flood.log" 2>"$WORK/judge.txt" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))['rows']
bursts = [tuple(float(x) for x in l.split()[1:3]) for l in open(sys.argv[2]) if l.startswith('spin')]
def nr(x): return x.get('delayer', {}).get('what') == 'softirq' and x['delayer'].get('name') == 'NET_RX'
storm = [x for x in rows if nr(x) and x['held_ms'] >= 0.03 and 2 * x['wait_ms'] >= x['late_ms']]
named = [x for x in storm if any('NET_RX' in (n or '') for n in x['names']) or ('below' in x and x['verdict'] == 'match')]
# "not known" because the trace no longer held the wait (a storm of ~170,000 events a second on the audio CPU fills
# a CPU's segments in 0.2 s; the explanation comes later) is honest, said so in its evidence, and counted apart
uncovered = [x for x in storm if x not in named and x['names'] == ['not known'] and x.get('why_not', '').startswith(
    ("most of the audio threads' wait in it is before the trace's ring", "the trace lost events"))]
top = [x for x in rows if 'NET_RX' in (x.get('top') or '')]
wrong = [x for x in top if 'delayer' in x and not nr(x) and x['held_ms'] >= 0.03]
# the bursts in which perf saw NET_RX hold any of the audio thread's waits (10 us or more): the storm reached it
reached = sum(1 for a, b in bursts if any(nr(x) and x['held_ms'] >= 0.01 and a - 0.01 <= x['t_s'] <= b + 0.01
                                          for x in rows))
for x in storm:
    if x not in named and x not in uncovered:
        print('unnamed %.4f late %.3f ms, wait %.3f ms, NET_RX %.3f ms: report %s' % (
            x['t_s'], x['late_ms'], x['wait_ms'], x['held_ms'], x['names']), file=sys.stderr)
for x in wrong:
    print('top_wrong %.4f: perf %s %.3f ms' % (x['t_s'], json.dumps(x['delayer']), x['held_ms']), file=sys.stderr)
print(len(storm) - len(uncovered), len(named), len(top), len(wrong), reached, len(uncovered))
PY
)"
sed 's/^/# /' "$WORK/judge.txt"
echo "# perf saw NET_RX make $((storm + uncovered)) spikes late (30 us or more of a wait of half the lateness); the report lists it in $named, $uncovered 'not known' as the trace no longer held the wait"
# (on a quiet, fast machine the storm reaches it in fewer bursts: 1 of 3 in four of five runs after this VM's reboot of
# 2026-12-05, where 2 of 3 had held; what it reached is judged below, and a run it never reached has nothing to judge)
echo "# the storm reached the audio thread in ${reached:-0} of 3 bursts (perf saw NET_RX hold its waits there)"
[ "${reached:-0}" -ge 1 ] ||
    ok "# SKIP the storm did not reach the audio thread in any burst (perf saw NET_RX hold none of its waits): nothing to judge its naming on"
# (beside stress-ng the host's stalls may make every spike of the bursts late before the wake, the storm's share of
# the waits then under 30 us: 1 run in 12; this check then has nothing to judge, and says so)
if [ "${storm:-0}" -gt 0 ]; then
    check "each spike perf saw the storm make late lists the NET_RX softirq, but those the trace no longer held ($named of $storm)" [ "$named" = "$storm" ]
else
    ok "# SKIP each spike perf saw the storm make late lists NET_RX: perf saw none in this run, nothing to judge"
fi
check "NET_RX is on top only where perf saw it hold the wait ($top_wrong of $top_nr otherwise: at most a tenth, or 1)" \
    holds '[ "$top_wrong" -le 1 ] || [ $((top_wrong * 10)) -le "$top_nr" ]'
# Outside the bursts NET_RX may truly hold part of a wait: RPS steers all of lo's packets to the audio CPU, other
# tests' too (a fresh machine's suite listed it in 32 of 112 happenings there); on top, it must be rare.
echo "# outside the bursts: NET_RX listed in $(v named_outside), on top in $(v top_outside), of $(v outside)"
check "outside the bursts NET_RX is rarely the top culprit ($(v top_outside) of $(v outside): at most a tenth, or 2)" \
    holds '[ "$(v top_outside)" -le 2 ] || [ $(( $(v top_outside) * 10 )) -le "$(v outside)" ]'
# Every listing of the softirq, not only the top one: beside a busy suite a compile may top every burst's waits (once
# in a clean clone's CI: hit 3 of 3 listed, none on top), and the softirq it lists is still what the trace observed.
basis=$(json "$WORK/s.json" "sorted({c['basis'] for p in d['phases'] for h in p.get('events', []) + p.get('spikes', []) for c in h.get('culprits', []) if c.get('kind') == 'softirq'})")
check "the storm is named from the trace, marked observed (got $basis)" [ "$basis" = "['observed']" ]
