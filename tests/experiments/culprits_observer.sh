#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An experiment, not a gate: a run of rtjitter judged against a scheduler trace it does not produce. `perf record`
# (linux-perf) records the scheduler, interrupt, softirq and workqueue events of the whole machine beside the run;
# tests/helpers/perf_waits.py computes, for each xrun event and spike of the report, the audio threads' longest
# wait from waking to running and who held that CPU most of it, and compares with the report's top culprit.
# usage (root): tests/experiments/culprits_observer.sh OUTDIR [rtjitter run options...]
#   e.g. tests/experiments/culprits_observer.sh /tmp/obs --loads none,write,compile,memload --duration 10
# Prints the observer's lines and its summary; OUTDIR keeps the report, the perf script and the observer's JSON.
set -u
out=${1:?usage: culprits_observer.sh OUTDIR [run options]}
shift
RTJ=${RTJ:-./rtjitter}
PY=$(dirname "$0")/../helpers
mkdir -p "$out"
. "$PY/perf_sched_events.sh"
perf record -q -a -k CLOCK_MONOTONIC -m 4096 "${ev[@]}" -o "$out/perf.data" 2>"$out/perf.err" &
perf_pid=$!
sleep 1.5
"$RTJ" run --json "$out/report.json" --output "$out" "$@" >"$out/run.txt" 2>"$out/run.err" &
run_pid=$!
server=0
while kill -0 "$run_pid" 2>/dev/null; do   # a private jackd is the run's child
    server=$(pgrep -P "$run_pid" jackd | head -1); [ -n "$server" ] && break; server=0; sleep 0.1
done
echo "# the run $run_pid, its server ${server:-none}"
wait "$run_pid"
echo "# rtjitter run exited $? (pid $run_pid)"
kill -INT "$perf_pid"
wait "$perf_pid"
perf script -i "$out/perf.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$out/script.txt" 2>/dev/null
grep -c LOST "$out/perf.err" >/dev/null && grep -i lost "$out/perf.err" | head -3
python3 "$PY/perf_waits.py" "$out/report.json" "$out/script.txt" --pid "$run_pid" \
    $( [ "${server:-0}" -gt 0 ] && echo --pid "$server" ) --json "$out/observer.json"
rm -f "$out/perf.data"
