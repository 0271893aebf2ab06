#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-timeout: 300 (165-169 s in clean-clone rounds beside stress-ng, 180.7 s once: the 180 s default stopped it)
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
# report's own identity (independently of src/checks), in the order worth trying: the machine (governor,
# interrupts, swappiness), then boot options; RT throttling is never due here (no --dsp, no heavy load). A run
# without real-time scheduling gets none (tests/integration/privileges.sh): this one runs as root.
"$RTJ" run --server "$name" --loads none --duration 1 --warmup 0.3 --max-jitter-us 1 --quiet --output "$WORK/store" \
    --json "$WORK/f.json" >/dev/null 2>&1; rc=$?
check "--max-jitter-us 1: the verdict fails, exit 1 (got $rc)" \
    [ "$rc,$(json "$WORK/f.json" "d['verdict']['level']")" = "1,fail" ]
# The one order of advice (rtjitter(1), VERDICTS AND PROFILES; src/verdict/verdict_order.c): the server's settings come first: an audio thread
# real-time but below the interrupt threads (the highest of audio.irq_threads, or 50 without any; these and its
# policy and priority as server_sched.sh checks them against /proc) asks for the server's priority, and then never
# for threadirqs, which would put every interrupt thread above it; rtirq with it; then the governor (idle states
# and power), then the system's settings and kernel options.
want=$(json "$WORK/f.json" "(lambda low: ' '.join(i for i, due in (
    ('priority', low),
    ('rtirq', d['system']['kernel']['threadirqs'] is True and any(t['rt_priority'] <= 50
        for c in d['system']['sound']['cards'] for q in c.get('irqs', []) for t in q['threads'])),
    ('governor', d['system']['cpu']['governor'] not in (None, 'performance')),
    ('shared_irq', any(q['shared'] for c in d['system']['sound']['cards'] for q in c.get('irqs', []))),
    ('swappiness', (d['system']['memory']['swap_total_mib'] or 0) > 0 and (d['system']['memory']['swappiness'] or 0) > 10),
    ('threadirqs', d['system']['kernel']['threadirqs'] is False and d['system']['kernel']['preempt'] != 'rt' and not low),
    ('preempt', d['system']['kernel']['preempt'] in ('none', 'voluntary')),
    ('high_res_timers', d['system']['kernel']['high_res_timers'] is False)) if due))(
    d['audio']['sched_policy'] in ('SCHED_FIFO', 'SCHED_RR') and 0 <= (d['audio']['priority'] or -1) <
    ((d['audio']['irq_threads'] or {}).get('priority') if ((d['audio']['irq_threads'] or {}).get('count') or 0) > 0 else 50))")
got=$(json "$WORK/f.json" "' '.join(i for i in d['verdict']['advice_ids'] if i in ('priority', 'threadirqs', 'rtirq', 'preempt',
    'shared_irq', 'governor', 'high_res_timers', 'rt_throttling', 'swappiness'))")
echo "# system advice due: [$want], given: [$got]"
check "the run had real-time scheduling (as root)" [ "$(json "$WORK/f.json" "d['audio']['realtime']")" = True ]
check "the system advice is what this machine's identity calls for, in the one order of advice" [ "$got" = "$want" ]
check "a larger buffer comes last" [ "$(json "$WORK/f.json" "d['verdict']['advice_ids'][-1]")" = buffer ]

# --- a copied binary runs: the profiles are built in ------------------------------------------------
mkdir -p "$WORK/copy"
cp "$RTJ" "$WORK/copy/rtj"
(cd / && env -u RTJ_DATADIR "$WORK/copy/rtj" run --profile nope) >"$WORK/out" 2>&1
check "a copied binary lists the built-in profiles" grep -q 'unknown profile "nope" (available: live, studio; .*, and among those built in)' "$WORK/out"
# Where it looked must hold no live.json (an installed copy under the compiled-in PREFIX would), else the
# profile below might not be the built-in one.
found=$(sed -e 's/.*looked in //' -e 's/, and among those built in)$//' "$WORK/out" | tr ',' '\n' | sed 's/^ //' |
        while read -r d; do [ -f "$d/live.json" ] && echo "$d"; done)
(cd / && env -u RTJ_DATADIR "$WORK/copy/rtj" run --server "$name" --loads none --duration 0.5 --warmup 0.2 \
    --profile live --quiet --output "$WORK/store3" --json "$WORK/c.json") >"$WORK/out" 2>&1; rc=$?
ok_=0; [ "$rc" -le 1 ] && [ -s "$WORK/c.json" ] && ok_=1 # both: "check ... [ a ] && [ b ]" judged [ a ] alone
check "a copied binary runs with --profile live (exit $rc: $(head -1 "$WORK/out"))" [ "$ok_" = 1 ]
if [ -z "$found" ]; then
    check "its report records the live profile, built in (as data/profiles/live.json says)" \
        [ "$(json "$WORK/c.json" "d['profile']['name'], d['profile']['warn_period_ms']")" = "live $(json "$TOP/data/profiles/live.json" "d['warn_period_ms']")" ]
