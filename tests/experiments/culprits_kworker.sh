#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An experiment, not a gate (issue "Culprits, true": "a kworker (its workqueue function named)"): the timer backend
# at FIFO 70 on CPU 1 beside the write load (ext4 writeback: its end-of-I/O work, ext4_end_io_rsv_work, runs in
# kworkers on whatever CPU, the audio CPU too), judged by culprits_observer.sh (perf's scheduler trace, whose
# workqueue_execute_start names the work function itself, tests/helpers/perf_waits.py). RUNS runs (default 3) of
# 8 s each. Prints each run's observer summary and, for every wait of 0.5 ms or more that perf saw a kworker hold
# most of, perf's work function and the report's top culprit, with the observer's verdict; then the totals.
# usage (root, built tree): tests/experiments/culprits_kworker.sh OUTDIR [RUNS]
set -u
out=${1:?usage: culprits_kworker.sh OUTDIR [RUNS]}
runs=${2:-3}
here=$(dirname "$0")
mkdir -p "$out"
for ((i = 1; i <= runs; i++)); do
    "$here/culprits_observer.sh" "$out/run$i" --backend timer --cpus 1 --priority 70 --loads write --warmup 0.5 \
        --duration 8 >"$out/run$i-observer.txt" 2>&1
    grep '^# audio threads' "$out/run$i-observer.txt"
done
python3 - "$out" "$runs" <<'PY'
import json, sys
out, runs = sys.argv[1], int(sys.argv[2])
tot = {'waits': 0, 'kworker': 0, 'match': 0, 'wrong': 0, 'not known': 0}
for i in range(1, runs + 1):
    try:
        rows = json.load(open('%s/run%d/observer.json' % (out, i)))['rows']
    except (OSError, ValueError):
        print('# run %d: no observer output' % i)
        continue
    for r in rows:
        if r.get('wait_ms', 0) < 0.5:
            continue
        tot['waits'] += 1
        d = r.get('delayer', {})
        if d.get('what') != 'task' or not d.get('comm', '').startswith('kworker'):
            continue
        tot['kworker'] += 1
        if r['verdict'] in tot:
            tot[r['verdict']] += 1
        print('run %d %s %s %.4f: wait %.2f ms, perf: %s %s held %.2f ms; report: %s (%s): %s' % (
            i, r['load'], r['kind'], r['t_s'], r['wait_ms'], d['comm'], d.get('fn') or '(no work function)',
            r['held_ms'], r['top'], r['top_kind'], r['verdict']))
print('# waits >= 0.5 ms: %(waits)d; held most by a kworker (perf): %(kworker)d; the report named it right %(match)d, '
      'wrong %(wrong)d, not known %(not known)d' % tot)
PY
