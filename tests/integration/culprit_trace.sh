#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: alone (a SCHED_FIFO thread spins 30 ms on CPU 1; it judges tracefs's global state, which any rtjitter run as root changes: it makes an instance, and mounts tracefs where it is not mounted)
# The trace source (src/culprit/src_trace.c) on this machine's real tracefs, as root, called directly as the
# culprit engine calls it (tests/helpers/trace_burst.c): a SCHED_FIFO 50 thread pinned to CPU 1 spins a 30 ms burst
# timed by its own clock_gettime (the truth; the source never sees it), and an audio thread at FIFO 40 on that CPU,
# due halfway through it, waits until it ends: the account of that wait must name the burst's tid with a time
# within 3 ms of the burst's own from the due time to its end (the trace counts from the waking, takes the
# interrupts out). Every tracefs setting must be as it
# was after close (the instance removed, a tracefs mounted by the source unmounted), and after a SIGKILL of the
# program and its guard the next open removes what they left (its instance and its mount point). SKIP lines say why
# where the machine cannot: not root, no tracefs, a tracepoint missing, one CPU.
. "$(dirname "$0")/../lib.sh"
H="$RTJ_HELPERS/trace_burst"

skip_all() { ok "# SKIP $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip_all "not root: the trace source needs root (or a tracefs the user may write)"
grep -qw tracefs /proc/filesystems || skip_all "this kernel has no tracefs"
[ "$(nproc)" -ge 2 ] || skip_all "one CPU: the burst needs a CPU of its own"

# The mounts of tracefs but rtjitter's private ones: a live process's is another test's (diagnose.sh mounts one for
# a moment), a dead one's is a leftover of a run killed earlier (run_lifecycle's SIGKILLs, on a machine where
# tracefs is not mounted), which the next open removes by design; ours are checked by name.
mounts() { awk '$3 == "tracefs" {print $2}' /proc/mounts | sort | while read -r m; do
    case $m in /run/rtjitter-tracefs-*) continue;; esac; echo "$m"; done; }
mounted() { awk '{print $2}' /proc/mounts | grep -qx "$1"; }
BEFORE_MOUNTS=$(mounts)
# A view of tracefs to look at: the system's, or one this test mounts (and unmounts) when none is mounted.
TFS=$(mounts | head -1)
OWN_MOUNT=""
if [ -z "$TFS" ]; then
    TFS="$WORK/tfs"; mkdir -p "$TFS"
    mount -t tracefs nodev "$TFS" || skip_all "tracefs cannot be mounted here"
    OWN_MOUNT=$TFS
fi
for e in sched/sched_switch irq/irq_handler_entry irq/irq_handler_exit; do
    [ -d "$TFS/events/$e" ] || { [ -n "$OWN_MOUNT" ] && umount "$OWN_MOUNT"; skip_all "the tracepoint $e is missing"; }
done
# The global settings, and the instances: what must be as it was (rtjitter's instances are left out as its mounts
# are, above: a live one is another test's, a dead one a leftover the next open removes; ours are checked by name)
state() { local t=$1 f n; for f in tracing_on trace_clock current_tracer buffer_size_kb set_event; do
    printf '%s: %s\n' "$f" "$(tr '\n' ' ' <"$t/$f")"; done
    ls "$t/instances" | sort | while read -r n; do
        case $n in rtjitter-*) continue;; esac; echo "$n"; done; }
state "$TFS" >"$WORK/state.before"
[ -n "$OWN_MOUNT" ] && umount "$OWN_MOUNT" # the source finds no tracefs mounted: it mounts its own
restore_view() { if [ -n "$OWN_MOUNT" ]; then mount -t tracefs nodev "$OWN_MOUNT"; fi; }
drop_view() { if [ -n "$OWN_MOUNT" ]; then umount "$OWN_MOUNT"; fi; }

# --- the burst ---------------------------------------------------------------------------------------------------
mkdir "$WORK/slices"
"$H" burst 1 30 - "$WORK/slices" >"$WORK/burst.out" 2>"$WORK/burst.err"; rc=$?
if [ "$rc" -eq 77 ]; then skip_all "$(sed -n 's/^SKIP //p' "$WORK/burst.out")"; fi
check "the burst program ran and explained (exit $rc)" [ "$rc" -eq 0 ]
TID=$(sed -n 's/^burst tid=\([0-9]*\) .*/\1/p' "$WORK/burst.out")
NS=$(sed -n 's/^burst .* held=\([0-9]*\)/\1/p' "$WORK/burst.out")
OBS=$(grep "^obs .* pid=$TID " "$WORK/burst.out" | head -1)
GOT=$(sed -n 's/.* value_ns=\([0-9]*\) .*/\1/p' <<<"$OBS")
echo "# burst tid $TID: its own clock from the due time to its end ${NS} ns, the trace ${GOT:-nothing} ns; one explain took $(sed -n 's/^explain_ns=//p' "$WORK/burst.out") ns"
check "the wait's account names the burst's tid as a real-time task on CPU 1" \
    grep -q "^obs kind=rt_task name=trace_burst pid=$TID cpu=1 " <<<"$OBS"