else
    ok "# SKIP the built-in profile: $found holds a live.json"
fi

# --- an installed copy finds its profiles under PREFIX/share/rtjitter, with its man page and completion ----
# make install of the binary under test (INSTALL_BIN): nothing is compiled (the default, ./rtjitter, was built from
# nothing in a clean clone's CI: 60 s of CPU beside the suite); it finds them from its own place (bin/../share), the
# DATADIR compiled into it being /usr/local's. BUILD of its own: the suite's BUILD=build-check is in the environment,
# and a make there would record other flags in build-check/flags (build_flavours saw it) and rebuild that tree
if [ "$(basename "$RTJ")" = rtjitter ] && make -C "$TOP" -s install BUILD="$WORK/ibuild" INSTALL_BIN="$(realpath "$RTJ")" \
        DESTDIR="$WORK/dest" PREFIX=/opt/rtj >"$WORK/install.log" 2>&1; then
    inst="$WORK/dest/opt/rtj/bin/rtjitter"
    (cd / && env -u RTJ_DATADIR "$inst" run --profile nope) >"$WORK/out" 2>&1
    check "installed: looks in ../share/rtjitter/profiles from the binary and finds live, studio" \
        grep -q "available: live, studio; looked in $WORK/dest/opt/rtj/bin/data/profiles, .*$WORK/dest/opt/rtj/bin/../share/rtjitter/profiles" "$WORK/out"
    (cd / && env -u RTJ_DATADIR "$inst" run --server "$name" --loads none --duration 0.5 --warmup 0.2 \
        --profile studio --quiet --output "$WORK/store2" --json "$WORK/i.json") >"$WORK/out" 2>&1; rc=$?
    check "installed: a run with --profile studio completes (exit $rc)" [ "$rc" -le 1 ]
    check "installed: its report records the studio profile" [ "$(json "$WORK/i.json" "d['profile']['name']")" = studio ]
    for f in share/rtjitter/profiles/studio.json share/rtjitter/profiles/live.json share/man/man1/rtjitter.1 \
             share/man/man5/rtjitter-report.5 share/bash-completion/completions/rtjitter share/doc/rtjitter/LICENSE; do
        check "installed: $f" [ -s "$WORK/dest/opt/rtj/$f" ]
    done
    check "installed: the LICENSE is the GPL version 2" grep -q "GNU GENERAL PUBLIC LICENSE" "$WORK/dest/opt/rtj/share/doc/rtjitter/LICENSE"
    # The packaging examples, as in the source tree (scripts executable), under share/rtjitter/examples.
    ex="$WORK/dest/opt/rtj/share/rtjitter/examples"
    for f in autopkgtest/debian/tests/control autopkgtest/debian/tests/headless autopkgtest/debian/tests/realtime \
             autopkgtest/debian/tests/rtjitter-run lava/rtjitter.yaml lava/rtjitter-lava.sh lava/job-qemu.yaml \
             lava/job-ssh.yaml; do
        same=0; cmp -s "$TOP/data/$f" "$ex/$f" && same=1
        xsrc=0; [ -x "$TOP/data/$f" ] && xsrc=1
        xdst=0; [ -x "$ex/$f" ] && xdst=1
        check "installed: examples/$f, the same as data/$f (executable: $xdst, as in the tree: $xsrc)" \
            [ "$same" = 1 -a "$xsrc" = "$xdst" ]
    done
    # The installed autopkgtest runs from where it was installed, with the installed binary.
    mkdir -p "$WORK/art"
    (cd / && env -u RTJ_DATADIR RTJITTER="$inst" AUTOPKGTEST_ARTIFACTS="$WORK/art" AUTOPKGTEST_TMP="$WORK/art" \
        RTJITTER_SERVER="$(server_name apt)" RTJITTER_LOADS=none RTJITTER_DURATION=0.5 RTJITTER_WARMUP=0.2 \
        "$ex/autopkgtest/debian/tests/headless") >"$WORK/apt.out" 2>&1; rc=$?
    check "installed: examples/autopkgtest headless runs the installed binary (exit $rc) and leaves its JUnit" \
        [ "$rc" -eq 0 -a -s "$WORK/art/rtjitter-junit.xml" ]
    make -C "$TOP" -s uninstall BUILD="$WORK/ibuild" DESTDIR="$WORK/dest" PREFIX=/opt/rtj >/dev/null 2>&1
    check "uninstall leaves no file" [ -z "$(find "$WORK/dest" -type f)" ]
else
    ok "# SKIP install test (RTJ=$RTJ is not the plain build, or make install failed: $(tail -1 "$WORK/install.log" 2>/dev/null))"
fi
