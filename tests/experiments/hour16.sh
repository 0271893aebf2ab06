#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An hour at 16 frames / 192 kHz with every default load (issue 32, item 5: "≤ 4 MiB private and flat, a report ≤ 2 MB
# an hour"), by hand (not in the suite, not in `make bench`: an hour): `rtjitter run` on a private dummy jackd, the
# eight default loads, PHASE_S (450) seconds each (or LOADS). Private_Dirty (smaps_rollup) and Rss read from outside every 30 s;
# then the report's size, its events and spikes (listed, and in all), the culprit engine's own figures (results held
# and their peak, the ring's high water, dropped records) and the trace's summary. `make bench` measures the same
# at 600 s of one phase and 4 x 12 s of loads (tests/bench.d/core.sh). Results: tests/experiments/hour16-result.txt.
# Usage: tests/experiments/hour16.sh [OUTDIR]   (RTJ: the binary, default ./build/rtjitter; PHASE_S: seconds a phase;
# LOADS: the phases, default every default load; LOADS=none PHASE_S=3600: one phase of an hour)
cd "$(dirname "$0")/../.." || exit 1
RTJ=${RTJ:-./build/rtjitter}
out=${1:-$(mktemp -d)}
mkdir -p "$out" || exit 1
ph=${PHASE_S:-450}
loads=()
[ -n "${LOADS:-}" ] && loads=(--loads "$LOADS")
"$RTJ" run --period 16 --rate 192000 --duration "$ph" "${loads[@]}" --output "$out/store" --json "$out/r.json" \
    --label hour16 >"$out/out.txt" 2>"$out/err.txt" &
pid=$!
t0=$SECONDS
: >"$out/mem.txt"
while kill -0 "$pid" 2>/dev/null; do
    awk -v t=$((SECONDS - t0)) '/^Rss:/ { r = $2 } /^Private_Dirty:/ { p = $2 } END { if (p != "") print t, p, r }' \
        "/proc/$pid/smaps_rollup" 2>/dev/null >>"$out/mem.txt"
    sleep 30
done
wait "$pid"; rc=$?
echo "# run exit $rc after $((SECONDS - t0)) s"
python3 - "$out" <<'PY'
import json, os, sys
W = sys.argv[1]
m = [tuple(int(x) for x in l.split()) for l in open(W + '/mem.txt') if len(l.split()) == 3]
print('private memory (Private_Dirty, KiB) by minute:', ', '.join('%d s %d' % (t, p) for t, p, _ in m if t % 300 < 30))
if m:
    late = [p for t, p, _ in m if t >= 600]
    print('min %d, max %d; from 600 s on: %d to %d' % (min(p for _, p, _ in m), max(p for _, p, _ in m),
                                                     min(late or [0]), max(late or [0])))
try:
    d = json.load(open(W + '/r.json'))
except (OSError, ValueError) as e:
    print('no report:', e); sys.exit(0)
size = os.path.getsize(W + '/r.json')
meas = sum(p.get('measured_s') or p['duration_s'] for p in d['phases'])
r = d['run_stats']
print('report %d bytes for %.0f s measured (%.2f MB an hour); run wall %.0f s' % (size, meas, size * 3600 / meas / 1e6,
                                                                                   r['wall_s']))
print('at the end: private_dirty_kib %s, peak_rss_kib %s; ring %s records, high water %s, dropped %s' % (
    r.get('private_dirty_kib'), r.get('peak_rss_kib'), r.get('ring_capacity'), r.get('ring_high_water'),
    r.get('dropped')))
for p in d['phases']:
    print('  %-8s cycles %9d  xrun events %6d (%d listed)  spikes %7d (%d listed)' % (
        p['load'], p['cycles'], p['xruns'].get('events', 0), len(p.get('events') or []),
        len(p.get('spikes') or []) + (p.get('spikes_unlisted') or 0), len(p.get('spikes') or [])))
c = d.get('culprits') or {}
s = c.get('sampler') or {}
print('culprits: cost %s; results_peak %s, results_held %s' % (c.get('cost'), s.get('results_peak'),
                                                              s.get('results_held')))
t = next((x.get('summary') for x in s.get('sources', []) if x['name'] == 'tracefs'), None)
if t:
    print('trace: events %s, lost %s, explained %s of %s, not covered %s' % (
        t.get('events_read'), t.get('lost_events'), t.get('explained'), t.get('explains'), t.get('not_covered')))
print('warnings:', len(d.get('warnings') or []))
for w in (d.get('warnings') or [])[:8]:
    print('  ', w if isinstance(w, str) else json.dumps(w)[:200])
PY
