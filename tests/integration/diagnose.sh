#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# `rtjitter diagnose`. This machine's kernel has no timerlat tracer (its tracers: blk function nop), so rtla is a
# stand-in (tests/helpers/rtla-standin, in PATH) printing rtla's own formats with values this test chose, and
# --tracefs points at a fake tracefs tree listing timerlat. Checked: the command run (-q -d, -a THRESHOLD only
# where the rtla's help offers --auto), the figures in --json read back as the stand-in printed them, exit 1
# when the threshold was hit (the auto-analysis names the blocking thread), 0 when not, 3 when rtla fails, 4 with
# one line why where it is not available (no timerlat, no rtla), 2 for bad usage; and on this machine's real
# tracefs, the one-line "no timerlat tracer" and no tracefs mount left behind.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
mkdir -p "$WORK/bin" "$WORK/tfs/instances" "$WORK/nort/instances"
ln -s "$TOP/tests/helpers/rtla-standin" "$WORK/bin/rtla"
: >"$WORK/tfs/trace"; : >"$WORK/nort/trace"
echo "timerlat osnoise hwlat function nop" >"$WORK/tfs/available_tracers"
echo "blk function nop" >"$WORK/nort/available_tracers"
export STANDIN_LOG="$WORK/rtla.log"
diag() { PATH="$WORK/bin:$PATH" "$RTJ" diagnose "$@"; }

if [ "$(id -u)" -eq 0 ]; then
    # --- the summary, with the auto-analysis (rtla 6.6) ------------------------------------------------------------
    diag --tracefs "$WORK/tfs" -d 2 --json "$WORK/a.json" >"$WORK/a.out" 2>"$WORK/a.err"; rc=$?
    check "no latency over the threshold: exit 0 (got $rc)" [ "$rc" -eq 0 ]
    check "rtla was run as 'timerlat top -q -d 2s -a 100'" grep -qx "timerlat top -q -d 2s -a 100" "$WORK/rtla.log"
    check "the JSON is rtjitter.diagnose/1, rtla 6.6.0 with the auto-analysis" \
        [ "$(json "$WORK/a.json" "d['schema'], d['available'], d['rtla']['version'], d['rtla']['auto_analysis'], d['tracefs'] == '$WORK/tfs'")" = "rtjitter.diagnose/1 True 6.6.0 True True" ]
    check "its figures are the stand-in's: CPU 1 thread max 131 us, CPU 0 IRQ max 22, ALL count 4001" \
        [ "$(json "$WORK/a.json" "d['summary']['unit'], [(c['cpu'], c['count'], c['irq']['max'], c['thread']['max']) for c in d['summary']['cpus']], d['summary']['all']['count'], d['summary']['all']['thread']['avg']")" = "us [(0, 2001, 22, 45), (1, 2000, 17, 131)] 4001 6" ]
    check "the summary's lines are kept (header, two CPUs, the split, ALL)" \
        [ "$(json "$WORK/a.json" "len(d['summary']['lines'])")" -eq 7 ]
    check "the text says the largest latencies" grep -q "^timer latency: thread at most 131 us (CPU 1), IRQ at most 22 us (CPU 0), on 2 CPUs$" "$WORK/a.out"
    check "and rtla's own table, unchanged" grep -q "^  1 #2000      |        3         1         2        17 |        9         3         8       131$" "$WORK/a.out"
    check "nothing on stderr" [ ! -s "$WORK/a.err" ]

    # --- the threshold hit: the auto-analysis -----------------------------------------------------------------
    : >"$WORK/rtla.log"
    STANDIN_HIT=1 diag --tracefs "$WORK/tfs" -d 3 --threshold 120 --json "$WORK/h.json" >"$WORK/h.out" 2>&1; rc=$?
    check "the threshold was hit: exit 1 (got $rc)" [ "$rc" -eq 1 ]
    check "rtla was run with -a 120" grep -qx "timerlat top -q -d 3s -a 120" "$WORK/rtla.log"
    check "the auto-analysis in JSON: CPU 1, blocking thread stress-ng-cpu pid 4242 101.33 us, idle 12.04 us on CPU 0" \
        [ "$(json "$WORK/h.json" "(lambda a: (a['cpu'], a['blocking_thread']['comm'], a['blocking_thread']['pid'], a['blocking_thread']['us'], a['idle_max']['us'], a['idle_max']['cpu'], d['summary']['stopped']))(d['summary']['auto_analysis'])")" = "1 stress-ng-cpu 4242 101.33 12.04 0 True" ]
    check "the text names the largest part and the blocking thread" \
        grep -q "^auto-analysis: CPU 1 reached the 120 us threshold; its largest part: Blocking thread 101.33 us (77.3 %); blocking thread stress-ng-cpu (pid 4242)$" "$WORK/h.out"

    # --- an rtla without the auto-analysis (Debian 12's 6.1) ----------------------------------------------------
    : >"$WORK/rtla.log"
    STANDIN_VERSION=6.1 STANDIN_HIT=1 diag --tracefs "$WORK/tfs" -d 2 --json "$WORK/o.json" >"$WORK/o.out" 2>&1; rc=$?
    check "rtla 6.1: exit 0, run without -a" holds '[ "$rc" -eq 0 ] && grep -qx "timerlat top -q -d 2s" "$WORK/rtla.log"'
    check "rtla 6.1: it says the summary only, and why" grep -q "this rtla has no auto-analysis (rtla 6.3 and later have it)" "$WORK/o.out"
    check "rtla 6.1: JSON threshold null, auto_analysis false" \
        [ "$(json "$WORK/o.json" "d['threshold_us'], d['rtla']['auto_analysis'], d['rtla']['version']")" = "None False 6.1" ]
    RTJ_TRACEFS="$WORK/tfs" diag -d 2 --threshold 0 >"$WORK/e.out" 2>&1; rc=$?
    check "RTJ_TRACEFS is read; --threshold 0: no -a (exit $rc)" holds '[ "$rc" -eq 0 ] && tail -1 "$WORK/rtla.log" | grep -qx "timerlat top -q -d 2s"'

    # --- rtla fails -------------------------------------------------------------------------------------------
    STANDIN_FAIL=1 diag --tracefs "$WORK/tfs" -d 2 >"$WORK/f.out" 2>"$WORK/f.err"; rc=$?
    check "rtla failing: exit 3 with one line, rtla's words shown (got $rc)" \
        holds '[ "$rc" -eq 3 ] && grep -q "rtla needs root permission" "$WORK/f.out" && [ "$(wc -l <"$WORK/f.err")" -eq 1 ]'
