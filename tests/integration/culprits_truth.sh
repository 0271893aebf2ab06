#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog spins on the audio CPU; perf records the whole machine's scheduler)
# test-timeout: 300 (perf script of 20 s of a busy machine's scheduler, and the observer's pass over it)
# Culprits judged against a scheduler trace rtjitter does not produce (issue "Culprits, true"): `perf record -a` of
# sched_switch, sched_waking, the interrupts, softirqs and workqueue events beside a root run (timer backend at
# FIFO 70 on the last CPU, loads none and write), and tests/helpers/perf_waits.py, which computes for each xrun event
# and spike of the report the audio thread's longest wait from waking to running and who held that CPU most of it.
# The injected culprit: tests/helpers/cpu_hog, FIFO 80 on the audio CPU, 8 ms spins at times it logs itself.
# - every spin the observer saw delay the audio thread is named by the report, cpu_hog by its pid;
# - cpu_hog is never named where the observer saw someone else hold the wait;
# - of all the happenings whose wait was 0.5 ms or more (the write load's, the machine's own), the report names the
#   observer's main delayer in most, a wrong one in few (the rest: "not known"): figures printed;
# - the verdict's advice for the hog is a command the kernel accepts: run against the hog, it succeeds and the hog
#   is then below the audio thread; no advice line runs chrt -o or taskset against anything;
# - the default run (a private jackd, its threads and our client's, loads none and write): at most 10 % of its waits
#   of 0.5 ms or more named wrong, at least 85 % right (report clock CLOCK_MONOTONIC_RAW, moved onto perf's);
# - in both runs every "below the kernel" (nothing on the CPU) is right: from the happening's due time to the audio
#   thread's switch-in perf saw nothing on that CPU for most of it, and the test's own canary there (SCHED_FIFO 1,
#   never ahead of the audio thread) was late through that silence when it lasted 2 ms or more (a shorter one can
#   fall between its 1 ms wake-ups, unseen). The wait from the waking alone cannot judge it:
#   a host's stall before the due time delays the wake itself (this VM's host stops both CPUs for 4-30 ms every
#   100 ms at times: perf, rtjitter's trace and the canaries all saw CPU 1 silent 8.4 ms of an 11.0 ms lateness
#   whose wait from the waking was 0.13 ms, and the old observer called rtjitter's answer wrong). A spin that came
#   after such a stall longer than itself is named after "below the kernel", and that counts as named.
. "$(dirname "$0")/../lib.sh"

