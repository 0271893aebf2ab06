#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The trace's guard (src/culprit/tracefs_guard.c), as root: a run with the trace that is SIGKILLed leaves nothing
# tracing. The observer is tracefs itself, read by this test: the run's instance instances/rtjitter-PID is there and
# tracing (tracing_on 1) while the run lives; within 2 s of the SIGKILL it is gone, and so is the tracefs the run
# mounted (/run/rtjitter-tracefs-PID, where tracefs was not mounted) and the guard process. A run that ends on its
# own, or on SIGINT, ends its guard too (no process left, no zombie). Both ways a run finds tracefs: not mounted
# (it mounts its own) and mounted; the test runs in a mount namespace of its own, so that it may unmount tracefs
# there without touching the machine's. SKIP lines say why where the machine cannot: not root, no tracefs.
if [ -z "${RTJ_TG_NS:-}" ] && [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
    unshare -m --propagation private true 2>/dev/null; then
    RTJ_TG_NS=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"

skip_all() { ok "# SKIP $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip_all "not root: the trace needs root (or a tracefs the user may write)"
grep -qw tracefs /proc/filesystems || skip_all "this kernel has no tracefs"
[ -n "${RTJ_TG_NS:-}" ] || skip_all "no mount namespace of its own (unshare -m) to unmount tracefs in"
# In this namespace only: no tracefs mounted (a debugfs's tracing/ neither).
for m in $(awk '$3 == "tracefs" || $3 == "debugfs" {print $2}' /proc/mounts | sort -r); do umount -l "$m"; done

mounted() { awk '{print $2}' /proc/mounts | grep -qx "$1"; }
# The run's instance directory: under a tracefs mounted on the system, or under the run's own mount.
inst_of() { local pid=$1 m
    for m in "/run/rtjitter-tracefs-$pid" $(awk '$3 == "tracefs" {print $2} $3 == "debugfs" {print $2 "/tracing"}' /proc/mounts); do
        [ -d "$m/instances/rtjitter-$pid" ] && { echo "$m/instances/rtjitter-$pid"; return 0; }
    done; return 1; }
guard_of() { pgrep -P "$1" -x rtjitter-guard | head -1; }
gone_within() { # SECONDS CONDITION: polls every 50 ms; prints the time it took
    local t0 i; t0=$(date +%s%N)
    for i in $(seq $(($1 * 20))); do
        if eval "$2"; then echo "$(( ($(date +%s%N) - t0) / 1000000 ))"; return 0; fi
        sleep 0.05
    done; return 1; }
# start_run SECONDS: a timer run with the trace (no JACK server needed); waits until its instance traces. Sets
# RPID, INST, GUARD.
start_run() {
    "$RTJ" run --backend timer --loads none --duration "$1" --warmup 0.3 --quiet --output "$WORK/store" \
        >"$WORK/run.out" 2>&1 &
    RPID=$!; INST=""; GUARD=""
    local i
    for i in $(seq 150); do
        INST=$(inst_of "$RPID") && [ "$(cat "$INST/tracing_on" 2>/dev/null)" = 1 ] && GUARD=$(guard_of "$RPID") &&
            [ -n "$GUARD" ] && return 0
        kill -0 "$RPID" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}
cleanup_run() { [ -n "${RPID:-}" ] && kill -KILL "$RPID" 2>/dev/null; wait 2>/dev/null; mounted "$WORK/tfs" && umount "$WORK/tfs"; cleanup_lib 2>/dev/null; }
trap cleanup_run EXIT

ended() { [ ! -e "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]; } # (a zombie: init's)

# --- SIGKILL, tracefs not mounted, then mounted -------------------------------------------------------------------
for where in unmounted mounted; do
if [ $where = mounted ]; then mkdir "$WORK/tfs"; mount -t tracefs nodev "$WORK/tfs"; fi
if ! start_run 30; then
    cat "$WORK/run.out"
    grep -q "tracefs" "$WORK/run.out" && skip_all "the run could not use the trace here"
    not_ok "$where: a run with the trace made its instance, tracing, and its guard within 15 s"; exit 0
fi
ok "$where: the run (pid $RPID) traces in $INST, its guard is pid $GUARD"
MNT="/run/rtjitter-tracefs-$RPID"
OWN_MOUNT=0; mounted "$MNT" && OWN_MOUNT=1
check "$where: the run mounted tracefs itself only where it was not mounted ($OWN_MOUNT)" \
    [ "$OWN_MOUNT" = "$([ $where = unmounted ] && echo 1 || echo 0)" ]
check "the guard holds no file of the run's (only /dev/null and its pipe: $(ls -l /proc/"$GUARD"/fd | awk 'NR>1 {print $NF}' | sort -u | tr '\n' ' '))" \
    holds '! ls -l /proc/$GUARD/fd | awk "NR>1 {print \$NF}" | grep -qv "^/dev/null$\|^pipe:"'
check "the guard is in a session of its own (a Ctrl-C or a kill of the run's group does not reach it)" \
    [ "$(ps -o sid= -p "$GUARD" | tr -d ' ')" = "$GUARD" ]
kill -KILL "$RPID"; wait "$RPID" 2>/dev/null
ms=$(gone_within 2 '[ ! -e "$INST" ]')
check "SIGKILL: the instance $INST is gone within 2 s (${ms:-not} ms)" [ -n "$ms" ]
if [ "$OWN_MOUNT" = 1 ]; then
    ms=$(gone_within 2 '! mounted "$MNT" && [ ! -e "$MNT" ]')
    check "SIGKILL: the tracefs the run mounted ($MNT) is unmounted and gone within 2 s (${ms:-not} ms)" [ -n "$ms" ]
fi
ms=$(gone_within 2 'ended "$GUARD"')
check "SIGKILL: the guard (pid $GUARD) ended with its work (${ms:-not} ms)" [ -n "$ms" ]
RPID=""
done

# --- a run that ends on its own, and one stopped by SIGINT -------------------------------------------------------
for how in end int; do
    if ! start_run 2; then not_ok "$how: the run started tracing"; continue; fi
    if [ $how = int ]; then kill -INT "$RPID"; fi
    wait "$RPID"; rc=$?
    want=0; [ $how = int ] && want=3
    check "$how: the run exits $want (got $rc)" [ "$rc" -eq $want ]
    check "$how: its guard (pid $GUARD) is gone, reaped (no zombie)" [ ! -e "/proc/$GUARD" ]
    check "$how: its instance is gone" [ ! -e "$INST" ]
    RPID=""
done