else
    ok "# SKIP the stand-in runs: rtjitter diagnose needs root (not root here)"
fi

# --- not available ------------------------------------------------------------------------------------------------
diag --tracefs "$WORK/nort" --json "$WORK/n.json" >"$WORK/n.out" 2>&1; rc=$?
check "no timerlat tracer: exit 4 (got $rc)" [ "$rc" -eq 4 ]
check "in one line, saying why" [ "$(cat "$WORK/n.out")" = "rtjitter diagnose: not available: this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER is off, as in Debian's kernels; Ubuntu's and Fedora's have it): its tracers are blk function nop" ]
check "the JSON says so" [ "$(json "$WORK/n.json" "d['available'], d['why'][:34]")" = "False this kernel has no timerlat tracer" ]
if [ "$(id -u)" -eq 0 ]; then
    PATH="/usr/bin:/bin" "$RTJ" diagnose --tracefs "$WORK/tfs" >"$WORK/r.out" 2>&1; rc=$?
    check "no rtla in PATH: exit 4 and how to get it (got $rc)" \
        holds '[ "$rc" -eq 4 ] && grep -qx "rtjitter diagnose: not available: rtla is not installed (Debian and Ubuntu: apt install rtla; Fedora: dnf install rtla)" "$WORK/r.out" || command -v rtla >/dev/null'
    diag -d 2 >"$WORK/m.out" 2>&1 &
    DPID=$!
    wait "$DPID"; rc=$?
    if grep -qw timerlat "$WORK/m.out" && [ "$rc" -ne 4 ]; then
        ok "# SKIP this machine has timerlat: the stand-in ran on the real tracefs (exit $rc)"
    else
        check "this machine's real tracefs: exit 4, one line (got $rc)" holds '[ "$rc" -eq 4 ] && [ "$(wc -l <"$WORK/m.out")" -eq 1 ]'
    fi
    # (where tracefs was not mounted, diagnose mounted it on /run/rtjitter-tracefs-PID to read available_tracers)
    check "no tracefs mount of its own left behind" \
        holds '! awk '\''{print $2}'\'' /proc/mounts | grep -qx "/run/rtjitter-tracefs-$DPID" && [ ! -e "/run/rtjitter-tracefs-$DPID" ]'
fi

# --- bad usage ---------------------------------------------------------------------------------------------------
diag --duration soon >"$WORK/b.out" 2>&1; rc=$?
check "a bad --duration: exit 2 (got $rc)" [ "$rc" -eq 2 ]
diag --tracefs "$WORK/none" >"$WORK/b2.out" 2>&1; rc=$?
check "--tracefs not a tracefs: exit 2, one line (got $rc)" holds '[ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/b2.out")" -eq 1 ]'
diag --tracefs "$WORK/tfs" --json "$WORK/nodir/x.json" >"$WORK/b3.out" 2>&1; rc=$?
check "--json where it cannot be written: exit 2 before anything runs (got $rc)" [ "$rc" -eq 2 ]
diag --help >"$WORK/help.out"; rc=$?
check "--help: exit 0, lists --threshold and --tracefs" holds '[ "$rc" -eq 0 ] && grep -q -- "--threshold" "$WORK/help.out" && grep -q -- "--tracefs" "$WORK/help.out"'
