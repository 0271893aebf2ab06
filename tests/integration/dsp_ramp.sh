#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog and the ramp's real-time burn spin on one CPU)
# --dsp ramp (the DSP headroom) against truths that do not come from the ramp's own figures:
# - on the timer backend on a quiet CPU and on a private dummy jackd (1024 frames), the first cycle whose work did
#   not fit comes at >= 80 % of the period (or never);
# - each step's DSP level (from dsp_req and the calibration) against an independent measure of the work done: the
#   callback time (exit - entry) over the period, per step, while no cycle of the step failed;
# - a SCHED_FIFO hog of higher priority (tests/helpers/cpu_hog) spinning on the timer thread's CPU every period
#   takes a share it logs itself: the first miss comes no later than the share it leaves;
# - the verdict gives the headroom and does not blame the kernel; bad --dsp values, and thresholds with a ramp:
#   one line, exit 2;
# - the ALSA backend (jack PCM of libasound2-plugins on the private jackd) under a ramp with two loads (none,burn):
#   each phase ramps from 0, the quiet one reaches 80 %, callback time follows the level in both.
. "$(dirname "$0")/../lib.sh"

# CPU 0: other tests' hogs (backend_timer) spin on the last CPU. A stall of another process during a ramp is a
# true miss of that ramp, not a wrong figure: the claims "can reach 80 %" and "the hog takes its share" are then
# checked on the best of up to three tries (each about 6 s), and every try is printed.
cpu=0

