#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare's verdicts against injected truth (issue 8, the A/A test, fast form; the full experiment on this machine
# is tests/experiments/compare_aa.sh). The test provider in report form (tests/helpers/compare_prov) drives the real
# sink, collector, statistics and report builder from a SCHED_FIFO timer thread and delays every cycle's wake-up by
# a known amount: an exponential delay (mean 40 µs) drawn from a seed, plus EXTRA µs. Four runs of one set-up
# (label testprov, other seeds) and two with 300 µs more (label testprov+300us), all in one directory: compare
# takes the runs of each set-up found beside a report as its replicates (run-to-run noise).
#  - A/A: two runs of the first set-up: "no clear difference" in every measure (the other two give the noise).
#  - A/B: 300 µs more on every cycle: both per-second wake-up measures are found worse, with the injected shift,
#    across runs too (4 runs against 2); and since a constant delay moves every cycle alike, period-to-period
#    jitter does not change: the |jitter| measures stay "no clear difference" (a truth of construction, not of the
#    estimator).
#  - The same A/B with --alone (no other runs): the two runs differ, and "weak" is all that can be said.
# About 13 s: six runs of 12 s at once (12 seconds a side: on a very busy machine 8 were too few, p = 0.01).
. "$(dirname "$0")/../lib.sh"

P="$RTJ_HELPERS/compare_prov"
# All at once: the machine's own stalls (a busy machine has seconds with 2 ms and worse) then fall on the same
# seconds of every run, and only the injection tells them apart.
pids=()
for i in 1 2 3 4; do
    "$P" "$WORK/a$i.json" 12 1 0 $((10 + i)) 70 testprov >"$WORK/a$i.log" 2>&1 &
    pids+=($!)
done
for i in 1 2; do
    "$P" "$WORK/b$i.json" 12 1 300 $((20 + i)) 70 testprov+300us >"$WORK/b$i.log" 2>&1 &
    pids+=($!)
done
rcs=
for p in "${pids[@]}"; do wait "$p"; rcs="$rcs$?"; done
check "the test provider wrote six reports (exit $rcs)" [ "$rcs" = 000000 ]

# outcomes of a comparison: "metric=outcome" for every verdict
outcomes() { json "$1" "' '.join('%s=%s' % (v['metric'].replace(' ', '_'), v['outcome']) for l in d['loads'] for v in l['verdicts'])"; }

"$RTJ" compare "$WORK/a1.json" "$WORK/a2.json" --json "$WORK/aa.json" >"$WORK/aa.out" 2>&1
rc=$?
check "A/A: compare exits 0 (got $rc)" [ "$rc" -eq 0 ]
aa=$(outcomes "$WORK/aa.json")
echo "# A/A: $aa"
check "A/A: six measures judged" [ "$(echo "$aa" | wc -w)" -eq 6 ]
check "A/A: the same injection twice is no clear difference in every measure" \
    bash -c "! echo '$aa' | grep -qE '=(worse|better|n/a)'"
check "A/A: each found the 3 other runs of its set-up (not the +300 µs ones)" \
    [ "$(json "$WORK/aa.json" "' '.join(str(len(r['replicates'])) for r in d['reports'])")" = "3 3" ]
check "A/A: the noise is those 2 runs beside the two compared" \
    [ "$(json "$WORK/aa.json" "d['loads'][0]['verdicts'][0]['runs']['noise']")" = 2 ]
check "A/A: the summary calls nothing" grep -q "better in 0 measures, worse in 0" <(tr "\n" " " <"$WORK/aa.out" | tr -s " ")

"$RTJ" compare "$WORK/a1.json" "$WORK/b1.json" --json "$WORK/ab.json" >"$WORK/ab.out" 2>&1
ab=$(outcomes "$WORK/ab.json")
echo "# A/B: $ab"
check "A/B: 300 µs injected on every cycle: wakeup p99/s worse" bash -c "echo '$ab' | grep -q 'wakeup_p99/s=worse'"
# A second's maximum is the machine's worst stall in it as often as the injected delay: with 12 seconds a side a few
# stalled seconds can hide the shift from the rank test. Worse, or at least never better.
check "A/B: ... wakeup max/s worse or no clear difference, never better" bash -c "echo '$ab' | grep -qE 'wakeup_max/s=(worse|same)'"
# A constant delay moves no jitter: the per-second |jitter| p99 is no clear difference. The per-second maxima are
# the machine's own worst stall of each second as often as anything injected (seen on a very busy machine: the
# baseline's jitter max/s called worse than B's), so they are printed above and not judged here.
check "A/B: a constant delay moves no jitter: jitter_p99/s no clear difference" bash -c "echo '$ab' | grep -q 'jitter_p99/s=same'"
check "A/B: nothing but a per-second maximum better" bash -c "! echo '$ab' | tr ' ' '\n' | grep -v '_max/s=' | grep -q '=better'"
# The shift the verdict names is the injected one: the per-second wake-up p99 moved by 300 µs give or take the
# machine's own noise (within 30 µs).
check "A/B: the wake-up p99 shift named is the injected 300 µs (within 30 µs)" python3 - "$WORK/ab.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
v = [v for l in d['loads'] for v in l['verdicts'] if v['metric'] == 'wakeup p99/s'][0]
m = re.search(r'shift ([+-][0-9.]+) µs', v['text'])
print('# ' + v['text'])
sys.exit(0 if m and abs(float(m.group(1)) - 300) <= 30 else 1)
PY
check "A/B: the line says why (seconds above the baseline's median, the shift, the p-value, the runs)" \
    grep -q "seconds above the baseline.s median, shift +[0-9.]* µs (Hodges-Lehmann; in every half of either run) beyond.*; and across runs: 4 runs of the baseline.s set-up against 2 of this one, ×[0-9.]* (t-test on the runs, p [<=] [0-9.e-]*, 4 df; over the 6 measures compared (Holm) p [<=] [0-9.e-]*)" <(tr '\n' ' ' <"$WORK/ab.out" | tr -s ' ')

# Alone, the same two runs differ and nothing more can be said: weak, never a call, and the line says why.
"$RTJ" compare --alone "$WORK/a1.json" "$WORK/b1.json" --json "$WORK/alone.json" >"$WORK/alone.out" 2>&1
al=$(outcomes "$WORK/alone.json")
echo "# alone: $al"
check "--alone: 300 µs injected: wakeup p99/s weak, not worse" bash -c "echo '$al' | grep -q 'wakeup_p99/s=weak'"
check "--alone: nothing called" bash -c "! echo '$al' | grep -qE '=(worse|better)'"
check "--alone: the line says the run-to-run noise is unknown" grep -q "weak: worse in these two runs (.*), but one run a side and no other run of either set-up beside them" <(tr '\n' ' ' <"$WORK/alone.out" | tr -s ' ')
