#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (an injected SCHED_FIFO 50 task spins 20 ms bursts on one CPU)
# The culprit engine on this machine's real /proc, against truths it does not produce (tests/helpers/culprit_probe):
# - the injected culprit's pid is fork()'s answer in the probe, and its bursts are the child's own clock readings;
#   every spike the probe's SCHED_FIFO 10 "audio" thread saw inside a burst (woken > 2 ms late) must have that
#   task, by that pid, as its top culprit (rt_task), and every burst must have made such a spike (the audio thread
#   is pinned to the burst's CPU under it: it cannot run);
# - the period is the one this test chose (300 ms, then 700 ms): the engine's periodicity must find it within 5 %,
#   with the injected task as what ranked top at those moments;
# - the summary says what the sampler read and its cost.
# Spikes outside the bursts are the machine's own (another test's real-time thread): printed, not judged.
# Needs SCHED_FIFO 50 (root here; a normal user with RLIMIT_RTPRIO >= 50, e.g. the audio group's limits): without,
# the probe exits 3 and the test skips. As a normal user the engine reads the same files: /proc/PID/task/TID/stat,
# status and schedstat of other users' tasks are readable by all (unless /proc is mounted hidepid=).
. "$(dirname "$0")/../lib.sh"
probe="$RTJ_HELPERS/culprit_probe"
cpu=$(($(nproc) - 1))

run_probe() { # NAME EVERY_MS COUNT
    "$probe" --cpu "$cpu" --every-ms "$2" --count "$3" --spin-ms 20 >"$WORK/$1.out" 2>"$WORK/$1.err"
}

judge() { # NAME EVERY_MS COUNT
    local n=$1 every=$2 count=$3
    python3 - "$WORK/$n.out" "$every" "$count" <<'PY' >"$WORK/$n.judge"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
every, count = int(sys.argv[2]) / 1000, int(sys.argv[3])
pid = int(next(l.split()[1] for l in lines if l.startswith('culprit_pid ')))
bursts = [tuple(map(float, l.split()[2:4])) for l in lines if l.startswith('burst ')]
spikes = [l for l in lines if l.startswith('spike ')]
summary = json.loads(next(l[8:] for l in lines if l.startswith('summary ')))
inb, named, hit = 0, 0, set()
for s in spikes:
    f = s.split(' | ')[0].split()
    t, late, ib, kind, top = float(f[1]), float(f[2]), f[3] == '1', f[5], int(f[6])
    if not ib:
        print(f"# outside the bursts (the machine's own): {s}")
        continue
    inb += 1
    named += kind == 'rt_task' and top == pid
    if kind != 'rt_task' or top != pid:
        print(f"# not named: {s}")
    for i, (b0, b1) in enumerate(bursts):
        if t <= b1 and t + late / 1000 >= b0:
            hit.add(i)
per = summary.get('periodicity', [])
best = min(per, key=lambda p: abs(p['period_s'] - every)) if per else None
print('pid', pid, 'bursts', len(bursts), 'in_burst', inb, 'named', named, 'bursts_hit', len(hit))
print('period', best['period_s'] if best else 0, 'what_pid', int(f"(pid {pid})" in best['what']) if best else 0)
print('cost', summary['cost']['cpu_pct'], 'hz', summary['sampler']['hz'])
PY
    grep '^#' "$WORK/$n.judge"
    v() { # the value after key $1 in the judge's lines (its '#' lines are for the log)
        awk -v k="$1" '/^#/ { next } { for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$WORK/$n.judge"
    }
    check "$n: the child made its $count bursts" [ "$(v bursts)" = "$count" ]
    check "$n: every burst made a spike ($(v bursts_hit) of $count)" [ "$(v bursts_hit)" = "$count" ]
    check "$n: every spike in a burst names the injected task (pid $(v pid)) top ($(v named) of $(v in_burst))" \
        [ "$(v named)" = "$(v in_burst)" -a "$(v in_burst)" -ge "$count" ]
    check "$n: the period found, $(v period) s, is within 5 % of the chosen $every ms" \
        python3 -c "import sys; sys.exit(abs($(v period) - $every / 1000) > 0.05 * $every / 1000)"
    check "$n: what ranked top at those moments is the injected task" [ "$(v what_pid)" = 1 ]
    check "$n: the summary gives the sampler's rate and cost ($(v cost) % CPU)" [ "$(v hz)" = 20.0 ]
}

[ -x "$probe" ] || { not_ok "no $probe (make test-bins)"; exit 1; }
run_probe a 300 5
rc=$?
if [ "$rc" = 3 ]; then
    ok "# SKIP no SCHED_FIFO here (RLIMIT_RTPRIO): $(head -1 "$WORK/a.err")"
    exit 0
fi
check "the probe ran (300 ms)" [ "$rc" = 0 ]
judge a 300 5
run_probe b 700 4
check "the probe ran (700 ms)" [ "$?" = 0 ]
judge b 700 4
