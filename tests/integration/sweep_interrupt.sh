#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A sweep interrupted after its first cell keeps that cell. On a private dummy jackd (rtjt-h5-PID), one size, two
# loads: none, then an exec: load that touches a file when its phase starts (after none's phase was measured to its
# end) and sleeps. SIGINT then: exit 3 within 2 s, the sweep's document marked incomplete, and the none cell
# measured, its figures those of the stored per-size report the cell names (the observer: that file, read here),
# shown in the text grid and on the page (its plot's one dot, its link); the cell the interrupt cut stays not measured. Then SIGTERM the same
# way. The test's own private server is stopped by its PID.
. "$(dirname "$0")/../lib.sh"

NAME=rtjt-h5-$$
start_jackd "$NAME" 48000 256 || { not_ok "a private jackd $NAME started"; exit 0; }

interrupted_sweep() { # SIGNAL TAG
    local sig=$1 tag=$2 i
    rm -f "$WORK/second-$tag"
    "$RTJ" sweep --server "$NAME" --set-buffer-size --periods 256 --duration 1.5s --warmup 300ms \
        --loads "none,exec:touch '$WORK/second-$tag'; exec sleep 60" \
        --json "$WORK/$tag.json" --html "$WORK/$tag.html" >"$WORK/$tag.out" 2>"$WORK/$tag.err" &
    local pid=$!
    for i in $(seq 200); do [ -e "$WORK/second-$tag" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    check "$tag: the second cell's load started (the first cell's phase was over)" [ -e "$WORK/second-$tag" ]
    sleep 0.3
    local t0 t1
    t0=$(date +%s.%N); kill -"$sig" $pid; wait $pid; RC=$?; t1=$(date +%s.%N)
    EL=$(python3 -c "print(round($t1 - $t0, 2))")
}

for run in "INT int" "TERM term"; do
    set -- $run
    interrupted_sweep "$1" "$2"
    tag=$2
    check "$tag: exit 3 (got $RC) within 2 s (${EL} s)" python3 -c "import sys; sys.exit(not ($RC == 3 and $EL < 2))"
    check "$tag: the sweep's document is marked incomplete ($(json "$WORK/$tag.json" "d['incomplete_reason']" 2>&1))" \
        [ "$(json "$WORK/$tag.json" "d['complete']")" = False ]
    check "$tag: the none cell holds the figures of the stored report it names; the interrupted cell is not measured" \
        python3 - "$WORK/$tag.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cells = {c['load'].split(':')[0]: c for c in d['cells']}
c, cut = cells['none'], cells['exec']
r = json.load(open(c['report']))
p = [p for p in r['phases'] if p['load'] == 'none']
print('# none cell:', c['state'], c.get('cycles'), 'cycles,', c.get('xrun_events'), 'xrun events; report', c['report'],
      'complete', r['complete'], '; exec cell:', cut['state'])
if not (c['measured'] and c['state'] in ('safe', 'unsafe') and len(p) == 1 and p[0]['finished'] is True):
    sys.exit(1)
p = p[0]
pairs = {'cycles': p['cycles'], 'measured_s': p['measured_s'], 'xrun_events': p['xruns']['events'],
         'xruns_reported': p['xruns']['reported'], 'skipped_cycles': p['xruns']['skipped_cycles'],
         'deadlines_met_pct': p['deadlines_met_pct'], 'deadlines_missed': p['deadlines_missed'],
         'wakeup_p999_us': p['wakeup_us']['p999'], 'wakeup_max_us': p['wakeup_us']['max'],
         'margin_min_us': p['margin_us']['min'], 'dropped': p['dropped']}
# (the cell's margin_p999_us, the margin kept by 99.9 % of cycles, is read from the phase's histogram: no figure of
# the report's own to set beside it; it must be there)
low_ok = c['margin_p999_us'] is not None
def differ(a, b):  # the sweep keeps 8 digits; null (not known) only beside null
    return (a is None) != (b is None) or (a is not None and abs(a - b) > 1e-7 * max(abs(b), 1e-9))
bad = [k for k, v in pairs.items() if differ(c[k], v)]
print('# none cell:', {k: c[k] for k in pairs})
print('# figures that differ from the report:', bad or 'none', '; cycles', c['cycles'], 'report', p['cycles'])
sys.exit(bool(bad) or not low_ok or r['complete'] is not False or cut['measured'] or cut['state'] != 'not_measured'
         or p['cycles'] < 100)
PY
    check "$tag: the text grid shows the none cell's result, not '-' ($(grep -m1 '^ *256 (' "$WORK/$tag.out"))" \
        grep -Eq '^ *256 \([0-9.]+ ms\) +(SAFE|unsafe)' "$WORK/$tag.out"
    check "$tag: the text does not call the unmeasured load unsafe ($(grep -m1 'under every load' "$WORK/$tag.out"))" \
        grep -q 'no size was found safe under every load before the sweep stopped' "$WORK/$tag.out"
    rep=$(json "$WORK/$tag.json" "[c['report'] for c in d['cells'] if c['load'] == 'none'][0]")
    dots=$(grep -c '<circle r="3.5"' "$WORK/$tag.html")
    check "$tag: the page plots one measured cell ($dots) and links it to its report" \
        sh -c "[ '$dots' = 1 ] && grep -q 'href=\"file://$rep\"' '$WORK/$tag.html'"
done

# The status lines, on a terminal only (script(1) gives one): the sweep's redraws while its one cell measures
# (timer backend, 2 s), its time left going down; `run`'s shows the whole run's time left across both phases and
# their warm-ups. Without a terminal, stderr has no status line at all.
script -qec "'$RTJ' sweep --backend timer --periods 512 --loads none --duration 2s --warmup 200ms --json '$WORK/tty.json' >/dev/null" /dev/null \
    2>&1 | tr '\r' '\n' | grep -o 'cell 1/1 [0-9:]*, [0-9:]* left; sweep [0-9:]*, at most [0-9:]* left' | uniq >"$WORK/tty.status"
check "sweep on a terminal: the status line is redrawn while the cell runs, time left going down ($(sed -n '1p;$p' "$WORK/tty.status" | tr '\n' '/'))" \
    python3 -c "
import sys
left = [int(l.split(', ')[1].split()[0].replace(':', '')) for l in open('$WORK/tty.status')]
sys.exit(not (len(left) >= 3 and left[0] > left[-1] and left == sorted(left, reverse=True)))"
"$RTJ" sweep --backend timer --periods 512 --loads none --duration 1s --warmup 200ms --json "$WORK/notty.json" \
    >/dev/null 2>"$WORK/notty.err"
check "sweep without a terminal: no status line on stderr" sh -c "! grep -q 'cell 1/1' '$WORK/notty.err'"
script -qec "'$RTJ' run --backend timer --allow-no-rt --loads none,none --duration 1s --warmup 500ms --output '$WORK/runs'" /dev/null \
    2>&1 | tr '\r' '\n' | grep -o '^.*\[[12]/2\] .* run [0-9:]* left' | sed 's/.*\[\([12]\)\/2\].* run \([0-9:]*\) left/\1 \2/' | uniq >"$WORK/run.status"
check "run on a terminal: the whole run's time left, from 3 s (two warm-ups and two phases; 2 once the first draw came late) down, through both phases ($(sed -n '1p;$p' "$WORK/run.status" | tr '\n' '/'))" \
    python3 -c "
import sys
rows = [l.split() for l in open('$WORK/run.status')]
left = [int(r[1].replace(':', '')) for r in rows]
sys.exit(not (rows and rows[0][0] == '1' and rows[-1][0] == '2' and 2 <= left[0] <= 3 and left == sorted(left, reverse=True)))"
