#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An experiment, not a gate (issue "Culprits, true": an ordinary task holding the CPU in the kernel): the timer
# backend at FIFO 70 on CPU 1 beside an ordinary task on that CPU that spends long calls in the kernel, judged by
# culprits_observer.sh (perf's scheduler trace, tests/helpers/perf_waits.py). Two injections, each logged on
# CLOCK_MONOTONIC: tests/helpers/kernel_hold (populate then munmap 512 MiB, 12 times) and a page-cache drop
# (echo 3 > /proc/sys/vm/drop_caches from CPU 1, 5 times). Prints the observer's summary of each run and which
# injected calls overlapped a wait of the audio thread of 0.5 ms or more.
# usage (root, built tree): tests/experiments/culprits_kernel.sh OUTDIR
set -u
out=${1:?usage: culprits_kernel.sh OUTDIR}
here=$(dirname "$0")
mkdir -p "$out"
run() { # NAME INJECT...
    local name=$1; shift
    ( sleep 3; "$@" >"$out/$name-inject.log" ) &
    "$here/culprits_observer.sh" "$out/$name" --backend timer --cpus 1 --priority 70 --loads none --warmup 0.5 \
        --duration 8 >"$out/$name-observer.txt" 2>&1
    wait
    grep '^# audio threads' "$out/$name-observer.txt"
    python3 - "$out/$name/observer.json" "$out/$name-inject.log" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))['rows']
calls = [tuple(map(float, l.split()[1:3])) + (l.split()[0],) for l in open(sys.argv[2]) if len(l.split()) == 3]
waits = [r for r in rows if r.get('wait_ms', 0) >= 0.5]
inside = [r for r in waits if any(a - 0.005 <= r['t_s'] <= b + 0.005 for a, b, _ in calls)]
print('# %d injected kernel calls (%s, %.1f-%.1f ms each); %d waits of 0.5 ms or more during them, held by: %s' % (
    len(calls), ', '.join(sorted(set(k for _, _, k in calls))), min((b - a) * 1e3 for a, b, _ in calls),
    max((b - a) * 1e3 for a, b, _ in calls), len(inside),
    ', '.join('%s %.2f ms (report: %s, %s)' % (r['delayer'].get('comm', r['delayer'].get('name', '?')), r['wait_ms'],
                                                 r['top'], r['verdict']) for r in inside) or 'none'))
PY
}
run hold "${BUILD:-build}/tests/helpers/kernel_hold" 1 512 12 0.3
run drop bash -c 'for i in 1 2 3 4 5; do cat /usr/lib/x86_64-linux-gnu/*.so* >/dev/null 2>&1; taskset -c 1 python3 -c "
import time
a = time.monotonic(); open(\"/proc/sys/vm/drop_caches\", \"w\").write(\"3\"); print(\"drop %.6f %.6f\" % (a, time.monotonic()))"; sleep 0.4; done'
