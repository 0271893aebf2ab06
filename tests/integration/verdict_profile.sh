#!/bin/bash
# Verdicts and the system identity end to end: --profile is checked before anything starts (exit 2), the
# report records the profile and the running kernel's identity, the text opens with the verdict, and the
# profiles are found both from the source tree and from an installed copy (make install).
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}

# --- a wrong profile is bad usage, found at once ----------------------------------------------------
"$RTJ" run --profile nope --duration 0.5 >"$WORK/out" 2>&1; rc=$?
check "--profile nope: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "--profile nope: one line naming the profiles available" \
    grep -q '^rtjitter run: --profile: unknown profile "nope" (available: live, studio;' "$WORK/out"
check "--profile nope: no JACK server was started" [ "$(grep -c 'starting a private one' "$WORK/out")" -eq 0 ]

# --- a run judged by the live profile -----------------------------------------------------------------
name=$(server_name live)
start_jackd "$name" 48000 256 || not_ok "jackd starts"
"$RTJ" run --server "$name" --loads none --duration 1 --warmup 0.3 --profile live --output "$WORK/store" \
    --json "$WORK/r.json" >"$WORK/text" 2>&1; rc=$?
level=$(json "$WORK/r.json" "d['verdict']['level']")
echo "# exit $rc, verdict $level: $(json "$WORK/r.json" "d['verdict']['summary']")"
# With --profile the exit status follows the verdict: 1 exactly when it fails.
if [ "$level" = fail ]; then want=1; else want=0; fi
check "exit status follows the live verdict ($level: want $want, got $rc)" [ "$rc" -eq "$want" ]
check "report records the profile" [ "$(json "$WORK/r.json" "d['profile']['name'], d['verdict']['profile'], d['thresholds']['profile'], 'path' in d['profile']")" = "live live live False" ]
check "5.33 ms per period is within live's 5.4 ms: no period advice" \
    [ "$(json "$WORK/r.json" "'period' in d['verdict']['advice_ids']")" = False ]
check "text opens with the verdict for the live profile" \
    grep -Eq '^(PASS|WARN|FAIL) \(live profile\): At 256 frames at 48 kHz \(5.33 ms per period\)' "$WORK/text"
rel=$(uname -r)
check "system.kernel.release is this kernel ($rel)" [ "$(json "$WORK/r.json" "d['system']['kernel']['release']")" = "$rel" ]
src=$(json "$WORK/r.json" "d['system']['kernel']['config_source']")
if [ -r /proc/config.gz ]; then want_src=/proc/config.gz
elif [ -r "/boot/config-$rel" ]; then want_src="/boot/config-$rel"
else want_src=unknown; fi
check "config_source is where this kernel's config really is ($src)" [ "$src" = "$want_src" ]
check "the identity has preempt, hz, threadirqs, clocksource, rt_throttling, cpu threads" \
    [ "$(json "$WORK/r.json" "all(k in d['system']['kernel'] for k in ('preempt','hz','nohz','threadirqs','clocksource','rt_throttling','timer_migration','mitigations')) and d['system']['cpu']['threads'] >= 1")" = True ]
check "the report is in the store under the release" \
    [ "$(ls "$WORK/store/$rel/" | grep -c '^[0-9]\{8\}T[0-9]\{6\}Z\.json$')" -eq 1 ]
check "no temp file is left in the store" [ "$(ls -A "$WORK/store/$rel/" | grep -c tmp)" -eq 0 ]

# --- a failed run takes its system advice from the checks, judged on this machine's identity -----------
# --max-jitter-us 1 fails any run, so the system advice is given; which of it is due is worked out here from the
# report's own identity (independently of src/checks); RT throttling is never due here (no --dsp, no heavy load).
"$RTJ" run --server "$name" --loads none --duration 1 --warmup 0.3 --max-jitter-us 1 --quiet --output "$WORK/store" \
    --json "$WORK/f.json" >/dev/null 2>&1; rc=$?
check "--max-jitter-us 1: the verdict fails, exit 1 (got $rc)" \
    [ "$rc,$(json "$WORK/f.json" "d['verdict']['level']")" = "1,fail" ]
want=$(json "$WORK/f.json" "' '.join(i for i, due in (
    ('threadirqs', d['system']['kernel']['threadirqs'] is False and d['system']['kernel']['preempt'] != 'rt'),
    ('rtirq', d['system']['kernel']['threadirqs'] is True and any(t['rt_priority'] <= 50
        for c in d['system']['sound']['cards'] for q in c.get('irqs', []) for t in q['threads'])),
    ('preempt', d['system']['kernel']['preempt'] in ('none', 'voluntary')),
    ('shared_irq', any(q['shared'] for c in d['system']['sound']['cards'] for q in c.get('irqs', []))),
    ('governor', d['system']['cpu']['governor'] not in (None, 'performance')),
    ('high_res_timers', d['system']['kernel']['high_res_timers'] is False),
    ('swappiness', (d['system']['memory']['swap_total_mib'] or 0) > 0 and (d['system']['memory']['swappiness'] or 0) > 10)) if due)")
got=$(json "$WORK/f.json" "' '.join(i for i in d['verdict']['advice_ids'] if i in ('threadirqs', 'rtirq', 'preempt',
    'shared_irq', 'governor', 'high_res_timers', 'rt_throttling', 'swappiness'))")
echo "# system advice due: [$want], given: [$got]"
check "the system advice is what this machine's identity calls for, in the checks' order" [ "$got" = "$want" ]

# --- an installed copy finds its profiles under PREFIX/share/rtjitter --------------------------------
if [ "$(basename "$RTJ")" = rtjitter ] && make -C "$TOP" -s install DESTDIR="$WORK/dest" PREFIX=/opt/rtj \
        >"$WORK/install.log" 2>&1; then
    inst="$WORK/dest/opt/rtj/bin/rtjitter"
    (cd / && env -u RTJ_DATADIR "$inst" run --profile nope) >"$WORK/out" 2>&1
    check "installed: looks in PREFIX/share/rtjitter/profiles and finds live, studio" \
        grep -q "available: live, studio; looked in $WORK/dest/opt/rtj/bin/data/profiles, $WORK/dest/opt/rtj/bin/../share/rtjitter/profiles" "$WORK/out"
    (cd / && env -u RTJ_DATADIR "$inst" run --server "$name" --loads none --duration 0.5 --warmup 0.2 \
        --profile studio --quiet --output "$WORK/store2" --json "$WORK/i.json") >"$WORK/out" 2>&1; rc=$?
    check "installed: a run with --profile studio completes (exit $rc)" [ "$rc" -le 1 ]
    check "installed: its report records the studio profile" [ "$(json "$WORK/i.json" "d['profile']['name']")" = studio ]
else
    ok "# SKIP install test (RTJ=$RTJ is not the plain build, or make install failed: $(tail -1 "$WORK/install.log" 2>/dev/null))"
fi