check "its time is within 3 ms of the burst's own (${GOT:-0} vs $NS ns)" \
    holds '[ -n "$GOT" ] && [ $(( GOT > NS ? GOT - NS : NS - GOT )) -le 3000000 ]'
check "its evidence line says who, the CPU, its time and the wait's" \
    grep -Eq "evidence=trace_burst \(pid $TID, real-time 50\) kept CPU 1 for [0-9.]+ ms of the audio thread's [0-9.]+ ms wait \(trace\)$" <<<"$OBS"
check "the summary: clock mono, read from the binary rings (trace_pipe_raw), one explain, explained" \
    grep -q '"clock":"mono".*"read":"trace_pipe_raw".*"explains":1, *"explained":1' "$WORK/burst.out"
check "the slice was saved, with the burst's segment" grep -q "trace_burst-$TID " "$WORK/slices/trace-01-cpu1.txt"
if [ -n "$OWN_MOUNT" ]; then
    check "tracefs was not mounted: the source mounted its own, privately" grep -q "mounted=1" "$WORK/burst.out"
fi
check "after close: the mounts of tracefs are as they were (now: $(mounts | tr '\n' ' '))" [ "$(mounts)" = "$BEFORE_MOUNTS" ]
BROOT=$(sed -n 's/^instance=[^ ]* root=\([^ ]*\) .*/\1/p' "$WORK/burst.out")
case $BROOT in /run/rtjitter-tracefs-*)
    check "after close: its mount point $BROOT is unmounted and gone" holds '! mounted "$BROOT" && [ ! -e "$BROOT" ]';; esac
restore_view
state "$TFS" >"$WORK/state.after"
check "after close: every setting and the instances are as they were" diff -u "$WORK/state.before" "$WORK/state.after"
BINST=$(sed -n 's/^instance=\([^ ]*\) .*/\1/p' "$WORK/burst.out")
check "after close: its own instance ($BINST) is gone" holds '[ -n "$BINST" ] && [ ! -e "$TFS/instances/$BINST" ]'
drop_view

# --- SIGKILL, then a new open ------------------------------------------------------------------------------------
"$H" hold - >"$WORK/hold.out" 2>&1 &
HOLD=$!
for i in $(seq 50); do grep -q '^instance=' "$WORK/hold.out" && break; sleep 0.1; done
read -r INST ROOT <<<"$(sed -n 's/^instance=\([^ ]*\) root=\([^ ]*\) .*/\1 \2/p' "$WORK/hold.out")"
# its guard (tracefs_guard.c) would remove the instance at once (trace_guard.sh): killed first, as a kill of every
# process would, the program's leftovers are the next open's to remove
GUARD=$(pgrep -P "$HOLD" -x rtjitter-guard)
check "the program has its guard (pid ${GUARD:-none})" [ -n "$GUARD" ]
[ -n "$GUARD" ] && kill -KILL "$GUARD"
kill -KILL "$HOLD"; wait "$HOLD" 2>/dev/null
check "the killed program and guard left its instance ($INST) behind" holds '[ -n "$INST" ] && [ -d "$ROOT/instances/$INST" ]'
"$H" open - >"$WORK/open.out" 2>&1; rc=$?
check "a new open after the SIGKILL succeeds (exit $rc)" [ "$rc" -eq 0 ]
case $ROOT in /run/rtjitter-tracefs-*)
    check "and unmounted and removed the dead program's mount point $ROOT" holds '! mounted "$ROOT" && [ ! -e "$ROOT" ]';; esac
OROOT=$(sed -n 's/^instance=[^ ]* root=\([^ ]*\) .*/\1/p' "$WORK/open.out")
case $OROOT in /run/rtjitter-tracefs-*)
    check "the new open's own mount point $OROOT is gone after it" holds '! mounted "$OROOT" && [ ! -e "$OROOT" ]';; esac
restore_view
check "the dead program's instance is gone from tracefs" [ ! -e "$TFS/instances/$INST" ]
state "$TFS" >"$WORK/state.end"
check "after the SIGKILL and a new open: every setting as it was" diff -u "$WORK/state.before" "$WORK/state.end"
drop_view
check "the mounts of tracefs are as they were (now: $(mounts | tr '\n' ' '))" [ "$(mounts)" = "$BEFORE_MOUNTS" ]