skip_all() { ok "# SKIP $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip_all "not root: the trace and perf record need root"
command -v perf >/dev/null || skip_all "no perf (apt install linux-perf; make check installs it)"
perf record -q -a -e sched:sched_switch -o /dev/null -- true 2>/dev/null || skip_all "perf cannot record here"
[ "$(nproc)" -ge 2 ] || skip_all "one CPU"
cpu=$(($(nproc) - 1))

ev=(-e sched:sched_switch -e sched:sched_waking -e irq:irq_handler_entry -e irq:irq_handler_exit
    -e irq:softirq_entry -e irq:softirq_exit -e workqueue:workqueue_execute_start -e workqueue:workqueue_execute_end)
for v in local_timer reschedule call_function call_function_single; do
    [ -d /sys/kernel/tracing/events/irq_vectors ] || perf list 2>/dev/null | grep -q "irq_vectors:${v}_entry" || continue
    ev+=(-e "irq_vectors:${v}_entry" -e "irq_vectors:${v}_exit")
done
perf record -q -a -k CLOCK_MONOTONIC -m 4096 "${ev[@]}" -o "$WORK/perf.data" 2>"$WORK/perf.err" &
perf_pid=$!
cleanup_perf() { kill -INT "$perf_pid" 2>/dev/null; wait "$perf_pid" 2>/dev/null; }
trap 'cleanup_perf; kill "$hog" 2>/dev/null; cleanup_lib' EXIT   # lib.sh's cleanup too: WORK, the canaries
# the canaries (tests/helpers/canary, one a CPU, SCHED_FIFO 1: never ahead of a real-time audio thread, so never a
# holder of its wait): a "below the kernel" answer is right only where perf saw nothing on that CPU and its canary
# was late through that silence (perf_waits.py --canary)
canaries 1 20
sleep 1.5
"$RTJ" run --backend timer --cpus "$cpu" --priority 70 --loads none,write --warmup 0.5 --duration 4.5 --quiet \
    --json "$WORK/r.json" --output "$WORK/store" >"$WORK/run.out" 2>&1 &
rpid=$!
# 8 spins of 8 ms, 1 s apart, from 1.5 s in; then asleep 60 s, so that the advice can be run against it after
# perf script and the observer (once past a 9 s linger on a busy machine); the trap ends it
"$RTJ_HELPERS/cpu_hog" "$cpu" 80 8 1000 8 1500 60000 >"$WORK/hog.log" &
hog=$!
wait "$rpid"; rc=$?
cleanup_perf
canaries_stop
mkdir -p "$WORK/canary1" && mv "$WORK"/canary-*.log "$WORK/canary1/"
canary_logs=("$WORK"/canary1/canary-*.log)
check "the root run beside the hog and perf exits 0 (got $rc: $(head -c 300 "$WORK/run.out"))" [ "$rc" = 0 ]
grep -i lost "$WORK/perf.err" | sed 's/^/# perf: /'
perf script -i "$WORK/perf.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$WORK/script.txt" 2>/dev/null
rm -f "$WORK/perf.data"
python3 "$RTJ_TOP/tests/helpers/perf_waits.py" "$WORK/r.json" "$WORK/script.txt" --pid "$rpid" \
    --json "$WORK/obs.json" "${canary_logs[@]/#/--canary=}" >"$WORK/obs.txt" 2>&1
grep -v '^match' "$WORK/obs.txt" | head -40 | sed 's/^/# /'
tail -1 "$WORK/obs.txt" | sed 's/^/# /'

q() { python3 -c "import json,sys; o=json.load(open('$WORK/obs.json')); hog=$hog; r=o['rows']; print($1)"; }
spins=$(q "sum(1 for x in r if x.get('delayer', {}).get('pid') == hog and x.get('wait_ms', 0) >= 2)")
spins_named=$(q "sum(1 for x in r if x.get('delayer', {}).get('pid') == hog and x.get('wait_ms', 0) >= 2 and ((x['verdict'] == 'match' and 'below' not in x) or ('below' in x and x['below']['right'] and 'cpu_hog' in x['names'])))")
# (a spin that followed a stall of the host longer than itself, the audio thread's wake late by that stall: below the
# kernel first, when perf and the canary saw that CPU silent then, and cpu_hog after it)
below_first=$(q "sum(1 for x in r if x.get('delayer', {}).get('pid') == hog and x.get('wait_ms', 0) >= 2 and 'below' in x)")
echo "# the hog held $spins happenings' waits of 2 ms or more (events and spikes), named in $spins_named ($below_first of them after a stall below the kernel that perf and the canary saw)"
check "the hog delayed the audio thread in the run (in $spins happenings; 8 spins)" [ "${spins:-0}" -ge 3 ]
check "each of them names cpu_hog (pid $hog): $spins_named of $spins" [ "$spins_named" = "$spins" ]
read -r bnamed bright <<<"$(q "'%d %d' % (sum(1 for x in r if 'below' in x), sum(1 for x in r if 'below' in x and x['below']['right']))")"
echo "# below the kernel named in $bnamed happenings; perf saw that CPU silent, and its canary late, in $bright"
check "every 'below the kernel' is right: perf saw nothing on that CPU then, and its canary was late ($bright of $bnamed)" \
    [ "$bright" = "$bnamed" ]
misnamed=$(q "sum(1 for x in r if x.get('top_pid') == hog and 'delayer' in x and x['delayer'].get('pid') != hog)")
check "cpu_hog is never named where the observer saw another hold the wait ($misnamed)" [ "$misnamed" = 0 ]
read -r judged right wrong unknown <<<"$(q "'%d %d %d %d' % (o['counts']['match'] + o['counts']['wrong'] + o['counts']['not known'], o['counts']['match'], o['counts']['wrong'], o['counts']['not known'])")"
echo "# waits of 0.5 ms or more: $judged; named right $right, wrong $wrong, not known $unknown"
check "most are named right (right $right of $judged: at least 80 %)" holds '[ $((right * 100)) -ge $((judged * 80)) ]'
check "few are named wrong (wrong $wrong of $judged: at most 15 %)" holds '[ $((wrong * 100)) -le $((judged * 15)) ]'

# the advice: one command, against the hog, that the kernel accepts
adv=$(json "$WORK/r.json" "'\n'.join(d['verdict'].get('advice', []))")
cmd=$(grep -o "chrt -f -p [0-9]* $hog" <<<"$adv" | head -1)
echo "# the advice's command: ${cmd:-none}"
check "the verdict advises lowering the hog with chrt -f below the audio thread's 70" grep -q "chrt -f -p 69 $hog" <<<"$cmd"
if [ -n "$cmd" ] && kill -0 "$hog" 2>/dev/null; then
    $cmd >"$WORK/chrt.out" 2>&1; rc=$?
    check "it succeeds against the hog (exit $rc: $(cat "$WORK/chrt.out"))" [ "$rc" = 0 ]
    check "and the hog is then SCHED_FIFO 69 ($(chrt -p "$hog" | tr '\n' ' '))" \
        holds 'chrt -p "$hog" | grep -q "SCHED_FIFO" && chrt -p "$hog" | grep -q "priority: 69"'
else
    check "the hog is still there to run the advice against" false
fi
check "no advice runs chrt -o or taskset" holds '! grep -Eq "chrt -o|taskset -" <<<"$adv"'
kill "$hog" 2>/dev/null

# --- the default run: a private jackd, our client and its real-time threads, under the write load ---
perf record -q -a -k CLOCK_MONOTONIC -m 4096 "${ev[@]}" -o "$WORK/perf2.data" 2>"$WORK/perf2.err" &
perf_pid=$!
canaries 1 20
sleep 1.5
"$RTJ" run --loads none,write --warmup 0.5 --duration 5 --quiet --json "$WORK/j.json" --output "$WORK/store" \
    >"$WORK/j.out" 2>&1 &
rpid=$!
server=0
while kill -0 "$rpid" 2>/dev/null; do # the private jackd is the run's child
    server=$(pgrep -P "$rpid" jackd | head -1); [ -n "$server" ] && break; server=0; sleep 0.1
done
wait "$rpid"; rc=$?
cleanup_perf
canaries_stop
canary_logs2=("$WORK"/canary-*.log)
check "the default run (a private jackd) beside perf exits 0 (got $rc: $(head -c 300 "$WORK/j.out"))" [ "$rc" = 0 ]
perf script -i "$WORK/perf2.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$WORK/script2.txt" 2>/dev/null
rm -f "$WORK/perf2.data"
python3 "$RTJ_TOP/tests/helpers/perf_waits.py" "$WORK/j.json" "$WORK/script2.txt" --pid "$rpid" --pid "$server" \
    --json "$WORK/obs2.json" "${canary_logs2[@]/#/--canary=}" >"$WORK/obs2.txt" 2>&1
grep -v '^match' "$WORK/obs2.txt" | head -20 | sed 's/^/# jack: /'
read -r judged right wrong unknown <<<"$(python3 -c "import json; c=json.load(open('$WORK/obs2.json'))['counts']; print(c['match'] + c['wrong'] + c['not known'], c['match'], c['wrong'], c['not known'])")"
echo "# the default run's waits of 0.5 ms or more: $judged; named right $right, wrong $wrong, not known $unknown (server $server)"
check "the default run: the server's threads are followed too (server pid $server)" [ "${server:-0}" -gt 0 ]
read -r bnamed bright <<<"$(python3 -c "import json; r=json.load(open('$WORK/obs2.json'))['rows']; print(sum(1 for x in r if 'below' in x), sum(1 for x in r if 'below' in x and x['below']['right']))")"
check "the default run: every 'below the kernel' is right: perf saw nothing on that CPU then, and its canary was late ($bright of $bnamed)" \
    [ "$bright" = "$bnamed" ]
check "the default run: at most 10 % of its waits of 0.5 ms or more named wrong ($wrong of $judged)" \
    holds '[ $((wrong * 100)) -le $((judged * 10)) ]'
check "the default run: at least 85 % of them named right, when there are some ($right of $judged)" \
    holds '[ "$judged" -eq 0 ] || [ $((right * 100)) -ge $((judged * 85)) ]'
