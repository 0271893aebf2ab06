#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog spins on one CPU)
# `rtjitter run --soak` (issue 25), shortened: 8 s in windows of 2 s (RTJ_SOAK_WINDOW_S, for tests) on the timer
# backend, one thread on the last CPU, exercising every path a 24 h soak takes, against truths it does not produce:
# - injected stalls: a SCHED_FIFO hog of higher priority (tests/helpers/cpu_hog) spins 4 ms once in each window on
#   that CPU and logs its spins on CLOCK_MONOTONIC (the timer's clock): each window's maximum is at least the spin
#   less one interval (the cycle due in the spin wakes at its end), and the largest wake-up of the soak was due
#   inside a spin, unless a canary on that CPU (tests/helpers/canary, its own late wake-ups) saw the CPU stall about
#   as long then (an idle VM stalls 3-4 ms now and then: seen beside the 4 ms spins); the 1 µs bins hold at least
#   one cycle per spin at that size;
# - the soak's own accumulators against the phase's (the log-linear histogram, a separate code path): the same
#   cycle count and maximum; bins + overflow = cycles = the windows' cycles; the number of windows is 8 / 2 = 4;
# - the verdict line: its level follows its maximum against its threshold (the profile's share of the period);
#   LAVA's t0-max-latency carries that maximum and its result, JUnit has the case, the HTML the SVG of 4 windows;
#   a profile's soak_max_wakeup_pct of 0 fails every soak: enforced with --profile, exit 1, LAVA fail, JUnit failure;
# - --stop-at-us 15000: a 30 ms spin of the hog 3 s in, the run stops there with exit 1, its reported wake-up >= the
#   spin less one interval and its cycle within the spin (the hog's own log), the report complete, well before its
#   30 s; or, when the machine stalled longer than 15 ms first (seen once with the idle trap on), at that stall,
#   which the canary on that CPU saw as long, at that time;
# - bad input: --soak 0, --soak 1x, --soak with two loads, --soak with --duration, --stop-at-us without --soak:
#   one line each, exit 2.
. "$(dirname "$0")/../lib.sh"

cpu=$(( $(nproc) - 1 ))
iv=1000   # µs: the timer's interval

# --- bad input: one line, exit 2 ---
for bad in "--soak 0" "--soak 1x" "--soak 5s --loads none,burn" "--soak 5s --duration 2" "--stop-at-us 100" \
           "--soak 8d"; do
    "$RTJ" run --backend timer $bad --quiet >"$WORK/o" 2>"$WORK/e"; rc=$?
    check "bad input '$bad': exit 2, one line on stderr, nothing on stdout (got $rc, $(wc -l <"$WORK/e") lines: $(head -c 120 "$WORK/e"))" \
        [ "$rc" -eq 2 -a "$(wc -l <"$WORK/e")" -eq 1 -a ! -s "$WORK/o" ]
done

# --- a shortened soak: 8 s in windows of 2 s, a 4 ms spin in each window ---
RTJ_SOAK_WINDOW_S=2 "$RTJ" run --backend timer --cpus "$cpu" --interval "$iv" --priority 80 --soak 8s --warmup 0.5 \
    --quiet --json "$WORK/s.json" --html "$WORK/s.html" --junit "$WORK/s.xml" >"$WORK/s.out" 2>"$WORK/s.err" &