# figures FILE: first miss (or reached when none), 1 % point, and the worst callback/level ratio of clean steps
figures() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); r = d['phases'][0]['dsp_ramp']
fm = r['first_miss_pct']
print("first", fm if fm is not None else r['reached_pct'], "none" if fm is None else "some")
ratios = [s['callback_pct'] / s['level_pct'] for s in r['steps'] if 10 <= s['level_pct'] <= 80 and s['failed'] == 0]
print("ratio_n", len(ratios))
print("ratio_min", min(ratios) if ratios else 0)
print("ratio_max", max(ratios) if ratios else 0)
print("ratio_med", sorted(ratios)[len(ratios) // 2] if ratios else 0)
print("steps", len(r['steps']))
print("level", d['verdict']['level'])
print("blames", int('xrun' in d['verdict']['summary'] or bool(d['verdict']['advice'])))
print("headroom", int('DSP headroom' in d['verdict']['summary']))
print("cal", d['audio']['dsp_calibration']['units_per_us'])
PY
}
v() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# --- timer, quiet ---
for try in 1 2 3; do
    "$RTJ" run --backend timer --cpus "$cpu" --interval 5000 --priority 80 --loads none --warmup 0.2 \
        --dsp ramp:5:0.25 --quiet --json "$WORK/q.json" >"$WORK/q.out" 2>&1
    rc=$?
    figures "$WORK/q.json" >"$WORK/q.txt"; sed "s/^/# quiet timer, try $try: /" "$WORK/q.txt"
    first_q=$(v first "$WORK/q.txt")
    [ "$rc" -eq 0 ] && python3 -c "import sys; sys.exit(not $first_q >= 79.9)" && break
done
check "timer ramp exits 0 (got $rc)" [ "$rc" -eq 0 ]
# (>= 79.9: a level is the step's nominal share through the calibration: the 80 % step reads 79.9998)
check "quiet timer: the first cycle whose work did not fit is at >= 80 % of the period (got $first_q)" \
    python3 -c "import sys; sys.exit(not $first_q >= 79.9)"
check "quiet timer: each clean step's callback time over the period is its DSP level within 15 % (median within 8 %: $(v ratio_min "$WORK/q.txt")..$(v ratio_max "$WORK/q.txt"), median $(v ratio_med "$WORK/q.txt"))" \
    python3 -c "import sys; sys.exit(not ($(v ratio_n "$WORK/q.txt") >= 10 and 0.85 <= $(v ratio_min "$WORK/q.txt") and $(v ratio_max "$WORK/q.txt") <= 1.15 and 0.92 <= $(v ratio_med "$WORK/q.txt") <= 1.08))"
check "the verdict gives the headroom and blames nothing (level $(v level "$WORK/q.txt"))" \
    [ "$(v headroom "$WORK/q.txt")" = 1 -a "$(v blames "$WORK/q.txt")" = 0 ]
check "the calibration is in the report ($(v cal "$WORK/q.txt") units/us)" \
    python3 -c "import sys; sys.exit(not $(v cal "$WORK/q.txt") > 0)"

# --- timer beside a hog taking 30 % of each 5 ms period on the same CPU ---
for try in 1 2 3; do
"$RTJ" run --backend timer --cpus "$cpu" --interval 5000 --priority 80 --loads none --warmup 0.2 \
    --dsp ramp:5:0.25 --quiet --json "$WORK/h.json" >"$WORK/h.out" 2>&1 &
rpid=$!
# 4.5 s of spins: past the ramp's first miss (about 3.5 s in with its calibration and warm-up), then it ends alone
"$RTJ_HELPERS/cpu_hog" "$cpu" 90 1.5 5 900 0 >"$WORK/hog.log"
wait "$rpid"; rc=$?
figures "$WORK/h.json" >"$WORK/h.txt"; sed "s/^/# hog timer, try $try: /" "$WORK/h.txt"
# the hog's share of the CPU while the ramp measured: its spin time over the time between its spins' starts,
# both the medians of its own log inside the phase's clock window (same clock, CLOCK_MONOTONIC)
share=$(python3 - "$WORK/hog.log" "$WORK/h.json" <<'PY'
import json, sys, statistics as st
w0, w1 = json.load(open(sys.argv[2]))['phases'][0]['clock_window_s']
s = [tuple(map(float, l.split()[1:])) for l in open(sys.argv[1]) if l.startswith('spin')]
s = [x for x in s if w0 <= x[0] <= w1]
print(round(100 * st.median(b - a for a, b in s) / st.median(s[i + 1][0] - s[i][0] for i in range(len(s) - 1)), 2)
      if len(s) > 10 else 0)
PY
)
first_h=$(v first "$WORK/h.txt")
echo "# hog share (its own log): $share %; first miss $first_q % quiet, $first_h % beside the hog"
[ "$rc" -eq 0 ] && python3 -c "import sys; sys.exit(not ($first_h <= 100 - $share + 12 and $first_h < $first_q))" && break
done
check "timer ramp beside the hog exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "the hog logged its spins (share $share %)" python3 -c "import sys; sys.exit(not 20 < $share < 40)"
# The hog leaves at most (100 - its share) % of the CPU: the first miss cannot come later than that (12 points for
# the share's own measurement), and comes earlier than in the quiet run. Not "falls by the share": on a busy machine
# the quiet run itself misses early (seen: 80 % quiet, 70 % beside the hog).
check "beside the hog the first miss is at most 100 - its share (+12) and below the quiet run's: $first_h vs $share, $first_q" \
    python3 -c "import sys; sys.exit(not ($first_h <= 100 - $share + 12 and $first_h < $first_q))"

# --- a private dummy jackd, 1024 frames ---
name="rtjt-rmp-$$"
if start_jackd "$name" 48000 1024; then
    "$RTJ" run --server "$name" --loads none --warmup 0.3 --dsp ramp:10:0.5 --quiet --json "$WORK/j.json" \
        >"$WORK/j.out" 2>&1
    rc=$?
    check "jack ramp exits 0 (got $rc)" [ "$rc" -eq 0 ]
    figures "$WORK/j.json" >"$WORK/j.txt"; sed 's/^/# jack: /' "$WORK/j.txt"
    first_j=$(v first "$WORK/j.txt")
    check "quiet jackd: the first cycle whose work did not fit is at >= 80 % (got $first_j)" \
        python3 -c "import sys; sys.exit(not $first_j >= 79.9)"
    # (the median within 8 % below and 20 % above, and no step 15 % short of its level: the level is the work at the
    # calibration's best speed (the fastest of many short tries), and a callback's wall time includes what the
    # machine steals from it (interrupts, the host, a busy sibling hyperthread): 1.02-1.06 quiet, medians of 1.08,
    # 1.10 and 1.13 seen with `stress-ng --cpu 2 --io 1` beside it; a step can run long: another process's
    # real-time thread stretches its callbacks on a busy machine, seen 1.17, which is that step's truth, not a wrong
    # level. A level mis-scaled by the period or the rate would be off by a factor, not by 20 %)
    check "jackd: clean steps' callback time over the period is their level (median $(v ratio_med "$WORK/j.txt"), $(v ratio_min "$WORK/j.txt")..$(v ratio_max "$WORK/j.txt"))" \
        python3 -c "import sys; sys.exit(not ($(v ratio_n "$WORK/j.txt") >= 5 and 0.85 <= $(v ratio_min "$WORK/j.txt") and 0.92 <= $(v ratio_med "$WORK/j.txt") <= 1.20))"
    # The ALSA backend under the ramp, through the jack PCM of libasound2-plugins on the same server, with two
    # loads: each phase ramps from 0 on its own; the quiet one reaches 80 %, and in both the callback time of
    # clean steps (exit - entry, not the ramp's own figure) follows the level.
    printf 'pcm.rtjtjack {\n    type jack\n    playback_ports { 0 system:playback_1 1 system:playback_2 }\n}\n' \
        >"$WORK/asound.conf"
    # Best of two tries, as above: another process's stall during the ramp is a true miss of that try.
    for try in 1 2; do
        ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$WORK/asound.conf" JACK_DEFAULT_SERVER=$name "$RTJ" run \
            --backend alsa --device rtjtjack --period 1024 --loads none,burn --warmup 0.3 --dsp ramp:10:0.25 --quiet \
            --json "$WORK/a.json" >"$WORK/a.out" 2>&1
        rc=$?
        python3 - "$WORK/a.json" >"$WORK/a.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print('backend', d['audio']['backend'], d['audio'].get('driver'))
for p in d['phases']:
    r = p.get('dsp_ramp') or {'steps': []}
    fm = r.get('first_miss_pct')
    ratios = [s['callback_pct'] / s['level_pct'] for s in r['steps'] if 10 <= s['level_pct'] <= 80 and s['failed'] == 0]
    inside = sum(0.85 <= x <= 1.15 for x in ratios)
    print(p['load'], 'first', fm if fm is not None else r.get('reached_pct', 0), 'from',
          r['steps'][0]['level_pct'] if r['steps'] else -1, 'n', len(ratios), 'inside', inside,
          'med', round(sorted(ratios)[len(ratios) // 2], 3) if ratios else 0,
          'min', round(min(ratios), 3) if ratios else 0, 'max', round(max(ratios), 3) if ratios else 0)
PY
        sed "s/^/# alsa, try $try: /" "$WORK/a.txt"
        [ "$rc" -eq 0 ] && awk '$1 == "none" && $3 >= 79.9 { f = 1 } END { exit !f }' "$WORK/a.txt" && break
    done
    check "ALSA ramp (jack PCM), loads none,burn: exits 0 (got $rc: $(head -c 160 "$WORK/a.out"))" [ "$rc" -eq 0 ]
    a() { awk -v l="$1" -v k="$2" '$1 == l { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' "$WORK/a.txt"; }
    check "ALSA ramp: the ALSA backend ran it ($(head -1 "$WORK/a.txt"))" grep -q '^backend alsa IOPLUG' "$WORK/a.txt"
    check "ALSA ramp: both loads ramped, each from 0 % (none from $(a none from), burn from $(a burn from))" \
        [ "$(a none from)" = 0.0 -a "$(a burn from)" = 0.0 ]
    # (>= 79.9: a level is the step's nominal share through the calibration, 80 % reads 79.99997)
    check "ALSA ramp, quiet: the first cycle whose work did not fit is at >= 80 % (got $(a none first))" \
        python3 -c "import sys; sys.exit(not $(a none first) >= 79.9)"
    # (the median within 8 % below and 20 % above (stolen time lengthens a callback: see the jackd check above), and all but one step within 15 %: another process's real-time thread on this shared
    # machine may stretch one step's callbacks, which is that step's truth, not a wrong level); 3 clean steps at least:
    # under burn on a very busy machine the ramp can fail from its 5th step on (seen: 4 clean, 0.99-1.02)
    for l in none burn; do
        check "ALSA ramp under $l: clean steps' callback time over the period is their level (median $(a $l med), $(a $l inside) of $(a $l n) steps within 15 %: $(a $l min)..$(a $l max))" \
            python3 -c "import sys; sys.exit(not ($(a $l n) >= 3 and 0.92 <= $(a $l med) <= 1.20 and $(a $l inside) >= $(a $l n) - 1))"
    done
    check "ALSA ramp: the verdict gives the headroom under each load" python3 -c "
import json, sys; s = json.load(open('$WORK/a.json'))['verdict']['summary']
sys.exit(not ('under none' in s and 'under burn' in s))"
    stop_jackd "$JACKD_PID"
else
    not_ok "private jackd $name did not start"
fi

# --- bad input ---
for bad in ramp:0 ramp:x 96 ramp:5:0; do
    "$RTJ" run --backend timer --dsp "$bad" --quiet >"$WORK/bad.out" 2>&1
    rc=$?
    check "--dsp $bad: exit 2 with one line (got $rc, $(wc -l <"$WORK/bad.out") lines)" \
        [ "$rc" -eq 2 -a "$(wc -l <"$WORK/bad.out")" -eq 1 ]
done
# A ramp misses deadlines on purpose: thresholds cannot judge it, and are refused (not silently dropped, which
# would let a package test pass on no judgement at all). Refused before anything is measured.
for lim in "--max-xruns 0" "--max-jitter-us 5000" "--min-deadlines-pct 1" "--max-wakeup-p99-us 1e6" "--profile live"; do
    "$RTJ" run --backend timer --loads none --dsp ramp $lim --tap --junit "$WORK/ramp.xml" >"$WORK/lim.out" 2>&1
    rc=$?
    named=0; grep -q -- "^rtjitter run: ${lim%% *} " "$WORK/lim.out" && named=1
    check "--dsp ramp $lim: exit 2 with one line naming ${lim%% *}, no JUnit file (got $rc: $(head -c 90 "$WORK/lim.out"))" \
        [ "$rc" -eq 2 -a "$(wc -l <"$WORK/lim.out")" -eq 1 -a "$named" = 1 -a ! -e "$WORK/ramp.xml" ]
done
