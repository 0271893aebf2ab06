#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# test-timeout: 90
# What a phase lists of its wake-up spikes (stats/phase.h, issue 32 item 5): the worst SEGMENT_SPIKES_MAX, in time
# order, each explained; the rest counted. A timer run at 1 ms with a 20 µs spike threshold makes thousands of
# spikes on this VM (7,877 in 4 s at rest), far more than are listed.
# - The worst, judged against the report's wake-up histogram (every cycle's wake-up, which stats/phase.c adds apart
#   from the spike list): the cycles in buckets wholly above the least late listed spike are at most the listed spikes
#   there plus the xrun events' cycles that ran (an event's own cycles are its, never spikes), and at least the listed
#   ones. A list of the first spikes (before issue 32) fails it by thousands. Spikes may share a due time (a timer's
#   catch-up cycles: the segment's duplicates), so time order is non-decreasing.
# - Explained without the trace: a spike not noted on its own shares the culprits of the one noted before it
#   (culprit_engine.h); when that one was pushed out of the list, forgetting it left the sharer unexplained (66, 76
#   and 92 of 128 explained in three runs before run_culprits.c kept it; 128 of 128 after). Every listed spike
#   must carry the engine's answer, "not known" included.
. "$(dirname "$0")/../lib.sh"

max=$(awk '$1 == "#define" && $2 == "SEGMENT_SPIKES_MAX" { print $3 }' "$RTJ_TOP/src/stats/phase.h")
# one timer thread (the last CPU): an event's cycles are then one stream's (two streams share a segment's events)
"$RTJ" run --backend timer --cpus "$(($(nproc) - 1))" --interval 1000 --spike-us 20 --no-trace --loads none --warmup 0.2 --duration 4 --quiet \
    --json "$WORK/t.json" >"$WORK/t.out" 2>&1
rc=$?
check "the timer run exits 0 (got $rc: $(head -c 300 "$WORK/t.out"))" [ "$rc" = 0 ]
judge() { # report, the list's size each phase must reach
python3 - "$1" "$2" >"$WORK/r.txt" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); cap = int(sys.argv[2])
res = {'full': True, 'ordered': True, 'worst': True, 'explained': True}
for p in d['phases']:
    sp = p['spikes']; tl = p['timeline']
    print('# %s: %d listed (at most %s), %d unlisted, %d events, %d seconds' % (
        p['load'], len(sp), p.get('spikes_listed_max'), p['spikes_unlisted'], len(p['events']), len(tl)))
    res['full'] &= len(sp) == cap and p.get('spikes_listed_max') == cap and p['spikes_unlisted'] > 0
    ts = [x['t_s'] for x in sp]
    res['ordered'] &= ts == sorted(ts)
    least = min(x['wakeup_us'] for x in sp) if sp else 0
    above = [(lo, c) for lo, hi, c in p['histograms']['wakeup'] if lo > least]
    lo0 = min(lo for lo, c in above) if above else float('inf')
    C = sum(c for lo, c in above)
    L = sum(1 for x in sp if x['wakeup_us'] >= lo0)
    E = sum(e['cycles'] - e['skipped'] for e in p['events'])
    print('# cycles above %.3f us (the histogram, from %.3f us): %d; listed there %d; the events\' cycles that ran %d' % (
        least, lo0, C, L, E))
    res['worst'] &= L > 0 and L <= C <= L + E
    unexplained = [x['t_s'] for x in sp if not x.get('explained')]
    print('# unexplained: %d %s' % (len(unexplained), unexplained[:4]))
    res['explained'] &= not unexplained
for k, v in res.items():
    print(k, v)
PY
}
judge "$WORK/t.json" "$max"
sed -n 's/^# /# /p' "$WORK/r.txt"
r() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/r.txt"; }
check "the list is full ($max) and more spikes were counted" [ "$(r full)" = True ]
check "the listed spikes are in time order" [ "$(r ordered)" = True ]
check "the worst are listed: no cycle woke later than the least listed spike but those listed and the events' own" \
    [ "$(r worst)" = True ]
check "every listed spike carries the engine's answer without the trace" [ "$(r explained)" = True ]

# Three phases share the run's lists (stats/phase.h, struct phase_lists): each lists a third of them, rounded up,
# and the same rules hold in each.
"$RTJ" run --backend timer --cpus "$(($(nproc) - 1))" --interval 1000 --spike-us 20 --no-trace --loads none,none,none \
    --warmup 0.2 --duration 2 --quiet --json "$WORK/t3.json" >"$WORK/t3.out" 2>&1
rc=$?
check "the three-phase timer run exits 0 (got $rc: $(head -c 300 "$WORK/t3.out"))" [ "$rc" = 0 ]
third=$(((max + 2) / 3))
judge "$WORK/t3.json" "$third"
sed -n 's/^# /# /p' "$WORK/r.txt"
check "three phases: each list is full at a third of the run's ($third), and more spikes were counted" [ "$(r full)" = True ]
check "three phases: the listed spikes are in time order" [ "$(r ordered)" = True ]
check "three phases: the worst are listed in each" [ "$(r worst)" = True ]
check "three phases: every listed spike carries the engine's answer" [ "$(r explained)" = True ]
