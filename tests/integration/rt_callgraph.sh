#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# test-fill: tail (a compile of the RT files and two Python walks: no real-time thread, nothing timed)
# The RT contract (tests/README.md, "The RT contract"), checked on the call graph: the RT code is compiled with make
# check's hardened flags and gcc's -fcallgraph-info, and the graph is walked from the RT entry points (the callbacks
# given to libjack, the thread bodies given to rt_thread_start, every function whose comment says RT-safe;
# tests/helpers/rt_callgraph.py says how they are found and which files are compiled). Every function the walk
# reaches is ours, and walked in turn, or on tests/rt_callgraph.allow with its reason; anything else (allocation, a
# lock, stdio, any other system call, a call through a function pointer) fails with its path from the entry point.
# Twice: with -fno-inline (each helper a function of its own: a path names every one, and each function marked
# RT-safe is checked apart) and as built (-O2's inlining: the external calls the binary itself makes, e.g. FORTIFY's
# __memcpy_chk where the inlined size is known). Then the fixtures in tests/fixtures/rt_callgraph/ show that it
# fails: malloc, printf and pthread_mutex_lock behind a static helper, an unresolved indirect call, a function
# marked Not RT-safe, an allowed call from outside its scope, a call into src/ (followed there: snprintf); and that
# it passes a fixture that calls only what the allowlist allows. No server, nothing timed: a few compiles of a handful of files.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
case ${BUILD:-build} in /*) OBJ=${BUILD} ;; *) OBJ=$TOP/${BUILD:-build} ;; esac
ALLOW=$TOP/tests/rt_callgraph.allow
WALK=$TOP/tests/helpers/rt_callgraph.py
FIX=tests/fixtures/rt_callgraph
harden() { DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"; }

# The Makefile's own flags for an object (include paths, defines, -std, warnings, -Werror), then make check's hardening.
mkflags=$(make -s -C "$TOP" --no-print-directory BUILD="$WORK/probe" WERROR=1 \
    --eval 'rtj-callgraph-flags: ; $(info $(RTJ_CPPFLAGS) $(RTJ_CFLAGS))' rtj-callgraph-flags)
# No -g: debug information changes no call (and costs half the compile time).
eval "cc=(gcc $mkflags $(harden CPPFLAGS) $(harden CFLAGS | sed 's/^-g //; s/ -g / /; s/ -g$//'))"
if ! gcc -fcallgraph-info -x c -c -o "$WORK/probe.o" /dev/null 2>"$WORK/probe.err"; then
    not_ok "gcc has no -fcallgraph-info (gcc 10 or later): $(head -1 "$WORK/probe.err")"
    exit 1
fi

walk() { # NAME ARGS...: one walk in the background (a CPU each at most), its output in $WORK/NAME.out, its exit
    # status in $WORK/NAME.rc
    local n=$1
    shift
    while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
    { python3 "$WALK" --top "$TOP" --objects "$OBJ" --work "$WORK/$n" --jobs 1 "$@" -- "${cc[@]}" \
        >"$WORK/$n.out" 2>&1; echo $? >"$WORK/$n.rc"; } &
}

# ---- the tree ----
walk tree --allow "$ALLOW"
walk built --allow "$ALLOW" --as-built
# ---- the fixtures: each must be rejected, naming its path ----
printf '%s\n' "$(cat "$ALLOW")" \
    "__indirect_call@$FIX/rt_indirect.c:fixture_run this test's own line: the fixture's pointer is named, so it passes" \
    >"$WORK/indirect.allow"
for f in "$FIX"/rt_*.c; do
    n=$(basename "$f" .c)
    walk "$n" --allow "$ALLOW" --src "$f"
    walk "$n-built" --allow "$ALLOW" --src "$f" --as-built
done
walk rt_indirect-named --allow "$WORK/indirect.allow" --src "$FIX/rt_indirect.c"
wait

for n in tree built; do
    rc=$(cat "$WORK/$n.rc")
    if [ "$n" = built ]; then grep -v '^# entry ' "$WORK/$n.out"; else cat "$WORK/$n.out"; fi
    grep -q '^ok - \|^not ok - ' "$WORK/$n.out" || not_ok "the walk ($n) ended without a verdict (exit $rc): $(tail -1 "$WORK/$n.out")"
    nf=$(grep -c '^not ok - ' "$WORK/$n.out")
    check "the walk ($n) exits 1 exactly when it printed a failure (exit $rc, $nf failures)" \
        [ "$((nf > 0))" -eq "$((rc != 0))" ]
done
check "the walk found the RT entry points of the three backends and the loopback's JACK client" \
    [ "$(grep -cE "^# entry (process_cb|jlb_process|alsa_thread|timer_thread) \(" "$WORK/tree.out")" -eq 4 ]

rejects() { # NAME "TEXT": the fixture's walk failed, and said TEXT in one of its not ok lines
    local n=$1 text=$2 rc
    rc=$(cat "$WORK/$n.rc")
    if [ "$rc" -ne 0 ] && grep '^not ok - ' "$WORK/$n.out" | grep -qF -- "$text"; then
        ok "$n: rejected: $text"
    else
        not_ok "$n: not rejected with '$text' (exit $rc)"
        sed 's/^/#   /' "$WORK/$n.out"
    fi
}
rejects rt_malloc 'calls malloc (allocation): process -> grab -> malloc at'
rejects rt_malloc-built 'calls malloc (allocation): process -> malloc at'
rejects rt_printf 'calls __printf_chk (stdio or file I/O): fixture_cycle -> say -> __printf_chk at'
rejects rt_printf-built 'calls __printf_chk (stdio or file I/O): fixture_cycle -> __printf_chk at'
rejects rt_lock 'calls pthread_mutex_lock (lock): fixture_thread -> take -> pthread_mutex_lock at'
rejects rt_lock-built 'calls pthread_mutex_lock (lock): fixture_thread -> pthread_mutex_lock at'
rejects rt_indirect 'calls __indirect_call (a call through a function pointer (unresolved)): fixture_run -> __indirect_call'
rejects rt_indirect-built 'calls __indirect_call (a call through a function pointer (unresolved)): fixture_run -> __indirect_call'
rejects rt_notsafe 'reaches a function marked Not RT-safe (rtaudio/rtclock.h:29): process -> mono_nap_ms'
rejects rt_notsafe 'calls nanosleep (system call): process -> mono_nap_ms -> nanosleep at'
rejects rt_notsafe-built 'calls nanosleep (system call): process -> nanosleep at'
rejects rt_follow 'calls __snprintf_chk (not on the allowlist): process -> num_human -> __snprintf_chk at'
rejects rt_follow-built 'calls __snprintf_chk (not on the allowlist): process -> num_human -> __snprintf_chk at'
check "rt_follow: the walk followed num_human into src/util/numfmt.c, found by its object in the build" \
    grep -q '^# compiled 2 files .*: src/util/numfmt.c, tests/fixtures/rt_callgraph/rt_follow.c$' "$WORK/rt_follow.out"
rejects rt_scope 'calls clock_nanosleep (not on the allowlist: allowed only from rtaudio/timer/timer_loop.c:sleep_until'
rejects rt_scope-built 'calls clock_nanosleep (not on the allowlist: allowed only from'
for n in rt_ok rt_ok-built rt_indirect-named; do
    check "$n: accepted (exit $(cat "$WORK/$n.rc"))" [ "$(cat "$WORK/$n.rc")" -eq 0 ]
    [ "$(cat "$WORK/$n.rc")" -eq 0 ] || sed 's/^/#   /' "$WORK/$n.out"
done
check "every allowlist line has a reason" [ -z "$(grep -vE '^(#|$)' "$ALLOW" | awk 'NF < 2')" ]