rpid=$!
# a canary on that CPU (tests/helpers/canary: SCHED_FIFO 85, under the hog, over rtjitter's thread, waking every 1 ms)
# logs its own late wake-ups: the machine's own stalls beside the spins (an idle VM has some of 3-4 ms)
"$RTJ_HELPERS/canary" "$cpu" 85 1000 15 500 >"$WORK/canary.log" 2>/dev/null &
cpid=$!
# the soak starts ~0.6 s after the start (its warm-up, the backend's start): spins at ~0.9, 2.9, 4.9, 6.9 s in
"$RTJ_HELPERS/cpu_hog" "$cpu" 90 4 2000 4 1500 >"$WORK/hog.log"
wait "$rpid"; rc=$?
kill -TERM "$cpid" 2>/dev/null; wait "$cpid"
check "the soak exits 0 (got $rc: $(head -c 200 "$WORK/s.err"))" [ "$rc" -eq 0 ]
python3 - "$WORK/s.json" "$WORK/hog.log" "$iv" "$WORK/canary.log" >"$WORK/s.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); iv = float(sys.argv[3])
late = [tuple(map(float, l.split()[1:3])) for l in open(sys.argv[4]) if l.startswith('late')]  # (deadline_s, us)
spins = [tuple(map(float, l.split()[1:])) for l in open(sys.argv[2]) if l.startswith('spin')]
ph = d['phases']; p = ph[0]; s = p['soak']; v = d['verdict']['soak']
t0 = s['t0_clock_s']
spin_at = [(b - t0, e - t0) for b, e in spins]           # the spins in the soak's time (s)
ws = s['windows']
def win_of(t): return int(t // s['window_s'])
out = {}
out['phases'] = len(ph); out['load'] = p['load']
out['nwin'] = len(ws); out['planned'] = s['windows_planned']
out['count_eq'] = s['count'] == p['wakeup_us']['count']
out['binsum_eq'] = sum(c for _, c in s['bins']) + s['overflow'] == s['count'] == sum(w['cycles'] for w in ws)
out['max_eq'] = abs(s['max_us'] - p['wakeup_us']['max']) < 0.01
out['winmax_eq'] = abs(max(w['max_us'] for w in ws if w['max_us'] is not None) - s['max_us']) < 0.001
out['spins'] = len(spins)
# each spin inside the soak: its window's maximum is at least the spin less one interval (and 100 µs of slack)
low = [w for (b, e) in spin_at if 0.05 < b and e < 19.95
       for w in [ws[win_of(b)]] if not (w['max_us'] >= (e - b) * 1e6 - iv - 100)]
out['spins_inside'] = sum(1 for (b, e) in spin_at if 0.05 < b and e < 19.95)
out['windows_low'] = len(low)
# the 1 µs bins: cycles at the spin's size or more (spin less one interval, less 100 µs)
lo_us = min((e - b) * 1e6 for b, e in spins) - iv - 100 if spins else 1e9
out['bins_at_spin'] = sum(c for us, c in s['bins'] if us >= lo_us) + s['overflow']
# the soak's maximum fell inside a spin (the cycle due in it: its due time in the spin, within 1 ms)
due = s['max_at_s'] - s['max_us'] / 1e6
out['max_in_spin'] = any(b - 0.001 <= due <= e + 0.001 for b, e in spin_at)
# or, when it was not the hog's, the canary saw the CPU stall then, about as long (less its 1 ms period, 200 us slack)
due_clock = due + t0
seen = [us for dl, us in late if abs(dl - due_clock) < 0.05 and us >= s['max_us'] - 1000 - 200
        and not any(b - 0.002 <= dl - t0 <= e for b, e in spin_at)]
out['max_seen_by_canary'] = bool(seen)
out['canary_late'] = len(late)
out['max_us'] = s['max_us']; out['thr'] = v['threshold_us']; out['level'] = v['level']
out['due_of_max'] = round(due, 4)
out['spins_at'] = ','.join('%.4f-%.4f' % (b, e) for b, e in spin_at)
out['window_max'] = ','.join('%s@%s' % (w['max_us'], w['at_s']) for w in ws)
out['level_ok'] = (v['level'] == 'fail') == (s['max_us'] > v['threshold_us'] or s['overflow'] > 0)
out['line'] = d['verdict']['summary'].startswith(v['line'])
out['threads'] = len(s['threads']); out['t0max'] = s['threads'][0]['max_us']
for k, x in out.items(): print(k, x)
PY
sed 's/^/# /' "$WORK/s.txt"
v() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/s.txt"; }
check "one phase, load none" [ "$(v phases) $(v load)" = "1 none" ]
check "windows: 8 s / 2 s = 4 (planned 4, got $(v nwin))" [ "$(v nwin) $(v planned)" = "4 4" ]
check "the soak's cycle count is the phase's wake-up count (a separate accumulator)" [ "$(v count_eq)" = True ]
check "bins + overflow = cycles = the windows' cycles" [ "$(v binsum_eq)" = True ]
check "the soak's maximum is the phase's wake-up maximum, and the largest window maximum" \
    [ "$(v max_eq) $(v winmax_eq)" = "True True" ]
check "the hog spun 4 times, all inside the soak (got $(v spins), $(v spins_inside) inside)" \
    [ "$(v spins) $(v spins_inside)" = "4 4" ]
check "each spin's window has a maximum of at least the spin less one interval ($(v windows_low) below)" \
    [ "$(v windows_low)" = 0 ]
check "the 1 µs bins hold a cycle per spin at that size at least (got $(v bins_at_spin))" [ "$(v bins_at_spin)" -ge 4 ]
check "the soak's largest wake-up was due inside a spin, or the canary saw the CPU stall as long then (in a spin: $(v max_in_spin), seen: $(v max_seen_by_canary))" \
    [ "$(v max_in_spin)" = True -o "$(v max_seen_by_canary)" = True ]
check "the verdict's soak level follows its maximum ($(v max_us) µs) against its threshold ($(v thr) µs): $(v level)" \
    [ "$(v level_ok)" = True ]
check "the verdict's summary begins with the soak's line" [ "$(v line)" = True ]
"$RTJ" report "$WORK/s.json" --format lava >"$WORK/s.lava"
sed -n '/^lava-test-case t0-/p' "$WORK/s.lava" | sed 's/^/# /'
want=$(python3 -c "import math; print(math.ceil($(v t0max)))")
res=$([ "$(v level)" = pass ] && echo pass || echo fail) # advice that failed is a failure (issue 35)
check "LAVA: t0-min/avg/max-latency (one thread), the maximum $want us with result $res" \
    [ "$(grep -c '^lava-test-case t0-\(min\|avg\|max\)-latency --result' "$WORK/s.lava")" = 3 -a \
      "$(grep '^lava-test-case t0-max-latency' "$WORK/s.lava")" = "lava-test-case t0-max-latency --result $res --measurement $want --units us" ]
check "JUnit: valid XML with the t0-max-latency case" \
    python3 -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()  # well-formed XML, or an exception: the check fails
sys.exit(not any(t.get('name') == 't0-max-latency' and t.get('classname') == 'rtjitter.soak' for t in r.iter('testcase')))" "$WORK/s.xml"
check "HTML: the soak's SVG with one bar per window (4) and the threshold" \
    [ "$(grep -c 'class="soak-window"' "$WORK/s.html") $(grep -c 'class="soak-threshold"' "$WORK/s.html")" = "4 1" ]

# --- an enforced soak threshold: a profile whose soak_max_wakeup_pct no wake-up can meet (0 %: 0 µs) fails it ---
cat >"$WORK/zero.json" <<'J'
{"schema": "rtjitter.profile/1", "name": "zero", "max_xruns": 1000000, "max_deadlines_missed": 1000000,
 "warn_jitter_pct": 100, "warn_margin_pct": 0, "warn_period_ms": 1000, "require_realtime": false,
 "soak_max_wakeup_pct": 0}
J
"$RTJ" run --backend timer --cpus "$cpu" --interval "$iv" --priority 80 --soak 2s --warmup 0.3 --profile "$WORK/zero.json" \
    --quiet --json "$WORK/z.json" --junit "$WORK/z.xml" >/dev/null 2>&1; rc=$?
check "--profile with soak_max_wakeup_pct 0: exit 1, the soak's verdict fails and is enforced, its threshold 0 µs (got $rc, $(json "$WORK/z.json" "d['verdict']['soak']['level'], d['verdict']['soak']['enforced'], d['verdict']['soak']['threshold_us']"))" \
    [ "$rc" = 1 -a "$(json "$WORK/z.json" "d['verdict']['soak']['level'], d['verdict']['soak']['enforced'], d['verdict']['soak']['threshold_us'], d['verdict']['level']")" = "fail True 0.0 fail" ]
check "LAVA and JUnit: t0-max-latency fails when enforced" \
    sh -c "'$RTJ' report '$WORK/z.json' --format lava | grep -q '^lava-test-case t0-max-latency --result fail ' && grep -A1 'testcase name=\"t0-max-latency\"' '$WORK/z.xml' | grep -q '<failure '"
printf '{"schema": "rtjitter.profile/1", "name": "bad", "max_xruns": 0, "max_deadlines_missed": 0, "warn_jitter_pct": 50, "warn_margin_pct": 10, "warn_period_ms": 11, "require_realtime": true, "soak_max_wakeup_pct": "x"}' >"$WORK/bad.json"
"$RTJ" run --backend timer --soak 2s --profile "$WORK/bad.json" --quiet >/dev/null 2>"$WORK/e"; rc=$?
check "a profile with a soak_max_wakeup_pct that is not a number: exit 2, one line (got $rc: $(head -c 150 "$WORK/e"))" \
    [ "$rc" -eq 2 -a "$(wc -l <"$WORK/e")" -eq 1 ]

# --- --stop-at-us: a 25 ms spin 3 s in ends the run there ---
t_start=$(date +%s.%N)
"$RTJ" run --backend timer --cpus "$cpu" --interval "$iv" --priority 80 --soak 30s --stop-at-us 15000 --warmup 0.5 \
    --quiet --json "$WORK/b.json" >"$WORK/b.out" 2>"$WORK/b.err" &
rpid=$!
"$RTJ_HELPERS/canary" "$cpu" 85 1000 8 500 >"$WORK/canary2.log" 2>/dev/null &
cpid=$!
"$RTJ_HELPERS/cpu_hog" "$cpu" 90 30 1000 1 3000 >"$WORK/hog2.log"
wait "$rpid"; rc=$?
kill -TERM "$cpid" 2>/dev/null; wait "$cpid"
t_end=$(date +%s.%N)
sed 's/^/# /' "$WORK/b.err"
check "--stop-at-us: exit 1 (a threshold exceeded; got $rc)" [ "$rc" -eq 1 ]
check "--stop-at-us: one line on stderr names the wake-up and its time" \
    grep -q '^rtjitter run: --stop-at-us 15000: a wake-up of .* s into the soak (.*): stopped there$' "$WORK/b.err"
python3 - "$WORK/b.json" "$WORK/hog2.log" "$iv" "$WORK/canary2.log" >"$WORK/b.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); iv = float(sys.argv[3])
spins = [tuple(map(float, l.split()[1:])) for l in open(sys.argv[2]) if l.startswith('spin')]
late = [tuple(map(float, l.split()[1:3])) for l in open(sys.argv[4]) if l.startswith('late')]
st = d['phases'][0]['soak']['stop']
due = st['entry_clock_s'] - st['wakeup_us'] / 1e6
b, e = spins[0] if spins else (0, 0)   # no spin: the run stopped before the hog began (a stall of the machine)
in_spin = bool(spins) and b - 0.001 <= due <= e + 0.001 and b <= st['entry_clock_s'] <= e + 0.05
# not the hog's: then the canary on that CPU saw the machine stall then, about as long (less its 1 ms period)
seen = [us for dl, us in late if abs(dl - due) < 0.05 and us >= st['wakeup_us'] - 1000 - 200]
print('tripped', st['tripped'])
print('wake', st['wakeup_us'], 'spin', round((e - b) * 1e6), 'canary_seen', max(seen) if seen else 0)
print('wake_ok', (in_spin and st['wakeup_us'] >= (e - b) * 1e6 - iv - 100) or (not in_spin and bool(seen)))
print('in_spin', in_spin or bool(seen))
print('complete', d['complete'], 'measured', round(d['phases'][0]['measured_s'], 2))
print('verdict', 'Stopped at the first wake-up beyond 15000' in d['verdict']['soak']['line'])
PY
sed 's/^/# /' "$WORK/b.txt"
w() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/b.txt"; }
check "--stop-at-us: the report says it tripped, complete, the verdict line says so" \
    [ "$(w tripped) $(w complete) $(w verdict)" = "True True True" ]
check "--stop-at-us: the reported wake-up is at least the hog's spin less one interval (or the canary's stall then)" \
    [ "$(w wake_ok)" = True ]
check "--stop-at-us: the cycle that tripped was due inside the hog's spin and ran at its end (or the canary saw the stall)" \
    [ "$(w in_spin)" = True ]
check "--stop-at-us: the run ended well before its 30 s (took $(python3 -c "print(round($t_end - $t_start, 1))") s)" \
    python3 -c "import sys; sys.exit(not $t_end - $t_start < 15)"
